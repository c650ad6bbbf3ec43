"""Receipts for order PMs: a short private answer, when the game asks for receipts.

Receipts are private acknowledgements the GM switched on in the game file, so they are
approved as they are drafted; they never carry another player's secret, only the sender's
own order as read, or why it is queued or late.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from forumbot.db.enums import DeliveryState, OutboundKind
from forumbot.db.models import Game, Phase, Player, RawPM
from forumbot.db.repo import draft_outbound, move_outbound
from forumbot.runtime.pipeline import OrderReading, phase_title

TEMPLATES = {
    "accepted": "Received: {orders}, {phase}.",
    "late": "Received after the deadline for {phase}: {orders}. It is kept and shown to the "
    "GM, but it will not be applied.",
    "queued": "Received. The GM will read it before it counts ({reason}).",
}


def receipt_text(outcome: str, phase: Phase | None, reading: OrderReading | None) -> str | None:
    """The receipt for one PM, or None when there is nothing to answer (ignored PMs)."""
    template = TEMPLATES.get(outcome)
    if template is None:
        return None
    orders = "; ".join(o.describe() for o in reading.orders) if reading else ""
    reason = reading.reason if reading and reading.reason else "not read with certainty"
    title = phase_title(phase.name) if phase else "no open phase"
    return template.format(orders=orders or "no action", phase=title, reason=reason)


def draft_receipt(
    session: Session,
    game: Game,
    player: Player,
    raw: RawPM,
    phase: Phase | None,
    reading: OrderReading | None,
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
