"""Pure parsers for phpBB 3.2 / 3.3 pages (prosilver and its children): HTML in, data out.

Posts are ``div#pN.post``; the posting time comes from ``<time datetime>`` (3.2+), which
does not depend on the member's date format. PM dates are text only and are read with
``timeparse``. Fixtures: ``fixtures/phpbb33``.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from urllib.parse import urljoin
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from lxml import etree

from forum_adapters.base import PMId, Post, PostId, PrivateMessage, UserId, UserRef
from forum_adapters.errors import LayoutChanged
from forum_adapters.markup import (
    Form,
    HtmlElement,
    cls,
    first,
    inner_html,
    read_form,
    require_end,
    text_of,
)
from forum_adapters.pages import InboxPage, InboxRow, TopicPage
from forum_adapters.timeparse import DateOrder, parse_forum_time

_USER_ID = re.compile(r"[?&]u=(\d+)")
_TOPIC = re.compile(r"[?&]t=(\d+)")
_POST_ID = re.compile(r"^p(\d+)$")
FOOTER = "//div[@id='page-footer']"  # after the last post
_PM_ID = re.compile(r"[?&]p=(\d+)")
_START = re.compile(r"[?&]start=(\d+)")
_EDIT = re.compile(r"by\s+(.+?)\s+on\s+(.+?),\s+edited", re.S)
_OFFSET = re.compile(r"UTC\s*([+\-−])\s*(\d{1,2})(?::?(\d{2}))?")
_SID = re.compile(r"[?&]sid=([0-9a-f]{32})")
_USERNAME = "a[contains(@class,'username')] | .//span[contains(@class,'username')]"
# Per-post queries, compiled once (compiling an XPath costs more than running it).
_AUTHOR_LINE = etree.XPath(".//p[contains(@class,'author')]")
_CONTENT = etree.XPath(f".//div[{cls('content')}]")
_NAME = etree.XPath(f".//{_USERNAME}")
_TIME = etree.XPath(".//time[@datetime]")
_NOTICE = etree.XPath(f".//div[{cls('notice')}]")
_UNAPPROVED = etree.XPath(f".//p[{cls('post-notice')} and {cls('unapproved')}]")
_H3 = etree.XPath(".//h3")


def is_logged_in(root: HtmlElement) -> bool:
    """True when the page has the logout link (``ucp.php?mode=logout``)."""
    return bool(root.xpath("//a[contains(@href,'mode=logout')]"))


def session_id(root: HtmlElement) -> str | None:
    """The session id shown in the logout link, if any."""
    for href in root.xpath("//a[contains(@href,'mode=logout')]/@href"):
        match = _SID.search(href)
        if match:
            return match.group(1)
    return None


def error_message(root: HtmlElement) -> str | None:
    """A form's error (``p.error`` / ``div.error``) or the login box heading for guests."""
    for xpath in (f"//p[{cls('error')}] | //div[{cls('error')}]", f"//h2[{cls('login-title')}]"):
        for element in root.xpath(xpath):
            text = text_of(element)
            if text:
                return text
    return None


def info_message(root: HtmlElement) -> str | None:
    """The text of a message page (``div#message``): errors and confirmations alike."""
    panel = first(root, "//div[@id='message']")
    if panel is None:
        return None
    paragraphs = [text_of(p) for p in panel.xpath(".//p")]
    return " ".join(p for p in paragraphs if p) or text_of(panel)


def board_zone(root: HtmlElement) -> tzinfo | None:
    """The zone the page's times are in, from the footer ("All times are UTC+01:00", with the
    zone's name in the ``title``), or None when the page does not say."""
    for title in root.xpath("//*[contains(@class,'rightside')]/span[@title]/@title"):
        try:
            return ZoneInfo(title)
        except (ValueError, ZoneInfoNotFoundError):
            match = _OFFSET.search(title)
            if match:
                sign = -1 if match.group(1) in "-−" else 1
                minutes = int(match.group(2)) * 60 + int(match.group(3) or 0)
                return timezone(sign * timedelta(minutes=minutes))
    return None


def user_from_link(link: HtmlElement | None) -> UserRef:
    """A member from a ``memberlist.php?mode=viewprofile&u=N`` link (or a guest's span)."""
    if link is None:
        return UserRef(None, "")
    match = _USER_ID.search(link.get("href") or "")
    return UserRef(UserId(int(match.group(1))) if match else None, text_of(link))


def _topic_id(root: HtmlElement, url: str) -> int | None:
    for href in root.xpath(
        "//link[@rel='canonical']/@href | //h2[contains(@class,'topic-title')]/a/@href"
        " | //a[contains(@href,'mode=reply')]/@href"
    ):
        match = _TOPIC.search(href)
        if match:
            return int(match.group(1))
    match = _TOPIC.search(url)
    return int(match.group(1)) if match else None


