"""PM text preparation: markup and quoted PMs removed, signature cut, sentences and tokens."""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from typing import NamedTuple

from parsers.html import Region, parse_html

_ZERO_WIDTH = re.compile("[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")
_BB_QUOTE = re.compile(r"\[quote[^\]]*\].*?\[/quote\]", re.I | re.S)
_BB_TAG = re.compile(r"\[/?[a-z*]+(?:=[^\]]*)?\]", re.I)
_ENTITIES = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&nbsp;": " "}
# Headers a forum or a mail client puts above a quoted earlier message.
_QUOTE_HEADER = re.compile(
    r"^\s*(quote from:|quote:|citation\s*:|цитата|-+\s*original message|"
    r".{0,80}\b(wrote|a écrit|писал\(а\)|писал|написал|пишет)\s*:)",
    re.I,
)
# Every quote header has a colon, but "цитата" and "original message" (``_QUOTE_HEADER``).
_COLONLESS_HEADER = re.compile(r"^\s*(цитата|-+\s*original message)", re.I)
_SIG_LINE = re.compile(r"^\s*(--|—|__+|-{3,})\s*$")
# A sentence ends after . ! ? ; but not after an ellipsis ("heal... hmm... Yuriko" is one).
# Every split is spaces: the look-ahead first fails fast at every other character.
_SENTENCE_END = re.compile(
    r"(?=\s)(?:(?<=[!?;])\s+|(?<=[^.]\.)\s+|\s+(?=//)|(?<=\))\s+(?=[A-ZА-ЯЁ]))"
)
_WORD = re.compile(r"[^\W_][\w'’.\-]*|[=:,/>|]", re.U)
_ELISION = re.compile(r"\b([jldnmtsc]|qu)['’](?=\w)", re.I)
# (the look-ahead on the marks a quote opens with fails fast at every other character)
_QUOTED = re.compile(
    r"(?=['\"«“„])(?:(?<!\w)'([^'\n]{2,}?)'(?!\w)|\"([^\"\n]+)\"|[«“„]([^»”“\n]+)[»”“])"
)
_LATIN = re.compile(r"[a-z]", re.I)
_HTML_HINT = re.compile(
    r"<(br|p|div|span|b|strong|i|em|blockquote|cite|font|s|del|a)\b[^>]*>", re.I
)
_SKIP = Region.QUOTE | Region.CODE | Region.SIGNATURE | Region.BOX
_ASIDE = re.compile(r"\([^()]*\)")


class Token(NamedTuple):
    """A word of a sentence: the written form, its normal form and where it sits (a named
    tuple: a long PM makes tens of thousands)."""

    text: str
    norm: str
    start: int
    quote: int | None = None
    aside: bool = False

    @property
    def is_punct(self) -> bool:
        """True for the separator tokens kept for the grammar (``=``, ``:``, ``,``)."""
        return not self.norm[:1].isalnum()


@dataclass(frozen=True, slots=True)
class Sentence:
    """One clause-bearing unit of a PM (a line, or a sentence inside a line)."""

    text: str
    tokens: tuple[Token, ...]
    quotes: tuple[str, ...]
    question: bool
    line: int


@functools.lru_cache(maxsize=1 << 16)
def normalize(word: str) -> str:
    """Casefold, unify apostrophes and ``ё``, strip Latin diacritics (``protège`` → ``protege``).

    Args:
        word: a word or a short phrase.

    Returns:
        The matching form. Cyrillic letters keep their identity (``й`` stays ``й``).
        Results are cached: a long PM repeats its words.
    """
    word = _ZERO_WIDTH.sub("", word).replace("’", "'").casefold().replace("ё", "е")
    out: list[str] = []
    for char in unicodedata.normalize("NFKD", word):
        if unicodedata.combining(char) and out and _LATIN.match(out[-1]):
            continue
        out.append(char)
    return unicodedata.normalize("NFC", "".join(out)).strip(".-'")


