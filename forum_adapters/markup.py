"""Small HTML helpers shared by the engine parsers: load a page, inner HTML, text, forms."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from urllib.parse import urljoin

import lxml.html
from lxml import etree
from lxml.html import HtmlElement

_BBCODE_TAG = re.compile(r"\[/?[a-z*][^\]]*\]", re.IGNORECASE)
# Smiley codes (":P", ";)", ":lol:") render as images, so they drop out of both sides.
_SMILEY = re.compile(r"(?<!\w)(?::\w+:|[:;8]-?[a-zA-Z()|/\\\[\]])(?!\w)")


def parse_html(page: str | bytes) -> HtmlElement:
    """Parse a whole page with lxml (bytes are decoded as UTF-8, both engines' default)."""
    if isinstance(page, str):
        page = page.encode("utf-8", "surrogatepass")
    if not page.strip():
        page = b"<html></html>"
    parser = lxml.html.HTMLParser(encoding="utf-8")
    return lxml.html.document_fromstring(page, parser=parser)


def inner_html(element: HtmlElement) -> str:
    """The element's content as HTML, without its own tag."""
    parts = [_escape_text(element.text or "")]
    for child in element:
        parts.append(etree.tostring(child, encoding="unicode", method="html", with_tail=True))
    return "".join(parts).strip()


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
