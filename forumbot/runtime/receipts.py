"""Receipts for order PMs: a short private answer, when the game asks for receipts.

Receipts are private acknowledgements the GM switched on in the game file, so they are
approved as they are drafted; they never carry another player's secret, only the sender's
own order as read, or why it is queued or late.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from forumbot.db.enums import DeliveryState, OutboundKind, ReviewKind, ReviewState
from forumbot.db.models import Game, Order, Outbound, Phase, Player, RawPM, RawPost, ReviewItem
from forumbot.db.repo import draft_outbound, move_outbound
from forumbot.runtime.pipeline import OrderReading, phase_title
from forumbot.services import games

LOOK_BACK = timedelta(minutes=5)  # forums show times to the minute

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
        if raw.sent_at < game.created_at and ran_before(session, game):
            check_forum_first(session, game, row, since=raw.sent_at)  # answered before?


def ran_before(session: Session, game: Game) -> bool:
    """True when the game ran on another database before this one started it.

    Signs: ``forumbot run`` found the game bound to this database name since earlier (a
    lost or recreated file, see ``note_ran_before``), or the thread holds posts by the bot
    older than the game's row here.
    """
    if games.runtime_state(game).get("ran_before"):
        return True
    bot = games.config_of(game).credentials.username
    older = select(RawPost.id).where(
        RawPost.forum_id == game.forum_id,
        RawPost.topic_id == game.topic_id,
        func.lower(RawPost.author_name) == bot.lower(),
        RawPost.posted_at < game.created_at,
    )
    return session.scalar(older.limit(1)) is not None


def note_ran_before(session: Session, game: Game, since: datetime | None) -> None:
    """Remember that the game was started ``since`` (``run``'s bindings; None: never
    before) on a database that lost it: old PMs and phases are answered after a look."""
    if since is not None:
        games.set_runtime_state(game, ran_before=since.isoformat())


def check_forum_first(session: Session, game: Game, row: Outbound, *, since: datetime) -> None:
    """Have the publisher look on the forum before sending ``row`` (approved, never sent).

    For a message about something older than this database's start of the game (a fresh
    or restored database reads the inbox and thread again): an earlier database may have
    sent it. The row is marked as an interrupted attempt, so the publisher looks in the
    sent box (or the thread) from ``since`` on; found, it is confirmed and not sent again;
    not found, it is sent; a sent box it cannot read holds it for the GM.
    """
    move_outbound(session, row, DeliveryState.SENDING)
    sending = dict(games.runtime_state(game).get("sending", {}))
    sending[row.idempotency_key] = {"after_post": None, "since": (since - LOOK_BACK).isoformat()}
    games.set_runtime_state(game, sending=sending)


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
