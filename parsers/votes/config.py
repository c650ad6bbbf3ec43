"""Vote rules of a ruleset (the ``vote:`` section) as a typed, validated value.

The ``vote:`` section of ``resolver/rulesets/<id>.yaml`` is validated once, by the one vote
schema (:mod:`resolver.votes`), when the ruleset is loaded; :func:`rules_for` turns the
loaded ruleset (and a game's overrides, checked by the same schema) into typed
:class:`VoteRules`. Every key, its values and its default: ``docs/votes.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from parsers.roster import SetupError
from parsers.votes.colours import ColourFamily
from resolver._schema import Reader
from resolver.errors import RulesetError
from resolver.model.catalogue import Ruleset
from resolver.ruleset import vote_settings
from resolver.votes import VOTE_DEFAULTS, read_vote, status_weights, voteless_statuses

__all__ = [
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
    "vote_section",
    "with_game_votes",
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
_ENUMS: dict[str, type[StrEnum]] = {
    "channel": Channel,
    "rule": LynchRule,
    "tie": TieRule,
    "edited_votes": EditPolicy,
    "revote": RevotePolicy,
    "no_lynch_votes": NoLynchVotes,
}
_TYPED = {f.name for f in fields(VoteRules)} - {"extra"}


def rules_for(ruleset: Ruleset | None, data: Mapping[str, Any] | None = None) -> VoteRules:
    """The vote rules of a game: its ruleset's ``vote:`` section, then the game's overrides.

    The ruleset's section was validated when the ruleset was loaded (``resolver.votes``,
    the one vote schema); its statuses say who cannot vote and whose vote counts more (a
    ``vote_weight`` effect: 0 takes the vote away, N sets it). The overrides (a SETUP or
    game file's ``vote:``) are validated by the same schema.

    Args:
        ruleset: the loaded ruleset (None: the generic thread defaults).
        data: the game's overrides.

    Returns:
        The rules.

    Raises:
        SetupError: (a ValueError) naming the bad key, e.g. ``vote.tie``.
    """
    section = vote_section(ruleset, data)
    effects: dict[str, int] = {}
    if ruleset is not None:
        effects = {
            sid: int(status.effects["vote_weight"])
            for sid, status in ruleset.statuses.items()
            if "vote_weight" in status.effects
        }
    given = dict(data or {})
    values = {k: _convert(k, v) for k, v in section.items() if k in _TYPED}
    values["voteless_statuses"] = voteless_statuses(section, effects)
    values["status_weights"] = tuple(
        (status, WeightOp(op), n) for status, op, n in status_weights(section, effects)
    )
    extra = {k: v for k, v in given.items() if k not in VOTE_DEFAULTS}
    return replace(_THREAD_DEFAULT, **values, extra=extra)


def vote_section(ruleset: Ruleset | None, data: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The one place a game's vote settings are made: the ruleset's validated ``vote:``
    section (its ``lynch_rule`` option applied), the game's overrides laid over it, each
    validated by the same schema (``resolver.votes.read_vote``).

    Args:
        ruleset: the loaded ruleset (None: the generic thread defaults).
        data: the game's overrides (a game file's ``votes:``, a SETUP's ``vote:``); keys
            outside the section are left to the caller.

    Returns:
        Every key of the section.

    Raises:
        SetupError: (a ValueError) naming the bad key, e.g. ``vote.tie``.
    """
    section = dict(ruleset.vote.section) if ruleset is not None else dict(VOTE_DEFAULTS)
    if ruleset is not None and "lynch_rule" in ruleset.options:  # a game option (failheap)
        section["rule"] = ruleset.options["lynch_rule"].value
    if not isinstance(data if data is not None else {}, Mapping):
        raise SetupError("vote", "must be a mapping")
    known = {k: v for k, v in (data or {}).items() if k in VOTE_DEFAULTS}
    try:
        checked = read_vote(Reader("vote"), known, None)
    except RulesetError as exc:
        raise SetupError(exc.path or "vote", exc.problem + _choices(exc)) from None
    section.update({k: checked[k] for k in known})
    return section


def with_game_votes(ruleset: Ruleset, data: Mapping[str, Any]) -> Ruleset:
    """The ruleset as a game plays it: its ``vote:`` replaced by :func:`vote_section`'s, so
    the resolver's lynch, the order validator and the GM page read the game's rules too.

    Raises:
        SetupError: (a ValueError) naming the bad key.
    """
    return replace(ruleset, vote=vote_settings(vote_section(ruleset, data)))


def rules_from_data(data: Mapping[str, Any]) -> VoteRules:
    """Validate a ``vote:`` mapping over the generic thread defaults (no ruleset).

    Args:
        data: the mapping.

    Returns:
        The rules.

    Raises:
        SetupError: (a ValueError) naming the bad key.
    """
    if not isinstance(data, Mapping):
        raise SetupError("vote", "must be a mapping")
    return rules_for(None, data)


def _choices(exc: RulesetError) -> str:
    return f" (valid: {', '.join(exc.choices)})" if exc.choices else ""


def _convert(key: str, value: Any) -> Any:
    """A validated section value as its typed :class:`VoteRules` field."""
    where = f"vote.{key}"
    if key in _ENUMS:
        return _enum(_ENUMS[key], value, where)
    if key == "at_deadline":
        return None if value is None else DeadlineRule(value)
    if key == "multi_recipient_pm":
        return value == "count"
    if key in ("syntax", "pm_syntax"):
        return frozenset(Syntax(v) for v in value)
    if key in ("vote_colour", "host_colour"):
        return None if value is None else _enum(ColourFamily, value, where)
    if key in ("voteless_statuses", "unvotable_statuses"):
        return frozenset(value)
    if key == "status_weights":
        return ()  # built with the ruleset's status effects by rules_for
    return value


def _enum(kind: type[Any], value: Any, where: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(m.value for m in kind)
        raise SetupError(where, f"'{value}' is not one of: {choices}") from None
