"""Alerts: something needs a person. A review item of kind ALERT and a PM to the GM.

One open alert per problem key (and per wording: two keys saying the same are one alert);
once the GM decided it, the same problem alerts again. Each PM names its queue item, and an
alert PM not yet sent when the GM decided its item is never sent.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select

from forumbot.db.enums import DeliveryState, OutboundKind, ReviewKind, ReviewState
from forumbot.db.models import Game, Outbound, ReviewItem
from forumbot.db.repo import draft_outbound, move_outbound
from forumbot.services import games


def raise_alert(session: Any, game: Game, key: str, reason: str) -> int:
    """One open alert per problem: a queue item (shown in status and on the GM page) and a
    PM to the GM. A problem alerts again once its previous alert was decided."""
    alerts = dict(games.runtime_state(game).get("alerts", {}))
    previous = session.get(ReviewItem, alerts[key]) if alerts.get(key) else None
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
        games.set_runtime_state(game, alerts={**alerts, key: same.id})
        return int(same.id)
    item = ReviewItem(game_id=game.id, kind=ReviewKind.ALERT, reason=reason)
    session.add(item)
    session.flush()
    alerts[key] = item.id
    games.set_runtime_state(game, alerts=alerts)
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
