"""The fixed signatures of ruleset hooks (``resolver/hooks/<name>.py``) and their read-only view.

A hook module may define any of the functions of ``RulesetHooks``. Hooks read the game
through a ``HookView`` and return ``Primitive``s; the engine applies them through the same
effect primitives as abilities, so a hook never changes the game behind the engine's back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from resolver.model.catalogue import Ability, Role, Ruleset
from resolver.model.state import LedgerEntry, Link, Order, Primitive, Status, Winner
from resolver.work import Work


@dataclass(frozen=True, slots=True)
class HookView:
    """What a hook may read: the ruleset, the phase, players, links; and a logged draw."""

    _work: Work

    @property
    def ruleset(self) -> Ruleset:
        """The game's ruleset."""
        return self._work.ruleset

    @property
    def phase(self) -> str:
        """The phase being resolved."""
        return self._work.phase.id

    def option(self, name: str) -> Any:
        """An option's value for this game."""
        return self._work.ruleset.option(name)

    def names(self, *, alive: bool | None = True) -> tuple[str, ...]:
        """Player names in seat order (living ones by default; None: everyone)."""
        return tuple(
            p.name for p in self._work.players.values() if alive is None or p.alive == alive
        )

    def role(self, name: str) -> Role:
        """The catalogue role a player holds now."""
        return self._work.role_of(name)

    def faction(self, name: str) -> str:
        """A player's faction now."""
        return self._work.players[name].faction

    def alive(self, name: str) -> bool:
        """True if the player is alive (players dying this phase still count as alive)."""
        return self._work.players[name].alive

    def has_status(self, name: str, status: str) -> bool:
        """True if the player carries the status."""
        return self._work.players[name].status(status) is not None

    def vote_weight(self, name: str) -> int:
        """The player's current vote weight."""
        weights = [int(w) for w in self._work.status_effect(name, "vote_weight")]
        return max(weights, default=1)

    def flags(self, name: str) -> frozenset[str]:
        """The player's flags (markers hooks and effects leave on him)."""
        return frozenset(self._work.players[name].flags)

    def statuses(self, name: str) -> tuple[Status, ...]:
        """The player's statuses now."""
        return tuple(self._work.players[name].statuses)

    def ledger(self, phase: str | None = None) -> tuple[LedgerEntry, ...]:
        """Every recorded action of the game (or of one phase)."""
        return tuple(e for e in self._work.ledger if phase is None or e.phase == phase)

    def votes(self) -> Mapping[str, str | None]:
        """The day's votes so far (voter → target), in the order they were cast."""
        return dict(self._work.votes)

    def absent(self) -> tuple[str, ...]:
        """Players who took no part in this day at all (empty when nobody says)."""
        return self._work.absent

    def links(self, kind: str | None = None) -> tuple[Link, ...]:
        """Links, optionally of one kind."""
        return tuple(link for link in self._work.links if kind is None or link.kind == kind)

    def draw(self, purpose: str, options: Sequence[str]) -> str:
        """A seeded draw, logged for the GM."""
        return self._work.draw(purpose, list(options))

    def accepted(self) -> tuple[tuple[int | None, str, str, tuple[str, ...]], ...]:
        """This phase's accepted orders as (order index, actor, ability id, ordered targets)."""
        return tuple((a.index, a.actor, a.ability.id, a.ordered) for a in self._work.accepted)

    def items(self, name: str) -> Mapping[str, int]:
        """A player's item charges."""
        return dict(self._work.players[name].items)

    def uses(self, name: str, ability: str) -> int | None:
        """Uses left of a limited ability (None: never counted)."""
        return self._work.players[name].uses.get(ability)

    def protections(self, name: str) -> tuple[tuple[str, str], ...]:
        """Protections placed on a player this phase, as (kind, protector)."""
        return tuple((p.kind, p.by) for p in self._work.protections.get(name, ()))

    def dying(self, name: str) -> str | None:
        """The attack kind a player will die of at the end of this phase, if any."""
        found = self._work.dying.get(name)
        return found.kind if found else None

    def blocked(self, name: str) -> bool:
        """True if the player's actions are blocked by an earlier step of this phase."""
        return self._work.is_blocked(name)

    def lynched(self) -> tuple[str, ...]:
        """Every player lynched so far (this phase's included)."""
        return tuple(self._work.lynched)

    def seat(self, name: str) -> int:
        """A player's seat (0-based)."""
        return self._work.players[name].seat

    def died(self, name: str) -> tuple[str | None, str | None]:
        """The phase a dead player died in and the attack kind (None, None while alive)."""
        p = self._work.players[name]
        return p.died, p.cause

    def index(self, phase: str | None = None) -> int:
        """A phase's running index (this phase by default); later phases are larger."""
        from resolver.phases import index_of, parse_phase

        ruleset = self._work.ruleset
        return index_of(parse_phase(phase, ruleset) if phase else self._work.phase, ruleset)

    def kind(self) -> str:
        """This phase's kind (``night``, ``day``)."""
        return self._work.phase.kind

    @property
    def phase_kind(self) -> str:
        """The kind of the phase being resolved (``day``, ``night``)."""
        return self._work.phase.kind

    def entries(self, ability: str | None = None) -> tuple[LedgerEntry, ...]:
        """Ledger entries written so far in this phase (optionally of one ability)."""
        return tuple(
            e for e in self._work.visits_this_phase() if ability is None or e.ability == ability
        )

    def history(self, ability: str | None = None) -> tuple[LedgerEntry, ...]:
        """Every ledger entry of the game so far (optionally of one ability)."""
        return tuple(e for e in self._work.ledger if ability is None or e.ability == ability)

    def uses_left(self, name: str, ability: str) -> int | None:
        """Uses left of a limited ability (None: unlimited)."""
        from resolver.validate import uses_left

        return uses_left(self._work, name, self._work.ruleset.abilities[ability])

    def status_source(self, name: str, status: str) -> str | None:
        """Who gave the player the status (None: nobody or the game)."""
        found = self._work.players[name].status(status)
        return found.source if found else None

    def phase_index(self, phase: str | None = None) -> int:
        """A running index of a phase (this one by default): later phases are larger."""
        from resolver.phases import index_of, parse_phase

        ruleset = self._work.ruleset
        parsed = parse_phase(phase, ruleset) if phase else self._work.phase
        return index_of(parsed, ruleset)

    def handler(self, name: str) -> Callable[[HookView, ActionView], Handled] | None:
        """The ruleset hook module's handler of that name (``HANDLERS``), if any."""
        found: Callable[[HookView, ActionView], Handled] | None = getattr(
            self._work.hooks, "HANDLERS", {}
        ).get(name)
        return found

    def next_phase(self, steps: int = 1) -> str:
        """The id of the phase ``steps`` after this one."""
        from resolver.phases import from_index, index_of

        ruleset = self._work.ruleset
        return from_index(index_of(self._work.phase, ruleset) + steps, ruleset).id


