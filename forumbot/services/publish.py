"""Publishing exactly once: record the intent, send, confirm; look before sending again.

Each approved message moves APPROVED -> SENDING (committed *before* the adapter is called)
-> SENT (committed after the forum confirmed it). The adapter calls back right before the
POST that could write, and where to look for the message is committed then
(``look_since``). A message found in SENDING or FAILED without it never reached the forum
and is simply sent again; one with it (a crash after sending, a timeout on a request that did
reach the forum) is looked for first with the adapter's ``find_post``/``find_sent_pm`` and
only resent if it is not there. A PM on a forum whose sent box cannot be read is never
resent blind: the GM is asked.
A forum outage leaves the message FAILED, alerts the GM once, and is retried on the next
run; nothing is ever dropped. The forum's PM-per-hour limit pauses PMs (posts go on) while
its alert is open, for an hour at most; results go out before alerts and receipts, so a
limit delays the least urgent.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select

from forum_adapters.base import ForumAdapter, PostId, ThreadRef
from forum_adapters.errors import (
    FloodControl,
    ForumError,
    ForumNotSupported,
    ForumUnavailable,
    PMLimitReached,
    ReplyRefusedNewerPost,
)
from forumbot.db.enums import DeliveryState, OutboundKind, ReviewKind, ReviewState
from forumbot.db.models import Game, Outbound, ReviewItem
from forumbot.db.repo import move_outbound
from forumbot.logs import event
from forumbot.services import alerts, games
from forumbot.services.context import ForumAccess, Runtime

PENDING = (DeliveryState.APPROVED, DeliveryState.SENDING, DeliveryState.FAILED)
ROUTINE = (ReplyRefusedNewerPost, FloodControl)  # refusals the next cycle simply retries
_LOOK_BACK = timedelta(minutes=5)  # forums show times to the minute
PM_LIMIT_KEY = "publish:pm-limit"
PM_LIMIT_PAUSE = timedelta(hours=1)  # SMF counts the PMs of the last hour


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
        rows = session.execute(
            select(Outbound.id, Outbound.kind, Outbound.idempotency_key)
            .where(Outbound.game_id == game_id, Outbound.state.in_(PENDING))
            .order_by(Outbound.id)
        ).all()
    ranked = sorted(rows, key=lambda r: (_urgency(r.kind, r.idempotency_key), r.id))
    ids = [row.id for row in ranked]
    counts = {"sent": 0, "found": 0, "failed": 0, "held": 0}
    for row_id in ids:
        outcome = deliver(rt, game_id, row_id)
        counts[outcome] = counts.get(outcome, 0) + 1
        if outcome == "failed":
            break
    return PublishReport(**{k: v for k, v in counts.items() if k in PublishReport.__slots__})


def _urgency(kind: OutboundKind, key: str) -> int:
    """Posts and results first, then alerts to the GM, receipts and decisions last."""
    if kind is OutboundKind.POST:
        return 0
    if ":receipt:" in key or ":decision:" in key:
        return 3
    return 2 if ":alert:" in key else 1


def deliver(rt: Runtime, game_id: int, row_id: int) -> str:
    """Deliver one message exactly once; returns sent, found, failed, held or skipped."""
    with rt.sessions.begin() as session:
        row = session.get_one(Outbound, row_id)
        game = session.get_one(Game, game_id)
        if row.state not in PENDING:
            return "skipped"
        if row.kind is OutboundKind.PM and _pm_paused(session, game_id, rt.clock.now()):
            return "held"
        if alerts.is_stale(session, row):  # the GM already dealt with what it is about
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
        posted = row.look_since is not None  # the POST was made: the forum may have it
        retry = row.attempts > 0 and decision != "resend" and posted
        marks = _intent(game, row) if retry else None
    adapter = rt.adapter(access)
    if retry:
        outcome = _look_first(rt, adapter, access, row_id, marks or {})
        if outcome is not None:
            return outcome
    _record_intent(rt, game_id, row_id)
    try:
        ref_id = _send(adapter, access, row_id, rt)
    except PMLimitReached as exc:
        _pause_pms(rt, game_id, row_id, exc)
        return "held"
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
    """SENDING is committed before the forum is asked (no POST made yet)."""
    with rt.sessions.begin() as session:
        row = session.get_one(Outbound, row_id)
        if row.state is DeliveryState.SENDING:  # interrupted and not found: try again
            move_outbound(session, row, DeliveryState.FAILED, error="interrupted; not found")
        move_outbound(session, row, DeliveryState.SENDING)
        row.look_after_post, row.look_since = None, None


def _mark_posted(rt: Runtime, game_id: int, row_id: int) -> None:
    """Committed right before the adapter's POST: the forum may have it from now on, and
    this is where to look for it."""
    with rt.sessions.begin() as session:
        row = session.get_one(Outbound, row_id)
        game = session.get_one(Game, game_id)
        if row.look_since is None:
            row.look_after_post = game.last_post_id
            row.look_since = rt.clock.now() - _LOOK_BACK


def _send(adapter: ForumAdapter, access: ForumAccess, row_id: int, rt: Runtime) -> str | None:
    with rt.sessions() as session:
        row = session.get_one(Outbound, row_id)
        game = session.get_one(Game, access.game_id)
        kind, body, to, subject = row.kind, row.body, list(row.recipients), row.subject
        seen = PostId(int(game.last_post_id)) if game.last_post_id else None

    def posted() -> None:
        _mark_posted(rt, access.game_id, row_id)

    if kind is OutboundKind.POST:
        thread = ThreadRef(int(access.topic_id), access.topic_url)
        ref = adapter.reply(thread, body, last_seen=seen, on_submit=posted)
        return str(ref.post_id)
    pm = adapter.send_pm(to, subject, body, on_submit=posted)
    return str(pm.pm_id) if pm.pm_id is not None else None


def _look_first(
    rt: Runtime, adapter: ForumAdapter, access: ForumAccess, row_id: int, marks: dict[str, Any]
) -> str | None:
    """After an interrupted attempt: confirm the message if the forum has it; else None."""
    with rt.sessions() as session:
        row = session.get_one(Outbound, row_id)
        kind, body, to, subject = row.kind, row.body, list(row.recipients), row.subject
    try:
        if kind is OutboundKind.POST:
            after = marks.get("after_post")
            thread = ThreadRef(int(access.topic_id), access.topic_url)
            post = adapter.find_post(thread, body, after=PostId(int(after)) if after else None)
            found = None if post is None else str(post.post_id)
        else:
            ref = adapter.find_sent_pm(to, subject, body, since=marks.get("since"))
            found = None if ref is None else str(ref.pm_id or "")
    except ForumNotSupported:
        _hold(rt, access.game_id, row_id)
        return "held"
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


def _pm_paused(session: Any, game_id: int, now: datetime) -> bool:
    """PMs wait while the PM-limit alert is open (an hour at most: the forum's window)."""
    item = session.scalar(
        select(ReviewItem)
        .where(ReviewItem.game_id == game_id, ReviewItem.kind == ReviewKind.ALERT,
               ReviewItem.problem_key == PM_LIMIT_KEY, ReviewItem.state == ReviewState.OPEN)
        .order_by(ReviewItem.id.desc()).limit(1)
    )  # fmt: skip
    return item is not None and now - _aware(item.created_at) < PM_LIMIT_PAUSE


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _pause_pms(rt: Runtime, game_id: int, row_id: int, exc: PMLimitReached) -> None:
    """The forum's PM-per-hour limit refused the PM before sending it: PMs wait; once told."""
    now = rt.clock.now()
    with rt.sessions.begin() as session:
        row = session.get_one(Outbound, row_id)
        game = session.get_one(Game, game_id)
        if row.state is DeliveryState.SENDING:
            move_outbound(session, row, DeliveryState.FAILED, error=str(exc))
        if not _pm_paused(session, game_id, now):
            why = (
                f"the forum refuses more PMs from the bot for now ({exc}); PMs wait up to an "
                f"hour (posts go on); accept this item once it is lifted. {exc.how_to_lift}"
            )
            item_id = alerts.raise_alert(session, game, PM_LIMIT_KEY, why)
            session.get_one(ReviewItem, item_id).created_at = now  # the pause runs from now
    event(rt.log, "publish.pm_limit", level=30, game=game_id, outbound=row_id)


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
