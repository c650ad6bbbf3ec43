"""Game state and orders: frozen, slotted, built only from tuples and frozensets."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NewType

from resolver.model.catalogue import _empty

PlayerId = NewType("PlayerId", str)

_PHASE_RE = re.compile(r"^([a-z_]+?)(\d+)$")


@dataclass(frozen=True, slots=True, order=True)
class Phase:
    """A phase of the game: ``night1``, ``day2``. Ordered by number, then by ``order``."""

    number: int
    rank: int
    kind: str
    id: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # computed once: the id is read on every status, ledger entry and event
        object.__setattr__(self, "id", f"{self.kind}{self.number}")

    @classmethod
    def parse(cls, text: str, kinds: tuple[str, ...]) -> Phase:
        """Parse ``night2`` given the ruleset's phase kinds (in the order a cycle plays them).

        Raises:
            ValueError: the text is not ``<kind><number>`` with a known kind.
        """
        match = _PHASE_RE.match(text.strip().lower())
        if not match or match.group(1) not in kinds:
            raise ValueError(f"not a phase: {text!r}")
        return cls(int(match.group(2)), kinds.index(match.group(1)), match.group(1))

    def __str__(self) -> str:
        return self.id


@dataclass(frozen=True, slots=True)
class Status:
    """A status on a player; ``until`` is the last phase id it covers (None: the game)."""

    id: str
    until: str | None = None
    source: str | None = None
    since: str | None = None


@dataclass(frozen=True, slots=True)
class PlayerState:
    """Everything the resolver knows about one player."""

    name: str
    role: str
    faction: str
    alive: bool = True
    statuses: tuple[Status, ...] = ()
    uses: tuple[tuple[str, int], ...] = ()
    items: tuple[tuple[str, int], ...] = ()
    flags: frozenset[str] = frozenset()
    died: str | None = None
    cause: str | None = None
    role_hidden: bool = False
    granted: tuple[str, ...] = ()

    def has(self, status: str) -> bool:
        """True if the player carries this status."""
        return any(s.id == status for s in self.statuses)

    def uses_left(self, ability: str) -> int | None:
        """Uses left of a limited ability (None: unlimited or never counted)."""
        for key, left in self.uses:
            if key == ability:
                return left
        return None

    def item_count(self, item: str) -> int:
        """Charges of an item held (0 if none)."""
        return sum(n for key, n in self.items if key == item)


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One attempted action, appended forever: what investigations and trackers read.

    ``targets`` are the final targets after swaps and redirects; ``visited`` the players
    actually visited (empty when the action visits nobody or was blocked).
    """

    phase: str
    actor: str
    ability: str
    targets: tuple[str, ...]
    outcome: str
    visited: tuple[str, ...] = ()
    performer: str | None = None


@dataclass(frozen=True, slots=True)
class Link:
    """A lasting relation between two players (a Rival's target, lovers...)."""

    kind: str
    a: str
    b: str


@dataclass(frozen=True, slots=True)
class Scheduled:
    """A primitive that will run at the start of a later phase (a Lunatic's curse)."""

    phase: str
    primitive: Primitive


@dataclass(frozen=True, slots=True)
class Primitive:
    """One effect primitive as hooks emit it; the engine applies it like an ability's.

    Attributes:
        effect: the primitive (``Effect`` value).
        actor: who causes it (None for the game itself).
        targets: its targets.
        params: the primitive's parameters.
        cause: a short id of what produced it, for the GM log.
        step: the resolution step it runs in (None: at once).
    """

    effect: str
    actor: str | None
    targets: tuple[str, ...]
    params: Mapping[str, Any] = field(default_factory=_empty)
    cause: str = ""
    step: str | None = None


@dataclass(frozen=True, slots=True)
class Winner:
    """The end of a game: winning factions and players (both empty for a true draw)."""

    factions: tuple[str, ...]
    players: tuple[str, ...]
    reason: str
    draw: bool = False


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole state between two phases. Never mutated: each phase returns a new one."""

    ruleset: str
    seed: int
    players: tuple[PlayerState, ...]
    phase: str | None = None
    ledger: tuple[LedgerEntry, ...] = ()
    links: tuple[Link, ...] = ()
    scheduled: tuple[Scheduled, ...] = ()
    winner: Winner | None = None
    lynched: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=_empty)

    def player(self, name: str) -> PlayerState:
        """A player by exact name (KeyError if absent)."""
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def alive(self) -> tuple[PlayerState, ...]:
        """The living players, in seat order."""
        return tuple(p for p in self.players if p.alive)

    def evolve(self, **changes: Any) -> GameState:
        """A copy with some fields changed."""
        return replace(self, **changes)


@dataclass(frozen=True, slots=True)
class Order:
    """A structured order, as the parser or a scenario produces it."""

    actor: str
    ability: str
    targets: tuple[str, ...] = ()
    params: Mapping[str, Any] = field(default_factory=_empty)
