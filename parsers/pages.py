"""Saved thread pages (SMF 2.0, SMF 2.1, phpBB 3.3) to posts, for counting votes offline.

This is a small, read-only extractor for pages a GM saved from the browser; the live bot uses
``forum_adapters`` (which parsers may not import). Where things are, per engine (the fixtures
in ``../shared/fixtures/*/QUIRKS.md``):

* phpBB 3.3: ``div.post#pN``; author ``p.author a.username(-coloured)``; ``<time datetime>``;
  body ``div.content``; an edit adds ``div.notice`` "Last edited by ...".
* SMF 2.1: ``div.windowbg#msgN``; author ``div.poster h4 a``; date ``div.postinfo a.smalltext``
  (``title="Reply #n - ..."``); body ``div.inner#msg_N``; edits ``span#modified_N``.
* SMF 2.0: ``<a id="msgN">`` then ``div.windowbg(2)``; date in ``div.keyinfo div.smalltext``
  "« Reply #n on: DATE »"; body ``div.inner#msg_N``; edits ``div#modified_N``.

SMF prints local times ("November 27, 2026, 06:06:15 pm", "<strong>Today</strong> at 09:09
am"): the caller gives the forum's time zone and the day the page was saved.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta, tzinfo
from enum import StrEnum

import lxml.html
from lxml import etree

from parsers.votes.model import PostInput, Source

__all__ = ["Engine", "detect_engine", "extract_posts", "parse_forum_time"]


class Engine(StrEnum):
    """Forum engines whose saved pages we read."""

    PHPBB = "phpbb"
    SMF20 = "smf20"
    SMF21 = "smf21"


def detect_engine(html: str) -> Engine | None:
    """Which engine rendered a saved topic page.

    Args:
        html: the whole page.

    Returns:
        The engine, or None when the page is none of them.
    """
    head = html[:200_000]
    if re.search(r'<div[^>]+id="p\d+"[^>]+class="post\b', head) or 'id="phpbb"' in head:
        return Engine.PHPBB
    if 'class="inner"' in head and re.search(r'id="msg_\d+"', head):
        return Engine.SMF21 if "data-msgid=" in head or "smf_session_var" in head else Engine.SMF20
    return None


_REPLY = re.compile(r"Reply\s*#\s*(\d+)", re.I)
_SMF20_DATE = re.compile(r"(?:Reply\s*#\d+\s*)?on:\s*(.+?)\s*»?\s*$", re.I | re.S)
_FORMATS = (
    "%B %d, %Y, %I:%M:%S %p",
    "%B %d, %Y, %I:%M %p",
    "%b %d, %Y, %I:%M %p",
    "%b %d, %Y, %I:%M:%S %p",
    "%a %b %d, %Y %I:%M %p",
    "%d %b %Y, %H:%M",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M",
)
_RELATIVE = re.compile(r"^(today|yesterday)\s*(?:at|,)?\s*(.+)$", re.I)
_CLOCKS = ("%I:%M:%S %p", "%I:%M %p", "%H:%M:%S", "%H:%M")


def parse_forum_time(text: str, zone: tzinfo, today: date | None = None) -> datetime | None:
    """A forum's displayed time as an aware datetime.

    Args:
        text: "November 27, 2026, 06:06:15 pm", "Today at 09:09 AM", "Sun Nov 29, 2026 1:05 pm".
        zone: the time zone the forum displays times in.
        today: the day the page was saved (for "Today"/"Yesterday").

    Returns:
        The time, or None when the text is not a known format (or "Today" without ``today``).
    """
    text = " ".join(text.replace("«", " ").replace("»", " ").split())
    relative = _RELATIVE.match(text)
    if relative:
        if today is None:
            return None
        day = today - timedelta(days=1 if relative.group(1).lower() == "yesterday" else 0)
        clock = _parse_clock(relative.group(2))
        return datetime.combine(day, clock, zone) if clock else None
    for fmt in _FORMATS:
        try:
            return datetime.strptime(text, fmt).replace(tzinfo=zone)
        except ValueError:
            continue
    return None


# "Last edited by X on Sun Nov 29, 2026 1:06 pm, edited 1 time in total." (phpBB);
# "« Last Edit: Today at 09:09:45 am by player_42 »" (SMF 2.0 and 2.1).
_PHPBB_EDIT = re.compile(r"\bon (.+?), edited \d+ times?", re.I)
_SMF_EDIT = re.compile(r"Last Edit\s*:\s*(.+?)\s+by\s", re.I)


def _edit_time(
    pattern: re.Pattern[str], text: str, zone: tzinfo, today: date | None
) -> datetime | None:
    match = pattern.search(text)
    return parse_forum_time(match.group(1), zone, today) if match else None


def _parse_clock(text: str) -> time | None:
    for fmt in _CLOCKS:
        try:
            return datetime.strptime(text.strip(), fmt).time()
        except ValueError:
            continue
    return None


def _inner_html(el: etree._Element) -> str:
    parts = [el.text or ""]
    parts += [etree.tostring(child, encoding="unicode") for child in el]
    return "".join(parts).strip()


def _text(nodes: list[etree._Element]) -> str:
    return " ".join(nodes[0].text_content().split()) if nodes else ""


def _phpbb(doc: etree._Element, zone: tzinfo, today: date | None) -> list[PostInput]:
    out = []
    for post in doc.xpath('//div[contains(concat(" ", @class, " "), " post ") and @id]'):
        match = re.fullmatch(r"p(\d+)", post.get("id", ""))
        body = post.xpath('.//div[@class="content"]')
        if re.fullmatch(r"post-\d+", post.get("id", "")) and body:
            out.append(_phpbb_pm(post, body[0], zone, today))
            continue
        if not match or not body:
            continue
        author = _text(post.xpath('.//p[@class="author"]//a[contains(@class, "username")]'))
        stamp = post.xpath('.//p[@class="author"]//time/@datetime')
        when: datetime | None
        if stamp:
            when = datetime.fromisoformat(stamp[0])
        else:  # phpBB 3.0-3.2 print the time as text after "»" ("by X » Sun Aug 28, 2011 10:24 am")
            line = _text(post.xpath('.//p[@class="author"]'))
            when = parse_forum_time(line.rsplit("»", 1)[-1], zone, today)
        notice = _text(post.xpath('.//div[@class="notice"]'))
        out.append(
            PostInput(
                match.group(1),
                author,
                _inner_html(body[0]),
                time=when,
                edited="edited" in notice.lower(),
                edited_at=_edit_time(_PHPBB_EDIT, notice, zone, today),
            )
        )
    return out


def _phpbb_pm(
    post: etree._Element, body: etree._Element, zone: tzinfo, today: date | None
) -> PostInput:
    """A phpBB PM view: "Sent: DATE / From: X / Recipient: A, B" in ``p.author``."""
    head = post.xpath('.//p[@class="author"]')[0]
    lines = etree.tostring(head, encoding="unicode", method="html").split("<br")
    fields = {}
    for line in lines:
        part = lxml.html.fragment_fromstring(line.split(">", 1)[-1], create_parent="div")
        label = _text(part.xpath(".//strong")).rstrip(":").lower()
        fields[label] = (
            [_text([a]) for a in part.xpath(".//a")],
            " ".join(part.text_content().split()),
        )
    sent = fields.get("sent", ([], ""))[1].split(":", 1)[-1]
    return PostInput(
        post.get("id", "")[5:],
        (fields.get("from", ([""], ""))[0] or [""])[0],
        _inner_html(body),
        time=parse_forum_time(sent, zone, today),
        source=Source.PM,
        recipients=tuple(fields.get("recipient", ([], ""))[0] + fields.get("bcc", ([], ""))[0]),
    )


def _smf_pm(
    box: etree._Element,
    msg: str,
    body: etree._Element,
    sent: etree._Element,
    zone: tzinfo,
    today: date | None,
) -> PostInput:
    """An SMF PM ("all at once" list or single view): "Sent to: A, B on: DATE"."""
    author = _text(box.xpath('.//div[@class="poster"]//h4//a'))
    recipients = tuple(_text([a]) for a in sent.xpath(".//a"))
    stamp = sent.text_content().rsplit("on:", 1)[-1]
    return PostInput(
        msg,
        author,
        _inner_html(body),
        time=parse_forum_time(stamp, zone, today),
        source=Source.PM,
        recipients=recipients,
    )


def _smf(doc: etree._Element, zone: tzinfo, today: date | None) -> list[PostInput]:
    out = []
    for body in doc.xpath('//div[@class="inner" and starts-with(@id, "msg_")]'):
        msg = body.get("id")[4:]
        wrapper = body.xpath('ancestor::div[contains(@class, "post_wrapper")][1]') or body.xpath(
            'ancestor::div[contains(@class, "windowbg")][1]'
        )
        if not wrapper:
            continue
        box = wrapper[0]
        sent = box.xpath('.//*[contains(@class, "smalltext")][strong[contains(., "Sent to")]]')
        if sent:  # a PM page (SMF 2.0 and 2.1)
            out.append(_smf_pm(box, msg, body, sent[0], zone, today))
            continue
        author = _text(box.xpath('.//div[@class="poster"]//h4//a')) or _text(
            box.xpath('.//div[@class="poster"]//h4')
        )
        info = box.xpath('.//div[@class="postinfo"]/a[contains(@class, "smalltext")]')
        if info:  # SMF 2.1
            stamp, title = _text(info), info[0].get("title", "")
        else:  # SMF 2.0: "« Reply #n on: DATE »"
            title = _text(box.xpath('.//div[@class="keyinfo"]/div[@class="smalltext"]'))
            found = _SMF20_DATE.search(title)
            stamp = found.group(1) if found else ""
        reply = _REPLY.search(title)
        modified = _text(box.xpath(f'.//*[@id="modified_{msg}"]'))
        out.append(
            PostInput(
                msg,
                author,
                _inner_html(body),
                number=int(reply.group(1)) if reply else (0 if "on:" in title else None),
                time=parse_forum_time(stamp, zone, today),
                edited="last edit" in modified.lower(),
                edited_at=_edit_time(_SMF_EDIT, modified, zone, today),
            )
        )
    return out


_EXTRACTORS = {Engine.PHPBB: _phpbb, Engine.SMF20: _smf, Engine.SMF21: _smf}


def extract_posts(
    html: str, zone: tzinfo, today: date | None = None
) -> tuple[Engine, list[PostInput]]:
    """The posts of a saved topic page, engine auto-detected.

    Args:
        html: the whole page.
        zone: the forum's display time zone (phpBB pages carry their own offset).
        today: the day the page was saved, for SMF's "Today at ..." times.

    Returns:
        The engine and the posts in page order. phpBB pages carry no post numbers (the caller
        numbers posts across pages); SMF posts carry "Reply #n" as their number.

    Raises:
        ValueError: the page is not a topic page of a known engine.
    """
    engine = detect_engine(html)
    if engine is None:
        raise ValueError("not a topic page of SMF 2.0, SMF 2.1 or phpBB 3.3")
    doc = lxml.html.document_fromstring(html)
    return engine, _EXTRACTORS[engine](doc, zone, today)
