"""Post and PM body HTML to a flat, styled view shared by the vote and order parsers.

A forum renders BBCode differently per engine (fixtures in ``../shared/fixtures``):

* bold: ``<strong>`` (phpBB 3.3, SMF 2.0), ``<b>`` (SMF 2.1), ``<div style="font-weight:bold">``
  (mafiascum's phpBB 3.0 style);
* strike: ``<s>``, ``<del>`` (SMF 2.0), ``<strike>``, ``text-decoration:line-through``;
* colour: ``style="color:..."`` or ``<font color>``;
* ``[vote]`` tags: ``<span class="bbvote">VOTE: X</span>`` (mafiascum);
* quotes: ``<blockquote>`` with ``<cite>`` (phpBB, SMF 2.1), ``div.quoteheader`` + ``blockquote``
  (SMF 2.0), ``div.quotetitle`` + ``div.quotecontent`` (old phpBB quotes *and* spoilers);
* spoilers: ``div.spoiler``/``sp-*`` classes, "Spoiler:" titles, ``display:none`` bodies.

:func:`parse_html` walks the tree once and returns a :class:`PostView`: every text node as a
:class:`Segment` carrying its style (bold/strike/vote-tag run ids, colour) and the regions it
sits in (quote depth, spoiler, code, signature, box). Callers never walk HTML themselves:

>>> view = parse_html("<blockquote>[b]x[/b]</blockquote> <b>Vote: Ann</b>")
>>> [run.text for run in view.runs(Style.BOLD)]
['Vote: Ann']
>>> view.text()
' Vote: Ann'

Everything quoted, spoilered, in code, in a signature or a box is skipped by default
(:data:`DEFAULT_SKIP`); pass ``skip=Region(0)`` to see it all.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import lxml.html
from lxml import etree

__all__ = [
    "DEFAULT_SKIP",
    "PostView",
    "Region",
    "Run",
    "Segment",
    "Style",
    "normalise_colour",
    "parse_html",
]


class Region(enum.Flag):
    """Parts of a post that readers usually skip."""

    QUOTE = enum.auto()
    SPOILER = enum.auto()
    CODE = enum.auto()
    SIGNATURE = enum.auto()
    BOX = enum.auto()  # [area]/fieldset boxes: GMs and players paste vote counts into them


DEFAULT_SKIP = Region.QUOTE | Region.SPOILER | Region.CODE | Region.SIGNATURE | Region.BOX
_QUOTE, _SPOILER, _CODE, _SIGNATURE, _BOX = (r.value for r in Region)


class Style(enum.Enum):
    """A styling whose runs of text can be listed with :meth:`PostView.runs`."""

    BOLD = "bold"
    STRIKE = "strike"
    VOTE_TAG = "vote_tag"
    COLOUR = "colour"
    PLAIN = "plain"  # a whole line, from :meth:`PostView.line_runs`


@dataclass(frozen=True, slots=True)
class Segment:
    """One text node of the post, with the style and regions it inherits.

    Attributes:
        text: the text, entities decoded; ``"\\n"`` for a line break.
        line: line number in the post (``<br>`` and block elements start a new line).
        bold: id of the outermost bold element around it, 0 when not bold.
        strike: id of the outermost strike-through element, 0 when none.
        vote_tag: id of the innermost ``[vote]`` tag element around it, 0 when none.
        colour: innermost colour, normalised (``#rrggbb`` or a lower-case name), or None.
        colour_run: id of the innermost coloured element, 0 when none.
        quote_depth: how many quotes enclose it (0 = the author's own text).
        region_bits: the regions it sits in, as bits (see :attr:`regions`).
    """

    text: str
    line: int
    bold: int = 0
    strike: int = 0
    vote_tag: int = 0
    colour: str | None = None
    colour_run: int = 0
    quote_depth: int = 0
    # Bits rather than a Region: Flag arithmetic is pure Python and this is the hot path.
    region_bits: int = 0

    @property
    def regions(self) -> Region:
        """The regions the segment sits in."""
        return Region(self.region_bits)


@dataclass(frozen=True, slots=True)
class Run:
    """Consecutive text sharing one styled element (one ``<b>...</b>``, one colour span).

    Attributes:
        text: the run's text with whitespace collapsed.
        style: the style that groups it.
        line: the line of its first segment.
        order: index of its first segment in :attr:`PostView.segments` (document order).
        end: index of its last segment.
        strike: True when the whole run is struck through.
        bold: True when the whole run is bold.
        colour: the colour of its first coloured segment.
    """

    text: str
    style: Style
    line: int
    order: int
    end: int = -1
    strike: bool = False
    bold: bool = False
    colour: str | None = None


@dataclass(frozen=True, slots=True)
class PostView:
    """A post body as styled text segments in document order.

    Attributes:
        segments: every text node, quoted and spoilered ones included (see ``regions``).
        quote_authors: the names found in quote headers ("X wrote:", "Quote from: X on ..."),
            outermost first, for callers that want to know what was quoted.
    """

    segments: tuple[Segment, ...]
    quote_authors: tuple[str, ...] = field(default=())

    def visible(self, skip: Region = DEFAULT_SKIP) -> list[Segment]:
        """The segments outside the skipped regions.

        Args:
            skip: regions to leave out (default: quotes, spoilers, code, signatures, boxes).

        Returns:
            The kept segments in document order.
        """
        mask = skip.value
        return [s for s in self.segments if not (s.region_bits & mask)]

    def text(self, skip: Region = DEFAULT_SKIP) -> str:
        """The author's own text (line breaks kept), skipping ``skip`` regions.

        Args:
            skip: regions to leave out.

        Returns:
            The concatenated text.
        """
        return "".join(s.text for s in self.visible(skip))

    def lines(self, skip: Region = DEFAULT_SKIP) -> list[str]:
        """The author's own text split into stripped, non-empty lines.

        Args:
            skip: regions to leave out.

        Returns:
            One string per line, in order.
        """
        return [run.text for run in self.line_runs(skip)]

    def line_runs(self, skip: Region = DEFAULT_SKIP) -> list[Run]:
        """The author's own lines as runs, with their segment positions (``order``/``end``).

        Args:
            skip: regions to leave out.

        Returns:
            One run per non-blank line.
        """
        return self.runs(Style.PLAIN, skip)

    def text_after(self, index: int, skip: Region = DEFAULT_SKIP, *, squash: bool = True) -> str:
        """The rest of the line after segment ``index`` ("[b]Vote:[/b] Ann" gives "Ann").

        Args:
            index: a segment index (a run's ``end``).
            skip: regions to leave out.
            squash: collapse whitespace (False keeps the text as written).

        Returns:
            The text.
        """
        if not 0 <= index < len(self.segments):
            return ""
        line = self.segments[index].line
        parts = []
        mask = skip.value
        for seg in self.segments[index + 1 :]:
            if seg.line != line or seg.text == "\n":
                break
            if not (seg.region_bits & mask):
                parts.append(seg.text)
        return _squash("".join(parts)) if squash else "".join(parts)

    def runs(
        self, style: Style, skip: Region = DEFAULT_SKIP, *, by_line: bool = False
    ) -> list[Run]:
        """Runs of text sharing one element of ``style``, in document order.

        A bold element split by a quote or a line break stays one run; two separate bold
        elements are two runs even when adjacent.

        Args:
            style: which styling groups the text.
            skip: regions to leave out.
            by_line: split a run at its line breaks (one bold paragraph ending in a vote).

        Returns:
            The runs with non-blank text.
        """
        key = _RUN_KEYS[style]
        groups: dict[tuple[int, int], list[tuple[int, Segment]]] = {}
        mask = skip.value
        for index, seg in enumerate(self.segments):
            run_id = key(seg)
            if run_id and not (seg.region_bits & mask):
                groups.setdefault((run_id, seg.line if by_line else 0), []).append((index, seg))
        runs = []
        for members in groups.values():
            segs = [s for _, s in members]
            text = _squash("".join(s.text for s in segs))
            if not text:
                continue
            solid = [s for s in segs if s.text.strip()]
            runs.append(
                Run(
                    text=text,
                    style=style,
                    line=segs[0].line,
                    order=members[0][0],
                    end=members[-1][0],
                    strike=bool(solid) and all(s.strike for s in solid),
                    bold=bool(solid) and all(s.bold for s in solid),
                    colour=next((s.colour for s in segs if s.colour), None),
                )
            )
        runs.sort(key=lambda r: r.order)
        return runs


_RUN_KEYS: dict[Style, Callable[[Segment], int]] = {
    Style.BOLD: lambda s: s.bold,
    Style.STRIKE: lambda s: s.strike,
    Style.VOTE_TAG: lambda s: s.vote_tag,
    Style.COLOUR: lambda s: s.colour_run,
    Style.PLAIN: lambda s: s.line + 1,
}

_WS = re.compile(r"\s+")


def _squash(text: str) -> str:
    return _WS.sub(" ", text).strip()


# --- colours ---------------------------------------------------------------------------------

_NAMED = {
    "red": "#ff0000", "darkred": "#8b0000", "crimson": "#dc143c", "firebrick": "#b22222",
    "maroon": "#800000", "orange": "#ffa500", "darkorange": "#ff8c00", "yellow": "#ffff00",
    "gold": "#ffd700", "green": "#008000", "lime": "#00ff00", "darkgreen": "#006400",
    "olive": "#808000", "teal": "#008080", "cyan": "#00ffff", "aqua": "#00ffff",
    "blue": "#0000ff", "navy": "#000080", "darkblue": "#00008b", "royalblue": "#4169e1",
    "skyblue": "#87ceeb", "purple": "#800080", "indigo": "#4b0082", "violet": "#ee82ee",
    "magenta": "#ff00ff", "fuchsia": "#ff00ff", "pink": "#ffc0cb", "hotpink": "#ff69b4",
    "deeppink": "#ff1493", "gray": "#808080", "grey": "#808080", "silver": "#c0c0c0",
    "black": "#000000", "white": "#ffffff", "brown": "#a52a2a", "orangered": "#ff4500",
}  # fmt: skip
_HEX = re.compile(r"^#?([0-9a-f]{3}|[0-9a-f]{6})$")
_RGB = re.compile(r"^rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)")


def normalise_colour(value: str) -> str | None:
    """A CSS colour as ``#rrggbb`` (or the lower-case name when unknown).

    Args:
        value: ``red``, ``#F00``, ``#FF0000``, ``rgb(255, 0, 0)``...

    Returns:
        The normalised colour, or None for an empty value.
    """
    text = value.strip().lower().replace("!important", "").strip()
    if not text:
        return None
    if text in _NAMED:
        return _NAMED[text]
    match = _HEX.match(text)
    if match:  # "#f00" is "#ff0000"
        digits = match.group(1)
        return "#" + (digits if len(digits) == 6 else "".join(c * 2 for c in digits))
    rgb = _RGB.match(text)
    if rgb:
        return "#" + "".join(f"{min(int(v), 255):02x}" for v in rgb.groups())
    return text


# --- the tree walk ---------------------------------------------------------------------------

# One string reads better than 33 list items (ruff SIM905 wants the list).
_BLOCK_TAGS = frozenset(
    "address article aside blockquote dd div dl dt fieldset figure footer form h1 h2 h3 h4 h5 "  # noqa: SIM905
    "h6 header hr legend li ol p pre section table tbody td th thead tr ul".split()
)
_BOLD_TAGS = frozenset({"b", "strong"})
_STRIKE_TAGS = frozenset({"s", "del", "strike"})
_CODE_TAGS = frozenset({"code", "pre", "tt", "kbd", "samp"})
_SKIP_TAGS = frozenset({"script", "style", "input", "button", "select", "textarea", "noscript"})
_BOLD_STYLE = re.compile(r"font-weight\s*:\s*(bold|bolder|[6-9]00)", re.I)
_STRIKE_STYLE = re.compile(r"text-decoration(-line)?\s*:[^;]*line-through", re.I)
_COLOUR_STYLE = re.compile(r"(?<![-\w])color\s*:\s*([^;]+)", re.I)
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none", re.I)
_INLINE_STYLE = re.compile(r"display\s*:\s*inline", re.I)
_QUOTE_AUTHOR = re.compile(r"^(?:quote from:\s*)?(.+?)(?:\s+(?:wrote\b|on\s|a écrit).*)?$", re.I)
_VOTE_CLASSES = frozenset({"bbvote", "vote", "bbc_vote"})
_QUOTE_CLASSES = frozenset({"quotecontent", "quoteheader", "quotefooter", "bbc_quote", "quote"})
_SIGNATURE_CLASSES = frozenset({"signature", "sig", "postsignature"})
_CODE_CLASSES = frozenset({"codebox", "codeheader", "bbc_code", "code"})
# libxml2 drops posts nested over 255 deep without huge_tree; below _MAX_LEVEL we flatten.
_PARSER, _MAX_LEVEL = lxml.html.HTMLParser(huge_tree=True), 150


@dataclass(slots=True)
class _State:
    bold: int = 0
    strike: int = 0
    vote_tag: int = 0
    colour: str | None = None
    colour_run: int = 0
    quote_depth: int = 0
    regions: int = 0  # Region bits


@dataclass(slots=True)
class _Walker:
    segments: list[Segment] = field(default_factory=list)
    authors: list[str] = field(default_factory=list)
    line: int = 0
    next_id: int = 1
    line_has_text: bool = False
    drop: int = 0  # Region bits never built

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    def add(self, text: str, state: _State) -> None:
        if not text:
            return
        # Positional, in Segment's field order: this is the hot path.
        self.segments.append(
            Segment(text, self.line, state.bold, state.strike, state.vote_tag, state.colour,
                    state.colour_run, state.quote_depth, state.regions)
        )  # fmt: skip
        if text.strip():
            self.line_has_text = True

    def newline(self, state: _State) -> None:
        if self.line_has_text:
            self.segments.append(
                Segment(text="\n", line=self.line, quote_depth=state.quote_depth,
                        region_bits=state.regions)
            )  # fmt: skip
        self.line += 1
        self.line_has_text = False

    def walk(self, el: etree._Element, state: _State, level: int = 0) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        if not tag or tag in _SKIP_TAGS:
            self.add(el.tail or "", state)  # comments and scripts: keep only the text after
            return
        if level > _MAX_LEVEL:  # quote pyramids: flatten what is deeper, styles and all
            if not state.regions & self.drop:
                self.add(el.text_content(), state)
            self.add(el.tail or "", state)
            return
        tag = tag.lower()
        inner = _enter(el, tag, state, self)
        block = tag in _BLOCK_TAGS and not _INLINE_STYLE.search(el.get("style") or "")
        if inner.regions & self.drop:  # the caller never reads these: don't build them
            if block:
                self.newline(state)
            self.add(el.tail or "", state)
            return
        if tag == "br" or block:
            self.newline(inner)
        if tag == "img":
            self.add(el.get("alt") or "", inner)
        self.add(el.text or "", inner)
        for child in el:
            self.walk(child, inner, level + 1)
        if block:
            self.newline(inner)
        self.add(el.tail or "", state)


def _classes(el: etree._Element) -> set[str]:
    return set((el.get("class") or "").lower().split())


def _enter(el: etree._Element, tag: str, outer: _State, walker: _Walker) -> _State:
    """The state inside ``el``: what styles and regions it opens."""
    state = _State(outer.bold, outer.strike, outer.vote_tag, outer.colour, outer.colour_run,
                   outer.quote_depth, outer.regions)  # fmt: skip
    classes = _classes(el)
    style = el.get("style") or ""
    if (tag in _BOLD_TAGS or _BOLD_STYLE.search(style) or "noboldsig" in classes) and not (
        state.bold
    ):
        state.bold = walker.new_id()
    if (tag in _STRIKE_TAGS or _STRIKE_STYLE.search(style)) and not state.strike:
        state.strike = walker.new_id()
    if classes & _VOTE_CLASSES:  # innermost: an unclosed [vote] tag swallows the next one
        state.vote_tag = walker.new_id()
    colour = _COLOUR_STYLE.search(style)
    raw_colour = colour.group(1) if colour else (el.get("color") if tag == "font" else None)
    if raw_colour:
        state.colour = normalise_colour(raw_colour)
        state.colour_run = walker.new_id()
    _enter_regions(el, tag, classes, style, state, walker)
    return state


def _enter_regions(
    el: etree._Element, tag: str, classes: set[str], style: str, state: _State, walker: _Walker
) -> None:
    """Mark quotes, spoilers, code, signatures and boxes (see the module docstring)."""
    is_spoiler = any("spoiler" in c or c.startswith("sp-") for c in classes)
    if tag == "div" and "quotetitle" in classes:
        title = _squash(el.text_content())
        # Old phpBB uses the same quotetitle/quotecontent pair for spoilers and quotes.
        is_spoiler = is_spoiler or title.lower().startswith("spoiler")
        if not is_spoiler:
            walker.authors.append(_quote_author(title))
        state.regions |= _QUOTE
    if is_spoiler or _HIDDEN_STYLE.search(style):
        state.regions |= _SPOILER
    if tag == "blockquote" or classes & _QUOTE_CLASSES:
        state.quote_depth += 1
        state.regions |= _QUOTE
        if "quoteheader" in classes:
            walker.authors.append(_quote_author(_squash(el.text_content())))
    if tag == "cite" and state.quote_depth:
        walker.authors.append(_quote_author(_squash(el.text_content())))
    if tag in _CODE_TAGS or classes & _CODE_CLASSES:
        state.regions |= _CODE
    if classes & _SIGNATURE_CLASSES:
        state.regions |= _SIGNATURE
    if tag == "fieldset":
        state.regions |= _BOX


def _quote_author(header: str) -> str:
    match = _QUOTE_AUTHOR.match(header.replace("↑", "").strip())
    return match.group(1).strip() if match else header


def parse_html(html: str, drop: Region = Region(0)) -> PostView:
    """Parse a post or PM body (an HTML fragment or plain text) into a :class:`PostView`.

    Args:
        html: the body as the forum rendered it. Plain text (no tags) works too; its
            newlines become line breaks.
        drop: regions to leave out of the view entirely (faster for callers that skip
            them anyway; the authors of dropped quotes may be missing).

    Returns:
        The styled segments. Never raises on malformed HTML; empty input gives no segments.
    """
    if not html or not html.strip():
        return PostView(segments=())
    if "<" not in html:
        html = html.replace("&", "&amp;").replace("\n", "<br>")
    try:
        root = lxml.html.fragment_fromstring(html, create_parent="div", parser=_PARSER)
    except (etree.ParserError, ValueError):
        return PostView(segments=(Segment(text=html, line=0),))
    walker = _Walker(drop=drop.value)
    state = _State()
    walker.add(root.text or "", state)
    for child in root:
        walker.walk(child, state)
    return PostView(segments=tuple(walker.segments), quote_authors=tuple(walker.authors))
