"""Pure parsers for SMF 2.0 and 2.1 pages (default themes Curve and Curve2): HTML in, data out.

Both versions are read by the same functions: they look for the ids SMF itself writes
(``msg_N`` body, ``subject_N``, ``modified_N``, ``pms[]`` check boxes), which themes keep
because SMF's JavaScript needs them, and only then for classes. Fixtures in
``fixtures/smf20`` and ``fixtures/smf21`` show each case.
"""

from __future__ import annotations

import html as html_lib
import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from itertools import pairwise
from urllib.parse import urljoin

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

_PROFILE_ID = re.compile(r"[?;&]u=(\d+)")
_TOPIC_START = re.compile(r"topic[=,](\d+)\.(\d+)")
_EXPAND = re.compile(
    r"expandPages\(this,.*?topic=(\d+)\.%1\$d.*?,\s*(\d+),\s*(\d+),\s*(\d+)\)", re.S
)
_PAGE_LINKS = "//div[contains(@class,'pagelinks') or contains(@class,'pagesection')]//a/@href"
_TOPIC_LINKS = "//div[contains(@class,'pagelinks')]"
_PM_START = re.compile(r"[;&?]start=(\d+)")
_SESSION_JS = re.compile(r'smf_session_var\s*=\s*"(\w+)";|smf_session_id\s*=\s*"(\w+)";')
_LOGOUT = re.compile(r"action=logout;(\w+)=([0-9a-f]{32})")
_EDITOR = re.compile(r"^(.*?)\s+(?:by|par|von|от|por)\s+(.+?)\s*»?\s*$", re.S)
_TOKEN_VALUE = re.compile(r"^[0-9a-f]{32}$")
_NUMBER = re.compile(r"(?<!\d)\d{1,6}(?!\d)")

# Per-post queries, compiled once (compiling an XPath costs more than running it).
_BY_ID = etree.XPath(".//*[@id=$id]")
_CONTAINER = etree.XPath("ancestor::div[div[contains(@class,'poster')]][1]")
_POSTER = etree.XPath(".//div[contains(@class,'poster')]//h4")
_PROFILE = etree.XPath(".//a[contains(@href,'action=profile')]")
_TIMES = etree.XPath(
    ".//div[contains(@class,'postinfo')]/a[contains(@class,'smalltext')]"
    " | .//div[contains(@class,'keyinfo')]/div[contains(@class,'smalltext')"
    " and not(contains(@class,'modified'))]"
)
_HELD = etree.XPath(f"ancestor::div[{cls('approvebg')}]")
_HELD_NOTICE = etree.XPath(
    f".//div[{cls('post')}]/div[{cls('noticebox')} or {cls('approve_post')}]"
)
_ROW = etree.XPath("ancestor::tr[1]")
_ROW_SUBJECT = etree.XPath(".//a[starts-with(@href,'#msg')]")
_ROW_NEW = etree.XPath(".//img[@alt='New'] | .//*[contains(@class,'new_posts')]")
_ROW_TIME = etree.XPath("./td[contains(@class,'pm_time')] | ./td[2]")
_HEADER_TIME = etree.XPath("//div[contains(@class,'user')]/time[@datetime]")
_HEADER_ITEMS = etree.XPath("//div[contains(@class,'user')]/ul/li[not(*)]")
FOOTER = "//div[@id='footer' or @id='footer_section']"  # after the last post, 2.1 and 2.0
_BODIES = etree.XPath("//div[starts-with(@id,'msg_') and contains(@class,'inner')]")
_PM_LINE = etree.XPath(
    ".//*[contains(@class,'keyinfo') or contains(@class,'postinfo')]"
    "//*[contains(@class,'smalltext')][.//a[contains(@href,'action=profile')]]"
)


def is_logged_in(root: HtmlElement) -> bool:
    """True when the page has the member's logout link (both versions, any theme)."""
    return bool(root.xpath("//a[contains(@href, 'action=logout')]"))


