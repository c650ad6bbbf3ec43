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
from forumbot.db.models import Game, Phase, ReviewItem
from forumbot.db.models import Order as OrderRow
from forumbot.db.repo import append_events
from forumbot.logs import event
from forumbot.services import domain, phases
from forumbot.services.alerts import raise_alert
from forumbot.services.context import Runtime
from forumbot.services.phases import daycount, drafting
from resolver.engine import resolve_phase
from resolver.report import winner_dict
from resolver.rng import PurposeRng


def waits_for_gm(session: Session, game: Game, phase: Phase) -> bool:
    """Whether an ambiguous order of this phase is still open in the queue: the GM decides
    it before the phase resolves (an unclear order is never guessed, nor silently dropped)."""
    unclear = select(OrderRow.raw_pm_id).where(
        OrderRow.phase_id == phase.id, OrderRow.status == OrderStatus.AMBIGUOUS
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


def waits_for_tie_break(rt: Runtime, session: Session, game: Game, phase: Phase) -> bool:
    """Whether a tied day still waits for its tie-breaker (seed 003: the mayor has 10 h after
    the day): an ability whose own deadline comes after the day's (``after_deadline_hours``),
    held through its ``requires_status`` by a living player who has not used it yet. The
    holder is told once, in the game's language; past that deadline the day resolves."""
    ruleset = domain.ruleset_of(game)
    waiting = [a for a in ruleset.abilities.values() if phases.extends_past(phase, a.id)]
    now = rt.clock.now()
    open_ = [a for a in waiting if (d := phases.order_deadline(phase, a.id)) and now <= d]
    if phase.kind is not PhaseKind.DAY or not open_:
        return False
    count = daycount.tally(rt, game.id)
    if count is None or not (count.result.decision.pending and count.result.decision.tied):
        return False
    state = domain.state_before(game, phase, ruleset)
    wanted = {str(a.effect_params.get("requires_status", "")) for a in open_}
    holders = [p.name for p in state.players if p.alive and any(p.has(s) for s in wanted)]
    ids = {p.display_name: p.id for p in game.players}
    used = session.scalars(select(OrderRow.player_id).where(
        OrderRow.phase_id == phase.id, OrderRow.status == OrderStatus.ACCEPTED,
        OrderRow.ability.in_([a.id for a in open_]))).all()  # fmt: skip
    if not holders or any(ids.get(h) in used for h in holders):
        return False
    until = min(d for a in open_ if (d := phases.order_deadline(phase, a.id)))
    drafting.tie_break_notice(session, game, phase, holders, count.result.decision.tied, until)
    return True


def lynch_undecided(rt: Runtime, session: Session, game: Game, phase: Phase) -> bool:
    """Whether the Day's vote count cannot decide the lynch (doubtful votes that could change
    it, an unknown deadline rule, the moderator's pick): the GM decides before the Day
    resolves; the lynch is never guessed. A tie the mayor or a draw breaks is the
    resolver's to settle."""
    if phase.kind is not PhaseKind.DAY:
        return False
    count = daycount.tally(rt, game.id)
    decision = count.result.decision if count else None
    if decision is None or decision.waits_for != "gm":
        return False
    alert_once(session, game, phase, "lynch", f"the lynch is undecided: {decision.reason}")
    return True


def resolve(rt: Runtime, session: Session, game: Game, phase: Phase) -> None:
    """Resolve a frozen phase and draft its post and private results (once)."""
    ruleset = domain.ruleset_of(game)
    before = domain.state_before(game, phase, ruleset)
    result = resolve_phase(
        before,
        daycount.day_orders(session, game, phase),
        ruleset,
        rng=PurposeRng(game.seed),
        votes=_votes(rt, game, phase),
        phase=phase.name,
        absent=daycount.absentees(session, game, phase) if phase.kind is PhaseKind.DAY else (),
    )
    phase.state_after = domain.state_row(result.state)
    phase.resolved_at = rt.clock.now()
    append_events(session, game_id=game.id, phase_id=phase.id,
                  events=[domain.event_row(e) for e in result.events])  # fmt: skip
    dead = domain.newly_dead(before, result.state)
    for player in game.players:
        if player.display_name in dead:
            player.status = PlayerStatus.DEAD
    if result.state.winner is not None:
        game.winner = winner_dict(result.state.winner)
    drafting.draft_results(session, game, phase, result.events)
    phase.status = PhaseStatus.RESOLVED
    event(rt.log, "phase.resolved", game=game.id, phase=phase.name, dead=len(dead))


def _votes(rt: Runtime, game: Game, phase: Phase) -> dict[str, str | None]:
    """A day's votes, voter -> target, from the vote count (none at night)."""
    if phase.kind is not PhaseKind.DAY:
        return {}
    tally = daycount.tally(rt, game.id)
    return domain.resolver_votes(tally.result) if tally else {}


def alert_once(session: Session, game: Game, phase: Phase, what: str, why: str) -> None:
    """One alert per phase and problem, so a person knows the game waits for them."""
    reason = f"{phase.name} is frozen and waits for you: {why or what + ' unavailable'}"
    raise_alert(session, game, f"{phase.name}:{what}", reason)
