"""The ruleset catalogue as typed, frozen data: abilities, roles, factions, statuses, options."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any

EMPTY: Mapping[str, Any] = MappingProxyType({})


def _empty() -> Mapping[str, Any]:
    return EMPTY


class TargetKind(StrEnum):
    """What a target slot or a parameter of an order holds."""

    PLAYER = "player"
    ROLE = "role"
    FACTION = "faction"
    CRIME = "crime"
    PHASE = "phase"
    ITEM = "item"
    CLAIM = "claim"
    TEXT = "text"


class Effect(StrEnum):
    """The closed set of effect primitives; abilities and hooks only ever produce these."""

    BLOCK = "block"
    REDIRECT = "redirect"
    SWAP = "swap"
    PROTECT = "protect"
    ATTACK = "attack"
    STATUS = "status"
    ITEM = "item"
    VOTE_MODIFIER = "vote_modifier"
    INVESTIGATE = "investigate"
    APPEARANCE = "appearance"
    CONVERT = "convert"
    LINK = "link"
    SCHEDULE = "schedule"
    COUNTER = "counter"
    GRANT = "grant"
    NOTIFY = "notify"
    NONE = "none"
    HOOK = "hook"


ANY_PHASE = "any"


@dataclass(frozen=True, slots=True)
class TargetSpec:
    """One target slot of an ability.

    ``alive`` is True (living players only), False (dead only) or None (either).
    """

    kind: TargetKind = TargetKind.PLAYER
    alive: bool | None = True
    self: bool = False
    others: bool = True
    optional: bool = False


@dataclass(frozen=True, slots=True)
class ParamSpec:
    """A named, non-target parameter of an order (a claimed role, a crime, a phase...)."""

    name: str
    kind: TargetKind = TargetKind.TEXT
    optional: bool = False
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Ability:
    """An ability as declared in the catalogue (possibly overridden by a role).

    Attributes:
        id: canonical snake_case id.
        name: display name per language.
        phases: phase kinds it may be used in (or ``{"any"}``).
        not_on: phase ids where it may not be used (``night1``).
        uses: uses per game, None for unlimited.
        per_phase: uses allowed in one phase.
        targets: ordered target slots.
        params: named non-target parameters.
        priority: the resolution step (a name from ``Ruleset.order``).
        effect: the effect primitive it produces.
        effect_params: the primitive's parameters (option references resolved at load).
        visits: whether using it visits its targets.
        passive: always-on, needs no order.
        vocabulary: what players write for it, per language.
        requires: conditions checked at validation (``status_exists: doused``).
        tags: free markers read by the engine and hooks (never role names).
    """

    id: str
    name: Mapping[str, str] = field(default_factory=_empty)
    phases: frozenset[str] = frozenset({"night"})
    not_on: frozenset[str] = frozenset()
    uses: int | None = None
    per_phase: int = 1
    targets: tuple[TargetSpec, ...] = ()
    params: Mapping[str, ParamSpec] = field(default_factory=_empty)
    priority: str = "other"
    effect: Effect = Effect.NONE
    effect_params: Mapping[str, Any] = field(default_factory=_empty)
    visits: bool = True
    passive: bool = False
    vocabulary: Mapping[str, tuple[str, ...]] = field(default_factory=_empty)
    requires: Mapping[str, Any] = field(default_factory=_empty)
    tags: frozenset[str] = frozenset()
    notes: str = ""

    def allowed_in(self, kind: str) -> bool:
        """True if the ability may be used in a phase of this kind."""
        return ANY_PHASE in self.phases or kind in self.phases

    def with_overrides(self, **changes: Any) -> Ability:
        """Return a copy with a role's overrides applied."""
        return replace(self, **changes)


@dataclass(frozen=True, slots=True)
class Immunity:
    """A role's immunity to attack kinds; ``while_alive_tag`` makes it conditional.

    ``pierceable`` False means no attack parameter can get through it.
    """

    kinds: frozenset[str]
    while_alive_tag: str | None = None
    pierceable: bool = True


@dataclass(frozen=True, slots=True)
class Role:
    """A role: a faction plus abilities (ids → overridden Ability) and how it appears."""

    id: str
    faction: str
    name: Mapping[str, str] = field(default_factory=_empty)
    abilities: Mapping[str, Ability] = field(default_factory=_empty)
    appears: Mapping[str, str] = field(default_factory=_empty)
    immune: tuple[Immunity, ...] = ()
    vocabulary: Mapping[str, tuple[str, ...]] = field(default_factory=_empty)
    tags: frozenset[str] = frozenset()
    team: str | None = None
    tie_class: str | None = None
    start_items: Mapping[str, int] = field(default_factory=_empty)
    start_statuses: tuple[str, ...] = ()
    reactions: Mapping[str, Mapping[str, Any]] = field(default_factory=_empty)
    win: str | None = None
    notes: str = ""


