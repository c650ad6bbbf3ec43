"""Find the vote actions written in one post, per configured syntax (no name resolution here).

Each syntax is a small function over the post's :class:`~parsers.html.PostView`, registered
in :data:`EXTRACTORS`. Quotes, spoilers, code, signatures and boxes are never read. The
actions come back in document order; where two syntaxes read the same text (a red, bold
"Vote: X"), the text counts once.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from parsers.html import PostView, Run, Style
from parsers.votes.colours import colour_family
from parsers.votes.config import Syntax, VoteRules
from parsers.votes.model import Action

__all__ = ["EXTRACTORS", "RawAction", "extract_actions", "may_hold_votes"]


@dataclass(frozen=True, slots=True)
class RawAction:
    """A vote action as written, before the target name is resolved.

    Attributes:
        action: vote, unvote or withdraw.
        target: the target text ("" for unvote).
        raw: the whole text it came from ("Vote: Akonly").
        syntax: the syntax that found it.
        start: index of its first segment in the post view (document order).
        end: index of its last segment.
    """

    action: Action
    target: str
    raw: str
    syntax: Syntax
    start: int
    end: int


# "vote", "unvote", common misspellings, and the French/Russian verbs players use in PMs.
# A keyword starts a word, or is an upper-case "VOTE:" glued to the name before it
# ("VOTE: notthepopeVOTE:"); "Vote Count 4.1" is a heading, never a vote.
_KEYWORD = re.compile(
    r"(?:(?<![\w$])|(?<=[a-z])(?=(?-i:(?:UN)?VOTE:)))"
    r"(?P<kw>un-?vote|un-?veot|vote|veot|vtoe|je\s+vote|голосую|голос|отменяю\s+голос)"
    r"(?![\w])(?!\s*counts?\b)\s*[:;\-–—=>]*\s*",
    re.IGNORECASE,
)
_LEAD = re.compile(
    r"^(?:(?:for|on|against|to|contre|pour|против|за)\s+|[@:;,\-–—>]\s*)+", re.IGNORECASE
)
# A closing BBCode tag left as text ends the name, also when its "[" was lost ("X/b]").
_CUT = re.compile(
    r"\s*(?:-{2,}|—|–|;|,|\(|!|\?|\[/\w+\]|/(?:b|i|u|s|color|size|font|url)\]|\[(?:un)?vote\])\s*"
    r"|\s+-\s+"
)
_TRAIL = re.compile(r"[\s.,;:!?)\]\"'»]+$")
_DOLLAR = re.compile(r"\$\s*([^$]+)")
_HASH = re.compile(r"##?\s*(?P<kw>un-?vote|vote)\b\s*:?\s*(?P<target>[^#\n]*)", re.IGNORECASE)
# Plain lines as players write them in PMs: "Vote: X", "I vote X", "my vote is X",
# "I want to lynch X", "je vote contre X", "mon vote : X", "голосую за X", "мой голос: X".
_PLAIN = re.compile(
    r"^\s*(?:i\s+(?:want\s+to\s+)?|je\s+|my\s+|mon\s+|мой\s+)?"
    r"(?P<kw>un-?vote|vote|lynch|голосую|голос|отменяю\s+голос)\b"
    r"(?:\s+(?:is|goes\s+to|est|pour))?\s*[:\-–—=>]*\s*(?P<target>.*)$",
    re.IGNORECASE,
)
_UNVOTE_WORD = re.compile(r"^un-?vote$", re.IGNORECASE)
_UNVOTED = re.compile(r"^\s*un-?voted\s*[.!]*\s*$", re.IGNORECASE)
_EMPTY_VOTE = re.compile(r"^[\W_]*$")
_LEADING_OK = re.compile(r"^[\W_]*(?:(?:i|and|so|ok|okay|je|я)\s+)*$", re.IGNORECASE)
# Words before a vote that end a sentence or a clause: "Fingers crossed, vote X", "Well. Vote: X".
_CLAUSE_END = re.compile(r"[.,;!?…]\s*$")


def clean_target(text: str) -> str:
    """Strip the words and punctuation around a target name ("for Ann!" gives "Ann").

    Args:
        text: the text after the vote keyword.

    Returns:
        The bare name text.
    """
    text = _LEAD.sub("", text.strip())
    text = _CUT.split(text, maxsplit=1)[0]  # "LLD--that's a hammer", "Ann, because..."
    return _TRAIL.sub("", text).strip()


def _is_unvote(keyword: str) -> bool:
    lowered = keyword.lower()
    return lowered.startswith("un") or lowered.startswith("отменяю")


def _clause_keywords(text: str) -> list[re.Match[str]]:
    """The keywords that start a vote clause: the first, then only those after punctuation,
    with a colon, in capitals, or right after an unvote ("unvote vote X"); a lower-case
    "vote" inside a sentence ("... to vote on a single person") is just a word."""
    kept: list[re.Match[str]] = []
    for match in _KEYWORD.finditer(text):
        before = text[kept[-1].end() if kept else 0 : match.start()]
        if (
            not kept
            or ":" in match.group(0)
            or match.group("kw").isupper()
            or re.search(r"[.,;:!?)\]]\s*$", before)
            or (_is_unvote(kept[-1].group("kw")) and not before.strip(" ,;"))
        ):
            kept.append(match)
    return kept


def _keyword_actions(run: Run, view: PostView, syntax: Syntax) -> list[RawAction]:
    """Actions in a run that says "Vote: X" / "Unvote" (several: each keyword starts one)."""
    matches = _clause_keywords(run.text)
    before = run.text[: matches[0].start()] if matches else ""
    if matches and not (_LEADING_OK.match(before) or _CLAUSE_END.search(before)):
        # "My failure to vote on you", "@Mod - vote count please": talk about votes, not votes.
        return []
    out = []
    for i, match in enumerate(matches):
        stop = matches[i + 1].start() if i + 1 < len(matches) else len(run.text)
        target = clean_target(run.text[match.end() : stop])
        if _is_unvote(match.group("kw")) or _UNVOTE_WORD.match(target):
            # "[vote]unvote[/vote]" is an unvote too.
            out.append(RawAction(Action.UNVOTE, "", run.text, syntax, run.order, run.end))
            continue
        opens = i > 0 or ":" in match.group(0) or _LEADING_OK.match(before)
        if not target and i + 1 == len(matches) and syntax is not Syntax.VOTE_TAG and opens:
            # "[b]Vote:[/b] Ann": the name often trails the bold keyword on the same line
            # (but "[b]Vote[/b]ing" is a word, not a vote, and "your [b]Confirmed! vote[/b]
            # on Elsa" is talk: a bold clause ending in a bare "vote" names nobody).
            after = view.text_after(run.end, squash=False)
            target = clean_target(after) if after[:1].isspace() or after[:1] in ":-" else ""
        if target:
            action = Action.WITHDRAW if run.strike else Action.VOTE
            out.append(RawAction(action, target, run.text, syntax, run.order, run.end))
    return out


def _bold_vote(view: PostView, rules: VoteRules) -> list[RawAction]:
    out = []
    for run in view.runs(Style.BOLD, by_line=True):
        if _UNVOTED.match(run.text) and _alone_on_line(view, run):
            # A line that says only "[b]Unvoted[/b]": the player withdraws his vote.
            out.append(RawAction(Action.UNVOTE, "", run.text, Syntax.BOLD_VOTE, run.order, run.end))
            continue
        out.extend(_keyword_actions(run, view, Syntax.BOLD_VOTE))
    return out


def _alone_on_line(view: PostView, run: Run) -> bool:
    """Whether the run is all the author's text on its line ("I [b]unvoted[/b] him" is talk)."""
    line = view.segments[run.order].line
    own = [s for s in view.visible() if s.line == line and s.text != "\n"]
    return (
        "".join(s.text for s in own).strip()
        == "".join(s.text for s in view.segments[run.order : run.end + 1]).strip()
    )


