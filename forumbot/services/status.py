"""What a GM and the scheduler read about a game now: its status and its poll interval."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.db.enums import DeliveryState, OrderStatus, OutboundKind, PhaseKind, ReviewState
from forumbot.db.models import Game, Order, Outbound, Phase, ReviewItem
from forumbot.services import games
from forumbot.services.context import Runtime
from forumbot.services.phases import current, daycount, is_alive, orders_deadline

NEAR_DEADLINE = timedelta(minutes=15)
FAST_POLL = timedelta(seconds=30)


def poll_interval(rt: Runtime, game_id: int) -> timedelta:
    """How often to poll a game now: its poll interval, faster within 15 min of a deadline."""
    now = rt.clock.now()
    with rt.sessions() as session:
        game = session.get_one(Game, game_id)
        every = games.config_of(game).publishing.poll_interval
        phase = current(game)
        deadline = phase.deadline if phase is not None else None
    if deadline is not None and timedelta(0) <= deadline - now <= NEAR_DEADLINE:
        return min(every, FAST_POLL)
    return every


def status(rt: Runtime, ref: str | int) -> dict[str, Any]:
    """What a GM wants to see: phase, time left, players, orders received and missing, queue,
    and the approved messages not on the forum yet, each with why (``unsent``)."""
    now = rt.clock.now()
    with rt.sessions() as session:
        game = games.find(session, ref)
        phase = current(game)
        alive = [p.display_name for p in game.players if is_alive(p)]
        sent: set[str] = set()
        late: list[str] = []
        names = {p.id: p.display_name for p in game.players}
        if phase is not None:
            orders = session.scalars(select(Order).where(Order.phase_id == phase.id)).all()
            sent = {names[o.player_id] for o in orders if o.status is OrderStatus.ACCEPTED}
            late = [f"{names[o.player_id]}: {o.ability} {' '.join(map(str, o.targets))}".strip()
                    for o in orders if o.status is OrderStatus.LATE]  # fmt: skip
        orders_close = orders_deadline(phase) if phase is not None else None
        queue = session.scalars(select(ReviewItem.id).where(
            ReviewItem.game_id == game.id, ReviewItem.state == ReviewState.OPEN)).all()  # fmt: skip
        left = (phase.deadline - now) if phase and phase.deadline else None
        votes = _live_count(session, game, phase, now)
        return {
            "game": game.name, "status": game.status.value,
            "phase": phase.name if phase else None,
            "phase_status": phase.status.value if phase else None,
            "deadline": phase.deadline.isoformat() if phase and phase.deadline else None,
            "time_left": str(left).split(".")[0] if left and left.total_seconds() > 0 else "0",
            "orders_close": orders_close.isoformat() if orders_close else None,
            "alive": alive, "orders_received": sorted(sent),
            "orders_missing": [n for n in alive if n not in sent],
            "late_orders": late, "queue": len(queue), "unsent": _unsent(session, game),
            **votes,
        }  # fmt: skip


_UNSENT = (DeliveryState.APPROVED, DeliveryState.SENDING, DeliveryState.FAILED)


def _unsent(session: Session, game: Game) -> list[str]:
    """The approved messages not on the forum yet, oldest first, with the forum's last
    refusal or error when there is one: ``PM to Ann 'Re: N1' (sending)``."""
    rows = session.scalars(
        select(Outbound)
        .where(Outbound.game_id == game.id, Outbound.state.in_(_UNSENT))
        .order_by(Outbound.id)
    ).all()
    out = []
    for row in rows:
        what = ("post" if row.kind is OutboundKind.POST
                else f"PM to {', '.join(row.recipients)} {row.subject!r}")  # fmt: skip
        why = f": {row.last_error}" if row.state is DeliveryState.FAILED and row.last_error else ""
        out.append(f"{what} ({row.state.value}{why})")
    return out


def _live_count(session: Session, game: Game, phase: Phase | None, now: datetime) -> dict[str, Any]:
    """A Day's live vote count for ``forumbot status`` (the runtime's own count)."""
    if phase is None or phase.kind is not PhaseKind.DAY:
        return {}
    result = daycount.count_day(session, game, phase, now).result
    decision = result.decision
    return {
        "votes": [f"{w.target} ({w.total}): {', '.join(v.name for v in w.voters)}"
                  for w in result.wagons],
        "not_voting": list(result.not_voting),
        "votes_waiting": list(result.pending),
        "majority": decision.majority,
        "decision": f"{decision.outcome.replace('_', ' ')}: {decision.reason}",
    }  # fmt: skip
