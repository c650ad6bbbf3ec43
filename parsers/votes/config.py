"""Vote rules of a ruleset (the ``vote:`` section) as a typed, validated value.

The ``vote:`` section of ``resolver/rulesets/<id>.yaml`` (``docs/rulesets.md``) is read by the
shell and handed here as a plain mapping; :func:`rules_from_data` validates it over the
defaults of the ruleset (:data:`RULESET_DEFAULTS`, from the seeds). Every key, its values
and its default are documented in ``docs/votes.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from parsers.roster import SetupError
from parsers.votes.colours import ColourFamily

__all__ = [
    "RULESET_DEFAULTS",
    "Channel",
    "DeadlineRule",
    "EditPolicy",
    "LynchRule",
    "NoLynchVotes",
    "RevotePolicy",
    "Syntax",
    "TieRule",
    "VoteRules",
    "WeightOp",
    "rules_for",
    "rules_from_data",
]


class Syntax(StrEnum):
    """How a vote is written (several may be on at once)."""

    BOLD_VOTE = "bold_vote"  # bold "Vote: Name" / "Unvote"
    DOLLAR_BOLD = "dollar_bold"  # bold "$Name"; struck "$Name" withdraws it
    VOTE_TAG = "vote_tag"  # [vote]Name[/vote] -> span.bbvote
    HASH_VOTE = "hash_vote"  # "##vote Name" / "##unvote" on a line
    COLOUR = "colour"  # a name in the vote colour (red); struck withdraws
    PLAIN_VOTE = "plain_vote"  # a line starting "vote: Name" in plain text (PMs, small forums)


class Channel(StrEnum):
    """Where votes are cast."""

    THREAD = "thread"
    PM = "pm"
    BOTH = "both"  # votes in the thread and by PM both count


class LynchRule(StrEnum):
    """How the day's votes decide."""

    PLURALITY = "plurality"  # most votes at the deadline (majority ends the day early)
    MAJORITY = "majority"  # only a majority lynches; otherwise nobody


class TieRule(StrEnum):
    """What a tie for the most votes means."""

    NO_LYNCH = "no_lynch"
    MAYOR_DECIDES = "mayor_decides"
    RANDOM = "random"
    ALL_TIED = "all_tied"
    FIRST_TO_REACH = "first_to_reach"


class DeadlineRule(StrEnum):
    """What decides the Day when the deadline comes without a majority (``rule: majority``)."""

    PLURALITY = "plurality"  # the most votes lynch (the tie rule for a tie)
    NO_LYNCH = "no_lynch"  # nobody is lynched
    MODERATOR = "moderator"  # the moderator picks (``day.gm_choice``); undecided until then
    RANDOM = "random"  # one of the leading wagons is drawn with the game's seed
    UNKNOWN = "unknown"  # the game's rule is not known: undecided, the GM decides


class NoLynchVotes(StrEnum):
    """How many votes a No Lynch wagon needs to end the Day early."""

    MAJORITY = "majority"  # as many as a lynch
    HALF = "half"  # half of the living voters, rounded up
    MAJORITY_MINUS_ONE = "majority_minus_one"  # one less than a lynch


class EditPolicy(StrEnum):
    """What to do with a vote in a post edited after it was made."""

    COUNT = "count"  # count the text as it reads now; flag the edit to the GM
    IGNORE = "ignore"  # the edited vote does not count (seed 004); flag it
    FLAG = "flag"  # queue it for the GM, uncounted until decided


class RevotePolicy(StrEnum):
    """May a player change his vote during the day."""

    ALLOW = "allow"
    VOID = "void"  # a second vote voids the player's vote for the day (seed 004)


class WeightOp(StrEnum):
    """How a status changes a vote's weight: ``=3`` sets, ``*2`` multiplies, ``+1`` adds."""

    SET = "="
    MULTIPLY = "*"
    ADD = "+"


@dataclass(frozen=True, slots=True)
class VoteRules:
    """Everything the vote counter needs to know from the ruleset (see ``docs/votes.md``)."""

    channel: Channel = Channel.THREAD
    syntax: frozenset[Syntax] = frozenset({Syntax.BOLD_VOTE, Syntax.VOTE_TAG})
    pm_syntax: frozenset[Syntax] = frozenset({Syntax.PLAIN_VOTE, Syntax.BOLD_VOTE})
    vote_colour: ColourFamily = ColourFamily.RED
    host_colour: ColourFamily | None = None
    rule: LynchRule = LynchRule.PLURALITY
    tie: TieRule = TieRule.NO_LYNCH
    no_lynch: bool = True
    no_vote_counts_as_self: bool = False
    requires_participation: bool = False
    self_vote: bool = True
    edited_votes: EditPolicy = EditPolicy.COUNT
    revote: RevotePolicy = RevotePolicy.ALLOW
    multi_recipient_pm: bool = False  # False: PMs with several recipients do not count
    voteless_statuses: frozenset[str] = frozenset({"dead"})
    unvotable_statuses: frozenset[str] = frozenset()
    status_weights: tuple[tuple[str, WeightOp, int], ...] = ()
    majority_ends_day: bool = True  # the Day ends at the post that reaches a majority
    at_deadline: DeadlineRule | None = None  # None: from ``rule`` (plurality / no_lynch)
    no_lynch_votes: NoLynchVotes = NoLynchVotes.MAJORITY
    replacement_inherits_vote: bool = True  # a replacement keeps the old player's vote
    host_counts: bool = False  # a host's posted vote count is a checkpoint
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def deadline_rule(self) -> DeadlineRule:
        """The deadline rule in force: ``at_deadline``, else what ``rule`` implies."""
        if self.at_deadline is not None:
            return self.at_deadline
        if self.rule is LynchRule.PLURALITY:
            return DeadlineRule.PLURALITY
        return DeadlineRule.NO_LYNCH