def session_token(root: HtmlElement) -> tuple[str, str] | None:
    """The session variable name and value (2.1 head script, else the logout link, else a form).

    Returns:
        ``(name, value)``, or None when the page carries none.
    """
    found: dict[str, str] = {}
    for script in root.xpath("//script[not(@src)]/text()"):
        for var, value in _SESSION_JS.findall(script):
            if var:
                found["var"] = var
            if value:
                found["id"] = value
    if "var" in found and "id" in found:
        return found["var"], found["id"]
    for href in root.xpath("//a[contains(@href, 'action=logout;')]/@href"):
        match = _LOGOUT.search(href)
        if match and match.group(1) != "sesc":
            return match.group(1), match.group(2)
    for element in root.xpath("//form//input[@type='hidden']"):
        name, value = element.get("name") or "", element.get("value") or ""
        if _TOKEN_VALUE.match(value) and re.fullmatch(r"[a-z_][0-9a-z]{5,15}", name):
            return name, value
    return None


def shown_offset(
    root: HtmlElement, server_now: datetime, order: DateOrder | None = None
) -> tzinfo | None:
    """The member's current UTC offset, from the clock in the page header: 2.1 prints
    ``<time datetime="...Z">local time</time>``, 2.0 the local time next to the server's
    ``Date``. Rounded to 15 minutes; None when the page shows no clock.

    It is a fixed offset: times from the other side of a daylight-saving change come out an
    hour off, so give the zone by name (``tz``) when it matters.
    """
    for stamp in _HEADER_TIME(root):
        try:
            utc = datetime.fromisoformat(stamp.get("datetime", "").replace("Z", "+00:00"))
            shown = parse_forum_time(text_of(stamp), now=utc, tz=UTC, order=order)
        except ValueError:
            continue
        return _rounded_offset(shown - utc.astimezone(UTC))
    for item in _HEADER_ITEMS(root):
        try:
            shown = parse_forum_time(text_of(item), now=server_now, tz=UTC, order=order)
        except ValueError:
            continue
        return _rounded_offset(shown - server_now.astimezone(UTC))
    return None


def _rounded_offset(delta: timedelta) -> tzinfo | None:
    minutes = round(delta.total_seconds() / 900) * 15
    if abs(minutes) > 14 * 60:
        return None
    return timezone(timedelta(minutes=minutes)) if minutes else UTC


def error_message(root: HtmlElement) -> str | None:
    """The forum's error text: the fatal error box, a form's error box, or a login error."""
    fatal = first(root, "//*[@id='fatal_error']")
    if fatal is not None:
        body = fatal.xpath(".//*[contains(@class,'padding')] | .//*[contains(@class,'windowbg')]")
        text = text_of(body[0]) if body else text_of(fatal)
        return text or text_of(fatal)
    for xpath in (
        "//*[@id='errors']",
        "//div[contains(@class,'errorbox')]",
        "//p[contains(@class,'error')]",
        "//div[contains(@class,'noticebox')]",  # 2.1 shows "new replies" warnings here
    ):
        for element in root.xpath(xpath):
            if (element.get("style") or "").replace(" ", "").find("display:none") >= 0:
                continue
            text = text_of(element)
            if text:
                return text
    return None


def fatal_number(root: HtmlElement) -> int | None:
    """The one number in SMF's fatal error box (``div#fatal_error``), if it has exactly one.

    SMF's flood refusals (``post_WaitTime_broken``, ``pm_WaitTime_broken``,
    ``login_WaitTime_broken``: the seconds to wait) and its PM-per-hour refusal
    (``pm_too_many_per_hour``: the limit) each print one number, in every language pack
    (``%1$d``); SMF's other fatal errors print none. So the page's structure, not its
    wording, tells them apart from a refusal a person must look at.
    """
    if first(root, "//*[@id='fatal_error']") is None:
        return None
    numbers = _NUMBER.findall(error_message(root) or "")
    return int(numbers[0]) if len(numbers) == 1 else None


