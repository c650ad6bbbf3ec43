"""``forumbot demo``: a recorded game through the whole pipeline, offline, on a fake clock.

The recorded SMF pages are read by the SMF adapter's page parsers into a local forum in a
temporary folder; a temporary SQLite database holds the game; the real scheduler drives
the worker on a fake clock from the capture time to the Day 1 deadline.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy import select

from forumbot import jobs
from forumbot.clock import FakeClock
from forumbot.db import make_engine, make_session_factory, upgrade
from forumbot.db.models import Game, Order, Outbound, Phase, Player, ReviewItem
from forumbot.localforum import LocalForum, import_smf_pages, save_state
from forumbot.services import games, review
from forumbot.services.context import ForumAccess, Runtime
from forumbot.services.drafts import approve_draft
from forumbot.services.phases import daycount
from forumbot.services.receipts import phase_title

FIXTURES = Path(str(resources.files("forumbot") / "demo_game"))
"""The demo's game file and recorded pages, shipped as package data (``fixtures/smf21`` links
to these pages: one copy of each page in the project)."""
PAGES = FIXTURES
CAPTURED = datetime(2026, 11, 29, 13, 10, tzinfo=UTC)
BASE_URL = "http://127.0.0.1:8121/index.php"
Echo = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class DemoResult:
    """Counts the demo test checks."""

    posts: int
    pms: int
    orders: int
    queued: int
    receipts: int
    drafts: int
    phase: str


def run_demo(workdir: Path, echo: Echo, fixtures: Path = FIXTURES) -> DemoResult:
    """Replay the recorded game in ``workdir`` (a database and a forum folder) and narrate."""
    rt, forum = _setup(workdir, fixtures)
    echo(f"Recorded game: {len(forum.state.posts)} posts in {forum.state.title!r}, "
         f"{len(forum.state.inbox)} PMs in the bot's inbox (real SMF 2.1 pages).")  # fmt: skip
    game_id = games.register(rt, fixtures / "game.yaml")
    games.start(rt, game_id)
    scheduler = jobs.make_scheduler(rt, manual=True)
    scheduler.start()
    jobs.add_sync_job(scheduler, rt)
    scheduler.run_due()  # claims the game and schedules its cycle
    scheduler.run_due()  # one cycle: open Day 1, read everything, parse, receipt
    _show_votes(rt, game_id, echo)
    orders, queued = _show_orders(rt, game_id, echo)
    receipts = _show_receipts(forum, echo)
    _gm_decides(rt, game_id, echo)
    echo("\n== The Day 1 deadline passes (Sunday 18:00 UTC) ==")
    rt.clock.set(datetime(2026, 11, 29, 18, 0, 30, tzinfo=UTC))  # type: ignore[attr-defined]
    scheduler.run_due()
    day, drafts = _show_phase(rt, game_id, echo)
    night = _night(rt, game_id, scheduler, forum, echo) if drafts else day
    scheduler.shutdown()
    return DemoResult(len(forum.state.posts), len(forum.state.inbox), orders, queued,
                      receipts, drafts, night)  # fmt: skip


def _night(rt: Runtime, game_id: int, scheduler: Any, forum: LocalForum, echo: Echo) -> str:
    """The GM approves Day 1's drafts; Night 1 runs to its deadline on the orders received."""
    approved = _approve_all(rt, game_id)
    echo(f"\n== The GM approves the {approved} drafts; the worker publishes them ==")
    rt.clock.advance(timedelta(minutes=2))  # type: ignore[attr-defined]
    scheduler.run_due()
    rt.clock.advance(timedelta(minutes=2))  # type: ignore[attr-defined]
    scheduler.run_due()
    posted = [p for p in forum.state.posts if p["author"] == "ModBot"]
    echo(f"  posted in the thread: {len(posted)}; PMs sent: {len(forum.sent_bodies())}")
    echo("\n== The Night 1 deadline passes (Monday 18:00 UTC; orders closed at 16:00) ==")
    rt.clock.set(datetime(2026, 11, 30, 18, 0, 30, tzinfo=UTC))  # type: ignore[attr-defined]
    scheduler.run_due()
    phase, _drafts = _show_phase(rt, game_id, echo, with_pms=True)
    return phase


def _gm_decides(rt: Runtime, game_id: int, echo: Echo) -> None:
    """The GM answers the queue: the best candidate where there is one, else a rejection."""
    echo("\n== The GM decides the queue (an unclear order holds its phase back) ==")
    with rt.sessions() as session:
        entries = review.list_queue(session, game_id)
    for entry in entries:
        with rt.sessions.begin() as session:
            try:
                if entry.candidates:
                    review.accept_candidate(session, entry.id, 0, gm="GameMaster")
                    what = f"accepted {entry.candidates[0].label}"
                else:
                    review.reject(session, entry.id, gm="GameMaster", note="not an order")
                    what = "rejected: not an order"
            except review.InvalidDecision as exc:
                review.reject(session, entry.id, gm="GameMaster", note=str(exc)[:200])
                what = f"rejected ({exc})"
        echo(f"  #{entry.id} {entry.sender}: {what[:100]}")


