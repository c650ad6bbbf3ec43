"""The phase clock: open phases on schedule, freeze them at the deadline, resolve, draft.

Every step is idempotent and moves a phase forward only (PENDING -> OPEN -> FROZEN ->
RESOLVED -> PUBLISHED), so running ``tick`` twice, or after a crash, repeats nothing.
At the deadline the orders freeze: the last valid order before the orders deadline wins,
and an order received later is kept as LATE (shown to the GM, never applied).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.db.enums import GameStatus, OrderStatus, PhaseKind, PhaseStatus
from forumbot.db.models import Game, Order, Phase
from forumbot.logs import event
from forumbot.services import domain, schedule
from forumbot.services.context import Runtime
from forumbot.services.phases import (
    current,
    daycount,
    drafting,
    is_alive,
    order_deadline,
    resolution,
    schedule_of,
)


def open_first(rt: Runtime, game_id: int) -> None:
    """Open the game's first phase if it has none yet (before its first poll)."""
    with rt.sessions.begin() as session:
        game = session.get_one(Game, game_id)
        if game.status is GameStatus.RUNNING and current(game) is None:
            open_phase(session, game, schedule.first_plan(schedule_of(game), rt.clock.now()))


def tick(rt: Runtime, game_id: int) -> str | None:
    """Move the game's clock one step if it is due; returns the current phase's name."""
    now = rt.clock.now()
    with rt.sessions.begin() as session:
        game = session.get_one(Game, game_id)
        if game.status is not GameStatus.RUNNING:
            return None
        phase = current(game)
        if phase is None:
            phase = open_phase(session, game, schedule.first_plan(schedule_of(game), now))
        elif phase.status is PhaseStatus.OPEN and phase.deadline and now >= phase.deadline:
            freeze(session, game, phase)
        elif phase.status is PhaseStatus.OPEN and _hammered(rt, game, phase):
            freeze(session, game, phase)  # the Day ends at the post that reaches a majority
        if (
            phase.status is PhaseStatus.FROZEN
            and not resolution.waits_for_gm(session, game, phase)
            and not resolution.waits_for_tie_break(rt, session, game, phase)
            and not resolution.lynch_undecided(rt, session, game, phase)
        ):
            resolution.resolve(rt, session, game, phase)
        if phase.status is PhaseStatus.RESOLVED and drafting.all_sent(session, game, phase):
            phase.status = PhaseStatus.PUBLISHED
            event(rt.log, "phase.published", game=game_id, phase=phase.name)
        if phase.status is PhaseStatus.PUBLISHED:
            phase = _advance(rt, session, game, phase)
        if phase is not None and phase.status is PhaseStatus.OPEN:
            drafting.vote_count_due(rt, session, game, phase)
            drafting.reminders_due(rt, session, game, phase)
            drafting.victim_notice_due(rt, session, game, phase)
        return phase.name if phase else None


def _hammered(rt: Runtime, game: Game, phase: Phase) -> bool:
    """A Day whose vote count reached the majority that ends it (``majority_ends_day``)."""
    if phase.kind is not PhaseKind.DAY:
        return False
    count = daycount.tally(rt, game.id)
    return count is not None and count.result.decision.ended == "hammer"


def open_phase(session: Session, game: Game, plan: schedule.PhasePlan) -> Phase:
    """Open a phase (promoting its pending row) and plan the one after it."""
    phase = _row(session, game, plan)
    phase.status = PhaseStatus.OPEN
    _fill(game, phase, plan)
    following = schedule.following_plan(schedule_of(game), plan.name, plan.deadline)
    _fill(game, _row(session, game, following), following)
    session.flush()
    return phase


def freeze(session: Session, game: Game, phase: Phase) -> None:
    """Stop taking orders: a parsed order whose PM came after the orders deadline is LATE.

    An order the GM decided stands as decided (the GM has the last word); its row's time is
    when the GM's queue item was created, not when the player sent the PM.
    """
    dead_ids = {p.id for p in game.players if not is_alive(p)}
    for order in session.scalars(
        select(Order).where(Order.phase_id == phase.id, Order.status == OrderStatus.ACCEPTED)
    ):
        dead = order.player_id in dead_ids
        deadline = order_deadline(phase, order.ability, dead=dead)
        by_gm = order.decided_by.startswith("gm:")
        if deadline is not None and not by_gm and order.received_at > deadline:
            order.status = OrderStatus.LATE
    phase.status = PhaseStatus.FROZEN
    drafting.retire_vote_counts(session, game, phase)  # no vote count after the Day ended
    session.flush()


def _advance(rt: Runtime, session: Session, game: Game, phase: Phase) -> Phase | None:
    """After a published phase: end the game on a win, else open the next phase."""
    if game.winner:
        game.status = GameStatus.FINISHED
        event(rt.log, "game.finished", game=game.id)
        return phase
    following = schedule.following_plan(schedule_of(game), phase.name, _end_of(phase, rt))
    return open_phase(session, game, following)


def _end_of(phase: Phase, rt: Runtime) -> datetime:
    return phase.deadline or rt.clock.now()


def _row(session: Session, game: Game, plan: schedule.PhasePlan) -> Phase:
    for phase in game.phases:
        if phase.name == plan.name:
            return phase
    phase = Phase(game_id=game.id, sequence=len(game.phases) + 1, name=plan.name,
                  kind=PhaseKind(plan.kind), number=plan.number)  # fmt: skip
    game.phases.append(phase)
    return phase


def _fill(game: Game, phase: Phase, plan: schedule.PhasePlan) -> None:
    phase.starts_at, phase.deadline = plan.starts_at, plan.deadline
    clocks = domain.ability_clocks(domain.ruleset_of(game), plan.kind)  # the wolves' 19:00
    inner = {**plan.inner_deadlines, **schedule.clock_deadlines(schedule_of(game), plan, clocks)}
    ruleset = domain.ruleset_of(game)
    inner.update(domain.ability_windows(ruleset, plan.kind, plan.starts_at, plan.deadline))
    phase.inner_deadlines = {k: v.isoformat() for k, v in inner.items()}
