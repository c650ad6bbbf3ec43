"""Which vote syntax a thread uses, and a warning when posts hold votes the game does not read.

``forumbot init`` asks :func:`detect_syntaxes` which syntaxes the thread's posts are written
in, and writes them to the game file; ``game check`` and the first run call
:func:`unread_votes_warning`: posts were read, no vote was found in the game's syntaxes, but
the posts are full of bold "vote" texts (a thread voting ``[b]vote: X[/b]`` under a
``$Name`` ruleset would otherwise count zero votes without a word).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from parsers.html import DEFAULT_SKIP, parse_html
from parsers.votes.config import Syntax, VoteRules
from parsers.votes.extract import extract_actions, may_hold_votes

__all__ = ["detect_syntaxes", "suggest_syntaxes", "unread_votes_warning"]

# plain_vote lines ("vote: X" at a line start) are the PM syntax; in a thread they are noise.
_THREAD_SYNTAXES = (
    Syntax.BOLD_VOTE,
    Syntax.DOLLAR_BOLD,
    Syntax.VOTE_TAG,
    Syntax.HASH_VOTE,
    Syntax.COLOUR,
)


def detect_syntaxes(bodies: Iterable[str], rules: VoteRules) -> dict[Syntax, int]:
    """How many posts hold a vote in each thread syntax.

    Args:
        bodies: the posts' HTML (players' posts; hosts' vote counts would mislead).
        rules: vote rules (the vote colour for ``colour``).

    Returns:
        Syntax -> number of posts with at least one vote action in it (0s left out).
    """
    counts: dict[Syntax, int] = {}
    for html in bodies:
        for syntax in _THREAD_SYNTAXES:
            one = frozenset({syntax})
            if may_hold_votes(html, one) and extract_actions(
                parse_html(html, DEFAULT_SKIP), rules, one
            ):
                counts[syntax] = counts.get(syntax, 0) + 1
    return counts


def suggest_syntaxes(counts: Mapping[Syntax, int]) -> tuple[Syntax, ...]:
    """The syntaxes to write in the game file: those used by at least a fifth as many posts
    as the most used one (and by 2 posts at least), most used first (red chatter is not a
    colour syntax)."""
    if not counts:
        return ()
    top = max(counts.values())
    used = [s for s, n in counts.items() if n >= max(2, top // 5)]
    return tuple(sorted(used, key=lambda s: -counts[s]))


def unread_votes_warning(bodies: Iterable[str], rules: VoteRules) -> str | None:
    """One sentence for the GM when the posts hold votes in a syntax the game does not read.

    Args:
        bodies: the posts read (players' posts).
        rules: the game's vote rules.

    Returns:
        The warning, or None when the game's syntaxes find votes (or nobody voted at all).
    """
    posts = list(bodies)
    found = sum(
        1
        for html in posts
        if may_hold_votes(html, rules.syntax)
        and extract_actions(parse_html(html, DEFAULT_SKIP), rules, rules.syntax)
    )
    if found or not posts:
        return None
    counts = detect_syntaxes(posts, rules)
    other = {s: n for s, n in counts.items() if s not in rules.syntax and n >= 2}
    if not other:
        return None
    named = ", ".join(
        f"{s.value} ({n} posts)" for s, n in sorted(other.items(), key=lambda i: -i[1])
    )
    syntax = ", ".join(sorted(s.value for s in rules.syntax))
    return (
        f"{len(posts)} posts read and no vote found in the game's vote syntax ({syntax}), "
        f"but the posts hold votes written as {named}: set votes.syntax in the game file."
    )
