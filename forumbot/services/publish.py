"""Publishing exactly once: record the intent, send, confirm; look before sending again.

Each approved message moves APPROVED -> SENDING (committed *before* the adapter is called)
-> SENT (committed after the forum confirmed it). A message found in SENDING or FAILED has
been tried before, so it may be on the forum already (a crash after sending, a timeout on a
request that did reach the forum): it is looked for first and only resent if it is not there.
A PM whose adapter cannot read the sent box is never resent blind: the GM is asked.
A forum outage leaves the message FAILED, alerts the GM once, and is retried on the next
run; nothing is ever dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import select

from forum_adapters.base import PostId, ThreadRef
from forum_adapters.errors import (
    FloodControl,
    ForumError,
    ForumUnavailable,
    ReplyRefusedNewerPost,
)
from forum_adapters.markup import fingerprint, html_fingerprint
from forumbot.db.enums import DeliveryState, OutboundKind, ReviewState
from forumbot.db.models import Game, Outbound, ReviewItem
from forumbot.db.repo import move_outbound
from forumbot.logs import event
from forumbot.services import alerts, games
from forumbot.services.context import ForumAccess, Runtime

PENDING = (DeliveryState.APPROVED, DeliveryState.SENDING, DeliveryState.FAILED)
ROUTINE = (ReplyRefusedNewerPost, FloodControl)  # refusals the next cycle simply retries
_LOOK_BACK = timedelta(minutes=5)  # forums show times to the minute


@dataclass(frozen=True, slots=True)
class PublishReport:
    """What one publishing run did."""

    sent: int = 0
    found: int = 0
    failed: int = 0
    held: int = 0


def publish_approved(rt: Runtime, game_id: int) -> PublishReport:
    """Send every approved (or interrupted) message of a game, in the order drafted.

    Stops at the first outage: later messages wait, so posts never overtake each other.
    """
    with rt.sessions() as session:
        ids = session.scalars(
            select(Outbound.id)
            .where(Outbound.game_id == game_id, Outbound.state.in_(PENDING))
            .order_by(Outbound.id)
        ).all()
    counts = {"sent": 0, "found": 0, "failed": 0, "held": 0}
    for row_id in ids:
        outcome = deliver(rt, game_id, row_id)
        counts[outcome] = counts.get(outcome, 0) + 1
        if outcome == "failed":
            break
    return PublishReport(**{k: v for k, v in counts.items() if k in PublishReport.__slots__})


def deliver(rt: Runtime, game_id: int, row_id: int) -> str:
    """Deliver one message exactly once; returns sent, found, failed, held or skipped."""
    with rt.sessions.begin() as session:
        row = session.get_one(Outbound, row_id)
        game = session.get_one(Game, game_id)
        if row.state not in PENDING:
            return "skipped"
        decision = _gm_decision(session, game, row)
        if decision == "wait":
            return "held"
        if decision == "was-sent":  # the GM checked: it is on the forum already
            if row.state is DeliveryState.FAILED:
                move_outbound(session, row, DeliveryState.SENDING)
            move_outbound(session, row, DeliveryState.SENT)
            return "found"
        access = games.access_of(game)
        retry = row.attempts > 0 and decision != "resend"
        marks = _intent(game, row) if retry else None
    adapter = rt.adapter(access)
    if retry:
        outcome = _look_first(rt, adapter, access, row_id, marks or {})
        if outcome is not None:
            return outcome
    _record_intent(rt, game_id, row_id)
    try:
        ref_id = _send(adapter, access, row_id, rt)
    except ForumError as exc:
        _failed(rt, game_id, row_id, exc)
        return "failed"
    if rt.fault is not None:
        rt.fault("sent-not-confirmed", row_id)
    with rt.sessions.begin() as session:
        move_outbound(session, session.get_one(Outbound, row_id), DeliveryState.SENT,
                      forum_message_id=ref_id)  # fmt: skip
    event(rt.log, "publish.sent", game=game_id, outbound=row_id)
    return "sent"


def _record_intent(rt: Runtime, game_id: int, row_id: int) -> None:
    """SENDING is committed before the forum is asked, with where to look for it later."""
    with rt.sessions.begin() as session:
        row = session.get_one(Outbound, row_id)
        game = session.get_one(Game, game_id)
        if row.state is DeliveryState.SENDING:  # interrupted and not found: try again
            move_outbound(session, row, DeliveryState.FAILED, error="interrupted; not found")
        move_outbound(session, row, DeliveryState.SENDING)
        row.look_after_post, row.look_since = game.last_post_id, rt.clock.now() - _LOOK_BACK


def _send(adapter: Any, access: ForumAccess, row_id: int, rt: Runtime) -> str | None:
    with rt.sessions() as session:
        row = session.get_one(Outbound, row_id)
        kind, body, to, subject = row.kind, row.body, list(row.recipients), row.subject
    if kind is OutboundKind.POST:
        ref = adapter.reply(ThreadRef(int(access.topic_id), access.topic_url), body)
        return str(ref.post_id)
    pm = adapter.send_pm(to, subject, body)
    return str(pm.pm_id) if pm.pm_id is not None else None


def _look_first(
    rt: Runtime, adapter: Any, access: ForumAccess, row_id: int, marks: dict[str, Any]
) -> str | None:
    """After an interrupted attempt: confirm the message if the forum has it; else None."""
    with rt.sessions() as session:
        row = session.get_one(Outbound, row_id)
        kind, body, to, subject = row.kind, row.body, list(row.recipients), row.subject
    try:
        if kind is OutboundKind.POST:
            found = _find_post(adapter, access, body, marks.get("after_post"))
        else:
            finder = getattr(adapter, "find_sent_pm", None)
            if finder is None:
                _hold(rt, access.game_id, row_id)
                return "held"
            ref = finder(to, subject, body, since=marks.get("since"))
            found = None if ref is None else str(ref.pm_id)
    except ForumError as exc:
        _failed(rt, access.game_id, row_id, exc)
        return "failed"
    if found is None:
        return None
    with rt.sessions.begin() as session:
        row = session.get_one(Outbound, row_id)
        if row.state is DeliveryState.FAILED:
            move_outbound(session, row, DeliveryState.SENDING)
        move_outbound(session, row, DeliveryState.SENT, forum_message_id=found)
    event(rt.log, "publish.found_after_interruption", game=access.game_id, outbound=row_id)
    return "found"


def _find_post(adapter: Any, access: ForumAccess, body: str, after: str | None) -> str | None:
    wanted = fingerprint(body)
    thread = ThreadRef(int(access.topic_id), access.topic_url)
    start = PostId(int(after)) if after else None
    for post in adapter.iter_posts(thread, after=start):
        mine = post.author.name.casefold() == access.username.casefold()
        if mine and wanted in html_fingerprint(post.body_html):
            return str(post.post_id)
    return None


def _failed(rt: Runtime, game_id: int, row_id: int, exc: ForumError) -> None:
    """Keep the message for the next run and tell the GM once per problem."""
    with rt.sessions.begin() as session:
        row = session.get_one(Outbound, row_id)
        if row.state is DeliveryState.SENDING:
            move_outbound(session, row, DeliveryState.FAILED, error=str(exc))
        game = session.get_one(Game, game_id)
        what = "outage" if isinstance(exc, ForumUnavailable) else type(exc).__name__
        why = f"could not publish yet ({exc}); will retry"
        if not isinstance(exc, ROUTINE):  # a newer post or flood control: just try again
            alerts.raise_alert(session, game, f"publish:{what}", why)
    event(rt.log, "publish.failed", level=30, game=game_id, outbound=row_id, error=str(exc))


def _hold(rt: Runtime, game_id: int, row_id: int) -> None:
    """A PM that may already be sent, on a forum whose sent box we cannot read: ask the GM."""
    with rt.sessions.begin() as session:
        row = session.get_one(Outbound, row_id)
        game = session.get_one(Game, game_id)
        item = alerts.raise_alert(session, game, f"held:{row.idempotency_key}",
               f"the PM to {', '.join(row.recipients)} ({row.subject!r}) may already have been "
               "sent before an interruption; check the bot's sent box, then accept this item "
               "to send it again or reject it if it was sent")  # fmt: skip
        row.held_item_id = item


def _gm_decision(session: Any, game: Game, row: Outbound) -> str:
    """For a PM held for the GM: wait, resend (item accepted) or was-sent (rejected)."""
    if row.held_item_id is None:
        return "send"
    item = session.get(ReviewItem, row.held_item_id)
    if item is None or item.state is ReviewState.OPEN:
        return "wait"
    row.held_item_id = None
    return "was-sent" if item.state is ReviewState.REJECTED else "resend"


def _intent(game: Game, row: Outbound) -> dict[str, Any]:
    return {"after_post": row.look_after_post, "since": row.look_since}
