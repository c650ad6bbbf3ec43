"""What the host's own vote-count posts say about the votes the counter queued.

A careful human counter reads a name no rule resolves ("CP", "Deadline Extension", "No
lolwagons", a joke) the way the moderator did: the moderator's next vote count shows where
he put the vote. This module reads the host's vote-count posts of the day and, for each
queued vote, the first count posted after it (and before the voter voted again) that lists
the voter:

- on one player's wagon that is one of the queued name's candidates: the name means that
  player (``Twistedspoon: "Vote: CP"``, then ``crazypianist1116 (4) - ..., TwistedSpoon``);
- under *Not voting*, for a name that is no near-match of any player: the vote is for
  nobody (``jeromus: "VOTE: Town wins because we're cool"``, then ``Not voting(2):
  Jeromus, Occult``);
- on a wagon that is no player and whose label is the name written: a vote for an option
  of the host's (``No Lolwagons - Slaxx, Hoppster``): no vote for anybody; and when the
  same count also keeps the voter on a player's wagon (``Deadline Extention - 3 (...)``
  beside ``AGar - 6 (..., Nachomamma8, ...)``), a side vote that leaves the standing vote
  where it was.

Anything else stays queued. The rulings are GM corrections (``DayEvent``), explained in the
count's notes; they never come from a guess on the name alone, only from the count the host
posted. A count the host did not post about the voter (or one posted after he voted again)
decides nothing. And a decision the host's own last count contradicts (it shows another
wagon at the majority: a slip of his, or a vote misread here) is no decision:
:func:`host_contradiction` says why, and the GM decides.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from parsers.html import Region, parse_html
from parsers.names import EntryKind, MatchKind, NameEntry, NameIndex, Resolved, fold
from parsers.roster import Roster
from parsers.votes.model import (
    NO_LYNCH,
    Action,
    DayEvent,
    DayEventKind,
    EventStatus,
    PostInput,
    QueueItem,
    VoteEvent,
)

__all__ = [
    "NOT_VOTING",
    "CountLine",
    "HostRuling",
    "host_contradiction",
    "host_rulings",
    "read_count",
]

# A vote count: titled so, or (a title drawn as an image) with its "Not voting" line.
_HEADER = re.compile(r"\bvote\s?count\b|\bnot\s+voting\b", re.IGNORECASE)
_SKIP = Region.QUOTE | Region.CODE | Region.SIGNATURE | Region.SPOILER
# The mark after the hammering voter: "[LYNCH]", "<<< LYNCH", "(LYNCH)", "-- LYNCH", "- LYNCHED".
_TAIL = re.compile(
    r"\s*(?:\[(?:L-\d+|LYNCH(?:ED)?|HAMMER(?:ED)?)\]|<+\s*[A-Za-z! ]*"
    r"|\(\s*(?:LYNCH(?:ED)?|HAMMER(?:ED)?)\s*!?\s*\)|\s[-–—]+\s*(?:LYNCH(?:ED)?|HAMMER(?:ED)?)!?)\s*$",
    re.IGNORECASE,
)
# BBCode the forum left as text ("Bacde[/color]"); a name in brackets ("[winger]") stays.
_LEFT_TAG = re.compile(r"\[/?(?:b|i|u|s|colou?r|size|font|area|url)(?:=[^\]]*)?\]", re.IGNORECASE)
_SEP = r"(?:\s[-~–—]|[-~–—]\s|:)"  # a hyphen in a name ("Dry-fit") is no separator
# "Label (3) - a, b", "Label(3): a, b", "[winger] [3/7] - a, b", "Label - 3 (a, b)",
# "[3] Label ~ a, b", "Label (LYNCHED): a, b", "Label -4- a; b", "Label - a, b".
_COUNTED = re.compile(
    rf"^(?P<label>.{{1,60}}?)\s*[(\[]\s*(?P<n>\d+|lynched|hammered|reached)\s*(?:/\s*\d+)?\s*"
    rf"[)\]]\s*{_SEP}?\s*(?P<voters>.*)$",
    re.IGNORECASE,
)
_TRAILING = re.compile(
    rf"^(?P<label>[^()]{{1,60}}?)\s*{_SEP}\s*(?P<n>\d+)\s*\((?P<voters>[^()]*)\)\s*$"
)
_LEADING = re.compile(
    rf"^[(\[]\s*(?P<n>\d+)\s*[)\]]\s*(?P<label>[^()~:–—]{{1,60}}?)\s*(?:{_SEP}\s*(?P<voters>.*))?$"
)
_DASHED = re.compile(r"^(?P<label>[^()]{1,60}?)\s+-\s*(?P<n>\d+)\s*-\s+(?P<voters>.*)$")
_BARE = re.compile(rf"^(?P<label>[^():~–—]{{1,60}}?)\s*{_SEP}\s*(?P<voters>[^()]+)$")
NOT_VOTING = "\x00not voting"


@dataclass(frozen=True, slots=True)
class HostRuling:
    """The host's reading of one queued vote.

    Attributes:
        event: the correction to apply to the queued post.
        note: the sentence the count's notes show.
    """

    event: DayEvent
    note: str


def host_rulings(
    posts: Sequence[PostInput],
    roster: Roster,
    queue: Sequence[QueueItem],
    events: Sequence[VoteEvent],
    no_lynch: Sequence[str] = (),
) -> list[HostRuling]:
    """The corrections the host's vote-count posts make to the day's queued names.

    Args:
        posts: the day's posts, in thread order.
        roster: the players (the names the counts list).
        queue: the GM queue of a first count of the day.
        events: that count's vote events (to see when a voter voted again).
        no_lynch: the names of the No Lynch wagon, when the rules allow one.

    Returns:
        One ruling per queued name the host's own counts decide.
    """
    counts = _host_counts(posts, roster)
    if not counts:
        return []
    where = {post.id: i for i, post in enumerate(posts)}
    index = _index(roster, no_lynch)
    read = {i: read_count(post.html, index) for i, post in counts}
    rulings = []
    for item in queue:
        if item.kind not in ("unresolved_name", "ambiguous_name") or item.post_id not in where:
            continue
        voter, start = item.voter or "", where[item.post_id]
        stop = _next_vote(events, voter, item.post_id, where, start)
        listing = next(
            ((i, post) for i, post in counts if start < i < stop and _lists(read[i], voter)),
            None,
        )
        if listing is not None:
            i, post = listing
            labels = [line.label for line in read[i] if voter in line.voters]
            before = _vote_before(events, voter, start, where)
            ruling = _ruling(item, labels, post, index, before)
            rulings += [ruling] if ruling is not None else []
    return rulings


def _host_counts(posts: Sequence[PostInput], roster: Roster) -> list[tuple[int, PostInput]]:
    """The hosts' vote-count posts, with their positions."""
    return [
        (i, post)
        for i, post in enumerate(posts)
        if roster.is_host_account(post.author, post.author_id) and _HEADER.search(post.html)
    ]


