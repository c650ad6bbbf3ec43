"""The GM page's test game, played through the runtime (no row is written by hand).

A loopback SMF 2.1 forum (``tests.runtime.smf_forum``: pages cut from the recorded SMF pages)
carries the example game file's game, with Dave added: players post their votes in the
thread and PM their orders to the bot, the real SMF adapter reads them, the worker's
``cycle`` parses, counts, queues, resolves and drafts on a fake clock, and the GM approves
drafts through the drafts service. Two moments of that one game are kept as SQLite files:

- ``night``: night 2 is open at ``NOW`` (its orders deadline passed, two hours left):
  Bob's "heal annie please" with hostile HTML waits in the queue, Ann's check is accepted,
  Маша's kill came late; Carl's doubtful Day 1 vote ``$Zoey`` (with hostile HTML) waits too
  (it could not change Day 1's lynch of Dave, so the Day resolved).
- ``drafted``: the same game after the GM accepted Bob's order and night 2 resolved at its
  deadline: its post and result PMs wait for approval.

Building takes a few seconds; ``tests/web/conftest.py`` builds it once per session and
copies the file per test.
"""

from __future__ import annotations

import html
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from forum_adapters import HttpSettings, PoliteSession, SMFAdapter
from forumbot.clock import FakeClock
from forumbot.db import make_engine, make_session_factory, upgrade
from forumbot.db.enums import DeliveryState, ReviewKind
from forumbot.db.models import Outbound, Phase, ReviewItem
from forumbot.services import cycle, drafts, games, review
from forumbot.services.context import Runtime
from tests.runtime.smf_forum import SMFTestForum

ROOT = Path(__file__).resolve().parents[2]
T0 = datetime(2026, 12, 1, 21, 0, tzinfo=UTC)  # 22:00 in Paris: night 1 starts
NIGHT2 = T0 + timedelta(days=3)  # after night 1 (24 h) and day 1 (48 h)
NOW = NIGHT2 + timedelta(hours=22)  # 19:00 UTC: night 2's orders are due, 2 h left

HOSTILE = (
    '<script>alert("pm")</script><img src=x onerror="alert(1)">'
    '<a href="javascript:alert(2)">click</a> "><b onmouseover=alert(3)>x</b>'
    " [url=javascript:alert(4)]bb[/url]"
)
OUTSIDER = '<img src=x onerror=alert("name")>Eve'  # a forum account, not a player
HOSTILE_BBCODE = (
    "[b]Night 2 is over.[/b] [url=javascript:alert(5)]evil[/url] "
    '[url=http://x.example/" onmouseover="alert(6)]attr[/url] <script>alert(7)</script> '
    "[color=red;background:url(javascript:alert(8))]c[/color] [img]javascript:alert(9)[/img]"
)


@dataclass(frozen=True)
class Seeded:
    """Ids in the built game (the same in both moments; the drafts exist in ``drafted``)."""

    game_id: int
    order_item_id: int
    vote_item_id: int
    post_draft_id: int
    pm_draft_id: int
    night2_id: int
    day1_id: int


@dataclass(frozen=True)
class Built:
    """The two SQLite files of the built game, and its ids."""

    night: Path
    drafted: Path
    ids: Seeded


ROSTER = ("Ann", "Bob", "Carl", "Zoé", "Маша", "Dave")


