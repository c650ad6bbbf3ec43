"""A host's posted vote count read back as a checkpoint (opt-in: ``vote.host_counts``).

When the GM corrects the count by posting his own (or re-posts forumbot's, edited), the
count from that post on starts from what he posted, the way kcereru/discourse-votecount
treats a host's ``[votecount]``. The reading is strict, because a misread count would
silently replace correct votes: every line must look like ``Target (n): voter, voter`` (the
format of ``forumbot/templates/votes/vote_count.bbcode.j2``; struck voters are withdrawn
votes and are left out), every name must resolve exactly (name, alias or previous name), and
``n`` must equal the number of voters. Otherwise the post is no checkpoint, and the counter
notes why.
"""

from __future__ import annotations

import re

from parsers.html import Region, parse_html
from parsers.names import MatchKind, NameIndex, Resolved

__all__ = ["read_host_count"]

_WAGON = re.compile(r"^(?P<target>[^():]{1,60}?)\s*\((?P<n>\d+)\)\s*[:\-–—]\s*(?P<voters>.*)$")
_EXACT = frozenset({MatchKind.EXACT, MatchKind.ALIAS, MatchKind.PREVIOUS})
_HEADER = re.compile(r"\bvote\s?count\b", re.IGNORECASE)
_WEIGHT = re.compile(r"\s*[×x]\s*(\d+)$")
_NOTE = re.compile(r"\s*\([^()]*\)\s*$")


def _exact(index: NameIndex, text: str) -> str | None:
    found = index.resolve(text)
    return found.slot if isinstance(found, Resolved) and found.how in _EXACT else None


def read_host_count(html: str, index: NameIndex) -> tuple[dict[str, str] | None, str]:
    """The standing votes a host's vote-count post shows, or why it is not read as one.

    Args:
        html: the host's post.
        index: the names of the slots (and ``No Lynch``).

    Returns:
        (voter -> target, "") for a count read in full; (None, reason) otherwise, with an
        empty reason when the post is no vote count at all.
    """
    view = parse_html(html, Region.QUOTE | Region.CODE | Region.SIGNATURE | Region.SPOILER)
    if not _HEADER.search(view.text(Region(0))):
        return None, ""
    struck = {seg.text.strip() for seg in view.segments if seg.strike and seg.text.strip()}
    votes: dict[str, str] = {}
    wagons = 0
    for line in view.lines(Region.QUOTE | Region.CODE | Region.SIGNATURE | Region.SPOILER):
        match = _WAGON.match(line)
        if not match or "not voting" in match.group("target").lower():
            continue
        target = _exact(index, match.group("target").strip(" *[]"))
        names = [v.strip(" .") for v in _NOTE.sub("", match.group("voters")).split(",")]
        names = [v for v in names if v and v not in struck]
        weights = [int(w.group(1)) if (w := _WEIGHT.search(v)) else 1 for v in names]
        voters = [_exact(index, _WEIGHT.sub("", v)) for v in names]
        if target is None or None in voters or sum(weights) != int(match.group("n")):
            return None, f"host count line not read exactly: '{line}'"
        for voter in voters:
            votes[str(voter)] = target
        wagons += 1
    if not wagons:
        return None, "host post mentions a vote count but lists no wagon"
    return votes, ""
