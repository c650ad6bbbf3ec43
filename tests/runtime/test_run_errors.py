"""``forumbot run`` through the real CLI on a loopback SMF forum: every failure is one clear
sentence and a non-zero exit, never a traceback, and nothing read is lost."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import create_engine, func, select

from forumbot.clock import SystemClock
from forumbot.db.models import RawPost
from tests.runtime.conftest import GAME
from tests.runtime.smf_forum import SMFTestForum

PASSWORD_ENV = "FB_TEST_PW"
ONE_HOUR = timedelta(hours=1)


@pytest.fixture
def forum() -> Iterator[SMFTestForum]:
    with SMFTestForum(SystemClock()) as forum:
        forum.add_post("GameMaster", "<b>Night 1</b> begins. Send your orders.")
        forum.add_post("Ann", "hello all")
        forum.add_pm("Ann", "N1", "check Zed")
        yield forum


def game_file(tmp_path: Path, base_url: str, ruleset: str = "failheap") -> Path:
    """The runtime tests' game on an SMF forum at ``base_url``, in its first night."""
    text = GAME.replace('"http://127.0.0.1:9/index.php?topic=5.0", engine: file',
                        f'"{base_url}?topic=5.0", engine: smf')  # fmt: skip
    text = text.replace("password_env: UNUSED", f"password_env: {PASSWORD_ENV}")
    text = text.replace("MODE", "auto").replace("ruleset: failheap", f"ruleset: {ruleset}")
    # The night began an hour ago on the real clock, its orders close in 22 hours: no reminder
    # (three hours before) and no deadline falls inside a test, whatever the date it runs on.
    start = datetime.now(ZoneInfo("Europe/Paris")).replace(second=0, microsecond=0) - ONE_HOUR
    text = text.replace("start: 2026-12-01 22:00", f"start: {start:%Y-%m-%d %H:%M}")
    text = text.replace('orders: "19:00"', f'orders: "{start - ONE_HOUR:%H:%M}"')
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def forumbot(
    tmp_path: Path,
    *args: str,
    password: str | None = "pw",
    database: str | None = None,
    preexec: Callable[[], None] | None = None,
    program: tuple[str, ...] = ("-m", "forumbot"),
) -> subprocess.CompletedProcess[str]:
    """``forumbot run --once`` in a child process, its data folder under ``tmp_path``
    (``program``: how Python starts forumbot there)."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    env.pop(PASSWORD_ENV, None)
    if password is not None:
        env[PASSWORD_ENV] = password
    database = database or f"sqlite:///{tmp_path / 'fb.sqlite3'}"
    command = [sys.executable, *program, "run", "--once", "--database", database, *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=180,
                          preexec_fn=preexec, check=False, cwd=tmp_path)  # fmt: skip


def _clear_failure(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode != 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("Error: "), done.stderr
    for word in words:
        assert word in done.stderr, done.stderr


def _stored_posts(tmp_path: Path) -> int:
    engine = create_engine(f"sqlite:///{tmp_path / 'fb.sqlite3'}")
    with engine.connect() as connection:
        count = connection.scalar(select(func.count()).select_from(RawPost))
    engine.dispose()
    return int(count or 0)


def test_a_refused_login_fails_the_once_run(tmp_path: Path, forum: SMFTestForum) -> None:
    done = forumbot(tmp_path, str(game_file(tmp_path, forum.base_url)), password="wrong")
    _clear_failure(done, "Password incorrect", "test-village")


def test_an_unset_password_fails_the_once_run(tmp_path: Path, forum: SMFTestForum) -> None:
    done = forumbot(tmp_path, str(game_file(tmp_path, forum.base_url)), password=None)
    _clear_failure(done, PASSWORD_ENV)


def test_a_forum_that_is_down_fails_the_once_run(tmp_path: Path) -> None:
    done = forumbot(tmp_path, str(game_file(tmp_path, "http://127.0.0.1:1/index.php")))
    _clear_failure(done, "unavailable")


def test_an_unknown_ruleset_is_refused_before_any_request(
    tmp_path: Path, forum: SMFTestForum
) -> None:
    before = forum.data.requests
    done = forumbot(tmp_path, str(game_file(tmp_path, forum.base_url, ruleset="nosuchrules")))
    assert done.returncode == 2
    _clear_failure(done, "ruleset", "nosuchrules")
    assert forum.data.requests == before, "run polled the forum for a game it cannot play"


def test_a_full_disk_is_one_sentence_and_loses_nothing(tmp_path: Path, forum: SMFTestForum) -> None:
    game = str(game_file(tmp_path, forum.base_url))
    first = forumbot(tmp_path, game)
    assert first.returncode == 0, first.stderr
    stored = _stored_posts(tmp_path)
    forum.add_post("Bob", "<b>vote Ann</b>")

    def full_disk() -> None:  # any write past 4 KiB fails, as on a full disk
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    _clear_failure(forumbot(tmp_path, game, preexec=full_disk), "database", "disk")
    assert _stored_posts(tmp_path) == stored
    again = forumbot(tmp_path, game)
    assert again.returncode == 0, again.stderr
    assert _stored_posts(tmp_path) == stored + 1


def test_a_read_only_database_is_one_sentence(tmp_path: Path, forum: SMFTestForum) -> None:
    game = str(game_file(tmp_path, forum.base_url))
    assert forumbot(tmp_path, game).returncode == 0
    read_only = f"sqlite:///file:{tmp_path / 'fb.sqlite3'}?mode=ro&uri=true"
    _clear_failure(forumbot(tmp_path, game, database=read_only), "database", "read")
    assert not (tmp_path / "file:").exists(), "a folder named after the URI was created"