def _index(roster: Roster, no_lynch: Sequence[str]) -> NameIndex:
    """The names a host's count may use: every slot's (dead ones too) and No Lynch's."""
    entries = [NameEntry(NO_LYNCH, n, EntryKind.ALIAS) for n in no_lynch]
    return NameIndex(roster.name_entries() + entries, acronyms=True)


def _lists(lines: tuple[CountLine, ...], voter: str) -> bool:
    return any(voter in line.voters for line in lines)


def _next_vote(
    events: Sequence[VoteEvent], voter: str, post_id: str, where: dict[str, int], start: int
) -> int:
    """The position of the voter's next post with a vote or unvote after ``start``."""
    later = [
        where[e.post_id]
        for e in events
        if e.voter == voter
        and e.post_id != post_id
        and e.post_id in where
        and where[e.post_id] > start
        and e.action in (Action.VOTE, Action.UNVOTE)
    ]
    return min(later, default=len(where) + 1)


@dataclass(frozen=True, slots=True)
class CountLine:
    """One wagon line of a host's vote count.

    Attributes:
        label: the slot (or ``No Lynch``) it resolves to, else its text as written, or
            :data:`NOT_VOTING`.
        number: the votes the host wrote, when he wrote a number.
        voters: the listed voters' slots (None for a name that resolves to no player).
    """

    label: str
    number: int | None
    voters: tuple[str | None, ...]


def read_count(html: str, index: NameIndex) -> tuple[CountLine, ...]:
    """The wagon lines of a host's vote-count post, read the ways moderators write them.

    A line with no number must list only players (else it is prose); quotes, spoilers
    and code are not read.

    Args:
        html: the post.
        index: the players' names (and No Lynch's).

    Returns:
        The lines, in order.
    """
    lines = []
    for line in _unstruck_lines(html):
        text = _TAIL.sub("", _LEFT_TAG.sub("", line).strip())
        for pattern in (_TRAILING, _DASHED, _LEADING, _COUNTED, _BARE):
            match = pattern.match(text)
            if match:
                break
        else:
            continue
        names = [n.strip(" .*") for n in re.split(r"[,;]", match.group("voters") or "")]
        voters = tuple(_name(index, n) for n in names if n)
        written = match.groupdict().get("n")
        number = None if written is None else int(written) if written.isdigit() else len(voters)
        if number is None and (not voters or None in voters):
            continue
        lines.append(CountLine(_label(index, match.group("label").strip(" *")), number, voters))
    return tuple(lines)


