"""The scratchpad of one phase's resolution: a private, mutable copy that becomes a new state.

``resolve_phase`` is a pure function: it copies the input state into a ``Work``, lets the
steps and effect primitives change the copy, and freezes it into the next ``GameState``.
Nothing outside one call ever sees a ``Work``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from resolver.model.catalogue import Ability, Role, Ruleset
from resolver.model.events import Event, EventKind, Visibility
from resolver.model.state import (
    GameState,
    LedgerEntry,
    Link,
    Phase,
    PlayerState,
    Primitive,
    Scheduled,
    Status,
    Winner,
)
from resolver.rng import PurposeRng


@dataclass(slots=True)
class PlayerWork:
    """A mutable copy of a ``PlayerState`` for the length of one resolution."""

    name: str
    seat: int
    role: str
    faction: str
    alive: bool
    statuses: list[Status]
    uses: dict[str, int]
    items: dict[str, int]
    flags: set[str]
    died: str | None
    cause: str | None
    role_hidden: bool
    granted: list[str] = field(default_factory=list)

    @classmethod
    def thaw(cls, p: PlayerState, seat: int) -> PlayerWork:
        """Copy a frozen player into a mutable one."""
        return cls(
            p.name,
            seat,
            p.role,
            p.faction,
            p.alive,
            list(p.statuses),
            dict(p.uses) if p.uses else {},
            dict(p.items) if p.items else {},
            set(p.flags) if p.flags else set(),
            p.died,
            p.cause,
            p.role_hidden,
            list(p.granted),
        )

    def freeze(self) -> PlayerState:
        """The frozen player."""
        return PlayerState(
            self.name,
            self.role,
            self.faction,
            self.alive,
            tuple(self.statuses),
            tuple(self.uses.items()) if self.uses else (),
            tuple((k, v) for k, v in self.items.items() if v > 0) if self.items else (),
            frozenset(self.flags) if self.flags else frozenset(),
            self.died,
            self.cause,
            self.role_hidden,
            tuple(self.granted),
        )

    def status(self, sid: str) -> Status | None:
        """The first status with this id, if any."""
        for s in self.statuses:
            if s.id == sid:
                return s
        return None


@dataclass(slots=True)
class Action:
    """One action being resolved: from an order (``index`` set) or from a primitive."""

    index: int | None
    actor: str
    ability: Ability
    targets: list[str]
    params: Mapping[str, Any]
    step: str
    performer: str
    ordered: tuple[str, ...] = ()
    outcome: str = "done"
    reason: str = ""
    cause: str = ""
    result: dict[str, Any] = field(default_factory=dict)
    order_params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Protection:
    """A protection placed on a player tonight (heal, guard, vest)."""

    kind: str
    by: str
    params: Mapping[str, Any]
    used: bool = False


@dataclass(slots=True)
class Dying:
    """A player who will die at the end of the phase, and why."""

    kind: str
    attacker: str | None
    cause: str


@dataclass(slots=True)
class Work:
    """Everything one phase's resolution reads and changes."""

    ruleset: Ruleset
    phase: Phase
    rng: PurposeRng
    players: dict[str, PlayerWork]
    ledger: list[LedgerEntry]
    links: list[Link]
    scheduled: list[Scheduled]
    lynched: list[str]
    events: list[Event] = field(default_factory=list)
    new_ledger_from: int = 0
    step: str = ""
    blocked: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    cancelled: dict[str, tuple[str, str]] = field(default_factory=dict)
    redirects: dict[str, tuple[str, str]] = field(default_factory=dict)
    swaps: list[tuple[str, str, str]] = field(default_factory=list)
    protections: dict[str, list[Protection]] = field(default_factory=dict)
    dying: dict[str, Dying] = field(default_factory=dict)
    spreads: list[tuple[str, str, str | None, Mapping[str, Any]]] = field(default_factory=list)
    queued: dict[str, list[Action]] = field(default_factory=dict)
    acted: set[str] = field(default_factory=set)
    accepted: list[Action] = field(default_factory=list)
    late: list[Callable[[Work], None]] = field(default_factory=list)
    votes: Mapping[str, str | None] = field(default_factory=dict)
    absent: tuple[str, ...] = ()  # players who took no part in the day (the runtime's reading)
    vote_mods: dict[str, int] = field(default_factory=dict)
    appearances: dict[tuple[str, str], str] = field(default_factory=dict)
    grants: dict[str, tuple[str, ...]] = field(default_factory=dict)
    winner: Winner | None = None
    scratch: dict[str, Any] = field(default_factory=dict)
    """Per-phase notes of a ruleset's hook effects (never frozen into the state)."""
    hooks: ModuleType | None = None
    """The ruleset's hook module (set by the engine, so the layers below never import it)."""
    apply: Callable[[Work, Primitive], None] | None = None
    """The engine's ``apply_primitive`` (set by the engine: hooks' primitives run through it)."""

    def apply_primitive(self, prim: Primitive) -> None:
        """Apply a hook's primitive through the engine, now or at its step."""
        if self.apply is None:
            raise RuntimeError("a primitive was applied outside the engine")
        self.apply(self, prim)

    @classmethod
    def start(cls, state: GameState, ruleset: Ruleset, phase: Phase, rng: PurposeRng) -> Work:
        """Copy ``state`` into a new scratchpad for ``phase``."""
        players = {p.name: PlayerWork.thaw(p, i) for i, p in enumerate(state.players)}
        return cls(
            ruleset,
            phase,
            rng,
            players,
            list(state.ledger),
            list(state.links),
            list(state.scheduled),
            list(state.lynched),
            new_ledger_from=len(state.ledger),
        )

    def emit(
        self, kind: EventKind, visibility: Visibility, to: tuple[str, ...] = (), /, **data: Any
    ) -> None:
        """Append an event (private events need recipients)."""
        self.events.append(Event(kind, visibility, data, to))

    def gm(self, kind: EventKind, /, **data: Any) -> None:
        """Append a GM-only event."""
        self.events.append(Event(kind, Visibility.GM, data))

    def tell(self, who: str, kind: EventKind, /, **data: Any) -> None:
        """Append a private event for one player."""
        self.events.append(Event(kind, Visibility.PRIVATE, data, (who,)))

    def draw(self, purpose: str, options: list[str]) -> str:
        """A seeded draw for ``purpose``, logged as a GM-only event."""
        pick = self.rng.pick(f"{self.phase.id}:{purpose}", options)
        self.gm(
            EventKind.DRAW, purpose=purpose, phase=self.phase.id, options=list(options), pick=pick
        )
        return pick

    def role_of(self, name: str) -> Role:
        """The catalogue role a player currently holds."""
        return self.ruleset.roles[self.players[name].role]

    def living(self) -> list[PlayerWork]:
        """Players alive at the start of the phase (dawn rule), in seat order."""
        return [p for p in self.players.values() if p.alive]

    def tagged_alive(self, tag: str) -> list[PlayerWork]:
        """Living players whose role carries ``tag``, in seat order."""
        roles = self.ruleset.roles
        return [p for p in self.living() if tag in roles[p.role].tags]

    def visits_this_phase(self) -> list[LedgerEntry]:
        """Ledger entries written during this resolution."""
        return self.ledger[self.new_ledger_from :]

    def visitors_of(self, target: str, exclude: str | None = None) -> list[str]:
        """Distinct players who visited ``target`` this phase, in visit order."""
        out: list[str] = []
        for entry in self.visits_this_phase():
            who = entry.performer or entry.actor
            if target in entry.visited and who not in (target, exclude) and who not in out:
                out.append(who)
        return out

    def route(self, target: str, performer: str, slot: int) -> str:
        """A target after the Witch-style redirect (first slot) and the switches of earlier
        steps."""
        redirect = self.redirects.get(performer) if slot == 0 else None
        if redirect is not None and redirect[1] != self.step:
            target = redirect[0]
        for a, b, step in self.swaps:
            if step == self.step:
                continue  # a step's actions are simultaneous: no switch moves its neighbours
            if target == a:
                target = b
            elif target == b:
                target = a
        return target

    def is_blocked(self, who: str) -> bool:
        """Blocked by an action of an earlier step (actions of one step are simultaneous)."""
        return any(step != self.step for _, step in self.blocked.get(who, ()))

    def is_cancelled(self, who: str) -> bool:
        """Controlled into no action by an earlier step."""
        found = self.cancelled.get(who)
        return found is not None and found[1] != self.step

    def queue(self, action: Action) -> None:
        """Add an action to its step's queue (run when the step comes)."""
        self.queued.setdefault(action.step, []).append(action)

    def add_status(self, who: str, status: Status) -> None:
        """Give a player a status (replacing an older one with the same id)."""
        p = self.players[who]
        p.statuses = [s for s in p.statuses if s.id != status.id] + [status]

    def status_effect(self, who: str, key: str) -> list[Any]:
        """The values of one status effect across a player's statuses."""
        defs = self.ruleset.statuses
        out = []
        for s in self.players[who].statuses:
            sdef = defs.get(s.id)
            if sdef is not None and key in sdef.effects:
                out.append(sdef.effects[key])
        return out

    def primitive_action(self, prim: Primitive) -> Action:
        """Wrap a hook's primitive as an action of a synthetic ability."""
        from resolver.model.catalogue import Effect

        ability = Ability(
            id=prim.cause or prim.effect,
            effect=Effect(prim.effect),
            effect_params=prim.params,
            visits=False,
            priority=prim.step or "",
        )
        actor = prim.actor or ""
        return Action(
            None,
            actor,
            ability,
            list(prim.targets),
            prim.params,
            prim.step or "",
            actor,
            tuple(prim.targets),
            cause=prim.cause,
        )
