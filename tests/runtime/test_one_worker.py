"""Issue 17, item 3 and the stop: one worker per SQLite file, unique worker names, a clean
SIGTERM. Real ``forumbot run`` processes on a loopback SMF forum and one SQLite file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select

from forumbot.clock import SystemClock
from forumbot.db.models import Game
from tests.runtime.smf_forum import SMFTestForum
from tests.runtime.test_run_errors import PASSWORD_ENV, forumbot, game_file

pytestmark = pytest.mark.skipif(os.name != "posix", reason="signals and file locks")

# forumbot's own CLI in a child process, a --once waiting 2 s for the worker lock instead of
# its 30 s (ONCE_WAIT): how long it waits is not what the overlap test asserts.
SHORT_ONCE_WAIT = ("-c", "import sys, forumbot.commands.runtime as r; r.ONCE_WAIT = 2.0; "
                   "from forumbot.cli import main; sys.argv[0] = 'forumbot'; main()")  # fmt: skip


@pytest.fixture
def forum() -> Iterator[SMFTestForum]:
    with SMFTestForum(SystemClock()) as forum:
        forum.add_post("GameMaster", "<b>Night 1</b> begins. Send your orders.")
        yield forum


def _worker(tmp_path: Path, game: Path) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "PYTHONFAULTHANDLER": "1",
        "XDG_DATA_HOME": str(tmp_path / "data"),
        PASSWORD_ENV: "pw",
    }
    command = [sys.executable, "-m", "forumbot", "run", "--database",
               f"sqlite:///{tmp_path / 'fb.sqlite3'}", str(game)]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, cwd=tmp_path)  # fmt: skip


def _wait_polled(forum: SMFTestForum, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while not any(pm["to"] == "Ann" for pm in forum.data.sent):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the worker never answered the PM"
        time.sleep(0.2)


def _stop(proc: subprocess.Popen[str], *signals: signal.Signals) -> tuple[int, str]:
    for sig in signals:
        proc.send_signal(sig)
        time.sleep(0.05)
    _out, err = proc.communicate(timeout=60)
    return proc.returncode, err


def _lease_owner(tmp_path: Path) -> str | None:
    engine = create_engine(f"sqlite:///{tmp_path / 'fb.sqlite3'}")
    with engine.connect() as connection:
        owner = connection.scalar(select(Game.lease_owner))
    engine.dispose()
    return owner


def test_a_second_worker_on_one_sqlite_file_is_refused(tmp_path: Path, forum: SMFTestForum) -> None:
    game = game_file(tmp_path, forum.base_url)
    forum.add_pm("Ann", "N1", "check Zed")
    first = _worker(tmp_path, game)
    try:
        _wait_polled(forum, first)
        second = _worker(tmp_path, game)
        _out, err = second.communicate(timeout=60)
        assert second.returncode == 2, err
        assert "another forumbot worker" in err and str(first.pid) in err
        assert "Traceback" not in err
        once = forumbot(tmp_path, str(game), program=SHORT_ONCE_WAIT)  # cron overlapping it
        assert once.returncode == 0, once.stderr
        assert "already running" in once.stderr and "Traceback" not in once.stderr
    finally:
        code, err = _stop(first, signal.SIGTERM)
    assert code == 0 and "Traceback" not in err and "worker.stop" in err, err
    receipts = [pm for pm in forum.data.sent if pm["to"] == "Ann"]
    assert len(receipts) == 1
    assert _lease_owner(tmp_path) is None, "a clean stop hands its games back"


def test_sigterm_twice_stops_cleanly(tmp_path: Path, forum: SMFTestForum) -> None:
    game = game_file(tmp_path, forum.base_url)
    forum.add_pm("Ann", "N1", "check Zed")
    proc = _worker(tmp_path, game)
    _wait_polled(forum, proc)
    code, err = _stop(proc, signal.SIGTERM, signal.SIGTERM, signal.SIGTERM)
    assert code == 0 and "Traceback" not in err, err


def test_sigterm_during_start_is_clean(tmp_path: Path, forum: SMFTestForum) -> None:
    proc = _worker(tmp_path, game_file(tmp_path, forum.base_url))
    deadline = time.monotonic() + 60
    while not (tmp_path / "fb.sqlite3").exists():  # migrating, registering, logging in
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.01)
    code, err = _stop(proc, signal.SIGTERM)
    assert code in (0, 1) and "Traceback" not in err, err


def test_worker_names_are_unique_per_process(tmp_path: Path, forum: SMFTestForum) -> None:
    game = str(game_file(tmp_path, forum.base_url))
    owners = set()
    for _ in range(2):
        done = forumbot(tmp_path, game, "--log-json")
        assert done.returncode == 0, done.stderr
        owners |= {line.split('"worker": "')[1].split('"')[0]
                   for line in done.stderr.splitlines() if '"worker": "' in line}  # fmt: skip
    assert len(owners) == 2, owners
    assert _lease_owner(tmp_path) is None, "run --once hands its games back at the end"