def session_changed(root: HtmlElement, submitted: list[tuple[str, str]]) -> bool:
    """Whether a form SMF sent back carries another session token than the one submitted:
    SMF refused the submit because the session timed out (``session_timeout``), whatever the
    language of the message. A form whose token is the one we sent was refused for another
    reason."""
    token = session_token(root)
    return token is not None and token not in submitted


def user_from_link(link: HtmlElement | None, fallback_name: str = "") -> UserRef:
    """A member from a profile link (``action=profile;u=N``)."""
    if link is None:
        return UserRef(None, fallback_name)
    match = _PROFILE_ID.search(link.get("href") or "")
    return UserRef(UserId(int(match.group(1))) if match else None, text_of(link) or fallback_name)


def _container(body: HtmlElement) -> HtmlElement:
    """The post's or PM's wrapper: the nearest ancestor holding the poster block."""
    found = _CONTAINER(body)
    return found[0] if found else body


def _author(container: HtmlElement) -> UserRef:
    posters = _POSTER(container)
    if not posters:
        return UserRef(None, "")
    links = _PROFILE(posters[0])
    return user_from_link(links[0] if links else None, text_of(posters[0]))


def _subject(container: HtmlElement, msg_id: int) -> str:
    found = _BY_ID(container, id=f"subject_{msg_id}")
    return text_of(found[0]) if found else ""


def _post_time(
    container: HtmlElement, msg_id: int, now: datetime, tz: tzinfo, order: DateOrder | None
) -> datetime:
    # 2.1: div.postinfo > a.smalltext; 2.0: div.keyinfo > div.smalltext "« Reply #n on: DATE »".
    for element in _TIMES(container):
        try:
            return parse_forum_time(text_of(element), now=now, tz=tz, order=order)
        except ValueError:
            continue
    raise LayoutChanged("", f"the time of message {msg_id}")


def _edit(
    container: HtmlElement, msg_id: int, now: datetime, tz: tzinfo, order: DateOrder | None
) -> tuple[datetime | None, str | None]:
    found = _BY_ID(container, id=f"modified_{msg_id}")
    text = text_of(found[0] if found else None).strip("«» ")
    if not text:
        return None, None
    text = re.sub(r"^.*?(?:Last Edit|Last edited)\s*:?", "", text, flags=re.I).strip()
    match = _EDITOR.match(text)
    when, who = (match.group(1), match.group(2)) if match else (text, None)
    try:
        return parse_forum_time(when, now=now, tz=tz, order=order), who
    except ValueError:
        return None, who


def _starts(root: HtmlElement, topic_id: int) -> tuple[set[int], int | None]:
    """Every page offset the page index names (shown links and the hidden expandPages range)."""
    starts: set[int] = set()
    step = None
    boxes = root.xpath(_TOPIC_LINKS)
    for href in (h for box in boxes for h in box.xpath(".//a/@href")):
        match = _TOPIC_START.search(href)
        if match and int(match.group(1)) == topic_id:
            starts.add(int(match.group(2)))
    for onclick in (o for box in boxes for o in box.xpath(".//*[@onclick]/@onclick")):
        match = _EXPAND.search(html_lib.unescape(onclick))
        if match and int(match.group(1)) == topic_id:
            low, high, step = int(match.group(2)), int(match.group(3)), int(match.group(4))
            starts.update(range(low, high + 1, step))
    return starts, step


def _current_start(root: HtmlElement, url: str) -> tuple[int | None, int]:
    canonical = root.xpath("/html/head/link[@rel='canonical']/@href")
    for href in canonical + root.xpath("/html/head/meta[@property='og:url']/@content"):
        match = _TOPIC_START.search(href)
        if match:
            return int(match.group(1)), int(match.group(2))
    match = _TOPIC_START.search(url)
    if match:
        return int(match.group(1)), int(match.group(2))
    return None, 0