def game_yaml(name: str, forum_url: str, extra_players: int = 0) -> str:
    """The example game file, renamed, on the loopback forum, with Dave (and extras) added."""
    text = (ROOT / "config" / "example-game.yaml").read_text(encoding="utf-8")
    extra = "".join(f"\n  - {{name: Extra{i:02d}, role: villager}}" for i in range(extra_players))
    for old, new in (
        ("name: failheap-village-7", f"name: {name}"),
        ("https://forum.example.org/index.php?topic=1234.0", forum_url),
        ("engine: auto", "engine: smf"),
        ("username: ForumbotGM", "username: ModBot"),
        ("seed: 20261129", "seed: 7"),
        ("  - {name: Маша, role: mafioso, aliases: [masha]}",
         "  - {name: Маша, role: mafioso, aliases: [masha]}\n  - {name: Dave, role: villager}"
         + extra),
    ):  # fmt: skip
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def build(directory: Path, extra_players: int = 0) -> Built:
    """Play the game through the runtime into ``directory`` (see the module's docstring);
    ``extra_players`` villagers who never act join it (the benchmark's 30 players)."""
    directory.mkdir(parents=True, exist_ok=True)
    night, drafted = directory / "night.sqlite3", directory / "drafted.sqlite3"
    url = f"sqlite:///{night}"
    upgrade(url)
    with _game(url, directory, extra_players) as play:
        play.to_night2()
        play.rt.engine.dispose()
        shutil.copyfile(night, drafted)
        drafted.chmod(0o600)
        play.rt = _runtime(f"sqlite:///{drafted}", play.forum)  # the same game, continued
        ids = play.resolve_night2()
    return Built(night, drafted, ids)


def play_on(url: str, directory: Path, drafted: bool) -> None:
    """Play the same game on another migrated database (PostgreSQL), to night 2 open or
    drafted; its ids are ``build``'s (the same steps on an empty database)."""
    with _game(url, directory, 0) as play:
        play.to_night2()
        if drafted:
            play.resolve_night2()


class _Play:
    """One game on the loopback forum, moved by the runtime's cycle on a fake clock."""

    def __init__(self, rt: Runtime, forum: SMFTestForum, game_id: int) -> None:
        self.rt, self.forum, self.game_id = rt, forum, game_id
        self.clock: FakeClock = forum.clock

    def at(self, moment: datetime, cycles: int = 2) -> None:
        """Set the clock and run the worker's cycles (each polls, ticks and publishes)."""
        self.clock.set(moment)
        for _ in range(cycles):
            cycle(self.rt, self.game_id)

    def post(self, moment: datetime, author: str, body_html: str) -> None:
        self.clock.set(moment)
        self.forum.add_post(author, body_html)

    def pm(self, moment: datetime, sender: str, body_html: str) -> None:
        self.clock.set(moment)
        self.forum.add_pm(sender, "orders", body_html)

    def approve_all(self) -> None:
        """The GM approves every draft (through the drafts service), then the worker sends."""
        with self.rt.sessions.begin() as session:
            for view in drafts.list_drafts(session, self.game_id):
                if view.state is DeliveryState.DRAFT:
                    drafts.approve_draft(session, view.id, gm="Steph")

    def to_night2(self) -> None:
        """Night 1, Day 1, and night 2 up to ``NOW``."""
        self.night1()
        self.day1()
        self.night2()

    def night1(self) -> None:
        """Zoé attacks Ann, Bob saves her, Ann checks Zoé (the godfather reads innocent)."""
        self.at(T0 + timedelta(seconds=30))
        self.pm(T0 + timedelta(hours=1), "Ann", "check Zoé")
        self.pm(T0 + timedelta(hours=2), "Bob", "heal Ann")
        self.pm(T0 + timedelta(hours=3), "Zoé", "kill Ann")
        self.at(T0 + timedelta(hours=3, minutes=2), 1)
        self.at(T0 + timedelta(days=1, minutes=1), 3)  # night 1's deadline: resolved, drafted
        self.approve_all()
        self.at(T0 + timedelta(days=1, minutes=3), 3)  # sent; day 1 opens

    def day1(self) -> None:
        """Four votes lynch Dave; Carl's ``$Zoey`` (hostile text around it) is doubtful, and
        an outsider account with a hostile name votes too (listed for the GM, never counted);
        neither could change the lynch, so the Day resolves."""
        day = T0 + timedelta(days=1)
        for minutes, voter, body in (
            (10, "Ann", "<b>$Dave</b>"),
            (20, "Bob", "<b>$Dave</b> he is quiet"),
            (30, "Zoé", "<b>$Dave</b>"),
            (40, "Маша", "<b>$Dave</b>"),
            (180, "Carl", f"<b>$Zoey</b> {HOSTILE}"),
            (200, html.escape(OUTSIDER), "<b>$Ann</b>"),  # SMF shows a name's < as &lt;
        ):
            self.post(day + timedelta(minutes=minutes), voter, body)
            self.at(day + timedelta(minutes=minutes + 1), 1)
        self.at(day + timedelta(hours=12, minutes=5), 1)  # a scheduled vote-count draft
        self.at(day + timedelta(days=2, minutes=1), 3)  # the deadline: Dave is lynched
        self.approve_all()
        self.at(day + timedelta(days=2, minutes=3), 3)  # sent; night 2 opens

    def night2(self) -> None:
        """Ann checks Zoé; Bob's unclear order queues; Маша's kill comes after 19:00 Paris."""
        self.pm(NIGHT2 + timedelta(hours=13), "Ann", "check Zoé")
        self.pm(NIGHT2 + timedelta(hours=18), "Bob", f"heal annie please? {HOSTILE}")
        self.at(NIGHT2 + timedelta(hours=19, minutes=30), 1)
        self.pm(NIGHT2 + timedelta(hours=21, minutes=30), "Маша", "kill Ann")
        self.at(NOW, 1)

    def resolve_night2(self) -> Seeded:
        """The GM accepts Bob's order; at the deadline night 2 resolves and is drafted."""
        with self.rt.sessions.begin() as session:
            order_item, vote_item = self.items(session)
            review.accept_candidate(session, order_item, 0, gm="Steph")
        self.at(NIGHT2 + timedelta(days=1, minutes=1), 3)
        with self.rt.sessions() as session:
            phases = {p.name: p.id for p in session.scalars(select(Phase))}
            rows = session.scalars(
                select(Outbound).where(Outbound.phase_id == phases["night2"]).order_by(Outbound.id)
            ).all()
        waiting = [r for r in rows if r.state is DeliveryState.DRAFT]
        post = next(r.id for r in waiting if r.kind.value == "post")
        pm = next(r.id for r in waiting if r.kind.value == "pm" and r.recipients == ["Ann"])
        return Seeded(self.game_id, order_item, vote_item, post, pm, phases["night2"],
                      phases["day1"])  # fmt: skip

    def items(self, session: Session) -> tuple[int, int]:
        """Bob's unclear order (the first) and Carl's doubtful vote."""
        rows = session.scalars(select(ReviewItem).order_by(ReviewItem.id)).all()
        order = next(r.id for r in rows if r.kind is ReviewKind.ORDER)
        vote = next(r.id for r in rows if r.kind is ReviewKind.VOTE)
        return order, vote