def strip_markup(text: str) -> str:
    """Turn PM HTML or BBCode into plain lines, dropping quoted earlier messages.

    Args:
        text: the PM body as HTML, BBCode or plain text.

    Returns:
        Plain text without quotes, tags, entities or zero-width characters.
    """
    text = _ZERO_WIDTH.sub("", text.replace("\r\n", "\n"))
    if _HTML_HINT.search(text):
        # A rendered PM body: parsers.html knows each engine's quote, code and signature
        # markup (SMF 2.0 quoteheader, phpBB blockquote/cite, ...); spoilers are kept.
        text = parse_html(text).text(skip=_SKIP)
    for _ in range(3):  # nested quotes: innermost first, three levels is plenty
        text = _BB_QUOTE.sub("\n", text)
    for entity, char in _ENTITIES.items():
        text = text.replace(entity, char)
    return _BB_TAG.sub("", text)


def content_lines(text: str) -> list[str]:
    """The lines a player wrote for the GM: no ``>`` quotes, quoted mails or signature.

    Args:
        text: plain text from :func:`strip_markup`.

    Returns:
        The remaining lines, in order, blank lines dropped.
    """
    lines: list[str] = []
    in_quote = False
    for raw in text.split("\n"):
        line = raw.strip()
        if _SIG_LINE.match(line):
            break
        if line.startswith(">"):  # a quoted line, header or not ("> Gaëtan a écrit : …")
            continue
        if _may_head_a_quote(line) and _QUOTE_HEADER.match(line):
            in_quote = True
            continue
        if in_quote and not line:
            in_quote = False
            continue
        if in_quote or line.startswith(">"):
            continue
        if line:
            lines.append(line)
        elif lines and lines[-1]:
            lines.append("")  # a blank line ends a paragraph: no wrap reaches over it
    paragraphs: list[str] = []
    start = 0
    for end in [i for i, line in enumerate(lines) if not line] + [len(lines)]:
        paragraphs += _join_wrapped(lines[start:end])
        start = end + 1
    return _join_numbered(paragraphs)


# Words no sentence ends with: a line ending with one was wrapped by the player's mail or
# editor, and goes on on the next line ("He voted with Aldwyn the whole day and then").
_GOES_ON = frozenset(
    {"and", "or", "but", "then", "with", "of", "the", "to", "for", "that", "because"}
    | {"et", "ou", "mais", "avec", "pour", "que", "и", "или", "но"}
    | {"against", "into", "sur", "contre", "chez", "против"}  # "…son résultat sur / Léonce"
)


# A line this long that ends mid-sentence was wrapped at the editor's width.
_WRAP_WIDTH = 60


def _wrapped(line: str, after: str) -> bool:
    """Whether ``line`` goes on on the line ``after`` it: it ends with a word of
    ``_GOES_ON``, or it is as long as an editor's wrap, ends with a word (no mark), and
    the next line opens with a small letter ("…Berenike's stake-out / report from night 1")."""
    if line.rsplit(None, 1)[-1].casefold() in _GOES_ON:
        return True
    if len(line) < _WRAP_WIDTH or not line[-1].isalnum():
        return False
    return after[:1].islower()


# No sentence a player writes has this many words (the corpus's longest has 33, the real
# threads' longest of 118,601 177): a PM with a longer one is queued unread (parse.py), and
# wrapped lines are joined up to it (64 KB of lowercase chat lines is one run otherwise).
MAX_SENTENCE_WORDS = 500


def _join_wrapped(lines: list[str]) -> list[str]:
    """Lines joined where one was wrapped by the player's editor (``_wrapped``), up to
    ``MAX_SENTENCE_WORDS`` words a run."""
    out: list[str] = []
    words = 0
    for line in lines:
        count = len(line.split())
        if out and words + count <= MAX_SENTENCE_WORDS and _wrapped(out[-1], line):
            out[-1] += " " + line
            words += count
        else:
            out.append(line)
            words = count
    return out


def _may_head_a_quote(line: str) -> bool:
    """False for a line ``_QUOTE_HEADER`` cannot match (a quick test before it)."""
    return ":" in line or bool(_COLONLESS_HEADER.match(line))


