"""Drafting a phase's messages: its results, the day's vote counts, order reminders.

A result message is keyed by game, phase and (after the GM redid a resolution) revision, so
it is drafted once; reminders and vote counts are keyed by phase and period.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.db.enums import DeliveryState, OrderStatus, OutboundKind, PhaseKind
from forumbot.db.models import Game, Order, Outbound, Phase
from forumbot.db.repo import draft_outbound, move_outbound
from forumbot.services import games
from forumbot.services.context import Runtime
from forumbot.services.phases import daycount, is_alive, orders_deadline, schedule_of
from forumbot.services.pipeline import PhaseOutcome, phase_title


def draft_results(
    rt: Runtime, session: Session, game: Game, phase: Phase, outcome: PhaseOutcome
) -> None:
    """Draft the phase post and every private result; approve them when the game auto-posts."""
    renderer = rt.pipeline.renderer
    assert renderer is not None  # load_pipeline always provides one
    auto = games.config_of(game).publishing.mode == "auto"
    for message in renderer(game.ruleset, phase.name, outcome, game.name):
        recipients = [game.gm_name or "" if n == "@gm" else n for n in message.to]
        row, _new = draft_outbound(
            session,
            game_id=game.id,
            key=f"{result_prefix(game, phase)}{message.key}",
            kind=OutboundKind.PM if message.to else OutboundKind.POST,
            body=message.body,
            recipients=recipients,
            subject=message.subject,
            phase_id=phase.id,
        )
        if auto and row.state is DeliveryState.DRAFT:
            move_outbound(session, row, DeliveryState.APPROVED, by="auto")


def result_prefix(game: Game, phase: Phase) -> str:
    """Keys of the phase's result messages; a re-resolution drafts under a new prefix."""
    revision = int(games.runtime_state(game).get(f"revision:{phase.name}", 0))
    return f"game{game.id}:{phase.name}:" + (f"r{revision}:" if revision else "")


def all_sent(session: Session, game: Game, phase: Phase) -> bool:
    """Whether the phase's results are all out (vote counts never hold a phase back; the
    drafts of a resolution the GM redid do not count)."""
    rows = session.execute(
        select(Outbound.state, Outbound.idempotency_key).where(Outbound.phase_id == phase.id)
    ).all()
    current = [(state, key) for state, key in rows if is_result(game, phase, key)]
    return all(state is DeliveryState.SENT for state, _key in current)


def is_result(game: Game, phase: Phase, key: str) -> bool:
    prefix = result_prefix(game, phase)
    rest = key[len(prefix) :] if key.startswith(prefix) else None
    return rest is not None and VOTE_COUNT.strip(":") not in rest and not rest.startswith("r")


VOTE_COUNT = ":votecount:"
REMIND_BEFORE = timedelta(hours=3)


REMIND_BEFORE = timedelta(hours=3)


def reminders_due(rt: Runtime, session: Session, game: Game, phase: Phase) -> None:
    """Three hours before the orders deadline, remind each player who may act and has not."""
    deadline = orders_deadline(phase)
    actors = rt.pipeline.actors
    now = rt.clock.now()
    if actors is None or deadline is None or not deadline - REMIND_BEFORE <= now < deadline:
        return
    if games.runtime_state(game).get(f"reminded:{phase.name}"):
        return
    alive = {p.display_name: p.role for p in game.players if is_alive(p)}
    sent = {o.player_id for o in session.scalars(select(Order).where(
        Order.phase_id == phase.id, Order.status == OrderStatus.ACCEPTED))}  # fmt: skip
    ids = {p.display_name: p.id for p in game.players}
    zone = schedule_of(game).timezone
    when = deadline.astimezone(zone).strftime("%a %d %b %H:%M")
    for name in actors(game.ruleset, alive, phase.name):
        if ids[name] in sent:
            continue
        row, _new = draft_outbound(
            session, game_id=game.id, key=f"game{game.id}:{phase.name}:reminder:{name}",
            kind=OutboundKind.PM, recipients=[name], subject=f"{game.name}: your orders",
            body=f"A reminder: your orders for {phase_title(phase.name)} close on {when} "
            f"({zone.key}). "
            "Reply to this PM with them.",
        )  # fmt: skip
        if row.state is DeliveryState.DRAFT:
            move_outbound(session, row, DeliveryState.APPROVED, by="reminders")
    games.set_runtime_state(game, **{f"reminded:{phase.name}": True})


def vote_count_due(rt: Runtime, session: Session, game: Game, phase: Phase) -> None:
    """Draft the day's vote count every ``publishing.vote_count_every`` (once per period)."""
    config = games.config_of(game)
    every = config.publishing.vote_count_every
    if every is None or phase.kind is not PhaseKind.DAY or phase.starts_at is None:
        return
    period = int((rt.clock.now() - phase.starts_at) / every)
    key = f"game{game.id}:{phase.name}{VOTE_COUNT}{period}"
    if period < 1 or session.scalar(select(Outbound.id).where(Outbound.idempotency_key == key)):
        return
    tally = daycount.tally(rt, game.id)
    if tally is None or not tally.post:
        return
    row, _new = draft_outbound(session, game_id=game.id, key=key, kind=OutboundKind.POST,
                               body=tally.post, phase_id=phase.id)  # fmt: skip
    if config.publishing.mode == "auto":
        move_outbound(session, row, DeliveryState.APPROVED, by="auto")