@dataclass(frozen=True, slots=True)
class ActionView:
    """One action as a ``hook`` effect handler sees it (read-only).

    ``targets`` are the final targets (player slots routed); ``ordered`` what was ordered.
    """

    index: int | None
    actor: str
    ability: Ability
    targets: tuple[str, ...]
    ordered: tuple[str, ...]
    params: Mapping[str, Any]
    order_params: Mapping[str, Any]
    performer: str
    step: str


@dataclass(frozen=True, slots=True)
class Handled:
    """What a ``hook`` effect handler decided: the order's outcome and the primitives to apply.

    ``late`` runs once every action of the phase has resolved (an investigation of the
    phase's own actions) and returns more primitives.
    """

    outcome: str = "done"
    reason: str = ""
    primitives: tuple[Primitive, ...] = ()
    late: Callable[[HookView], Sequence[Primitive]] | None = field(default=None)


Handler = Callable[[HookView, ActionView], Handled]
"""A ruleset's handler for abilities with ``effect: hook`` (``HANDLERS[name]``)."""


class RulesetHooks(Protocol):
    """Functions a hook module may define (each optional)."""

    def on_game_start(self, view: HookView) -> Sequence[Primitive]:
        """Primitives to apply once, when the game is set up (random targets...)."""

    def grants(self, view: HookView) -> Mapping[str, tuple[str, ...]]:
        """Extra ability ids per player for this phase (checked like role abilities)."""

    def on_lynch(
        self, view: HookView, lynched: str, voters: tuple[str, ...]
    ) -> Sequence[Primitive]:
        """Primitives to apply after a lynch (``voters``: whose vote stood on him)."""

    def after_deaths(self, view: HookView, deaths: Mapping[str, str]) -> Sequence[Primitive]:
        """Primitives to apply once the phase's deaths (name → attack kind) are settled.

        Deaths these primitives cause are settled too, and passed to a further call."""

    def on_phase_start(self, view: HookView) -> Sequence[Primitive]:
        """Primitives to apply at the start of a phase, before its orders are validated."""

    def on_phase_end(self, view: HookView) -> Sequence[Primitive]:
        """Primitives to apply once the phase's deaths are settled, before statuses expire;
        the deaths they cause settle in the phase (and go to ``after_deaths``)."""

    def adjust_tally(self, view: HookView, totals: Mapping[str, int]) -> Mapping[str, int] | None:
        """The lynch totals after the ruleset's vote modifiers; None: no lynch, votes hidden."""

    def check_win(self, view: HookView) -> Winner | None:
        """The winner (with ``win.check: hook``), else None."""

    def order_problem(self, view: HookView, order: Order, ability: Ability) -> str:
        """Why the ruleset refuses an otherwise valid order ("" to accept it)."""

    def vote_problem(self, view: HookView, voter: str, target: str | None) -> str:
        """Why the ruleset refuses a vote ("" to count it)."""

    def break_tie(self, view: HookView, leaders: Sequence[str]) -> str | None:
        """The tied player a tie policy ``mayor_decides`` lynches (None: nobody)."""

    def vote_step(self, view: HookView) -> Sequence[Primitive] | None:
        """Replaces the lynch of this phase (an election...); None keeps the lynch."""

    def adjust_votes(
        self, view: HookView, votes: dict[str, str | None]
    ) -> Mapping[str, str | None]:
        """The day's votes after the ruleset's vote changes (voter → target), before the tally."""

    def vote_extras(self, view: HookView) -> Mapping[str, int]:
        """Extra votes per target that no voter cast (penalties such as '+1 в лог')."""


# A hook module may also define three tables the engine reads:
#   HANDLERS: dict[str, Handler] -- the handler of each ``effect: hook`` ability, named by
#     its ``effect_params.handler`` (reads views, returns ``Handled``);
#   EFFECTS: dict[str, Callable[[Action, Work], None]] -- the ruleset's own effect for an
#     ability whose ``effect_params.handler`` names it (used instead of the primitive);
#   STEP_END: dict[str, Callable[[Work], None]] -- run after the actions of that step.
