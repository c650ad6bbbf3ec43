"""Issue 17, item 4: the same game on a fresh database (a wrong --database, a lost DB).

The new database re-reads the inbox and the thread from the start. Nothing older than its
own start of the game is sent before the forum was checked: a receipt already in the sent
box is not sent again. A game started on one database says so when run against another.
"""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from forumbot.db import upgrade
from forumbot.services import games
from tests.hostile.conftest import Hostile, start_hostile
from tests.runtime.test_game_http import http_runtime


def _receipts(hostile: Hostile) -> list[tuple[str, str]]:
    return [(pm["to"], pm["subject"]) for pm in hostile.forum.data.sent if pm["to"] != "GameMaster"]


def _fresh(hostile: Hostile, tmp_path: Path) -> Hostile:
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    upgrade(url)
    rt = http_runtime(url, hostile.forum, hostile.clock, "w2")
    game_id = games.register(rt, tmp_path / "game.yaml")
    games.start(rt, game_id)
    return Hostile(rt, hostile.forum, game_id, hostile.clock, hostile.data_dir)


def test_a_lost_database_sends_no_receipt_twice(tmp_path: Path) -> None:
    from forumbot.clock import SystemClock
    from tests.runtime.smf_forum import SMFTestForum
    from tests.runtime.test_run_errors import forumbot, game_file

    with SMFTestForum(SystemClock()) as forum:
        forum.add_post("GameMaster", "<b>Night 1</b> begins.")
        game = str(game_file(tmp_path, forum.base_url))
        assert forumbot(tmp_path, game).returncode == 0  # the game starts on fb.sqlite3
        forum.add_pm("Ann", "N1 check", "check Zed")
        forum.add_pm("Bob", "N1 heal", "heal Ann")
        for pm in forum.data.inbox:  # sent two minutes ago (forums show the minute)
            pm["at"] -= timedelta(minutes=2)
        assert forumbot(tmp_path, game).returncode == 0
        wanted = [("Ann", "Re: N1 check"), ("Bob", "Re: N1 heal")]
        assert sorted(_sent(forum)) == wanted
        time.sleep(1)
        for side in ("", "-wal", "-shm"):  # the database file is lost
            (tmp_path / f"fb.sqlite3{side}").unlink(missing_ok=True)
        for _ in range(2):
            forumbot(tmp_path, game)
        assert sorted(_sent(forum)) == wanted, "a receipt was sent twice"
        forum.add_pm("Carl", "N1 hi", "check Zed")  # a new PM is still answered
        assert forumbot(tmp_path, game).returncode == 0
        assert ("Carl", "Re: N1 hi") in _sent(forum)


def _sent(forum: Any) -> list[tuple[str, str]]:
    return [(pm["to"], pm["subject"]) for pm in forum.data.sent if pm["to"] != "Steph"]


def test_a_fresh_database_does_not_post_a_phase_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import UTC, datetime

    for night in start_hostile(tmp_path, monkeypatch, first_phase="night1"):
        night.cycle()
        night.forum.add_pm("Zed", "N1 kill", "kill Carl")
        night.cycle()
        night.clock.set(datetime(2026, 12, 2, 21, 0, 30, tzinfo=UTC))  # the night's deadline
        for _ in range(3):
            night.cycle()
        assert len(night.bot_posts()) == 1 and "Carl" in night.bot_posts()[0]
        night.rt.engine.dispose()
        fresh = _fresh(night, tmp_path)
        for _ in range(4):
            fresh.cycle()
        assert len(fresh.bot_posts()) == 1, fresh.bot_posts()
        assert len(_receipts(fresh)) == len(set(_receipts(fresh)))
        fresh.rt.engine.dispose()


def test_a_game_started_on_one_database_is_refused_on_another(tmp_path: Path) -> None:
    from forumbot.clock import SystemClock
    from tests.runtime.smf_forum import SMFTestForum
    from tests.runtime.test_run_errors import forumbot, game_file

    with SMFTestForum(SystemClock()) as forum:
        forum.add_post("GameMaster", "<b>Night 1</b> begins.")
        game = str(game_file(tmp_path, forum.base_url))
        assert forumbot(tmp_path, game).returncode == 0
        other = f"sqlite:///{tmp_path / 'other.sqlite3'}"
        before = forum.data.requests
        done = forumbot(tmp_path, game, database=other)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert "'test-village' was started on sqlite:///" in done.stderr
        assert "fb.sqlite3" in done.stderr and "bindings.json" in done.stderr
        assert forum.data.requests == before
        assert forumbot(tmp_path, game).returncode == 0  # its own database still runs it
