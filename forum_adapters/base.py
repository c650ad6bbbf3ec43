"""Forum-side data types (posts, PMs, refs) and the ``ForumAdapter`` Protocol of every engine.

These are the only shapes that leave the adapters: the shell stores them raw and maps them
to game types. Times are always aware datetimes in UTC.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar, NewType, Protocol, runtime_checkable

PostId = NewType("PostId", int)
PMId = NewType("PMId", int)
UserId = NewType("UserId", int)
SubmitHook = Callable[[], None]
"""Called by ``reply``/``send_pm`` right before each POST that could write (not logins or
form loads): the caller records that the forum may now hold the message."""


@dataclass(frozen=True, slots=True)
class UserRef:
    """A forum member as a page shows them: numeric id (None if the page hides it) and name."""

    id: UserId | None
    name: str


@dataclass(frozen=True, slots=True)
class ThreadRef:
    """A topic on one forum: its numeric id and its normalised URL (page 1)."""

    topic_id: int
    url: str = ""


@dataclass(frozen=True, slots=True)
class Post:
    """One post of a topic, as the forum renders it.

    Attributes:
        post_id: the forum's post / message id (SMF ``msg``, phpBB ``p``).
        topic_id: the topic it belongs to.
        author: who posted it (forum user id and display name).
        posted_at: when it was posted, aware UTC.
        edited_at: when it was last edited, aware UTC, if the page shows an edit.
        edited_by: who edited it last, if shown.
        body_html: the post body's inner HTML (quotes, bold, colours kept as rendered).
        page: the 1-based topic page it was read from.
        subject: the post's subject line, if shown.
        awaiting_approval: the forum holds it for a moderator's approval: only its author
            (and moderators) see it, with the engine's "awaiting approval" mark.
    """

    post_id: PostId
    topic_id: int
    author: UserRef
    posted_at: datetime
    body_html: str
    page: int
    edited_at: datetime | None = None
    edited_by: str | None = None
    subject: str = ""
    awaiting_approval: bool = False


@dataclass(frozen=True, slots=True)
class PrivateMessage:
    """One private message received by the bot.

    Attributes:
        pm_id: the forum's PM id (grows with time on both engines).
        sender: who sent it.
        recipients: every visible recipient, the bot included (multi-recipient PMs matter).
        sent_at: when it was sent, aware UTC.
        subject: its subject line.
        body_html: the body's inner HTML.
        was_unread: whether the forum listed it as unread before the bot read it (None: unknown).
    """

    pm_id: PMId
    sender: UserRef
    recipients: tuple[UserRef, ...]
    sent_at: datetime
    subject: str
    body_html: str
    was_unread: bool | None = None


@dataclass(frozen=True, slots=True)
class PostRef:
    """Where a reply the bot posted landed: confirmed by reading it back.

    ``awaiting_approval``: the forum shows it to the bot only, held for a moderator.
    """

    topic_id: int
    post_id: PostId
    url: str
    awaiting_approval: bool = False


@dataclass(frozen=True, slots=True)
class PMRef:
    """A PM the bot sent, confirmed by the forum (its id when the forum tells it)."""

    pm_id: PMId | None
    recipients: tuple[str, ...]
    subject: str


@runtime_checkable
class ForumAdapter(Protocol):
    """The whole contract between forumbot and a forum engine (STYLE 2.3).

    Sending is exactly-once with the caller's help: ``reply``/``send_pm`` call ``on_submit``
    right before a POST that could write, and after an interruption the caller asks
    ``find_post``/``find_sent_pm`` whether the message is there before sending it again.

    Adapters log in by themselves when a page shows they are a guest (once per call), so
    logging in is not part of the contract; concrete classes also offer ``login()`` for
    ``forumbot forum check``.
    """

    engine: ClassVar[str]

    def iter_posts(self, thread: ThreadRef, *, after: PostId | None = None) -> Iterator[Post]:
        """Yield the topic's posts newer than ``after`` (all when None), oldest first."""
        ...

    def iter_pms(self, *, after: PMId | None = None) -> Iterator[PrivateMessage]:
        """Yield inbox PMs newer than ``after`` (all when None), oldest first."""
        ...

    def reply(
        self,
        thread: ThreadRef,
        body: str,
        *,
        last_seen: PostId | None = None,
        on_submit: SubmitHook | None = None,
    ) -> PostRef:
        """Post ``body`` (BBCode) as a reply and return the confirmed post; nothing is posted
        if the topic has posts newer than ``last_seen`` (``ReplyRefusedNewerPost``)."""
        ...

    def send_pm(
        self, to: Sequence[str], subject: str, body: str, *, on_submit: SubmitHook | None = None
    ) -> PMRef:
        """Send one PM to one or several members (by name) and return it, confirmed."""
        ...

    def find_post(
        self, thread: ThreadRef, body: str, *, after: PostId | None = None
    ) -> PostRef | None:
        """The bot's own post with this text newer than ``after`` (matched on the member id
        where the forum shows it), or None if the topic has none."""
        ...

    def find_sent_pm(
        self, to: Sequence[str], subject: str, body: str, *, since: datetime | None = None
    ) -> PMRef | None:
        """The bot's sent PM to ``to`` with this subject and text, sent since ``since``, or
        None if the forum shows none."""
        ...
