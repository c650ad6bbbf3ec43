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
run; nothing is ever dropped. One refused message never holds back the others: a refused
post makes the later posts and results wait (they keep their order), a flood-control refusal
of a PM the later PMs, any other refusal only that message; receipts and alerts to the GM
go on. A routine refusal (a newer post, flood control) is retried without an alert, until
it has failed ``ROUTINE_ALERT_AFTER`` times. The bot's own posts are no news to it: the
newest post it knows is the newest read or the newest it sent.
The forum's PM-per-hour limit is tracked ahead: the PMs the bot sent on this forum in the
last hour (per recipient, as SMF counts them) are counted against ``forum.pms_per_hour``
(else the engine's stock cap), and the PMs that would pass it are held back before the forum
refuses, results before alerts and receipts, with one alert saying when they go and how to
lift the cap. Should the forum refuse anyway, PMs pause (posts go on) while that alert is
open, for an hour at most.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select

from forum_adapters.base import ForumAdapter, PostId, ThreadRef
from forum_adapters.engines import ENGINES
from forum_adapters.errors import (
    FloodControl,
    ForumError,
    ForumNotSupported,
    ForumUnavailable,
    PendingApproval,
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
ROUTINE_ALERT_AFTER = 3  # ... until they failed this many times: then the GM is told
_LOOK_BACK = timedelta(minutes=5)  # forums show times to the minute
PM_LIMIT_KEY = "publish:pm-limit"
PM_LIMIT_PAUSE = timedelta(hours=1)  # SMF counts the PMs of the last hour
PM_BUDGET_KEY = "publish:pm-budget"
APPROVAL_KEY = "publish:pending-approval"
HELD_NOTE = "on the forum, held for a moderator's approval (not sent again)"
_HELD_FOUND = "found in the topic after an interruption, marked as awaiting approval"
_MAY_BE_SENT = (DeliveryState.SENT, DeliveryState.SENDING, DeliveryState.FAILED)


@dataclass(frozen=True, slots=True)
class PublishReport:
    """What one publishing run did."""

    sent: int = 0
    found: int = 0
    failed: int = 0
    held: int = 0
    waiting: int = 0  # left for the next run behind a failure (the forum down, a refused post)


def publish_approved(rt: Runtime, game_id: int) -> PublishReport:
    """Send every approved (or interrupted) message of a game, posts and results first.

    An outage stops the run (everything waits for the next); a refused post makes the later
    posts and results wait, so they never overtake each other; a PM refused by flood
    control the later PMs; any other refusal only its message (``_waiting``). A failure
    alerts the GM: the alert's PM, drafted meanwhile, goes in the same run (a second pass).
    """
    budget = pm_budget(rt, game_id)
    counts = {"sent": 0, "found": 0, "failed": 0, "held": 0, "waiting": 0}
    waiting = 0  # PMs held back by the hour's budget: every later PM waits too (results first)
    stopped: set[str] = set()  # what waits for the next run after a failure
    tried: set[int] = set()
    for _pass in range(_PASSES):
        rows = _pending(rt, game_id, tried)
        tried.update(r.id for r in rows)
        for row in rows:
            if _waiting(row.kind, row.idempotency_key, stopped):
                counts["waiting"] += 1
                continue
            need = len(row.recipients or ())
            if (
                row.kind is OutboundKind.PM
                and budget is not None
                and (waiting or need > budget.left)
            ):
                waiting += 1
                counts["held"] += 1
                continue
            outcome = deliver(rt, game_id, row.id)
            stopped |= _stops(row.kind, outcome)
            outcome = "failed" if outcome in _FAILURES else outcome
            counts[outcome] = counts.get(outcome, 0) + 1
            if row.kind is OutboundKind.PM and budget is not None and outcome == "sent":
                budget = budget.spent(need, rt.clock.now())
    if waiting and budget is not None:
        _hold_for_budget(rt, game_id, waiting, budget)
    return PublishReport(**{k: v for k, v in counts.items() if k in PublishReport.__slots__})


_PASSES = 2  # the messages pending at the start, then the alerts their failures raised


def _pending(rt: Runtime, game_id: int, tried: set[int]) -> list[Any]:
    """The game's messages to send and not tried yet in this run, in the order they go."""
    with rt.sessions() as session:
        rows = session.execute(
            select(Outbound.id, Outbound.kind, Outbound.idempotency_key, Outbound.recipients)
            .where(Outbound.game_id == game_id, Outbound.state.in_(PENDING))
            .order_by(Outbound.id)
        ).all()
    fresh = [r for r in rows if r.id not in tried]
    return sorted(fresh, key=lambda r: (_urgency(r.kind, r.idempotency_key), r.id))


@dataclass(frozen=True, slots=True)
class PMBudget:
    """The forum's PM cap for the bot this hour: how many more recipients it takes, and when
    the oldest PM counted leaves the hour's window (more room then).

    Attributes:
        limit: the cap (``forum.pms_per_hour``, else the engine's stock).
        left: recipients the forum still takes within the hour.
        frees_at: when the oldest PM counted stops counting (None: nothing counted).
        engine: the forum's engine (for how to lift the cap).
    """

    limit: int
    left: int
    frees_at: datetime | None
    engine: str = ""

    def spent(self, recipients: int, now: datetime) -> PMBudget:
        """The budget after sending one PM to ``recipients`` people now."""
        frees = self.frees_at or now + PM_LIMIT_PAUSE
        return PMBudget(self.limit, max(0, self.left - recipients), frees, self.engine)


def pm_budget(rt: Runtime, game_id: int) -> PMBudget | None:
    """What the forum's PM cap leaves the bot this hour, counted from the PMs the database
    holds as sent (or possibly sent: a POST made, no answer) on this game's forum in the last
    hour, per recipient as SMF counts them; None when the forum has no cap (or it is 0)."""
    now = rt.clock.now()
    with rt.sessions() as session:
        game = session.get_one(Game, game_id)
        access = games.access_of(game)
        limit = access.pms_per_hour
        if limit is None:
            entry = ENGINES.get(access.engine)
            limit = entry.pms_per_hour if entry is not None else None
        if not limit:
            return None
        rows = session.execute(
            select(Outbound.recipients, Outbound.state, Outbound.sent_at, Outbound.look_since)
            .join(Game, Game.id == Outbound.game_id)
            .where(Game.forum_id == game.forum_id, Outbound.kind == OutboundKind.PM,
                   Outbound.state.in_(_MAY_BE_SENT))
        ).all()  # fmt: skip
    times = []
    used = 0
    for row in rows:
        when = row.sent_at if row.state is DeliveryState.SENT else row.look_since
        if when is not None and now - _aware(when) < PM_LIMIT_PAUSE:
            used += len(row.recipients or ())
            times.append(_aware(when))
    frees = min(times) + PM_LIMIT_PAUSE if times else None
    return PMBudget(limit, max(0, limit - used), frees, access.engine)


def _hold_for_budget(rt: Runtime, game_id: int, waiting: int, budget: PMBudget) -> None:
    """Tell the GM once (while the alert is open) that PMs wait for the forum's hourly cap."""
    when = budget.frees_at.strftime("%H:%M UTC") if budget.frees_at else "within the hour"
    engine = ENGINES.get(budget.engine)
    lift = engine.limits_note if engine is not None else "raise forum.pms_per_hour"
    why = (
        f"{waiting} PM(s) wait: the forum takes at most {budget.limit} PMs an hour from the "
        f"bot (forum.pms_per_hour) and the bot's share of this hour is used; they go out from "
        f"{when}, results first. {lift}"
    )
    with rt.sessions.begin() as session:
        alerts.raise_alert(session, session.get_one(Game, game_id), PM_BUDGET_KEY, why)
    event(rt.log, "publish.pm_budget", level=30, game=game_id, waiting=waiting)


_FAILURES = ("failed", "refused", "rejected")  # the forum down; a routine refusal; any other


def _stops(kind: OutboundKind, outcome: str) -> set[str]:
    """What waits for the next run after one message's ``outcome``: everything (the forum
    is down), the ordered messages (a refused post: later posts and results), the PMs (flood
    control on a PM), or nothing (sent, or one message refused for its own reason)."""
    if outcome == "failed":
        return {"all"}
    if outcome in ("refused", "rejected") and kind is OutboundKind.POST:
        return {"ordered"}
    return {"pms"} if outcome == "refused" else set()


def _waiting(kind: OutboundKind, key: str, stopped: set[str]) -> bool:
    """Whether a message waits behind an earlier failure of this run (``_stops``)."""
    if "all" in stopped:
        return True
    if "ordered" in stopped and _urgency(kind, key) <= 1:
        return True
    return "pms" in stopped and kind is OutboundKind.PM


def _urgency(kind: OutboundKind, key: str) -> int:
    """Posts and results first, then alerts to the GM, receipts and decisions last."""
    if kind is OutboundKind.POST:
        return 0
    if ":receipt:" in key or ":decision:" in key:
        return 3
    return 2 if ":alert:" in key else 1


def deliver(rt: Runtime, game_id: int, row_id: int) -> str:
    """Deliver one message exactly once; returns sent, found, held or skipped, or why not:
    failed (the forum is down), refused (a routine refusal: a newer post, flood control) or
    rejected (any other refusal of this message)."""
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
            move_outbound(session, row, DeliveryState.SENT, now=rt.clock.now())
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
    except PendingApproval as exc:
        _awaiting_approval(rt, game_id, row_id, exc.post_id, str(exc))
        return "sent"
    except ForumError as exc:
        return _failed(rt, game_id, row_id, exc)
    if rt.fault is not None:
        rt.fault("sent-not-confirmed", row_id)
    with rt.sessions.begin() as session:
        move_outbound(session, session.get_one(Outbound, row_id), DeliveryState.SENT,
                      forum_message_id=ref_id, now=rt.clock.now())  # fmt: skip
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
        seen = _newest_known(session, game)

    def posted() -> None:
        _mark_posted(rt, access.game_id, row_id)

    if kind is OutboundKind.POST:
        thread = ThreadRef(int(access.topic_id), access.topic_url)
        ref = adapter.reply(thread, body, last_seen=seen, on_submit=posted)
        return str(ref.post_id)
    pm = adapter.send_pm(to, subject, body, on_submit=posted)
    return str(pm.pm_id) if pm.pm_id is not None else None


def _newest_known(session: Any, game: Game) -> PostId | None:
    """The newest post of the thread the bot knows: the newest it read, or its own newest
    post sent since (its own post is no news: a second post of the same run must not be
    refused as "new posts were made")."""
    own = session.scalars(
        select(Outbound.forum_message_id).where(
            Outbound.game_id == game.id,
            Outbound.kind == OutboundKind.POST,
            Outbound.state == DeliveryState.SENT,
        )
    ).all()
    ids = [int(i) for i in (*own, game.last_post_id) if i and str(i).isdigit()]
    return PostId(max(ids)) if ids else None


def _look_first(
    rt: Runtime, adapter: ForumAdapter, access: ForumAccess, row_id: int, marks: dict[str, Any]
) -> str | None:
    """After an interrupted attempt: confirm the message if the forum has it; else None."""
    with rt.sessions() as session:
        row = session.get_one(Outbound, row_id)
        kind, body, to, subject = row.kind, row.body, list(row.recipients), row.subject
    held = False
    try:
        if kind is OutboundKind.POST:
            after = marks.get("after_post")
            thread = ThreadRef(int(access.topic_id), access.topic_url)
            post = adapter.find_post(thread, body, after=PostId(int(after)) if after else None)
            found = None if post is None else str(post.post_id)
            held = post is not None and post.awaiting_approval
        else:
            ref = adapter.find_sent_pm(to, subject, body, since=marks.get("since"))
            found = None if ref is None else str(ref.pm_id or "")
    except ForumNotSupported:
        _hold(rt, access.game_id, row_id)
        return "held"
    except ForumError as exc:
        return _failed(rt, access.game_id, row_id, exc)
    if found is None:
        return None
    if held:  # the forum shows it to the bot only, waiting for a moderator
        _awaiting_approval(rt, access.game_id, row_id, int(found), _HELD_FOUND)
        return "found"
    with rt.sessions.begin() as session:
        row = session.get_one(Outbound, row_id)
        if row.state is DeliveryState.FAILED:
            move_outbound(session, row, DeliveryState.SENDING)
        move_outbound(session, row, DeliveryState.SENT, forum_message_id=found,
                      now=rt.clock.now())  # fmt: skip
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


def _awaiting_approval(
    rt: Runtime, game_id: int, row_id: int, post_id: int | None, words: str
) -> None:
    """The forum took the post but holds it for a moderator: it is delivered (SENT, never
    sent again), marked so on the row, and the GM is told once while the alert is open."""
    post = str(post_id) if post_id is not None else None
    with rt.sessions.begin() as session:
        row = session.get_one(Outbound, row_id)
        if row.state is DeliveryState.FAILED:  # found held after an interruption
            move_outbound(session, row, DeliveryState.SENDING)
        move_outbound(session, row, DeliveryState.SENT, forum_message_id=post,
                      now=rt.clock.now())  # fmt: skip
        row.last_error = HELD_NOTE
        why = (
            f"the forum holds the bot's posts for a moderator's approval ({words}); players do "
            "not see them until a moderator approves them in the forum's moderation queue; the "
            "bot will not send them again. Ask a moderator to approve them and to let the "
            "bot's account post without approval."
        )
        alerts.raise_alert(session, session.get_one(Game, game_id), APPROVAL_KEY, why)
    event(rt.log, "publish.awaiting_approval", level=30, game=game_id, outbound=row_id)


def _failed(rt: Runtime, game_id: int, row_id: int, exc: ForumError) -> str:
    """Keep the message for the next run and tell the GM once per problem (a routine
    refusal only once it keeps coming back); returns failed, refused or rejected."""
    routine = isinstance(exc, ROUTINE)
    with rt.sessions.begin() as session:
        row = session.get_one(Outbound, row_id)
        if row.state is DeliveryState.SENDING:
            move_outbound(session, row, DeliveryState.FAILED, error=str(exc))
        game = session.get_one(Game, game_id)
        what = "outage" if isinstance(exc, ForumUnavailable) else type(exc).__name__
        why = f"could not publish yet ({exc}); will retry"
        if routine and row.attempts >= ROUTINE_ALERT_AFTER:
            why = f"the forum refused it {row.attempts} times ({exc}); will retry each cycle"
        if not routine or row.attempts >= ROUTINE_ALERT_AFTER:
            alerts.raise_alert(session, game, f"publish:{what}", why)
    event(rt.log, "publish.failed", level=30, game=game_id, outbound=row_id, error=str(exc))
    if isinstance(exc, ForumUnavailable):
        return "failed"
    return "refused" if routine else "rejected"


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