# "Investigate 5, using three of them": an order word, its count, then a remark on the count
# (no capital: no name in it).
_COUNTED = re.compile(r"^(?P<order>[^\W\d][^\d,:]*?)\s*#?\d{1,2}\s*,[^\d,:A-ZÀ-ÞА-ЯЁ]*$")
_NUMBERED_HEADER = re.compile(
    r"^(?P<before>.*?[.!?]\s+)?(?P<head>[^:.!?]{0,40}?[^\W\d])(?:\s*#?\d{1,2})?\s*:$"
)
_NUMBERED_ITEM = re.compile(r"^(?:\d{1,2}|[-*•])\s*[).:-]?\s+(?P<item>\S.*)$")
# "Two things for today:", "Orders for N3:": a title over a list of separate orders, each
# item its own order (the suitcase on one line, an APTX on the next), never one joined order.
_LIST_TITLE = re.compile(r"\b(?:things?|orders?|actions?|moves?|stuff|requests?)\b", re.I)


def _join_numbered(lines: list[str]) -> list[str]:
    """A short header with nothing after its colon ("Investigate 3:", "SI 2:", "Night 3
    investigations:", also after a greeting sentence on its line) followed by numbered or
    bulleted lines is one order: ``Investigate: A kills B, C protects D``. A count at its
    end is the player's claim of how many the order takes, never a target."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        ends = lines[i].endswith((":", ":\n"))  # a header ends with its colon: no other is tried
        header = _NUMBERED_HEADER.match(lines[i]) if ends else None
        if header and _LIST_TITLE.search(header["head"]):
            header = None
        items: list[str] = []
        j = i + 1
        while header and j < len(lines) and (item := _NUMBERED_ITEM.match(lines[j])):
            items.append(item["item"].rstrip(" ;,."))
            j += 1
        if header and items:
            head = _COUNTED.sub(r"\g<order>", header["head"])  # "Investigate 5, using three:"
            out.append(f"{header['before'] or ''}{head}: {', '.join(items)}")
            i = j
            continue
        out.append(lines[i])
        i += 1
    return out


def split_sentences(lines: list[str]) -> list[tuple[int, str]]:
    """Split lines into sentences, keeping each sentence's line number.

    Args:
        lines: content lines.

    Returns:
        ``(line number, sentence text)`` pairs.
    """
    out: list[tuple[int, str]] = []
    for number, line in enumerate(lines):
        if number == len(lines) - 1:
            line = _signed_apart(line)
        protected, quotes = _protect_quotes(line) if _may_quote(line) else (line, [])
        parts = _SENTENCE_END.split(protected) if _may_end(protected) else [protected]
        for part in parts:
            part = _restore_quotes(part, quotes).strip().removeprefix("//").strip()
            if part.strip(" .!;"):
                out.append((number, part))
    return out


# A sign-off and one word closing the PM's last line ("… xx Delia", "… thanks, Ken"): a
# sentence of its own, so the word is read as the sender's signature or as a name apart.
_SIGNED = re.compile(
    r"(?<=\w)[\s,]+(?=(?:(?:xx+|xoxo|cheers|thanks|thx|ty|love)\b|~)[\s,]*[^\W\d_][\w'’-]*"
    r"\s*[.!]*\s*$)",
    re.I,
)


def _signed_apart(line: str) -> str:
    """The line with a closing sign-off (``_SIGNED``) made a sentence of its own, when at
    least two words come before it (not "heal ~Silas")."""
    signed = _SIGNED.search(line)
    if signed is None or len(line[: signed.start()].split()) < 2:
        return line
    return line[: signed.start()] + ". " + line[signed.end() :]


_QUOTE_MARKS = frozenset("'\"«“„")  # what a quoted claim (``_QUOTED``) opens with
_ENDS = frozenset("!?;./)")  # what a sentence end (``_SENTENCE_END``) needs


def _may_quote(line: str) -> bool:
    """False for a line without a mark a quoted claim opens with."""
    return not _QUOTE_MARKS.isdisjoint(line)


def _may_end(line: str) -> bool:
    """False for a line ``_SENTENCE_END`` cannot split (no end mark in it)."""
    return not _ENDS.isdisjoint(line)


def _protect_quotes(line: str) -> tuple[str, list[str]]:
    """Hide quoted claims so sentence punctuation inside them does not split them."""
    quotes: list[str] = []

    def keep(match: re.Match[str]) -> str:
        quotes.append(match.group(0))
        return f"\x00{len(quotes) - 1}\x00"

    return _QUOTED.sub(keep, line), quotes


def _restore_quotes(part: str, quotes: list[str]) -> str:
    if not quotes:
        return part
    return re.sub("\x00(\\d+)\x00", lambda m: quotes[int(m.group(1))], part)


def tokenize(sentence: str, line: int = 0) -> Sentence:
    """Cut one sentence into tokens; words inside a quoted claim carry its quote index.

    Args:
        sentence: one sentence of a PM.
        line: its line number (kept for reasons shown to the GM).

    Returns:
        The tokenized sentence, with its quoted claims and whether it asks a question.
    """
    quotes: list[str] = []
    spans: list[tuple[int, int]] = []
    for match in _QUOTED.finditer(sentence) if _may_quote(sentence) else ():
        inner = next(g for g in match.groups() if g is not None)
        quotes.append(inner.strip())
        spans.append(match.span())
    asides = [m.span() for m in _ASIDE.finditer(sentence)] if "(" in sentence else []
    text, inserted = _split_elisions(sentence)  # "l'autre" -> "l' autre", "l’autre" too
    if not inserted and not spans and not asides:  # most sentences: offsets as they are
        tokens = [
            _new(Token, (form[0], form[1], match.start(), None, False))
            for match in _WORD.finditer(text)
            if (form := _forms(match.group()))[1]
        ]
    else:
        tokens = _placed_tokens(sentence, text, inserted, spans, asides)
    question = "?" in sentence and "?" in sentence.replace("?)", "")
    return Sentence(sentence, tuple(tokens), tuple(quotes), question, line)


# A token from its five fields, without the keyword-handling constructor nor even the Python
# call ``Token._make`` is: a long PM makes tens of thousands.
_new = tuple.__new__


@functools.lru_cache(maxsize=1 << 16)
def _forms(word: str) -> tuple[str, str]:
    """A matched word's token text and normal form (empty: no token); a long PM repeats
    its words, so each is worked out once."""
    return word.rstrip(".-"), normalize(word) if word[0].isalnum() else word


def _split_elisions(sentence: str) -> tuple[str, list[int]]:
    """The sentence with a space after each elision's apostrophe (``_ELISION``), and the
    offsets in the new text of the spaces inserted."""
    if "'" not in sentence and "’" not in sentence:
        return sentence, []
    pieces: list[str] = []
    inserted: list[int] = []
    last = 0
    for match in _ELISION.finditer(sentence):
        pieces += (sentence[last : match.start()], match.group(1), "' ")
        inserted.append(match.end() + len(inserted))
        last = match.end()
    if not inserted:
        return sentence, []
    pieces.append(sentence[last:])
    return "".join(pieces), inserted


def _placed_tokens(
    sentence: str,
    text: str,
    inserted: list[int],
    spans: list[tuple[int, int]],
    asides: list[tuple[int, int]],
) -> list[Token]:
    """The tokens of ``text`` (``sentence`` with the spaces ``inserted``), each placed at
    its offset in ``sentence``, with its quote index and whether it is in an aside (an
    apostrophe unified by ``_split_elisions`` keeps its length: only the spaces shift)."""
    tokens: list[Token] = []
    before, count = 0, len(inserted)  # inserted spaces before the current word
    last = len(sentence) - 1
    for match in _WORD.finditer(text):
        written, norm = _forms(match.group())
        if not norm:
            continue
        at = match.start()
        while before < count and inserted[before] < at:
            before += 1
        start = min(at - before, last)
        quote = _span_index(spans, start) if spans else None
        aside = bool(asides) and _span_index(asides, start) is not None
        tokens.append(_new(Token, (written, norm, start, quote, aside)))
    return tokens


def _span_index(spans: list[tuple[int, int]], at: int) -> int | None:
    """The index of the span holding offset ``at``, or None."""
    return next((i for i, (a, b) in enumerate(spans) if a <= at < b), None)
