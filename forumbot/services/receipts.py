"""Receipts for order PMs: a short private answer, when the game asks for receipts.

Receipts are private acknowledgements the GM switched on in the game file, so they are
approved as they are drafted; they never carry another player's secret, only the sender's
own order as read, or why it is queued or late.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.db.enums import DeliveryState, OutboundKind, ReviewKind, ReviewState
from forumbot.db.models import Game, Order, Outbound, Phase, Player, RawPM, ReviewItem
from forumbot.db.repo import draft_outbound, move_outbound
from forumbot.services import domain
from parsers.orders import ParseResult


def phase_title(phase: str) -> str:
    """``night2`` -> ``Night 2``."""
    head = phase.rstrip("0123456789")
    return f"{head.capitalize()} {phase[len(head) :]}".strip()


TEMPLATES = {
    "accepted": "Received: {orders}, {phase}.",
    "late": "Received after the deadline for {phase}: {orders}. It is kept and shown to the "
    "GM, but it will not be applied.",
    "queued": "Received. The GM will read it before it counts ({reason}).",
}


def receipt_text(outcome: str, phase: Phase | None, reading: ParseResult | None) -> str | None:
    """The receipt for one PM, or None when there is nothing to answer (ignored PMs)."""
    template = TEMPLATES.get(outcome)
    if template is None:
        return None
    orders = "; ".join(domain.describe(o) for o in reading.orders) if reading else ""
    reason = reading.reason if reading and reading.reason else "not read with certainty"
    title = phase_title(phase.name) if phase else "no open phase"
    return template.format(orders=orders or "no action", phase=title, reason=reason)


def draft_receipt(
    session: Session,
    game: Game,
    player: Player,
    raw: RawPM,
    phase: Phase | None,
    reading: ParseResult | None,
    outcome: str,
) -> None:
    """Draft (once, keyed by the PM) and approve the receipt if the game wants receipts."""
    if not game.settings.get("receipts", True):
        return
    body = receipt_text(outcome, phase, reading)
    if body is None:
        return
    row, new = draft_outbound(
        session,
        game_id=game.id,
        key=f"game{game.id}:receipt:pm{raw.pm_id}",
        kind=OutboundKind.PM,
        body=body,
        recipients=[player.display_name],
        subject=f"Re: {raw.subject}" if raw.subject else "Your order",
        phase_id=phase.id if phase else None,
    )
    if new and row.state is DeliveryState.DRAFT:
        move_outbound(session, row, DeliveryState.APPROVED, by="receipts")


def follow_up(session: Session, game: Game) -> int:
    """Tell each player how the GM decided their queued order PM (once per decision).

    Only the sender's own orders are repeated; a rejection says it does not count, never
    the GM's note (which may hold reasons meant for the GM alone). Returns how many.
    """
    if not game.settings.get("receipts", True):
        return 0
    done = 0
    decided = session.scalars(
        select(ReviewItem).where(
            ReviewItem.game_id == game.id,
            ReviewItem.kind == ReviewKind.ORDER,
            ReviewItem.state != ReviewState.OPEN,
            ReviewItem.player_id.is_not(None),
        )
    ).all()
    for item in decided:
        key = f"game{game.id}:decision:item{item.id}"
        if session.scalar(select(Outbound.id).where(Outbound.idempotency_key == key)):
            continue
        player = session.get(Player, item.player_id)
        phase = session.get(Phase, item.phase_id) if item.phase_id else None
        body = _decision_text(session, item, phase)
        row, _new = draft_outbound(session, game_id=game.id, key=key, kind=OutboundKind.PM,
                                   body=body, recipients=[player.display_name if player else ""],
                                   subject="Your order")  # fmt: skip
        move_outbound(session, row, DeliveryState.APPROVED, by="receipts")
        done += 1
    return done


def _decision_text(session: Session, item: ReviewItem, phase: Phase | None) -> str:
    title = phase_title(phase.name) if phase else "the game"
    if item.state is ReviewState.REJECTED:
        return f"The GM read your PM: it does not count as an order for {title}."
    orders = session.scalars(
        select(Order).where(Order.raw_pm_id == item.raw_pm_id, Order.decided_by.like("gm:%"))
    ).all()
    what = "; ".join(" ".join([o.ability or "?", *map(str, o.targets)]) for o in orders)
    return f"The GM read your PM: {what or 'no action'}, {title}."
