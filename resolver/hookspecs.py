"""The fixed signatures of ruleset hooks (``resolver/hooks/<name>.py``) and their read-only view.

A hook module may define any of the functions of ``RulesetHooks``. Hooks read the game
through a ``HookView`` and return ``Primitive``s; the engine applies them through the same
effect primitives as abilities, so a hook never changes the game behind the engine's back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from resolver.model.catalogue import Role, Ruleset
from resolver.model.state import LedgerEntry, Link, Primitive, Status, Winner
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

    def links(self, kind: str | None = None) -> tuple[Link, ...]:
        """Links, optionally of one kind."""
        return tuple(link for link in self._work.links if kind is None or link.kind == kind)

    def draw(self, purpose: str, options: Sequence[str]) -> str:
        """A seeded draw, logged for the GM."""
        return self._work.draw(purpose, list(options))

    def next_phase(self, steps: int = 1) -> str:
        """The id of the phase ``steps`` after this one."""
        from resolver.phases import from_index, index_of

        ruleset = self._work.ruleset
        return from_index(index_of(self._work.phase, ruleset) + steps, ruleset).id


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
        """Primitives to apply once the phase's deaths (name → attack kind) are settled."""

    def adjust_votes(
        self, view: HookView, votes: dict[str, str | None]
    ) -> Mapping[str, str | None]:
        """The day's votes after the ruleset's vote changes (voter → target), before the tally."""

    def vote_extras(self, view: HookView) -> Mapping[str, int]:
        """Extra votes per target that no voter cast (penalties such as '+1 в лог')."""

    def check_win(self, view: HookView) -> Winner | None:
        """The winner (or None) when the ruleset's ``win.check`` is ``hook``."""


# A hook module may also define two tables the engine reads:
#   EFFECTS: dict[str, Callable[[Action, Work], None]] -- the ruleset's own effect for an
#     ability whose ``effect_params.handler`` names it (used instead of the primitive);
#   STEP_END: dict[str, Callable[[Work], None]] -- run after the actions of that step.
