"""Pages a GM saved from the browser, read by each engine's pure parse functions.

A saved file is a topic page or a PM page (SMF's inbox in "all at once" display, a phpBB PM
view); which one is told by trying the topic page first. No I/O: the caller reads the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, tzinfo

from forum_adapters.base import PrivateMessage
from forum_adapters.errors import LayoutChanged
from forum_adapters.markup import HtmlElement
from forum_adapters.pages import TopicPage
from forum_adapters.phpbb import parse as phpbb
from forum_adapters.smf import parse as smf


@dataclass(frozen=True, slots=True)
class SavedPage:
    """What one saved page holds: a topic page, or the PMs of a PM page (``topic`` None)."""

    topic: TopicPage | None
    pms: tuple[PrivateMessage, ...] = ()


def read_saved_smf(root: HtmlElement, where: str, *, now: datetime, tz: tzinfo) -> SavedPage:
    """A saved SMF 2.0/2.1 topic page or inbox page.

    Raises:
        LayoutChanged: neither a whole topic page nor an inbox page showing its PMs.
    """
    try:
        return SavedPage(smf.parse_topic_page(root, where, now=now, tz=tz, base_url=""))
    except LayoutChanged:
        inbox = smf.parse_inbox_page(root, where, now=now, tz=tz, base_url="")
        if not inbox.messages:
            raise
        return SavedPage(None, tuple(inbox.messages.values()))


def read_saved_phpbb(root: HtmlElement, where: str, *, now: datetime, tz: tzinfo) -> SavedPage:
    """A saved phpBB 3.x topic page or PM view.

    Raises:
        LayoutChanged: neither a whole topic page nor a PM view.
    """
    try:
        return SavedPage(phpbb.parse_topic_page(root, where, now=now, tz=tz, base_url=""))
    except LayoutChanged:
        return SavedPage(None, (phpbb.parse_pm_view(root, where, now=now, tz=tz),))