def _approve_all(rt: Runtime, game_id: int) -> int:
    with rt.sessions.begin() as session:
        rows = session.scalars(
            select(Outbound.id).where(Outbound.game_id == game_id, Outbound.state == "draft")
        ).all()
        for row_id in rows:
            approve_draft(session, row_id, gm="GameMaster")
        return len(rows)


def _setup(workdir: Path, fixtures: Path) -> tuple[Runtime, LocalForum]:
    url = f"sqlite:///{workdir / 'demo.sqlite3'}"
    upgrade(url)
    engine = make_engine(url)
    state = import_smf_pages(
        [PAGES / f"topic_p{n}.html" for n in range(1, 6)],
        [PAGES / "pm_inbox_p1.html", PAGES / "pm_inbox_p2.html"],
        captured=CAPTURED, base_url=BASE_URL, bot="ModBot",
    )  # fmt: skip
    save_state(workdir / "forum", state)
    clock = FakeClock(CAPTURED)
    forum = LocalForum(workdir / "forum", "ModBot", clock=clock)

    def adapter(_access: ForumAccess) -> LocalForum:
        return forum

    rt = Runtime(engine=engine, sessions=make_session_factory(engine), adapter_factory=adapter,
                 clock=clock, worker="demo")  # fmt: skip
    return rt, forum


def _show_votes(rt: Runtime, game_id: int, echo: Echo) -> None:
    echo("\n== Vote count, Day 1 (from the thread's bold votes) ==")
    tally = daycount.tally(rt, game_id)
    if tally is None:
        echo("  (no vote count: no day open)")
        return
    for target, voters in tally.votes.items():
        echo(f"  {target} ({len(voters)}): {', '.join(voters)}")
    count = tally.result
    echo(f"  Not voting ({len(count.not_voting)}): {', '.join(count.not_voting)}")
    for item in count.queue:
        echo(f"  queued for the GM: {item.raw!r} by {item.voter}: {item.reason}")
    echo(f"  Decision: {count.decision.reason}")


def _show_orders(rt: Runtime, game_id: int, echo: Echo) -> tuple[int, int]:
    echo("\n== Orders read from the PMs ==")
    with rt.sessions() as session:
        names = {p.id: p.display_name for p in session.scalars(select(Player))}
        phases = {p.id: p.name for p in session.scalars(select(Phase))}
        orders = session.scalars(select(Order).order_by(Order.received_at, Order.id)).all()
        for o in orders:
            what = " ".join([o.ability or "?", *map(str, o.targets)])
            echo(f"  {names[o.player_id]:<20} {phases[o.phase_id]:<7} {o.status.value:<10} {what}")
        echo("\n== GM review queue ==")
        items = session.scalars(select(ReviewItem).order_by(ReviewItem.id)).all()
        for item in items:
            who = names.get(item.player_id or 0, "-")
            echo(f"  #{item.id} [{item.kind.value}] {who}: {item.reason[:110]}")
    return len(orders), len(items)


def _show_receipts(forum: LocalForum, echo: Echo) -> int:
    sent = forum.sent_bodies()
    echo(f"\n== Receipts PMed to players: {len(sent)} ==")
    for pm in sent[:4]:
        echo(f"  to {', '.join(pm['to'])}: {pm['body'][:100]}")
    return len(sent)


def _show_phase(
    rt: Runtime, game_id: int, echo: Echo, *, with_pms: bool = False
) -> tuple[str, int]:
    with rt.sessions() as session:
        game = session.get_one(Game, game_id)
        phase = [p for p in game.phases if p.status.value in ("frozen", "resolved")][-1]
        echo(f"  {phase_title(phase.name)}: {phase.status.value}")
        drafts = [
            row
            for row in session.scalars(
                select(Outbound).where(Outbound.phase_id == phase.id).order_by(Outbound.id)
            )
            if ":receipt:" not in row.idempotency_key
        ]
        posts = [r for r in drafts if r.kind.value == "post"]
        echo(f"\n== Drafted for {phase_title(phase.name)}, awaiting the GM: {len(posts)} post(s),"
             f" {len(drafts) - len(posts)} PM(s) ==")  # fmt: skip
        for row in drafts:
            if row.kind.value == "post" or with_pms:
                to = f"PM to {', '.join(row.recipients)}" if row.recipients else "thread post"
                echo(f"  --- {to} [{row.state.value}] ---")
                echo("  " + _shortened(row.body).replace("\n", "\n  "))
        if not drafts:
            echo("  (none: nothing to post)")
        return phase.name, len(drafts)


def _shortened(body: str, lines: int = 16) -> str:
    """A long draft (the GM report) cut at a line end, saying how much is left out."""
    kept = body.splitlines()
    if len(kept) <= lines:
        return body
    return "\n".join([*kept[:lines], f"... ({len(kept) - lines} more lines in the draft)"])


__all__ = ["DemoResult", "run_demo"]