@dataclass(frozen=True, slots=True)
class Faction:
    """A faction (team) with its named win condition."""

    id: str
    name: Mapping[str, str] = field(default_factory=_empty)
    win: str = "all_enemies_dead"
    win_params: Mapping[str, Any] = field(default_factory=_empty)
    enemies: tuple[str, ...] = ()
    knows_members: bool = False


@dataclass(frozen=True, slots=True)
class StatusDef:
    """A status players can carry (doused, framed...), with how long it lasts.

    ``lasts`` is ``phase``, ``night``, ``day``, ``game`` or a number of phases (counting
    the one it is applied in). ``effects`` are engine-read properties (see docs).
    """

    id: str
    name: Mapping[str, str] = field(default_factory=_empty)
    visible_to: tuple[str, ...] = ("gm",)
    lasts: str | int = "game"
    effects: Mapping[str, Any] = field(default_factory=_empty)


@dataclass(frozen=True, slots=True)
class ItemDef:
    """An item; holding it may grant an ability whose uses are the item's charges."""

    id: str
    name: Mapping[str, str] = field(default_factory=_empty)
    effect: Effect = Effect.NONE
    uses: int | None = 1
    ability: str | None = None
    vocabulary: Mapping[str, tuple[str, ...]] = field(default_factory=_empty)


@dataclass(frozen=True, slots=True)
class PhaseSettings:
    """Phase kinds, the first phase, and how players write phases."""

    kinds: tuple[str, ...] = ("day", "night")
    first: str = "night1"
    vocabulary: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=_empty)


@dataclass(frozen=True, slots=True)
class VoteSettings:
    """How votes are cast and what the lynch rule decides."""

    channel: str = "thread"
    syntax: tuple[str, ...] = ("dollar_bold",)
    rule: str = "plurality"
    tie: str = "no_lynch"
    no_vote_counts_as_self: bool = False
    self_vote: bool = True
    edited_votes: str = "count"
    multi_recipient_pm: str = "ignore"
    section: Mapping[str, Any] = field(default_factory=dict)
    """The whole validated ``vote:`` section, every key (``resolver.votes.read_vote``): what
    the vote counter builds its rules from."""


@dataclass(frozen=True, slots=True)
class OptionDef:
    """An open rules question: its current value, default, choices and GM-facing doc."""

    id: str
    default: Any
    value: Any
    doc: str
    choices: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class Succession:
    """When nobody alive holds ``role``, its first living heir takes it."""

    role: str
    heirs: tuple[str, ...]
    keeps_abilities: bool = False


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A whole validated ruleset. Build it with ``resolver.ruleset.load_ruleset``."""

    id: str
    title: Mapping[str, str]
    languages: tuple[str, ...]
    source: str
    phases: PhaseSettings
    factions: Mapping[str, Faction]
    statuses: Mapping[str, StatusDef]
    items: Mapping[str, ItemDef]
    abilities: Mapping[str, Ability]
    roles: Mapping[str, Role]
    order: Mapping[str, tuple[str, ...]]
    vote: VoteSettings
    options: Mapping[str, OptionDef]
    win: Mapping[str, Any] = field(default_factory=_empty)
    hooks: str | None = None
    protection_precedence: tuple[str, ...] = ()
    succession: tuple[Succession, ...] = ()
    aliases: Mapping[str, Mapping[str, str]] = field(default_factory=_empty)
    path: str = ""
    holders: Mapping[str, tuple[str, ...]] = field(default_factory=_empty)
    """Ability id → ids of the roles that have it (computed at load)."""

    def option(self, name: str) -> Any:
        """The current value of an option (KeyError on an unknown name: a bug)."""
        return self.options[name].value

    def steps(self, kind: str) -> tuple[str, ...]:
        """The resolution steps of a phase kind, with a GM override option applied."""
        override = self.options.get(f"order_{kind}")
        if override is not None:
            return tuple(override.value)
        return self.order.get(kind, ())

    def role_of(self, name: str) -> Role:
        """A role by id or alias."""
        return self.roles[self.aliases.get("roles", EMPTY).get(name, name)]
