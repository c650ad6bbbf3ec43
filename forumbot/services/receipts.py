"""Receipts for order PMs: a short private answer, when the game asks for receipts.

Receipts are private acknowledgements the GM switched on in the game file, so they are
approved as they are drafted; they never carry another player's secret, only the sender's
own order as read, or why it is queued or late.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from forumbot.db.enums import DeliveryState, OutboundKind, ReviewKind, ReviewState
from forumbot.db.models import Game, Order, Outbound, Phase, Player, RawPM, RawPost, ReviewItem
from forumbot.db.repo import draft_outbound, move_outbound
from forumbot.render import EventRenderer
from forumbot.services import domain, games
from parsers.orders import ParseResult


def phase_title(phase: str) -> str:
    """``night2`` -> ``Night 2``."""
    head = phase.rstrip("0123456789")
    return f"{head.capitalize()} {phase[len(head) :]}".strip()


OUTCOMES = ("accepted", "late", "queued")
LOOK_BACK = timedelta(minutes=5)  # how far back the sent box is searched
SHOWN_TO = timedelta(minutes=1)  # forums show times to the minute


def message(game: Game, name: str, **data: Any) -> str:
    """A message to a player in the game's language (``templates/events/<lang>/messages``)."""
    return EventRenderer.create(domain.ruleset_of(game)).message(name, **data)


def receipt_text(
    game: Game, outcome: str, phase: Phase | None, reading: ParseResult | None
) -> str | None:
    """The receipt for one PM, or None when there is nothing to answer (ignored PMs): what
    was understood and for which phase, or that the GM will read it; never the parser's
    reasoning (it may name roles, rules or other players)."""
    if outcome not in OUTCOMES:
        return None
    parsed = reading.orders if reading else ()
    orders = [dict(zip(("ability", "targets"), domain.order_fields(o)[:2], strict=True))
              for o in parsed]  # fmt: skip
    return message(
        game,
        "receipt",
        outcome=outcome,
        orders=orders,
        orders_text="; ".join(domain.describe(o) for o in parsed),
        phase=phase_title(phase.name) if phase else "no open phase",
        phase_id=phase.name if phase else None,
    )


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
    body = receipt_text(game, outcome, phase, reading)
    if body is None:
        return
    row, new = draft_outbound(
        session,
        game_id=game.id,
        key=f"game{game.id}:receipt:pm{raw.pm_id}",
        kind=OutboundKind.PM,
        body=body,
        recipients=[player.display_name],
        subject=f"Re: {raw.subject}" if raw.subject else message(game, "subject", what="order"),
        phase_id=phase.id if phase else None,
    )
    if new and row.state is DeliveryState.DRAFT:
        move_outbound(session, row, DeliveryState.APPROVED, by="receipts")
        # Sent before this database started the game (times shown to the minute)?
        if raw.sent_at + SHOWN_TO < game.created_at and ran_before(session, game):
            check_forum_first(session, row, since=raw.sent_at)  # answered before?


def check_forum_first(session: Session, row: Outbound, *, since: datetime) -> None:
    """Have the publisher look on the forum before sending ``row`` (approved, never sent).

    For a message about something older than this database's start of the game (a fresh
    or restored database reads the inbox and thread again): an earlier database may have
    sent it. The row is marked as an interrupted attempt, so the publisher looks in the
    sent box (or the thread) from ``since`` on; found, it is confirmed and not sent again;
    not found, it is sent; a sent box it cannot read holds it for the GM.
    """
    move_outbound(session, row, DeliveryState.SENDING)
    row.look_after_post, row.look_since = None, since - LOOK_BACK


def ran_before(session: Session, game: Game) -> bool:
    """True when the game ran on another database before this one started it.

    Signs: ``forumbot run`` found the game bound to this database name since earlier while
    the database did not know it (a lost or recreated file, see ``note_ran_before``), or
    the thread holds posts by the bot older than the game's row here.
    """
    if game.settings.get("ran_before"):
        return True
    bot = games.config_of(game).credentials.username
    older = select(RawPost.id).where(
        RawPost.forum_id == game.forum_id,
        RawPost.topic_id == game.topic_id,
        func.lower(RawPost.author_name) == bot.lower(),
        RawPost.posted_at < game.created_at,
    )
    return session.scalar(older.limit(1)) is not None


def note_ran_before(session: Session, game: Game, since: datetime) -> None:
    """Remember that the game was started ``since`` on a database that lost it (``run``'s
    bindings): old PMs and phases are then answered only after a look on the forum."""
    game.settings = {**game.settings, "ran_before": since.isoformat()}


def follow_up(session: Session, game: Game) -> int:
    """Tell each player how the GM decided their queued order PM (once per decision).

    Only the sender's own orders are repeated; a rejection says it does not count and gives
    the GM's reason (the note of ``forumbot queue --reject``, told to the player as
    written), in the game's language. Returns how many.
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
        body = _decision_text(session, game, item, phase)
        row, _new = draft_outbound(session, game_id=game.id, key=key, kind=OutboundKind.PM,
                                   body=body, recipients=[player.display_name if player else ""],
                                   subject=message(game, "subject", what="order"))  # fmt: skip
        move_outbound(session, row, DeliveryState.APPROVED, by="receipts")
        done += 1
    return done


def _decision_text(session: Session, game: Game, item: ReviewItem, phase: Phase | None) -> str:
    orders = session.scalars(
        select(Order).where(Order.raw_pm_id == item.raw_pm_id, Order.decided_by.like("gm:%"))
    ).all()
    return message(
        game,
        "decision",
        rejected=item.state is ReviewState.REJECTED,
        reason=item.note if item.state is ReviewState.REJECTED else "",
        orders=[{"ability": o.ability, "targets": list(map(str, o.targets))} for o in orders],
        orders_text="; ".join(" ".join([o.ability or "?", *map(str, o.targets)]) for o in orders),
        phase=phase_title(phase.name) if phase else "the game",
        phase_id=phase.name if phase else None,
    )