def _pagination(root: HtmlElement) -> tuple[int, int, str | None]:
    """(current page, last page, next page href) from the first ``div.pagination``.

    "Page x of y" is read where prosilver prints it (plain on one page, in the jump box's
    ``span.sr-only`` beyond 6 pages); otherwise the active page and the page links'
    ``start=`` values tell (a 2-6 page topic shows only those).
    """
    box = first(root, "//div[contains(@class,'pagination')]")
    if box is None:
        return 1, 1, None
    current, last = 1, 1
    numbers = [int(n) for n in box.xpath(".//strong/text()") if n.strip().isdigit()]
    if len(numbers) >= 2:
        current, last = numbers[0], numbers[1]
    active = [t.strip() for t in box.xpath(".//li[contains(@class,'active')]/span/text()")]
    if active and active[0].isdigit():  # up to 6 pages prosilver prints no "Page x of y"
        current = int(active[0])
    starts = sorted({int(m) for h in box.xpath(".//a/@href") for m in _START.findall(h)} - {0})
    if starts:  # the page size divides every start
        last = max(last, starts[-1] // math.gcd(*starts) + 1)
    last = max(last, current)
    following = box.xpath(".//li[contains(@class,'next')]//a/@href | .//a[@rel='next']/@href")
    return current, last, following[0] if following else None


def parse_topic_page(
    root: HtmlElement,
    url: str,
    *,
    now: datetime,
    tz: tzinfo,
    base_url: str,
    order: DateOrder | None = None,
) -> TopicPage:
    """Read one ``viewtopic.php`` page.

    Args:
        root: the parsed page.
        url: the URL it was fetched from.
        now: the server's clock (for an edit notice saying "Today").
        tz: the zone the forum shows text dates in for this account.
        base_url: the board folder, for absolute links.
        order: how the board orders numeric dates (None: guessed).

    Returns:
        The page's posts and where the next page is.

    Raises:
        LayoutChanged: no posts, a post without author or time, or no footer (the page was
            cut short or not read to its end).
    """
    topic_id = _topic_id(root, url)
    blocks = [b for b in root.xpath(f"//div[{cls('post')}][@id]") if _POST_ID.match(b.get("id"))]
    if topic_id is None or not blocks:
        raise LayoutChanged(url, "topic posts (div#pN.post)")
    require_end(root, url, FOOTER, "the footer (div#page-footer)")
    page, last, following = _pagination(root)
    posts = [_post(block, topic_id, page, url, (now, tz, order)) for block in blocks]
    title = text_of(first(root, "//h2[contains(@class,'topic-title')]")) or text_of(
        first(root, "//title")
    )
    return TopicPage(
        topic_id=topic_id,
        title=title,
        posts=tuple(posts),
        page=page,
        next_url=urljoin(base_url, following) if following else None,
        last_page=last,
        logged_in=is_logged_in(root),
    )


def _post(
    block: HtmlElement,
    topic_id: int,
    page: int,
    url: str,
    clock: tuple[datetime, tzinfo, DateOrder | None],
) -> Post:
    now, tz, order = clock
    post_id = int(block.get("id", "p0")[1:])
    author_line = _one(_AUTHOR_LINE(block))
    content = _one(_CONTENT(block))
    if author_line is None or content is None:
        raise LayoutChanged(url, f"the author line and content of post {post_id}")
    link = _one(_NAME(author_line))
    stamp = _one(_TIME(author_line))
    if stamp is not None:
        posted = datetime.fromisoformat(stamp.get("datetime", ""))
    else:  # phpBB 3.1 and older styles: "by NAME » DATE"
        posted = parse_forum_time(text_of(author_line).split("»")[-1], now=now, tz=tz, order=order)
    edited_at, edited_by = _edit(block, now, tz, order)
    return Post(
        post_id=PostId(post_id),
        topic_id=topic_id,
        author=user_from_link(link),
        posted_at=posted.astimezone(UTC),
        body_html=inner_html(content),
        page=page,
        edited_at=edited_at,
        edited_by=edited_by,
        subject=text_of(_one(_H3(block))),
        awaiting_approval=bool(_UNAPPROVED(block)),  # shown to its author and moderators
    )


def _one(found: list[HtmlElement]) -> HtmlElement | None:
    return found[0] if found else None


def _edit(
    block: HtmlElement, now: datetime, tz: tzinfo, order: DateOrder | None
) -> tuple[datetime | None, str | None]:
    notice = _one(_NOTICE(block))
    match = _EDIT.search(text_of(notice)) if notice is not None else None
    if match is None:
        return None, None
    try:
        return parse_forum_time(match.group(2), now=now, tz=tz, order=order), match.group(1)
    except ValueError:
        return None, match.group(1)


def parse_pm_list(
    root: HtmlElement,
    url: str,
    *,
    now: datetime,
    tz: tzinfo,
    base_url: str,
    order: DateOrder | None = None,
) -> InboxPage:
    """Read a PM folder list (inbox, outbox, sent): ids, subjects, people, dates, unread marks.

    For the outbox and sent folders, ``sender`` holds the first recipient ("To NAME").

    Raises:
        LayoutChanged: a member's folder page without the message list.
    """
    boxes = root.xpath("//input[@name='marked_msg_id[]']")
    if not boxes and is_logged_in(root) and not root.xpath("//form[@id='viewfolder']"):
        raise LayoutChanged(url, "the PM list (marked_msg_id[] check boxes)")
    rows = []
    for box in boxes:
        row = box.xpath("ancestor::dl[1]")[0]
        title = first(row, ".//a[contains(@class,'topictitle')]")
        person = first(row, f".//{_USERNAME}")
        inner = text_of(first(row, ".//*[contains(@class,'list-inner')]"))
        info = text_of(first(row, ".//dd[contains(@class,'info')]"))
        when = (info.split(":", 1)[-1] if info else inner.split("»")[-1]).strip()
        try:
            sent_at: datetime | None = parse_forum_time(when, now=now, tz=tz, order=order)
        except ValueError:
            sent_at = None
        pm_id = PMId(int(box.get("value") or 0))
        rows.append(
            InboxRow(
                pm_id=pm_id,
                subject=text_of(title),
                sender=user_from_link(person),
                sent_at=sent_at,
                unread="unread" in (row.get("class") or ""),
                view_url=urljoin(base_url, title.get("href")) if title is not None else "",
            )
        )
    _, _, following = _pagination(root)
    return InboxPage(
        rows=tuple(rows),
        next_url=urljoin(base_url, following) if following else None,
        logged_in=is_logged_in(root),
    )


def parse_pm_view(
    root: HtmlElement,
    url: str,
    *,
    now: datetime,
    tz: tzinfo,
    was_unread: bool | None = None,
    order: DateOrder | None = None,
) -> PrivateMessage:
    """Read one PM (``ucp.php?i=pm&mode=view&p=N``).

    The author line is "Sent: DATE / From: NAME / Recipient: NAME NAME ..." split by
    ``<br>``; it is read by position so that translated labels do not matter.

    Raises:
        LayoutChanged: no ``div#post-N.pm`` block.
    """
    block = first(root, f"//div[{cls('pm')}][starts-with(@id,'post-')]")
    if block is None:
        raise LayoutChanged(url, "the PM (div#post-N.pm)")
    author = first(block, ".//p[contains(@class,'author')]")
    content = first(block, f".//div[{cls('content')}]")
    if author is None or content is None:
        raise LayoutChanged(url, "the PM's author line and content")
    segments: list[list[HtmlElement | str]] = [[]]
    for node in author.xpath("node()"):
        if getattr(node, "tag", None) == "br":
            segments.append([])
        else:
            segments[-1].append(node)
    date_text = " ".join(text_of(n) if not isinstance(n, str) else n for n in segments[0])
    date_text = date_text.split(":", 1)[-1]
    people = [
        [user_from_link(n) for n in seg if not isinstance(n, str) and _is_user(n)]
        for seg in segments[1:]
    ]
    sender = people[0][0] if people and people[0] else UserRef(None, "")
    recipients = tuple(person for seg in people[1:] for person in seg)
    return PrivateMessage(
        pm_id=PMId(int(block.get("id", "post-0")[5:])),
        sender=sender,
        recipients=recipients,
        sent_at=parse_forum_time(date_text, now=now, tz=tz, order=order),
        subject=text_of(first(block, ".//h3")),
        body_html=inner_html(content),
        was_unread=was_unread,
    )


def _is_user(node: HtmlElement) -> bool:
    return "username" in (node.get("class") or "")


def sent_pm_id(root: HtmlElement) -> int | None:
    """The new PM's id on phpBB's "message sent" page (its view link / meta refresh)."""
    for href in root.xpath(
        "//meta[@http-equiv='refresh']/@content | //div[@id='message']//a/@href"
    ):
        if "mode=view" in href:
            match = _PM_ID.search(href)
            if match:
                return int(match.group(1))
    return None


def held_for_approval(root: HtmlElement, topic_id: int) -> bool:
    """Whether a reply's answer is phpBB's "held for a moderator's approval" page: a message
    page (``div#message``) refreshing to the topic (``viewtopic.php?t=N``), where a reply
    phpBB publishes at once answers with a redirect to the new post. No wording is read."""
    if first(root, "//div[@id='message']") is None:
        return False
    for content in root.xpath("//meta[@http-equiv='refresh']/@content"):
        target = content.replace("&amp;", "&")
        match = _TOPIC.search(target)
        if "viewtopic.php" in target and match and int(match.group(1)) == topic_id:
            return True
    return False


def post_form(root: HtmlElement, base_url: str) -> Form | None:
    """The posting / PM form (``form#postform``), or None."""
    return read_form(root, "//form[@id='postform']", base_url)


def login_form(root: HtmlElement, base_url: str) -> Form | None:
    """The login form (``form#login``, else any form posting to ``mode=login``)."""
    return read_form(root, "//form[@id='login']", base_url) or read_form(
        root, "//form[contains(@action,'mode=login')]", base_url
    )


def has_captcha(root: HtmlElement) -> bool:
    """True when the page asks for a CAPTCHA (GD image, reCAPTCHA, Q&A)."""
    return bool(
        root.xpath(
            "//input[@name='confirm_code'] | //*[contains(@class,'g-recaptcha')]"
            " | //img[contains(@src,'mode=confirm')] | //*[@id='captcha']"
            " | //input[@name='qa_answer']"
        )
    )