def _unstruck_lines(html: str) -> list[str]:
    """The post's own lines without struck text (a struck voter has withdrawn his vote)."""
    view = parse_html(html, _SKIP)
    lines: dict[int, list[str]] = {}
    for seg in view.segments:
        if not seg.strike and not seg.region_bits & _SKIP.value and not seg.quote_depth:
            lines.setdefault(seg.line, []).append(seg.text)
    out = [re.sub(r"\s+", " ", "".join(parts)).strip() for _, parts in sorted(lines.items())]
    return [re.sub(r"\(\s*,?\s*\)|,\s*(?=,)", "", line) for line in out if line]


def _name(index: NameIndex, text: str) -> str | None:
    """The slot a name of the host's count stands for (moderators abbreviate: "Kthx",
    "MK", "fitz"), or None when it is no player or could be several."""
    found = index.resolve(text)
    return found.slot if isinstance(found, Resolved) else None


def _label(index: NameIndex, label: str) -> str:
    if "not voting" in label.lower():
        return NOT_VOTING
    return _name(index, label) or label


def _vote_before(
    events: Sequence[VoteEvent], voter: str, start: int, where: dict[str, int]
) -> str | None:
    """Where the voter's vote stood before the post at ``start`` (None: no vote)."""
    standing: str | None = None
    for event in events:
        if event.voter != voter or where.get(event.post_id, start) >= start:
            continue
        if event.status is EventStatus.COUNTED:
            standing = event.target if event.action is Action.VOTE else None
    return standing


def _ruling(
    item: QueueItem, labels: list[str], post: PostInput, index: NameIndex, before: str | None
) -> HostRuling | None:
    """What the count's lines listing the voter say about his queued vote, if anything.

    A count that still shows the voter's vote from before the queued post may simply not
    have caught up with it: it decides nothing about the new name.
    """
    written = item.written or item.raw
    where = f"the host's vote count (post {post.number if post.number is not None else post.id})"
    players = {x for x in labels if x != NOT_VOTING and _name(index, x) == x}
    options = [x for x in labels if x != NOT_VOTING and x not in players]
    own = [x for x in options if _same_text(x, written)]
    if own and players == {before}:
        note = f"{where} counts {item.voter}'s {written!r} apart from the lynch: his vote stands"
        return HostRuling(DayEvent(DayEventKind.IGNORE, str(item.post_id)), note)
    if own and not players:
        note = f"{where} shows {item.voter}'s {written!r} as no player's wagon: no vote"
        return HostRuling(DayEvent(DayEventKind.CORRECT, str(item.post_id)), note)
    if len(players) == 1 and not options and NOT_VOTING not in labels:
        (target,) = players
        if target in item.candidates and target != before:
            note = f"{where} counts {item.voter}'s {written!r} for {target}"
            return HostRuling(
                DayEvent(DayEventKind.CORRECT, str(item.post_id), target=target), note
            )
    fresh = before is not None or not item.candidates  # "not voting" is no stale count
    if labels == [NOT_VOTING] and item.kind == "unresolved_name" and fresh:
        note = f"{where} lists {item.voter} as not voting after {written!r}: no vote"
        return HostRuling(DayEvent(DayEventKind.CORRECT, str(item.post_id)), note)
    return None


def _same_text(label: str, written: str) -> bool:
    """The host's label is the name the voter wrote (case, spaces, a typo aside)."""
    if fold(label) == fold(written):
        return True
    found = NameIndex([NameEntry(label, label)]).resolve(written)
    return isinstance(found, Resolved) and found.how in (MatchKind.EXACT, MatchKind.TYPO)


def host_contradiction(
    posts: Sequence[PostInput],
    roster: Roster,
    decided: str | None,
    voters: Sequence[str],
    majority: int,
    no_lynch: Sequence[str] = (),
) -> str | None:
    """Why the host's last vote count of the day contradicts the decision, if it does.

    Args:
        posts: the day's posts, in thread order.
        roster: the players.
        decided: the slot the decision lynches (``No Lynch`` for a No Lynch, None for none).
        voters: the voters on the decided wagon (a host line listing exactly them under
            another name is the host's slip of the label, no contradiction).
        majority: the votes a lynch needs.
        no_lynch: the names of the No Lynch wagon, when the rules allow one.

    Returns:
        A sentence for the GM when the host's last count puts another wagon at the
        majority; else None.
    """
    index = _index(roster, no_lynch)
    last = next(reversed([post for _, post in _host_counts(posts, roster)]), None)
    if last is None:
        return None
    for line in read_count(last.html, index):
        if line.number is None or line.number < majority or line.label == decided:
            continue
        if set(line.voters) == set(voters):
            continue  # the same voters as the decided wagon, another label: the host's slip
        if _name(index, line.label) == line.label:
            where = last.number if last.number is not None else last.id
            return (
                f"the host's vote count at post {where} shows {line.label} with "
                f"{line.number} votes, the majority, and this count does not"
            )
    return None
