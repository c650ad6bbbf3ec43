"""Read-only questions about a game state that the shell and the order parser ask."""

from __future__ import annotations

from collections.abc import Mapping

from resolver.engine import hook_grants
from resolver.hooks import HOOKS
from resolver.model.catalogue import Ability, Ruleset
from resolver.model.state import GameState
from resolver.phases import next_phase, parse_phase
from resolver.rng import PurposeRng
from resolver.validate import player_abilities, uses_left
from resolver.work import Work


def usable_abilities(
    state: GameState, ruleset: Ruleset, player: str, phase: str | None = None
) -> Mapping[str, Ability]:
    """The abilities ``player`` could order in ``phase`` (default: the next phase).

    Counts the role's abilities, items that grant one and the ruleset hook's grants (a Mafia
    member ordering the kill without a Godfather), then keeps those allowed in the phase,
    not passive and with uses left. Targets are not checked.

    Args:
        state: the current state.
        ruleset: the game's ruleset.
        player: a player name.
        phase: a phase id, or None for the phase after ``state.phase``.

    Returns:
        Ability id → ability (empty for a dead or unknown player).
    """
    current = parse_phase(phase, ruleset) if phase else next_phase(state.phase, ruleset)
    work = Work.start(state, ruleset, current, PurposeRng(state.seed))
    if player not in work.players or not work.players[player].alive:
        return {}
    extra = hook_grants(work, HOOKS.get(ruleset.hooks or "")).get(player, ())
    out = {}
    for aid, ability in player_abilities(work, player, extra).items():
        left = uses_left(work, player, ability)
        usable = ability.allowed_in(current.kind) and current.id not in ability.not_on
        if usable and not ability.passive and (left is None or left > 0):
            out[aid] = ability
    return out
