"""Resolving a frozen phase: its orders and votes to the resolver, its results to drafts.

A phase resolves once; it waits while an unclear order of it is open in the GM's queue.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from forumbot.db.enums import (
    OrderStatus,
    PhaseKind,
    PhaseStatus,
    PlayerStatus,
    ReviewKind,
    ReviewState,
)
from forumbot.db.models import Game, Order, Phase, ReviewItem
from forumbot.db.repo import append_events
from forumbot.logging import event
from forumbot.services import games
from forumbot.services.alerts import raise_alert
from forumbot.services.context import Runtime
from forumbot.services.phases import daycount, drafting
from forumbot.services.pipeline import ParsedOrder, PhaseInput


def waits_for_gm(session: Session, game: Game, phase: Phase) -> bool:
    """Whether an ambiguous order of this phase is still open in the queue: the GM decides
    it before the phase resolves (an unclear order is never guessed, nor silently dropped)."""
    unclear = select(Order.raw_pm_id).where(
        Order.phase_id == phase.id, Order.status == OrderStatus.AMBIGUOUS
    )
    waiting = session.scalar(
        select(func.count(ReviewItem.id)).where(
            ReviewItem.phase_id == phase.id,
            ReviewItem.kind == ReviewKind.ORDER,
            ReviewItem.state == ReviewState.OPEN,
            ReviewItem.raw_pm_id.in_(unclear),
        )
    )
    if waiting:
        alert_once(session, game, phase, "queue",
                    f"{waiting} unclear order(s) need your decision (forumbot queue)")  # fmt: skip
    return bool(waiting)


def resolve(rt: Runtime, session: Session, game: Game, phase: Phase) -> None:
    """Resolve a frozen phase and draft its post and private results (once)."""
    if rt.pipeline.resolver is None:
        alert_once(session, game, phase, "resolver", rt.pipeline.missing.get("resolver", ""))
        return
    outcome = rt.pipeline.resolver(_phase_input(rt, session, game, phase))
    phase.state_after = dict(outcome.state)
    phase.resolved_at = rt.clock.now()
    append_events(
        session, game_id=game.id, phase_id=phase.id, events=[dict(e) for e in outcome.events]
    )
    for player in game.players:
        if player.display_name in outcome.dead:
            player.status = PlayerStatus.DEAD
    if outcome.winner:
        games.set_runtime_state(game, winner=dict(outcome.winner))
    drafting.draft_results(rt, session, game, phase, outcome)
    phase.status = PhaseStatus.RESOLVED
    event(rt.log, "phase.resolved", game=game.id, phase=phase.name, dead=len(outcome.dead))


def _phase_input(rt: Runtime, session: Session, game: Game, phase: Phase) -> PhaseInput:
    previous = [p for p in game.phases if p.sequence < phase.sequence and p.state_after]
    names = {p.id: p.display_name for p in game.players}
    orders = session.scalars(
        select(Order)
        .where(
            Order.phase_id == phase.id,
            Order.status == OrderStatus.ACCEPTED,
            Order.ability.is_distinct_from("vote"),  # votes come from the vote count
        )
        .order_by(Order.received_at, Order.id)
    ).all()
    votes: dict[str, str] = {}
    if phase.kind is PhaseKind.DAY:
        tally = daycount.tally(rt, game.id)
        for target, voters in (tally.votes if tally else {}).items():
            votes.update({voter: target for voter in voters})
    config = games.config_of(game)
    return PhaseInput(
        ruleset=game.ruleset,
        phase=phase.name,
        seed=game.seed,
        state=previous[-1].state_after if previous else None,
        roster={p.display_name: p.role for p in game.players},
        orders=tuple(
            (names[o.player_id], ParsedOrder(o.ability or "", tuple(o.targets), o.params))
            for o in orders
        ),
        votes=votes,
        options=config.options,
    )


def alert_once(session: Session, game: Game, phase: Phase, what: str, why: str) -> None:
    """One alert per phase and problem, so a person knows the game waits for them."""
    reason = f"{phase.name} is frozen and waits for you: {why or what + ' unavailable'}"
    raise_alert(session, game, f"{phase.name}:{what}", reason)
