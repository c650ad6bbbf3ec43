"""Alerts: something needs a person. A review item of kind ALERT and a PM to the GM.

One open alert per problem key (and per wording: two keys saying the same are one alert);
once the GM decided it, the same problem alerts again. Each PM names its queue item, and an
alert PM not yet sent when the GM decided its item is never sent.
Also what raises them outside a phase: a parked game, a forum that stopped answering.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from sqlalchemy import select

from forumbot.db.enums import DeliveryState, GameStatus, OutboundKind, ReviewKind, ReviewState
from forumbot.db.models import Game, Outbound, ReviewItem
from forumbot.db.repo import draft_outbound, move_outbound
from forumbot.services.context import Runtime


def raise_alert(session: Any, game: Game, key: str, reason: str) -> int:
    """One open alert per problem: a queue item (shown in status and on the GM page) and a
    PM to the GM. A problem alerts again once its previous alert was decided."""
    previous = session.scalar(
        select(ReviewItem)
        .where(ReviewItem.game_id == game.id, ReviewItem.kind == ReviewKind.ALERT,
               ReviewItem.problem_key == key)
        .order_by(ReviewItem.id.desc()).limit(1)
    )  # fmt: skip
    if previous is not None and previous.state is ReviewState.OPEN:
        return int(previous.id)
    same = session.scalars(
        select(ReviewItem).where(
            ReviewItem.game_id == game.id,
            ReviewItem.kind == ReviewKind.ALERT,
            ReviewItem.state == ReviewState.OPEN,
            ReviewItem.reason == reason,
        )
    ).first()
    if same is not None:  # another key, the same words: one alert
        return int(same.id)
    item = ReviewItem(game_id=game.id, kind=ReviewKind.ALERT, reason=reason, problem_key=key)
    session.add(item)
    session.flush()
    if game.gm_name:  # the GM also gets a PM, sent as soon as the forum takes it
        row, _new = draft_outbound(
            session, game_id=game.id, key=f"game{game.id}:alert:{item.id}", kind=OutboundKind.PM,
            body=f"forumbot needs you for {game.name} (queue item #{item.id}): {reason}",
            recipients=[game.gm_name],
            subject=f"forumbot: {game.name} needs you",
        )  # fmt: skip
        if row.state is DeliveryState.DRAFT:
            move_outbound(session, row, DeliveryState.APPROVED, by="alerts")
    return int(item.id)


_ALERT_KEY = re.compile(r"game\d+:alert:(\d+)")


def is_stale(session: Any, row: Outbound) -> bool:
    """Whether ``row`` is an alert PM whose queue item the GM already decided; such a PM is
    never sent (an approved one is moved to HELD, so it leaves the queue of things to send)."""
    match = _ALERT_KEY.fullmatch(row.idempotency_key)
    if match is None:
        return False
    item = session.get(ReviewItem, int(match.group(1)))
    if item is None or item.state is ReviewState.OPEN:
        return False
    if row.state is DeliveryState.APPROVED:
        move_outbound(session, row, DeliveryState.HELD, by="alerts")
    return True


def alert(rt: Runtime, game_id: int, key: str, reason: str) -> None:
    """Tell the GM something needs a person (queue item + PM), once per open problem."""
    with rt.sessions.begin() as session:
        raise_alert(session, session.get_one(Game, game_id), key, reason)


def park(rt: Runtime, game_id: int, reason: str) -> None:
    """Pause a game the runtime cannot carry on (a resolver error) and alert the GM."""
    with rt.sessions.begin() as session:
        game = session.get_one(Game, game_id)
        if game.status is GameStatus.RUNNING:
            game.status = GameStatus.PAUSED
            game.paused_at = rt.clock.now()
        raise_alert(session, game, "parked", f"the game is paused: {reason}; fix it, then "
                    "'forumbot phase resume'")  # fmt: skip


OUTAGE_ALERT_AFTER = timedelta(minutes=30)


def note_outage(rt: Runtime, game_id: int, error: str) -> None:
    """The forum did not answer: remember since when; past 30 minutes, alert the GM once."""
    now = rt.clock.now()
    with rt.sessions.begin() as session:
        game = session.get_one(Game, game_id)
        since = game.outage_since
        if since is None:
            game.outage_since = now
        elif now - since >= OUTAGE_ALERT_AFTER:
            raise_alert(session, game, "forum:outage",
                        f"the forum has not answered since {since.isoformat()} ({error}); "
                        "forumbot keeps trying and loses nothing")  # fmt: skip


def forum_back(rt: Runtime, game_id: int) -> None:
    """A cycle went through: forget a past outage."""
    with rt.sessions.begin() as session:
        game = session.get_one(Game, game_id)
        game.outage_since = None
