"""A small game on a local file-backed forum, with a fake clock and a fresh database."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from forumbot.clock import FakeClock
from forumbot.db import make_engine, make_session_factory, upgrade
from forumbot.localforum import ForumState, LocalForum, save_state
from forumbot.services import games
from forumbot.services.context import Runtime

START = datetime(2026, 12, 1, 21, 0, tzinfo=UTC)  # 22:00 in Paris: night 1 starts

GAME = """
name: test-village
forum: {url: "http://127.0.0.1:9/index.php?topic=5.0", engine: file}
credentials: {username: ModBot, password_env: UNUSED}
gm: Steph
ruleset: failheap
seed: 3
players:
  - {name: Ann, role: sheriff}
  - {name: Bob, role: doctor}
  - {name: Carl, role: villager}
  - {name: Dan, role: villager}
  - {name: Zed, role: godfather}
schedule:
  timezone: Europe/Paris
  first_phase: night1
  start: 2026-12-01 22:00
  day: {length: 48h, starts: "22:00"}
  night: {length: 24h, inner_deadlines: {orders: "19:00"}}
votes: {syntax: [dollar_bold, bold_vote]}
publishing: {mode: MODE, receipts: true, poll_interval: 2m}
"""


def make_runtime(db_url: str, forum_dir: Path, clock: FakeClock, worker: str = "w1") -> Runtime:
    """A runtime on ``db_url`` whose adapter is the local forum in ``forum_dir``."""
    engine = make_engine(db_url)
    forums: dict[int, LocalForum] = {}

    def adapter(access):
        return forums.setdefault(access.game_id, LocalForum(forum_dir, "ModBot", clock=clock))

    return Runtime(engine=engine, sessions=make_session_factory(engine), adapter_factory=adapter,
                   clock=clock, worker=worker)  # fmt: skip


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def world(tmp_path: Path, clock: FakeClock) -> Iterator[dict]:
    """A registered, started game (approve mode) on an empty local forum."""
    yield from _world(tmp_path, clock, "approve")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def auto_world(request: pytest.FixtureRequest, tmp_path: Path, clock: FakeClock) -> Iterator[dict]:
    """The same game in auto-post mode, on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        yield from _world(tmp_path, clock, "auto")
        return
    from tests.storage.conftest import _postgres_database

    for url in _postgres_database():
        yield from _world(tmp_path, clock, "auto", url)


def _world(tmp_path: Path, clock: FakeClock, mode: str, url: str = "") -> Iterator[dict]:
    url = url or f"sqlite:///{tmp_path / 'fb.sqlite3'}"
    upgrade(url)
    save_state(tmp_path / "forum", ForumState(topic_id=5, title="Test Village"))
    game_file = tmp_path / "game.yaml"
    game_file.write_text(GAME.replace("MODE", mode), encoding="utf-8")
    rt = make_runtime(url, tmp_path / "forum", clock)
    game_id = games.register(rt, game_file)
    games.start(rt, game_id)
    forum = LocalForum(tmp_path / "forum", "ModBot", clock=clock)
    yield {"rt": rt, "game_id": game_id, "url": url, "forum_dir": tmp_path / "forum",
           "forum": forum, "game_file": game_file}  # fmt: skip
    rt.engine.dispose()
