"""Storage operations that keep data safe: append-only raw input, exactly-once output.

Every function takes an open ``Session`` and leaves committing to the caller (one unit of
work per service call).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from forumbot.db.enums import DeliveryState, OutboundKind, Visibility
from forumbot.db.models import Forum, Outbound, PhaseEvent, RawPM, RawPost
from forumbot.db.types import utcnow
from forumbot.errors import ForumbotError


class DeliveryStateError(ForumbotError):
    """An outbound message was asked to move to a state it cannot reach from its current one."""

    def __init__(self, key: str, current: DeliveryState, wanted: DeliveryState) -> None:
        self.key = key
        super().__init__(f"outbound {key!r} is {current.value}; it cannot become {wanted.value}")


@dataclass(frozen=True, slots=True)
class IncomingPost:
    """A thread post as an adapter delivered it, before storage."""

    topic_id: str
    post_id: str
    author_name: str
    posted_at: datetime
    body_html: str
    author_user_id: str | None = None
    edited_at: datetime | None = None
    page_url: str | None = None


@dataclass(frozen=True, slots=True)
class IncomingPM:
    """A private message as an adapter delivered it, before storage."""

    pm_id: str
    sender_name: str
    sent_at: datetime
    body_html: str
    recipients: tuple[dict[str, Any], ...] = ()
    subject: str = ""
    sender_user_id: str | None = None


def get_or_create_forum(session: Session, engine: str, base_url: str, name: str = "") -> Forum:
    """The forum row for ``base_url``, created on first use (``engine``: in ``FORUM_ENGINES``)."""
    forum = session.scalar(select(Forum).where(Forum.base_url == base_url))
    if forum is None:
        forum = Forum(engine=engine, base_url=base_url, name=name or base_url)
        session.add(forum)
        session.flush()
    return forum


def store_post(session: Session, forum_id: int, post: IncomingPost) -> tuple[RawPost, bool]:
    """Store a fetched post unless this exact text is already stored.

    A post seen again with the same body is not stored twice. A post whose body changed
    (an edit) is stored as a new revision; the old revision stays, so the GM can see both.

    Returns:
        The stored row (new or existing) and whether it is new.
    """
    digest = hashlib.sha256(post.body_html.encode("utf-8")).hexdigest()
    latest = session.scalar(
        select(RawPost)
        .where(RawPost.forum_id == forum_id, RawPost.post_id == post.post_id)
        .order_by(RawPost.revision.desc())
        .limit(1)
    )
    if latest is not None and latest.body_sha256 == digest:
        return latest, False
    row = RawPost(
        forum_id=forum_id,
        topic_id=post.topic_id,
        post_id=post.post_id,
        revision=0 if latest is None else latest.revision + 1,
        author_user_id=post.author_user_id,
        author_name=post.author_name,
        posted_at=post.posted_at,
        edited_at=post.edited_at,
        body_html=post.body_html,
        body_sha256=digest,
        page_url=post.page_url,
    )
    session.add(row)
    session.flush()
    return row, True


def store_pm(session: Session, forum_id: int, account: str, pm: IncomingPM) -> tuple[RawPM, bool]:
    """Store a fetched PM once (PMs cannot be edited); returns the row and whether it is new."""
    existing = session.scalar(
        select(RawPM).where(
            RawPM.forum_id == forum_id, RawPM.account == account, RawPM.pm_id == pm.pm_id
        )
    )
    if existing is not None:
        return existing, False
    row = RawPM(
        forum_id=forum_id,
        account=account,
        pm_id=pm.pm_id,
        sender_user_id=pm.sender_user_id,
        sender_name=pm.sender_name,
        recipients=list(pm.recipients),
        sent_at=pm.sent_at,
        subject=pm.subject,
        body_html=pm.body_html,
    )
    session.add(row)
    session.flush()
    return row, True


def post_revisions(session: Session, forum_id: int, post_id: str) -> Sequence[RawPost]:
    """Every stored revision of a post, oldest first."""
    return session.scalars(
        select(RawPost)
        .where(RawPost.forum_id == forum_id, RawPost.post_id == post_id)
        .order_by(RawPost.revision)
    ).all()


def draft_outbound(
    session: Session,
    *,
    game_id: int,
    key: str,
    kind: OutboundKind,
    body: str,
    recipients: Sequence[str] = (),
    subject: str = "",
    phase_id: int | None = None,
) -> tuple[Outbound, bool]:
    """Record a message to send, once per ``key`` (e.g. ``game7:night2:result:Ann``).

    Drafting the same key again returns the existing row untouched: a retried job or a
    restart never creates a second message.
    """
    existing = session.scalar(select(Outbound).where(Outbound.idempotency_key == key))
    if existing is not None:
        return existing, False
    row = Outbound(
        game_id=game_id,
        phase_id=phase_id,
        kind=kind,
        idempotency_key=key,
        recipients=list(recipients),
        subject=subject,
        body=body,
    )
    session.add(row)
    session.flush()
    return row, True


# Which delivery states may follow which: publishing only moves forward.
_NEXT: dict[DeliveryState, frozenset[DeliveryState]] = {
    DeliveryState.DRAFT: frozenset({DeliveryState.APPROVED, DeliveryState.HELD}),
    DeliveryState.HELD: frozenset({DeliveryState.APPROVED, DeliveryState.DRAFT}),
    DeliveryState.APPROVED: frozenset({DeliveryState.SENDING, DeliveryState.HELD}),
    DeliveryState.SENDING: frozenset({DeliveryState.SENT, DeliveryState.FAILED}),
    DeliveryState.FAILED: frozenset({DeliveryState.SENDING}),
    DeliveryState.SENT: frozenset(),
}


def move_outbound(
    session: Session,
    row: Outbound,
    wanted: DeliveryState,
    *,
    by: str | None = None,
    forum_message_id: str | None = None,
    error: str | None = None,
    now: datetime | None = None,
) -> Outbound:
    """Move a message along its delivery states, refusing any step backwards or sideways.

    ``now`` is the runtime's clock (a game's own time, a test's fake clock); the wall clock
    when not given. The PM budget counts sent PMs by ``sent_at`` against the runtime's clock.

    Raises:
        DeliveryStateError: the move is not allowed from the row's current state.
    """
    if wanted not in _NEXT[row.state]:
        raise DeliveryStateError(row.idempotency_key, row.state, wanted)
    now = now if now is not None else utcnow()
    if wanted is DeliveryState.APPROVED:
        row.approved_by, row.approved_at = by, now
    elif wanted is DeliveryState.SENDING:
        row.attempts += 1
    elif wanted is DeliveryState.SENT:
        row.forum_message_id, row.sent_at = forum_message_id, now
    elif wanted is DeliveryState.FAILED:
        row.last_error = error
    row.state = wanted
    session.flush()
    return row


def append_events(
    session: Session, *, game_id: int, phase_id: int, events: Iterable[dict[str, Any]]
) -> list[PhaseEvent]:
    """Append a phase's events to its log, numbered after those already there.

    Each event is a mapping with ``kind``, ``visibility`` (public/private/gm), optional
    ``recipients`` and ``data``. An event without a visibility is GM-only: a secret
    is never public by omission.
    """
    start = session.scalar(
        select(func.coalesce(func.max(PhaseEvent.seq), -1)).where(PhaseEvent.phase_id == phase_id)
    )
    rows = [
        PhaseEvent(
            game_id=game_id,
            phase_id=phase_id,
            seq=int(start if start is not None else -1) + 1 + i,
            kind=str(event["kind"]),
            visibility=Visibility(event.get("visibility", Visibility.GM)),
            recipients=list(event.get("recipients", ())),
            data=dict(event.get("data", {})),
        )
        for i, event in enumerate(events)
    ]
    session.add_all(rows)
    session.flush()
    return rows
