"""Alerts: something needs a person. A review item of kind ALERT and a PM to the GM.

One open alert per problem key; once the GM decided it, the same problem alerts again.
"""

from __future__ import annotations

from typing import Any

from forumbot.db.enums import DeliveryState, OutboundKind, ReviewKind, ReviewState
from forumbot.db.models import Game, ReviewItem
from forumbot.db.repo import draft_outbound, move_outbound
from forumbot.services import games


def raise_alert(session: Any, game: Game, key: str, reason: str) -> int:
    """One open alert per problem: a queue item (shown in status and on the GM page) and a
    PM to the GM. A problem alerts again once its previous alert was decided."""
    alerts = dict(games.runtime_state(game).get("alerts", {}))
    previous = session.get(ReviewItem, alerts[key]) if alerts.get(key) else None
    if previous is not None and previous.state is ReviewState.OPEN:
        return int(previous.id)
    item = ReviewItem(game_id=game.id, kind=ReviewKind.ALERT, reason=reason)
    session.add(item)
    session.flush()
    alerts[key] = item.id
    games.set_runtime_state(game, alerts=alerts)
    if game.gm_name:  # the GM also gets a PM, sent as soon as the forum takes it
        row, _new = draft_outbound(
            session, game_id=game.id, key=f"game{game.id}:alert:{item.id}", kind=OutboundKind.PM,
            body=f"forumbot needs you for {game.name}: {reason}", recipients=[game.gm_name],
            subject=f"forumbot: {game.name} needs you",
        )  # fmt: skip
        if row.state is DeliveryState.DRAFT:
            move_outbound(session, row, DeliveryState.APPROVED, by="alerts")
    return int(item.id)
