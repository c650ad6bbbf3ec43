"""The one vote model: the ``vote:`` section's schema, vote weights and the lynch rule.

The ruleset loader validates every ruleset's ``vote:`` section here (:func:`read_vote`),
once; the vote counter (``parsers.votes``) builds its rules from the validated section and
validates a game's overrides with the same function. Both the counter and the resolver
weigh votes with :func:`combine_weight`, count the majority with :func:`lynch_majority` and
apply the lynch rule with :func:`pick_lynch`, so the published vote count and the resolved
lynch cannot disagree. Every key, its values and its default: ``docs/votes.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from resolver._schema import Reader, join

__all__ = [
    "SYNTAXES",
    "VOTE_CHOICES",
    "VOTE_DEFAULTS",
    "LynchPick",
    "combine_weight",
    "lynch_majority",
    "pick_lynch",
    "read_vote",
    "status_weights",
    "voteless_statuses",
]

SYNTAXES = ("bold_vote", "dollar_bold", "vote_tag", "hash_vote", "colour", "plain_vote")
VOTE_CHOICES: dict[str, tuple[str, ...]] = {
    "channel": ("thread", "pm", "both"),
    "rule": ("plurality", "majority"),
    "tie": ("no_lynch", "mayor_decides", "random", "all_tied", "first_to_reach"),
    "edited_votes": ("count", "ignore", "flag"),
    "revote": ("allow", "void"),
    "multi_recipient_pm": ("ignore", "count"),
    "at_deadline": ("plurality", "no_lynch", "moderator", "random", "unknown"),
    "no_lynch_votes": ("majority", "half", "majority_minus_one"),
}
_BOOLS = (
    "no_lynch",
    "no_vote_counts_as_self",
    "requires_participation",
    "self_vote",
    "majority_ends_day",
    "host_counts",
    "replacement_inherits_vote",
)
_STATUS_LISTS = ("voteless_statuses", "unvotable_statuses")
VOTE_DEFAULTS: Mapping[str, Any] = {
    "channel": "thread",
    "syntax": ("bold_vote", "vote_tag"),
    "pm_syntax": ("plain_vote", "bold_vote"),
    "vote_colour": "red",
    "host_colour": None,
    "rule": "plurality",
    "tie": "no_lynch",
    "no_lynch": True,
    "no_vote_counts_as_self": False,
    "requires_participation": False,
    "self_vote": True,
    "edited_votes": "count",
    "revote": "allow",
    "multi_recipient_pm": "ignore",
    "voteless_statuses": (),
    "unvotable_statuses": (),
    "status_weights": {},
    "majority_ends_day": True,
    "at_deadline": None,
    "no_lynch_votes": "majority",
    "replacement_inherits_vote": True,
    "host_counts": False,
}
"""What a key the section leaves out means (a ruleset file states its own values)."""


def read_vote(
    r: Reader, raw: Any, statuses: Iterable[str] | None, where: str = "vote"
) -> dict[str, Any]:
    """Validate a ``vote:`` mapping: every key known, every value of its kind.

    Args:
        r: the reader of the file (errors name it).
        raw: the mapping as loaded.
        statuses: the ruleset's status ids (named statuses must be among them, or
            ``dead``); None when checking a game's overrides, whose statuses are free.
        where: the key path of the section.

    Returns:
        The section with every key: its value, else its default.

    Raises:
        RulesetError: the bad key, its problem and the valid choices.
    """
    raw = r.mapping(raw, where, optional=tuple(VOTE_DEFAULTS))
    known = None if statuses is None else {*statuses, "dead"}
    out = dict(VOTE_DEFAULTS)
    for key, value in raw.items():
        out[key] = _value(r, key, value, join(where, key), known)
    return out


def _value(r: Reader, key: str, value: Any, path: str, known: set[str] | None) -> Any:
    if key in VOTE_CHOICES:
        if key == "at_deadline" and value is None:
            return None
        if key == "multi_recipient_pm" and isinstance(value, bool):
            return "count" if value else "ignore"
        return r.choice(value, path, VOTE_CHOICES[key])
    if key in _BOOLS:
        return r.boolean(value, path)
    if key in ("syntax", "pm_syntax"):
        names = tuple("plain_vote" if s == "pm" else s for s in r.strings(value, path))
        if not names:
            raise r.fail(path, "at least one syntax is required", SYNTAXES)
        for i, name in enumerate(names):
            r.choice(name, f"{path}[{i}]", SYNTAXES)
        return names
    if key in ("vote_colour", "host_colour"):
        if value is None and key == "host_colour":
            return None
        return r.text(value, path)
    if key in _STATUS_LISTS:
        return tuple(
            _status(r, s, f"{path}[{i}]", known) for i, s in enumerate(r.strings(value, path))
        )
    return _weights(r, r.mapping(value, path), path, known)


def _status(r: Reader, name: str, path: str, known: set[str] | None) -> str:
    if known is not None and name not in known:
        raise r.fail(path, f"'{name}' is not a status of this ruleset", sorted(known))
    return name


def _weights(
    r: Reader, raw: Mapping[str, Any], path: str, known: set[str] | None
) -> dict[str, str]:
    out = {}
    for status, spec in raw.items():
        where = join(path, str(status))
        _status(r, str(status), where, known)
        text = str(spec).strip()
        if text[:1] not in ("=", "*", "+") or not text[1:].lstrip("-").isdigit():
            raise r.fail(where, f"'{spec}' is not '=N', '*N' or '+N'")
        out[str(status)] = text
    return out


def voteless_statuses(section: Mapping[str, Any], effects: Mapping[str, int]) -> frozenset[str]:
    """The statuses that take the vote away: ``dead``, those whose ``vote_weight`` effect is
    0, and the section's ``voteless_statuses``.

    Args:
        section: the validated ``vote:`` section.
        effects: status id -> its ``vote_weight`` effect, for the statuses that have one.
    """
    zero = {status for status, weight in effects.items() if weight == 0}
    return frozenset({"dead", *zero, *section["voteless_statuses"]})


def status_weights(
    section: Mapping[str, Any], effects: Mapping[str, int]
) -> tuple[tuple[str, str, int], ...]:
    """Every status that changes a vote: (status, ``=``/``*``/``+``, N).

    A status's ``vote_weight`` effect N sets the weight (``=N``); the section's
    ``status_weights`` add the rest (a diploma's ``*2``, a banshee's ``+1``).
    """
    out = [(status, "=", weight) for status, weight in effects.items() if weight != 0]
    for status, spec in section["status_weights"].items():
        out.append((status, spec[0], int(spec[1:])))
    return tuple(out)


_ORDER = ("=", "*", "+")


def combine_weight(weights: Iterable[tuple[str, int]], voteless: bool = False) -> int:
    """A vote's weight from its statuses' operations: 1, each ``=N`` sets (the highest
    wins), then ``*N`` multiplies and ``+N`` adds; 0 when a status takes the vote away.

    Args:
        weights: the voter's (operation, N) pairs.
        voteless: a status of the voter takes his vote away.

    Returns:
        The weight (0: no vote).
    """
    if voteless:
        return 0
    ops = list(weights)
    sets = [n for op, n in ops if op == "="]
    if 0 in sets:
        return 0
    weight = max(sets, default=1)
    for op, number in sorted(ops, key=lambda item: _ORDER.index(item[0])):
        if op == "*":
            weight *= number
        elif op == "+":
            weight += number
    return max(weight, 0)


def lynch_majority(weights: Iterable[int]) -> int:
    """The votes a majority needs: more than half of the votes the living voters hold."""
    return sum(weights) // 2 + 1


@dataclass(frozen=True, slots=True)
class LynchPick:
    """What the lynch rule makes of the totals.

    Attributes:
        chosen: the lynched target(s) (several under ``all_tied``); empty: nobody.
        tied: the targets tied for the lead, when there is a tie.
        waits_for: ``mayor`` (the mayor breaks the tie), ``draw`` (a random pick with the
            game's seed), or None when the rule decided.
        short_of_majority: under ``rule: majority``, nobody reached it.
    """

    chosen: tuple[str, ...]
    tied: tuple[str, ...] = ()
    waits_for: str | None = None
    short_of_majority: bool = False


def pick_lynch(
    totals: Sequence[tuple[str, int]],
    *,
    rule: str,
    tie: str,
    majority: int,
    mayor_choice: str | None = None,
) -> LynchPick:
    """Apply the lynch rule and the tie rule to the totals.

    Args:
        totals: (target, votes) in the order the wagons reached their count (first first).
        rule: ``plurality`` or ``majority``.
        tie: the tie rule (``no_lynch``, ``mayor_decides``, ``random``, ``all_tied``,
            ``first_to_reach``).
        majority: the votes a majority needs.
        mayor_choice: the mayor's pick among the tied, once made.

    Returns:
        The pick.
    """
    top = max((n for _, n in totals), default=0)
    if top <= 0:
        return LynchPick(())
    if rule == "majority" and top < majority:
        return LynchPick((), short_of_majority=True)
    leaders = tuple(t for t, n in totals if n == top)
    if len(leaders) == 1:
        return LynchPick(leaders)
    if tie == "all_tied":
        return LynchPick(leaders, leaders)
    if tie == "first_to_reach":
        return LynchPick(leaders[:1], leaders)
    if tie == "mayor_decides":
        if mayor_choice in leaders:
            return LynchPick((str(mayor_choice),), leaders)
        return LynchPick((), leaders, "mayor")
    if tie == "random":
        return LynchPick((), leaders, "draw")
    return LynchPick((), leaders)
