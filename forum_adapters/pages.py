"""What the engine parsers return for whole pages: a topic page and an inbox page."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from forum_adapters.base import PMId, Post, PrivateMessage, UserRef


@dataclass(frozen=True, slots=True)
class TopicPage:
    """One page of a topic.

    Attributes:
        topic_id: the topic.
        title: the topic's title.
        posts: the posts on this page, in page order.
        page: 1-based page number.
        next_url: the next page, or None on the last page.
        last_page: the number of the topic's last page (as far as the page index tells).
        logged_in: whether the page was served to a logged-in member.
    """

    topic_id: int
    title: str
    posts: tuple[Post, ...]
    page: int
    next_url: str | None
    last_page: int
    logged_in: bool


@dataclass(frozen=True, slots=True)
class InboxRow:
    """One line of the PM list (no body).

    Attributes:
        pm_id: the PM's id.
        subject: its subject.
        sender: who sent it.
        sent_at: when, aware UTC (None if the list does not show it readably).
        unread: whether the list marks it unread (None: cannot tell).
        view_url: where its body can be read.
    """

    pm_id: PMId
    subject: str
    sender: UserRef
    sent_at: datetime | None
    unread: bool | None
    view_url: str


@dataclass(frozen=True, slots=True)
class InboxPage:
    """One page of the PM inbox.

    Attributes:
        rows: the list, in page order.
        messages: full PMs shown on the same page (SMF "all at once" display), by id.
        next_url: the page with older PMs, or None.
        logged_in: whether the page was served to a logged-in member.
    """

    rows: tuple[InboxRow, ...]
    messages: dict[int, PrivateMessage] = field(default_factory=dict)
    next_url: str | None = None
    logged_in: bool = True