def parse_topic_page(
    root: HtmlElement,
    url: str,
    *,
    now: datetime,
    tz: tzinfo,
    base_url: str,
    order: DateOrder | None = None,
) -> TopicPage:
    """Read one topic page.

    Args:
        root: the parsed page (``markup.parse_html``).
        url: the URL it was fetched from (for the page offset when the page names none).
        now: the server's clock, for "Today".
        tz: the zone the forum shows times in.
        base_url: the forum's script URL (``.../index.php``).
        order: how the forum orders numeric dates (None: guessed).

    Returns:
        The page's posts and where the next page is.

    Raises:
        LayoutChanged: no post bodies, a post without a readable time, or no footer (the
            page was cut short or not read to its end).
    """
    topic_id, start = _current_start(root, url)
    bodies = _BODIES(root)
    if topic_id is None or not bodies:
        raise LayoutChanged(url, "topic posts (div.inner#msg_N)")
    require_end(root, url, FOOTER, "the footer (div#footer, div#footer_section in 2.0)")
    starts, step = _starts(root, topic_id)
    if step is None:
        known = sorted(starts | {start})
        gaps = sorted(b - a for a, b in pairwise(known))
        step = gaps[0] if gaps else max(len(bodies), 1)
    later = sorted(s for s in starts if s > start)
    posts = []
    page = start // step + 1
    for body in bodies:
        msg_id = int(body.get("id", "msg_0")[4:])
        container = _container(body)
        try:
            posted = _post_time(container, msg_id, now, tz, order)
        except LayoutChanged as exc:
            raise LayoutChanged(url, exc.what) from None
        edited_at, edited_by = _edit(container, msg_id, now, tz, order)
        posts.append(
            Post(
                post_id=PostId(msg_id),
                topic_id=topic_id,
                author=_author(container),
                posted_at=posted,
                body_html=inner_html(body),
                page=page,
                edited_at=edited_at,
                edited_by=edited_by,
                subject=_subject(container, msg_id),
                awaiting_approval=bool(_HELD(body)),
            )
        )
    title = text_of(first(root, "/html/head/title"))
    return TopicPage(
        topic_id=topic_id,
        title=re.sub(r"\s+-\s+Page \d+$", "", title),
        posts=tuple(posts),
        page=page,
        next_url=f"{base_url}?topic={topic_id}.{later[0]}" if later else None,
        last_page=(max(starts | {start}) // step) + 1,
        logged_in=is_logged_in(root),
    )


def parse_inbox_page(
    root: HtmlElement,
    url: str,
    *,
    now: datetime,
    tz: tzinfo,
    base_url: str,
    order: DateOrder | None = None,
) -> InboxPage:
    """Read one PM folder page: the list and, in "all at once" display, every body.

    Args:
        root: the parsed page.
        url: the URL it was fetched from.
        now: the server's clock, for "Today".
        tz: the zone the forum shows times in.
        base_url: the forum's script URL.
        order: how the forum orders numeric dates (None: guessed).

    Returns:
        The rows in page order and the full PMs shown on the page.

    Raises:
        LayoutChanged: a member's inbox page without the PM list.
    """
    logged_in = is_logged_in(root)
    checkboxes = root.xpath("//input[@name='pms[]' and starts-with(@id,'deletelisting')]")
    if not checkboxes and logged_in and not root.xpath("//form[contains(@action,'action=pm')]"):
        raise LayoutChanged(url, "the PM list (pms[] check boxes)")
    rows = [_inbox_row(box, now, tz, base_url, order) for box in checkboxes]
    messages: dict[int, PrivateMessage] = {}
    unread = {row.pm_id: row.unread for row in rows}
    for body in _BODIES(root):
        pm = _pm_from_body(root, body, now, tz, unread, order)
        if pm is not None:
            messages[pm.pm_id] = pm
    return InboxPage(
        rows=tuple(rows),
        messages=messages,
        next_url=_next_inbox_url(root, url, base_url),
        logged_in=logged_in,
    )


def _inbox_row(
    box: HtmlElement, now: datetime, tz: tzinfo, base_url: str, order: DateOrder | None
) -> InboxRow:
    pm_id = PMId(int(box.get("value") or 0))
    row = _ROW(box)[0]
    links = _PROFILE(row)
    subject_links = _ROW_SUBJECT(row)
    unread = "unread_pm" in (row.get("class") or "") or bool(_ROW_NEW(row))
    sent_at = None
    for cell in _ROW_TIME(row):
        try:
            sent_at = parse_forum_time(text_of(cell), now=now, tz=tz, order=order)
            break
        except ValueError:
            continue
    return InboxRow(
        pm_id=pm_id,
        subject=text_of(subject_links[0] if subject_links else None),
        sender=user_from_link(links[-1] if links else None),
        sent_at=sent_at,
        unread=unread,
        view_url=f"{base_url}?action=pm;f=inbox;pmsg={pm_id}",
    )


def _pm_from_body(
    root: HtmlElement,
    body: HtmlElement,
    now: datetime,
    tz: tzinfo,
    unread: dict[PMId, bool | None],
    order: DateOrder | None,
) -> PrivateMessage | None:
    pm_id = PMId(int(body.get("id", "msg_0")[4:]))
    container = _container(body)
    line = None
    for element in _PM_LINE(container):
        line = element
        break
    if line is None:
        return None
    links = _PROFILE(line)
    recipients = tuple(user_from_link(a) for a in links)
    when = text_of(line)
    for person in recipients:
        when = when.replace(person.name, " ")
    return PrivateMessage(
        pm_id=pm_id,
        sender=_author(container),
        recipients=recipients,
        sent_at=parse_forum_time(when.split(":", 1)[-1], now=now, tz=tz, order=order),
        subject=_subject(container, pm_id),
        body_html=inner_html(body),
        was_unread=unread.get(pm_id),
    )


def _next_inbox_url(root: HtmlElement, url: str, base_url: str) -> str | None:
    current = _PM_START.search(url)
    here = int(current.group(1)) if current else 0
    later = []
    for href in root.xpath(_PAGE_LINKS):
        match = _PM_START.search(href)
        if match and "action=pm" in href and int(match.group(1)) > here:
            later.append((int(match.group(1)), href))
    if not later:
        return None
    return urljoin(base_url, min(later)[1])


def approval_notice(root: HtmlElement, msg_id: int) -> str:
    """The engine's own words on a post held for a moderator's approval ("This message is
    awaiting approval by a moderator." in English), as SMF shows it to the post's author
    above the body (2.1 ``div.noticebox``, 2.0 ``div.approve_post``); "" when none."""
    for body in _BY_ID(root, id=f"msg_{msg_id}"):
        for notice in _HELD_NOTICE(_container(body)):
            return text_of(notice)
    return ""


def form_needs_approval(form: Form) -> bool:
    """Whether SMF's reply form says the post will wait for a moderator's approval: both
    versions then carry ``<input type="hidden" name="not_approved" value="1">`` (the
    member may post only unapproved replies here), in every language."""
    return form.get("not_approved") == "1"


def post_form(root: HtmlElement, base_url: str) -> Form | None:
    """The reply or PM form (``form#postmodify``, both versions), or None."""
    return read_form(root, "//form[@id='postmodify']", base_url)


def login_form(root: HtmlElement, base_url: str) -> Form | None:
    """The full login form (``form#frmLogin``), else the small header one."""
    return read_form(root, "//form[@id='frmLogin']", base_url) or read_form(
        root, "//form[contains(@action,'action=login2')]", base_url
    )


def has_captcha(root: HtmlElement) -> bool:
    """True when the page asks for visual verification (SMF ``verification`` fields)."""
    return bool(
        root.xpath(
            "//input[contains(@name,'_vv[code]') or contains(@name,'vv[code]')]"
            " | //img[contains(@src,'action=verificationcode')]"
        )
    )
