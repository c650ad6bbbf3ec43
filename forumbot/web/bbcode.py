"""A safe BBCode → HTML renderer: how a drafted post will look on the forum.

Everything is escaped first; only a whitelist of tags is then turned back into markup, and
only innermost pairs, so the output is always balanced. Link targets must be http(s) or
mailto; colours and sizes must match strict patterns; images are shown as links (the GM's
page never loads a remote image). Unknown or malformed tags stay visible as text.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from html import unescape

from markupsafe import Markup, escape

_SIMPLE = {"b": "strong", "i": "em", "u": "u", "s": "s", "code": "code", "center": "center"}
_COLOUR = re.compile(r"^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-zA-Z]{3,20})$")
_SIZE = re.compile(r"^(\d{1,2})(pt|px)?$")
_SAFE_SCHEMES = ("http://", "https://", "mailto:")
_MAX_ROUNDS = 50  # nesting depth we bother to render; deeper tags stay as text


def _pair(tag: str) -> re.Pattern[str]:
    """``[tag]`` or ``[tag=arg]`` ... ``[/tag]`` with no inner ``[tag`` (innermost pairs)."""
    return re.compile(
        rf"\[{tag}(?:=([^\]\[]{{0,300}}))?\]((?:(?!\[{tag}[=\]]).)*?)\[/{tag}\]",
        re.IGNORECASE | re.DOTALL,
    )


def _url(arg: str | None, inner: str) -> str:
    target = unescape(arg if arg else inner).strip()
    if not target.lower().startswith(_SAFE_SCHEMES):
        return f"{inner} <span class=bb-unsafe>[unsafe link removed]</span>"
    href = escape(target)
    return f'<a href="{href}" rel="nofollow noopener noreferrer" target="_blank">{inner}</a>'


def _img(_arg: str | None, inner: str) -> str:
    target = unescape(inner).strip()
    if not target.lower().startswith(("http://", "https://")):
        return "<span class=bb-unsafe>[unsafe image removed]</span>"
    href = escape(target)
    return f'<a class=bb-img href="{href}" rel="nofollow noopener noreferrer">[image: {href}]</a>'


def _color(arg: str | None, inner: str) -> str:
    value = unescape(arg or "").strip()
    if not _COLOUR.match(value):
        return inner
    return f'<span style="color:{value}">{inner}</span>'


def _size(arg: str | None, inner: str) -> str:
    match = _SIZE.match(unescape(arg or "").strip())
    if not match:
        return inner
    percent = max(50, min(300, int(match.group(1)) * (20 if not match.group(2) else 8)))
    return f'<span style="font-size:{percent}%">{inner}</span>'


def _quote(arg: str | None, inner: str) -> str:
    author = f"<cite>{arg} wrote:</cite>" if arg else ""
    return f"<blockquote class=bb-quote>{author}{inner}</blockquote>"


def _spoiler(arg: str | None, inner: str) -> str:
    title = arg or "Spoiler"
    return f"<details class=bb-spoiler><summary>{title}</summary>{inner}</details>"


def _list(_arg: str | None, inner: str) -> str:
    items = [part.strip() for part in re.split(r"\[\*\]", inner) if part.strip()]
    return "<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>"


_HANDLERS: dict[str, Callable[[str | None, str], str]] = {
    "url": _url,
    "img": _img,
    "color": _color,
    "colour": _color,
    "size": _size,
    "quote": _quote,
    "spoiler": _spoiler,
    "list": _list,
}
_PATTERNS = {tag: _pair(tag) for tag in (*_SIMPLE, *_HANDLERS)}


def render_bbcode(text: str) -> Markup:
    """Render BBCode as safe HTML (the argument is plain text, never trusted markup)."""
    out = str(escape(text))
    for _ in range(_MAX_ROUNDS):
        before = out
        for tag, pattern in _PATTERNS.items():
            out = pattern.sub(functools.partial(_one, tag), out)
        if out == before:
            break
    return Markup(out.replace("\r\n", "\n").replace("\n", "<br>\n"))


def _one(tag: str, match: re.Match[str]) -> str:
    arg, inner = match.group(1), match.group(2)
    if tag in _SIMPLE:
        html_tag = _SIMPLE[tag]
        if tag == "center":
            return f'<div style="text-align:center">{inner}</div>'
        return f"<{html_tag}>{inner}</{html_tag}>"
    return _HANDLERS[tag](arg, inner)