_THREAD_DEFAULT = VoteRules()
RULESET_DEFAULTS: dict[str, dict[str, Any]] = {
    # seed 002: bold $Name, struck $Name withdraws; a tied vote lynches nobody.
    "failheap": {
        "majority_ends_day": False,
        "syntax": ["dollar_bold"],
        "tie": "no_lynch",
        "status_weights": {"revealed_mayor": "=3"},
    },
    # seed 000: votes by PM to the GM, latest before the deadline; multi-recipient PMs void.
    "dctp": {
        "majority_ends_day": False,
        "channel": "pm",
        "tie": "no_lynch",
        "voteless_statuses": ["dead", "abroad", "arrested", "frightened", "aptxed", "hindered"],
        "unvotable_statuses": ["abroad", "arrested"],
    },
    # seed 003: votes by PM, changeable; no vote = a vote against oneself; the mayor breaks ties.
    "durarara": {
        "majority_ends_day": False,
        "channel": "pm",
        "tie": "mayor_decides",
        "no_vote_counts_as_self": True,
        "requires_participation": True,
        "no_lynch": False,
    },
    # seed 004: red names are votes, blue is to the host; no self-votes, edits or re-votes.
    "ru_mafia": {
        "majority_ends_day": False,
        "syntax": ["colour"],
        "vote_colour": "red",
        "host_colour": "blue",
        "tie": "no_lynch",
        "self_vote": False,
        "edited_votes": "ignore",
        "revote": "void",
        "no_lynch": False,
        "voteless_statuses": ["dead", "jailed", "drunk", "lost_vote", "quarantined", "tormented"],
        "status_weights": {"diploma": "*2", "banshee": "+1"},
    },
}

_ENUMS: dict[str, type[StrEnum]] = {
    "channel": Channel,
    "rule": LynchRule,
    "tie": TieRule,
    "edited_votes": EditPolicy,
    "revote": RevotePolicy,
    "no_lynch_votes": NoLynchVotes,
}
_BOOLS = frozenset(
    {"no_lynch", "no_vote_counts_as_self", "requires_participation", "self_vote",
     "majority_ends_day", "host_counts", "replacement_inherits_vote"}
)  # fmt: skip
_NAME_SETS = frozenset({"voteless_statuses", "unvotable_statuses"})


def rules_for(ruleset: str, data: Mapping[str, Any] | None = None) -> VoteRules:
    """The vote rules of ``ruleset``: its documented defaults overlaid with ``data``.

    Args:
        ruleset: the ruleset id (unknown ids start from the generic thread defaults).
        data: the ruleset file's ``vote:`` section, when there is one.

    Returns:
        The rules.

    Raises:
        SetupError: (a ValueError) naming the bad key, e.g. ``vote.tie``.
    """
    merged = {**RULESET_DEFAULTS.get(ruleset, {}), **(data or {})}
    return rules_from_data(merged)


def rules_from_data(data: Mapping[str, Any]) -> VoteRules:
    """Validate a ``vote:`` mapping into :class:`VoteRules` (missing keys keep defaults).

    Args:
        data: the mapping.

    Returns:
        The rules.

    Raises:
        SetupError: (a ValueError) naming the bad key.
    """
    if not isinstance(data, Mapping):
        raise SetupError("vote", "must be a mapping")
    known = {f.name for f in fields(VoteRules)} - {"extra"}
    values: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for key, value in data.items():
        if key not in known:
            extra[key] = value  # other readers' keys (docs/rulesets.md) are kept, not refused
            continue
        values[key] = _convert(key, value)
    return replace(_THREAD_DEFAULT, **values, extra=extra)


def _convert(key: str, value: Any) -> Any:
    where = f"vote.{key}"
    if key in _ENUMS:
        return _enum(_ENUMS[key], value, where)
    if key == "at_deadline":
        return None if value is None else _enum(DeadlineRule, value, where)
    if key in _BOOLS:
        if not isinstance(value, bool):
            raise SetupError(where, "must be true or false")
        return value
    if key == "multi_recipient_pm":
        if value in ("ignore", "count") or isinstance(value, bool):
            return value is True or value == "count"
        raise SetupError(where, "must be 'ignore' or 'count'")
    if key in ("syntax", "pm_syntax"):
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not items:
            raise SetupError(where, "must be a list of syntaxes")
        # "pm" is the game file's name for plain "vote: X" lines in PMs.
        return frozenset(_enum(Syntax, "plain_vote" if v == "pm" else v, where) for v in items)
    if key in ("vote_colour", "host_colour"):
        if value is None and key == "host_colour":
            return None
        return _enum(ColourFamily, value, where)
    if key in _NAME_SETS:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise SetupError(where, "must be a list of status names")
        return frozenset(value)
    return _weights(value, where)


def _enum(kind: type[Any], value: Any, where: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(m.value for m in kind)
        raise SetupError(where, f"'{value}' is not one of: {choices}") from None


def _weights(value: Any, where: str) -> tuple[tuple[str, WeightOp, int], ...]:
    if not isinstance(value, Mapping):
        raise SetupError(where, "must map a status to '=N', '*N' or '+N'")
    out = []
    for status, spec in value.items():
        text = str(spec).strip()
        op_text, number = text[:1], text[1:]
        if op_text not in {op.value for op in WeightOp} or not number.lstrip("-").isdigit():
            raise SetupError(f"{where}.{status}", f"'{spec}' is not '=N', '*N' or '+N'")
        out.append((str(status), WeightOp(op_text), int(number)))
    return tuple(out)
