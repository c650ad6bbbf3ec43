"""Small HTML helpers shared by the engine parsers: load a page, inner HTML, text, forms."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin

import lxml.html
from lxml import etree
from lxml.html import HtmlElement

from forum_adapters.errors import LayoutChanged

_BBCODE_TAG = re.compile(r"\[/?[a-z*][^\]]*\]", re.IGNORECASE)
# ANSI escape sequences (ESC [ ... m colours, ESC ] ... BEL titles, two-byte ESC x), then
# every other control character but tab and newlines (C0, DEL, C1).
_CONTROL = re.compile(
    "\x1b\\[[0-?]*[ -/]*[@-~]|\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)?|\x1b[@-_]"
    "|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]"
)
_META_CHARSET = re.compile(rb"<meta[^>]+charset=[\"']?([A-Za-z0-9_.:-]+)", re.IGNORECASE)
# Smiley codes (":P", ";)", ":lol:") render as images, so they drop out of both sides.
_SMILEY = re.compile(r"(?<!\w)(?::\w+:|[:;8]-?[a-zA-Z()|/\\\[\]])(?!\w)")


# Elements nested deeper than this are flattened (their tags dropped, their text kept) when a
# page is deeper than libxml2 can read even with huge_tree (2048): 300 nested quotes are fine.
FLATTEN_DEPTH = 256
_VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)


def parse_html(page: str | bytes) -> HtmlElement:
    """Parse a whole page with lxml (bytes are decoded as UTF-8, both engines' default).

    Deep pages are read to their end: lxml's huge-tree mode lifts libxml2's depth limit of
    256 to 2048, and a page deeper still (a post of thousands of nested quotes) is parsed
    again flattened below ``FLATTEN_DEPTH``, its text kept. Engines still check that the
    page reached its footer (``require_end``): a page cut short is never taken as whole.
    """
    page = page.encode("utf-8", "surrogatepass") if isinstance(page, str) else _as_utf8(page)
    if not page.strip():
        page = b"<html></html>"
    parser = lxml.html.HTMLParser(encoding="utf-8", huge_tree=True)
    root = lxml.html.document_fromstring(page, parser=parser)
    if any(entry.type_name == "ERR_RESOURCE_LIMIT" for entry in parser.error_log):
        flat = flatten_deep(page.decode("utf-8", "replace")).encode("utf-8")
        root = lxml.html.document_fromstring(flat, parser=lxml.html.HTMLParser(encoding="utf-8"))
    return root


def _as_utf8(page: bytes) -> bytes:
    """``page`` as UTF-8: as it is when it is UTF-8, else decoded by the charset its
    ``<meta>`` declares (an old board in windows-1251), else with U+FFFD for bad bytes."""
    try:
        page.decode("utf-8")
        return page
    except UnicodeDecodeError:
        pass
    declared = _META_CHARSET.search(page[:4096])
    if declared:
        try:
            return page.decode(declared.group(1).decode("ascii")).encode("utf-8")
        except (LookupError, UnicodeDecodeError):
            pass
    return page.decode("utf-8", "replace").encode("utf-8")


def flatten_deep(page: str, limit: int = FLATTEN_DEPTH) -> str:
    """``page`` with every tag nested deeper than ``limit`` removed (text and entities kept)."""
    flattener = _Flattener(limit)
    flattener.feed(page)
    flattener.close()
    return "".join(flattener.out)


class _Flattener(HTMLParser):
    """Re-emits a page token by token, dropping the tags opened below ``limit``."""

    def __init__(self, limit: int) -> None:
        super().__init__(convert_charrefs=False)
        self.limit = limit
        self.out: list[str] = []
        self.open: list[str] = []
        self.dropped: dict[str, int] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID:
            self.out.append(self.get_starttag_text() or "")
        elif len(self.open) >= self.limit:
            self.dropped[tag] = self.dropped.get(tag, 0) + 1
        else:
            self.open.append(tag)
            self.out.append(self.get_starttag_text() or "")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.append(self.get_starttag_text() or "")

    def handle_endtag(self, tag: str) -> None:
        if self.dropped.get(tag):
            self.dropped[tag] -= 1
            return
        if tag in self.open:
            while self.open and self.open.pop() != tag:
                pass
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        self.out.append(_escape_text(data) if not self.cdata_elem else data)

    def handle_entityref(self, name: str) -> None:
        self.out.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.out.append(f"&#{name};")

    def handle_comment(self, data: str) -> None:
        self.out.append(f"<!--{data}-->")

    def handle_decl(self, decl: str) -> None:
        self.out.append(f"<!{decl}>")

    def handle_pi(self, data: str) -> None:
        self.out.append(f"<?{data}>")


def require_end(root: HtmlElement, url: str, footer_xpath: str, footer: str) -> None:
    """Refuse a page that was not read to its end (cut short, or too deep to parse).

    The engine's footer comes after the last post, so a page whose footer is missing lost
    posts: nothing of it is taken (the caller never moves past what it did not read).

    Raises:
        LayoutChanged: ``footer`` (e.g. ``div#footer``) is missing; ``saved_html`` holds the
            page as parsed, for the quarantine.
    """
    if root.xpath(footer_xpath):
        return
    raise LayoutChanged(
        url,
        f"the end of the page ({footer} after the last post; the page was cut short or "
        "could not be read to its end)",
        etree.tostring(root, encoding="unicode", method="html"),
    )


def inner_html(element: HtmlElement) -> str:
    """The element's content as HTML, without its own tag.

    Control characters (C0 but tab and newlines, DEL, C1) are dropped: a browser shows none
    of them, and a post or PM starting with ``\x01`` must read as the text it shows.
    """
    parts = [_escape_text(element.text or "")]
    for child in element:
        parts.append(etree.tostring(child, encoding="unicode", method="html", with_tail=True))
    return strip_controls("".join(parts)).strip()


def strip_controls(text: str) -> str:
    """``text`` without control characters and ANSI escape sequences (tab and newlines
    kept): what a browser shows of it, so ``"\\x1b[0mcheck Zed"`` reads ``"check Zed"``."""
    return _CONTROL.sub("", text)


def _escape_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def text_of(element: HtmlElement | None) -> str:
    """Visible text of ``element`` with whitespace collapsed ("" for None)."""
    if element is None:
        return ""
    return " ".join(element.text_content().split())


def cls(name: str) -> str:
    """XPath test for one whole class token (``contains(@class, 'content')`` would also match
    ``dropdown-contents``)."""
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


def first(element: HtmlElement, xpath: str) -> HtmlElement | None:
    """First element matching ``xpath`` under ``element``, or None."""
    found = element.xpath(xpath)
    return found[0] if found else None


def fingerprint(text: str, length: int = 80) -> str:
    """Letters and digits only, lower case, first ``length``: compares a BBCode body we sent
    with the HTML the forum renders from it (smileys, quotes and markup drop out)."""
    text = unicodedata.normalize("NFC", _SMILEY.sub(" ", _BBCODE_TAG.sub(" ", text)))
    return "".join(ch for ch in text.lower() if ch.isalnum())[:length]


def html_fingerprint(html: str, length: int = 4000) -> str:
    """``fingerprint`` of rendered HTML (its visible text)."""
    if not html.strip():
        return ""
    return fingerprint(text_of(lxml.html.fragment_fromstring(html, create_parent="div")), length)


@dataclass(slots=True)
class Form:
    """An HTML form's action and the fields a browser would send by default."""

    action: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    submits: dict[str, str] = field(default_factory=dict)

    def get(self, name: str, default: str | None = None) -> str | None:
        """The last value of field ``name`` (PHP keeps the last), or ``default``."""
        value = default
        for key, val in self.fields:
            if key == name:
                value = val
        return value

    def with_values(self, **values: str) -> list[tuple[str, str]]:
        """The fields with ``values`` replacing (or adding) the named ones."""
        out = [(k, v) for k, v in self.fields if k not in values]
        out.extend(values.items())
        return out


def read_form(root: HtmlElement, xpath: str, base_url: str) -> Form | None:
    """Read the first form matching ``xpath``: hidden/text inputs, textareas, checked boxes,
    selected options (submit buttons are listed apart, in ``submits``)."""
    found = root.xpath(xpath)
    if not found:
        return None
    form = found[0]
    result = Form(action=urljoin(base_url, form.get("action") or base_url))
    for element in form.iter("input", "textarea", "select"):
        name = element.get("name")
        if not name:
            continue
        kind = (element.get("type") or "text").lower() if element.tag == "input" else element.tag
        if kind in ("submit", "button", "image"):
            result.submits[name] = element.get("value") or ""
        elif kind in ("checkbox", "radio"):
            if element.get("checked") is not None:
                result.fields.append((name, element.get("value") or "on"))
        elif kind == "file":
            continue
        elif kind == "textarea":
            result.fields.append((name, element.text or ""))
        elif kind == "select":
            options = element.xpath(".//option[@selected]") or element.xpath(".//option")
            if options:
                result.fields.append((name, options[0].get("value") or text_of(options[0])))
        else:
            result.fields.append((name, element.get("value") or ""))
    return result
