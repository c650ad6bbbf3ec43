"""Orders a delegate writes for a player who handed them their actions (seed 000, "Handing
off Actions"): "For Ctu: discombobulate Sebolains" in pofa's PM is Ctu's order when the
history records Ctu's hand-off to pofa. A header ("For X:", "As X:", "On behalf of X,",
"X:") starts a line or a sentence; what follows, up to the next header, is written for X.
The runtime splits PMs with the same function (``forumbot/services/handoffs.py``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from parsers.orders import grammar
from parsers.orders.history import History
from parsers.roster import Roster, Slot

_PREFIX = r"(?:for|as|on behalf of|in place of|instead of|from)\s+"
# "And for Pep (she handed me her actions…): …": a joining word before the header, and an
# aside between the name and its mark.
_JOINED = r"(?:(?:and|also|plus|then|et|aussi|puis)\s+)?"
_ASIDE = r"(?:\s*\((?P<aside>[^()]*)\))?"
_HANDED = re.compile("|".join(re.escape(p) for t in grammar.HANDED.values() for p in t), re.I)
_UNSURE = re.compile(
    r"(?<!\w)(?:"
    + "|".join(re.escape(p) for k in (grammar.HEDGE, grammar.DOUBT) for t in k.values() for p in t)
    + r")(?!\w)|\?",
    re.I,
)
_SEPARATOR = r"\s*(?:[:,\-\u2013\u2014]|$)"
# "Dunstan's (he handed me his night 3): …", "Ctu's actions: …": the giver's, as a header.
_HIS = r"(?:['’]s(?:\s+(?:actions|orders|moves))?)?"
_SENTENCE_END = re.compile(r"(?<=[.!?)])\s+")

Names = Sequence[tuple[str, str]]  # (giver, a name or alias of the giver)


def split_for(lines: Sequence[str], names: Names) -> tuple[list[str], list[tuple[str, str]]]:
    """The sender's own lines and, per header, the giver and the text written for them.

    Args:
        lines: the PM's lines (plain text).
        names: each giver with one of their names or aliases.

    Returns:
        The own lines and the (giver, text) parts in order (a header with nothing after it
        and no following line gives no part).
    """
    own: list[str] = []
    parts: list[tuple[str, list[str]]] = []
    for line in lines:
        for piece in _pieces(line, names, lines):
            found = _header(names, piece) or _trailer(names, piece, lines)
            if found is not None:
                parts.append((found[0], [found[1]] if found[1] else []))
            elif parts:
                parts[-1][1].append(piece)
            else:
                own.append(piece)
    return own, [(g, "\n".join(text)) for g, text in parts if text]


def handed_parts(
    text: str, roster: Roster, actor: str, history: History | None
) -> tuple[str, list[tuple[str, str]]]:
    """``split_for`` on a PM's text for the players whose hand-off to ``actor`` the history
    records (any phase: the caller checks the phase); no hand-off, no parts."""
    givers = {h.sender for h in (history.handoffs if history else ()) if h.delegate == actor}
    names = [(s.name, n) for s in roster.slots if s.name in givers for n in (s.name, *s.aliases)]
    if not names:
        return text, []
    own, parts = split_for([line.strip() for line in text.splitlines() if line.strip()], names)
    return ("\n".join(own), parts) if parts else (text, [])


# A closing line of a sign-off and one word ("ty ~Eggy", "- Ken", "thanks, Ken").
_SIGNATURE = re.compile(
    r"^(?:(?:thanks|thank you|thx|ty|cheers|xx+|love|merci|bisous|спасибо|спс)\b[\s,]*)?"
    r"[~\-\u2013\u2014]?\s*(?P<name>[^\W\d_][\w'’-]*)\s*[.!]*$",
    re.I,
)


def signed_off(
    parts: list[tuple[str, str]], own: str, delegate: Slot | None
) -> tuple[list[tuple[str, str]], str]:
    """The delegate's signature closing the last part ("…: slander Kenelm.\nty ~Eggy") moved
    to the delegate's own text: it is the sender signing the PM, not the giver's order."""
    if not parts or delegate is None:
        return parts, own
    giver, body = parts[-1]
    *before, last = body.splitlines() or [""]
    signed = _SIGNATURE.match(last.strip())
    mine = {n.casefold() for n in (delegate.name, *delegate.aliases)}
    if signed is None or signed["name"].casefold() not in mine or not before:
        return parts, own
    return [*parts[:-1], (giver, "\n".join(before))], f"{own}\n{last}".strip()


def _pieces(line: str, names: Names, lines: Sequence[str]) -> list[str]:
    """The line cut before each sentence that opens with a header ("…). For Ctu: …") or is
    closed by one ("…. Cross-examine Dervish for her.")."""
    cuts = [m.end() for m in _SENTENCE_END.finditer(line)
            if _header(names, line[m.end() :]) or _trailer(names, _SENTENCE_END.split(
                line[m.end() :])[0], lines)]  # fmt: skip
    bounds = [0, *cuts, len(line)]
    return [line[a:b].strip() for a, b in pairwise(bounds) if line[a:b].strip()]


def _header(names: Names, line: str) -> tuple[str, str] | None:
    for giver, name in names:
        pattern = rf"^{_JOINED}(?:{_PREFIX})?{re.escape(name)}{_HIS}{_ASIDE}{_SEPARATOR}"
        match = re.match(pattern, line, re.IGNORECASE)
        if match and _plain_aside(match.group("aside")):
            return giver, line[match.end() :].strip()
    return None


# "Cross-examine Dervish for Clary.", "… on Clary's behalf.", "… for her." (the one giver
# named elsewhere in the PM): an order closed by whom it is written for.
_FOR_PRONOUN = r"(?:him|her|them)"
_CLOSE = r"\s*[.!]*\s*$"


def _trailer(names: Names, piece: str, lines: Sequence[str]) -> tuple[str, str] | None:
    for giver, name in names:
        pattern = rf"^(?P<body>.+?)\s+(?:(?:for|on behalf of)\s+{re.escape(name)}|on\s+"
        pattern += rf"{re.escape(name)}['’]s\s+behalf){_CLOSE}"
        match = re.match(pattern, piece, re.IGNORECASE)
        if match and not _UNSURE.search(match["body"]):
            return giver, match["body"]
    givers = {g for g, _ in names}
    match = re.match(rf"^(?P<body>.+?)\s+for\s+{_FOR_PRONOUN}{_CLOSE}", piece, re.IGNORECASE)
    if match is None or len(givers) != 1 or _UNSURE.search(match["body"]):
        return None
    text = " ".join(lines)
    named = any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text, re.I) for _, n in names)
    return (next(iter(givers)), match["body"]) if named else None


def _plain_aside(aside: str | None) -> bool:
    """No aside, or one that only states the hand-off ("she handed me her actions for
    tonight, you got her PM"): no doubt, hedge or question in it, which the header would
    otherwise hide from the reading."""
    return aside is None or (bool(_HANDED.search(aside)) and not _UNSURE.search(aside))


def without_statement(own: str, givers: Sequence[str], others: Sequence[str]) -> str:
    """The delegate's own text without the sentences that state the hand-off ("Ctu handed me
    his actions for tonight (check your PMs, he cc'd me)."): a giver named with the words
    of ``grammar.HANDED`` and no other player (``others``: every other name and alias);
    the history already records the hand-off."""
    phrases = [p for table in grammar.HANDED.values() for p in table]
    kept = []
    for line in own.splitlines():
        for sentence in _SENTENCE_END.split(line):
            folded = sentence.casefold()
            states = any(_named(g, folded) for g in givers) and any(p in folded for p in phrases)
            if not states or any(_named(n, folded) for n in others):
                kept.append(sentence)
    return " ".join(kept).strip()


def _named(name: str, folded: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name.casefold())}(?!\w)", folded) is not None