def _vote_tag(view: PostView, rules: VoteRules) -> list[RawAction]:
    out = []
    for run in view.runs(Style.VOTE_TAG):
        found = _keyword_actions(run, view, Syntax.VOTE_TAG)
        if not found and not _KEYWORD.search(run.text):
            found = [RawAction(Action.VOTE, clean_target(run.text), run.text, Syntax.VOTE_TAG,
                               run.order, run.end)]  # fmt: skip
        # An empty "[vote][/vote]" ("VOTE: " on the page) names nobody: it is no unvote,
        # and the player's vote stands.
        out.extend(found)
    return out


def _dollar_bold(view: PostView, rules: VoteRules) -> list[RawAction]:
    out = []
    for run in (*view.runs(Style.BOLD), *view.runs(Style.STRIKE)):
        if run.style is Style.BOLD and run.strike:
            continue  # a struck bold run is read once, as a strike run
        action = Action.WITHDRAW if run.style is Style.STRIKE else Action.VOTE
        for match in _DOLLAR.finditer(run.text):
            target = clean_target(match.group(1))
            if target:
                out.append(
                    RawAction(action, target, run.text, Syntax.DOLLAR_BOLD, run.order, run.end)
                )
    return out


def _colour(view: PostView, rules: VoteRules) -> list[RawAction]:
    out = []
    for run in view.runs(Style.COLOUR):
        if colour_family(run.colour) is not rules.vote_colour:
            continue  # host colour (blue) and play colours are never votes
        found = _keyword_actions(run, view, Syntax.COLOUR)
        if not found and not _KEYWORD.search(run.text):
            target = clean_target(run.text)
            if _EMPTY_VOTE.match(target):
                # An empty red vote: the player abstains on purpose (seed 004).
                found = [RawAction(Action.UNVOTE, "", run.text, Syntax.COLOUR, run.order, run.end)]
            else:
                action = Action.WITHDRAW if run.strike else Action.VOTE
                found = [RawAction(action, target, run.text, Syntax.COLOUR, run.order, run.end)]
        out.extend(found)
    return out