def _adapter(base_url: str) -> SMFAdapter:
    """The real SMF adapter, with politeness delays that never really sleep."""
    http = PoliteSession(settings=HttpSettings(rate=0, attempts=1), sleep=lambda s: None)
    return SMFAdapter(base_url, "ModBot", "pw", http=http, post_interval=0)


def _runtime(url: str, forum: SMFTestForum) -> Runtime:
    engine = make_engine(url)
    return Runtime(engine=engine, sessions=make_session_factory(engine),
                   adapter_factory=lambda access: _adapter(forum.base_url),
                   clock=forum.clock, worker="web-seed")  # fmt: skip


@contextmanager
def _game(url: str, directory: Path, extra_players: int) -> Iterator[_Play]:
    """The loopback forum and a runtime on ``url`` with the game registered and started."""
    clock = FakeClock(T0 - timedelta(hours=1))
    with SMFTestForum(clock) as forum:
        rt = _runtime(url, forum)
        forum.add_post("Steph", "<b>Failheap Village 7</b>: the game starts tonight, 22:00.")
        game_file = directory / "failheap-7.yaml"
        text = game_yaml("failheap-7", f"{forum.base_url}?topic=5.0", extra_players)
        game_file.write_text(text, encoding="utf-8")
        play = _Play(rt, forum, games.register(rt, game_file))
        games.start(rt, play.game_id)
        try:
            yield play
        finally:
            play.rt.engine.dispose()
