"""Saved forum pages (a topic page, an SMF inbox, a phpBB PM view) to the vote counter's posts.

A GM's saved pages are read by the same pure parse functions the live adapters use
(``forum_adapters.smf.parse``, ``forum_adapters.phpbb.parse``), engine auto-detected by
``forum_adapters.detect_engine``: offline and live counts read a page the same way, dates in
every language the adapters know included (``forum_adapters.saved``). This module only maps
the adapters' ``Post`` and ``PrivateMessage`` to ``PostInput``.
"""

from __future__ import annotations

from datetime import date, datetime, time, tzinfo

from forum_adapters import ENGINES, Post, PrivateMessage, detect_engine
from forum_adapters.errors import ForumError, LayoutChanged
from forum_adapters.markup import parse_html
from parsers.votes import PostInput, Source


class PageError(ValueError):
    """A saved file is not a topic or PM page of a supported forum engine."""


def read_saved_page(
    html: str, where: str, zone: tzinfo, saved_on: date
) -> tuple[str, int | None, list[PostInput]]:
    """The posts (or PMs) of one saved page, engine auto-detected.

    Args:
        html: the whole page.
        where: the file it came from (named in errors).
        zone: the zone the forum shows times in; the posts' times are given in it.
        saved_on: the day the page was saved ("Today at ..." is that day, in ``zone``).

    Returns:
        The engine as ``count-votes --json`` reports it (``"smf21"``, ``"smf20"`` or
        ``"phpbb"``: a stable value of the JSON contract), the topic page number (None for a
        PM page) and the posts in page order (``number`` unset: the caller numbers across pages).

    Raises:
        PageError: not a topic or PM page of a known engine, or one cut short.
    """
    try:
        engine = detect_engine(html=html)
    except ForumError as exc:
        raise PageError(f"{where} is not a page of an SMF or phpBB forum") from exc
    now = datetime.combine(saved_on, time(23, 59, 59), tzinfo=zone)
    try:
        page = ENGINES[engine].read_saved(parse_html(html), where, now=now, tz=zone)
    except (LayoutChanged, ValueError) as exc:
        raise PageError(f"{where}: not a whole topic or PM page ({exc})") from exc
    shown = _version(engine, html)
    if page.topic is None:
        return shown, None, [_pm(pm, zone) for pm in page.pms]
    return shown, page.topic.page, [_post(post, zone) for post in page.topic.posts]


def _post(post: Post, zone: tzinfo) -> PostInput:
    return PostInput(
        id=str(post.post_id),
        author=post.author.name,
        html=post.body_html,
        time=post.posted_at.astimezone(zone),
        edited=post.edited_at is not None or post.edited_by is not None,
        edited_at=post.edited_at.astimezone(zone) if post.edited_at else None,
        author_id=str(post.author.id) if post.author.id is not None else None,
    )


def _pm(pm: PrivateMessage, zone: tzinfo) -> PostInput:
    return PostInput(
        id=str(pm.pm_id),
        author=pm.sender.name,
        html=pm.body_html,
        time=pm.sent_at.astimezone(zone),
        source=Source.PM,
        recipients=tuple(person.name for person in pm.recipients),
        author_id=str(pm.sender.id) if pm.sender.id is not None else None,
    )


def _version(engine: str, html: str) -> str:
    """SMF's major version, as the JSON contract has always named it (2.1 pages carry
    ``data-msgid`` or ``smf_session_var``; 2.0 pages neither)."""
    if engine != "smf":
        return engine
    head = html[:200_000]
    return "smf21" if "data-msgid=" in head or "smf_session_var" in head else "smf20"
