"""A game on the loopback SMF forum, run by the real runtime: what hostile input does to it.

The forum is ``SMFTestForum`` (pages cut from the recorded SMF 2.1 pages) on 127.0.0.1; the
bot reads it with the real SMF adapter, stores into a real SQLite file and parses with the
real parsers. ``Hostile.cycle()`` is one worker cycle under the worker's own guard (errors
become alerts or outages exactly as in ``forumbot run``). Inputs live in ``data/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from forumbot import jobs
from forumbot.clock import FakeClock
from forumbot.db import upgrade
from forumbot.db.enums import ReviewKind
from forumbot.db.models import Game, Order, RawPM, RawPost, ReviewItem
from forumbot.services import cycle, games, leases
from forumbot.services.context import Runtime
from tests.runtime.conftest import GAME
from tests.runtime.smf_forum import SMFTestForum
from tests.runtime.test_game_http import http_runtime

DATA = Path(__file__).resolve().parent / "data"
DAY_START = datetime(2026, 12, 1, 21, 0, 30, tzinfo=UTC)  # day 1 has begun (22:00 Paris)


def data(name: str) -> str:
    """A hostile input file's text."""
    return (DATA / name).read_text(encoding="utf-8")


@dataclass
class Hostile:
    """The game, its forum and its database, with what a test reads back."""

    rt: Runtime
    forum: SMFTestForum
    game_id: int
    clock: FakeClock
    data_dir: Path

    def cycle(self) -> bool:
        """One worker cycle, guarded like ``forumbot run`` (False: it failed)."""
        self.clock.advance(timedelta(minutes=2))
        now = self.clock.now()
        leases.acquire(self.rt.sessions, self.rt.worker, now, self.rt.lease_period)
        return jobs.run_guarded(self.rt, self.game_id, lambda: cycle(self.rt, self.game_id))

    def count(self, model: type) -> int:
        """Rows of ``model`` (RawPost, RawPM, Order, VoteEvent...) of this forum or game."""
        with self.rt.sessions() as session:
            return int(session.scalar(select(func.count()).select_from(model)) or 0)

    def last_post_id(self) -> int:
        """The thread's high-water mark: the newest post read."""
        with self.rt.sessions() as session:
            return int(session.get_one(Game, self.game_id).last_post_id or 0)

    def votes(self) -> dict[str, tuple[str, ...]]:
        """The open day's count as the bot reads it from stored posts: target -> voters."""
        from forumbot.services.phases import daycount

        count = daycount.tally(self.rt, self.game_id)
        assert count is not None, "no open day"
        return {target: tuple(voters) for target, voters in count.votes.items()}

    def queue(self, kind: ReviewKind | None = None) -> list[ReviewItem]:
        """The review items (all, or of one kind)."""
        with self.rt.sessions() as session:
            query = select(ReviewItem).order_by(ReviewItem.id)
            if kind is not None:
                query = query.where(ReviewItem.kind == kind)
            return list(session.scalars(query))

    def orders(self) -> list[Order]:
        """The stored orders."""
        with self.rt.sessions() as session:
            return list(session.scalars(select(Order).order_by(Order.id)))

    def bot_posts(self) -> list[str]:
        """Bodies of the bot's posts in the thread."""
        return [p["body"] for p in self.forum.data.posts if p["author"] == "ModBot"]

    def quarantined(self) -> list[Path]:
        """Pages saved to the quarantine folder."""
        return sorted((self.data_dir / "forumbot" / "quarantine").glob("*.html"))


def start_hostile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, first_phase: str = "day1"
) -> Iterator[Hostile]:
    """Register and start the runtime tests' game (auto-post) on a loopback SMF forum."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    clock = FakeClock(DAY_START)
    with SMFTestForum(clock) as forum:
        forum.add_post("GameMaster", "<b>Test Village</b>: day 1 begins. Vote with <b>$Name</b>.")
        text = GAME.replace('"http://127.0.0.1:9/index.php?topic=5.0", engine: file',
                            f'"{forum.base_url}?topic=5.0", engine: smf')  # fmt: skip
        text = text.replace("MODE", "auto").replace("first_phase: night1",
                                                    f"first_phase: {first_phase}")  # fmt: skip
        text = text.replace("gm: Steph", "gm: GameMaster")
        game_file = tmp_path / "game.yaml"
        game_file.write_text(text, encoding="utf-8")
        url = f"sqlite:///{tmp_path / 'fb.sqlite3'}"
        upgrade(url)
        rt = http_runtime(url, forum, clock, "w1")
        game_id = games.register(rt, game_file)
        games.start(rt, game_id)
        yield Hostile(rt, forum, game_id, clock, tmp_path / "data")
        rt.engine.dispose()


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Hostile]:
    """The game in day 1 on the loopback forum."""
    yield from start_hostile(tmp_path, monkeypatch)


@pytest.fixture
def night(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Hostile]:
    """The game in night 1 (orders by PM) on the loopback forum."""
    yield from start_hostile(tmp_path, monkeypatch, first_phase="night1")


__all__ = ["RawPM", "RawPost"]