def _line_actions(view: PostView, pattern: re.Pattern[str], syntax: Syntax) -> list[RawAction]:
    out = []
    for run in view.line_runs():
        for match in pattern.finditer(run.text):
            if _is_unvote(match.group("kw")):
                out.append(RawAction(Action.UNVOTE, "", match.group(0), syntax, run.order, run.end))
                continue
            target = clean_target(match.group("target"))
            if target:
                out.append(
                    RawAction(Action.VOTE, target, match.group(0), syntax, run.order, run.end)
                )
    return out


def _hash_vote(view: PostView, rules: VoteRules) -> list[RawAction]:
    return _line_actions(view, _HASH, Syntax.HASH_VOTE)


def _plain_vote(view: PostView, rules: VoteRules) -> list[RawAction]:
    return _line_actions(view, _PLAIN, Syntax.PLAIN_VOTE)


Extractor = Callable[[PostView, VoteRules], list[RawAction]]
EXTRACTORS: dict[Syntax, Extractor] = {
    Syntax.BOLD_VOTE: _bold_vote,
    Syntax.DOLLAR_BOLD: _dollar_bold,
    Syntax.VOTE_TAG: _vote_tag,
    Syntax.HASH_VOTE: _hash_vote,
    Syntax.COLOUR: _colour,
    Syntax.PLAIN_VOTE: _plain_vote,
}
"""One extractor per syntax; a new syntax is one function and one line here."""

# When two syntaxes read the same segments, the more specific one wins.
_PRECEDENCE = {
    Syntax.VOTE_TAG: 0,
    Syntax.DOLLAR_BOLD: 1,
    Syntax.BOLD_VOTE: 2,
    Syntax.COLOUR: 3,
    Syntax.HASH_VOTE: 4,
    Syntax.PLAIN_VOTE: 5,
}


# Cheap test on the raw HTML: a post without any of these cannot hold a vote of that syntax.
_MARKERS: dict[Syntax, tuple[str, ...]] = {
    Syntax.BOLD_VOTE: ("vote", "veot", "vtoe", "голос"),
    Syntax.DOLLAR_BOLD: ("$",),
    Syntax.VOTE_TAG: ("vote",),
    Syntax.HASH_VOTE: ("#",),
    Syntax.COLOUR: ("color",),
    Syntax.PLAIN_VOTE: ("vote", "голос"),
}


def may_hold_votes(html: str, syntaxes: frozenset[Syntax]) -> bool:
    """False when ``html`` certainly holds no vote in ``syntaxes`` (skips parsing chatter).

    Args:
        html: the raw post body.
        syntaxes: the syntaxes in use.

    Returns:
        True when the post must be parsed.
    """
    lowered = html.lower()
    markers = [m for syntax in syntaxes for m in _MARKERS[syntax] if m in lowered]
    if not markers or "<blockquote" not in lowered or "quotecontent" in lowered:
        return bool(markers)
    # Mafiascum-style threads quote votes all the time: only text outside the blockquotes
    # can vote (nesting counted), so a post whose markers are all quoted is skipped.
    pattern = _marker_scan(tuple(sorted(set(markers))))
    depth = 0
    for match in pattern.finditer(lowered):
        token = match.group(0)
        if token.startswith("</"):
            depth = max(depth - 1, 0)
        elif token.startswith("<"):
            depth += 1
        elif depth == 0:
            return True
    return False


@functools.lru_cache(maxsize=64)
def _marker_scan(markers: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(["</?blockquote\\b", *(re.escape(m) for m in markers)]))


def extract_actions(
    view: PostView, rules: VoteRules, syntaxes: frozenset[Syntax]
) -> list[RawAction]:
    """Every vote action of a post, in document order, each piece of text read once.

    Args:
        view: the post body.
        rules: the vote rules (colours...).
        syntaxes: the syntaxes to look for.

    Returns:
        The actions in the order they were written.
    """
    found = [a for syntax in sorted(syntaxes, key=_PRECEDENCE.__getitem__)
             for a in EXTRACTORS[syntax](view, rules)]  # fmt: skip
    kept: list[RawAction] = []
    taken: list[tuple[int, int, Syntax]] = []
    for action in found:
        clash = any(
            syntax is not action.syntax and action.start <= end and start <= action.end
            for start, end, syntax in taken
        )
        if not clash:
            kept.append(action)
            taken.append((action.start, action.end, action.syntax))
    kept.sort(key=lambda a: (a.start, a.end))
    return kept
