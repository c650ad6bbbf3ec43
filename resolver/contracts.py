"""What each effect primitive needs from its parameters and targets, checked before it runs.

A catalogue may declare abilities the engine cannot resolve yet (the next issues' rulesets);
such an action fails with a reason instead of crashing, and ``unresolvable(ruleset)`` lists
them for the GM and the tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from resolver.model.catalogue import Ability, Effect, Ruleset, TargetKind

SELF = "self"


@dataclass(frozen=True, slots=True)
class Contract:
    """A primitive's needs: parameters, catalogue references, closed choices, targets."""

    required: tuple[str, ...] = ()
    refers: Mapping[str, str] = field(default_factory=dict)
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    targets: int = 0
    self_ok: bool = False
    status_ok: bool = False


CONTRACTS: dict[Effect, Contract] = {
    Effect.BLOCK: Contract(targets=1),
    Effect.REDIRECT: Contract(targets=1),
    Effect.SWAP: Contract(targets=2),
    Effect.PROTECT: Contract(targets=1, self_ok=True),
    Effect.ATTACK: Contract(targets=1, status_ok=True, refers={"targets_status": "statuses"}),
    Effect.STATUS: Contract(("status",), {"status": "statuses"}, targets=1, self_ok=True),
    Effect.ITEM: Contract(("item",), {"item": "items"}),
    Effect.VOTE_MODIFIER: Contract(),
    Effect.INVESTIGATE: Contract(
        choices={"reveals": ("appearance", "role", "visitors")}, targets=1
    ),
    Effect.APPEARANCE: Contract(("query", "value"), targets=1),
    Effect.CONVERT: Contract(),
    Effect.LINK: Contract(targets=1),
    Effect.SCHEDULE: Contract(("at", "primitive")),
    Effect.COUNTER: Contract(("ability",), {"ability": "abilities"}),
    Effect.GRANT: Contract(("ability",), {"ability": "abilities"}),
    Effect.NOTIFY: Contract(),
    Effect.NONE: Contract(),
    Effect.HOOK: Contract(("handler",)),
}
"""Effect primitive → what it needs."""


def problem(effect: Effect, params: Mapping[str, Any], targets: int, ruleset: Ruleset) -> str:
    """Why the primitive cannot run with these parameters and this many targets ("" if it can)."""
    contract = CONTRACTS[effect]
    for name in contract.required:
        if name not in params:
            return f"effect {effect} needs the parameter {name!r}"
    for name, section in contract.refers.items():
        value = params.get(name)
        if value is not None and value not in getattr(ruleset, section):
            return f"effect {effect}: {name} {value!r} is not in the ruleset's {section}"
    for name, allowed in contract.choices.items():
        if name in params and params[name] not in allowed:
            return f"effect {effect}: {name} {params[name]!r} is not one of {list(allowed)}"
    if effect is Effect.HOOK and not _has_handler(ruleset, str(params["handler"])):
        return f"effect hook: handler {params['handler']!r} is not in the hooks of {ruleset.id}"
    to = params.get("to")
    if effect is Effect.CONVERT and to not in (None, "target_role") and to not in ruleset.roles:
        return f"effect convert: role {to!r} is not in the ruleset"
    needs_target = contract.targets and not (
        (contract.self_ok and params.get("apply_to") == SELF)
        or (contract.status_ok and params.get("targets_status"))
    )
    if needs_target and targets < contract.targets:
        return f"effect {effect} needs {contract.targets} target(s), got {targets}"
    return ""


PLAYER_EFFECTS = frozenset(
    {
        Effect.BLOCK,
        Effect.REDIRECT,
        Effect.SWAP,
        Effect.PROTECT,
        Effect.ATTACK,
        Effect.STATUS,
        Effect.INVESTIGATE,
        Effect.APPEARANCE,
        Effect.LINK,
    }
)
"""Primitives that read every target as a player name."""


def _has_handler(ruleset: Ruleset, name: str) -> bool:
    from resolver.hooks import HOOKS  # local: hook modules import the work layer

    module = HOOKS.get(ruleset.hooks or "")
    return name in getattr(module, "HANDLERS", {})


def slot_problem(ability: Ability) -> str:
    """Why a player-taking primitive cannot run this ability's non-player slots ("" if it can).

    A role, claim or crime slot given to such a primitive would be read as a player name.
    """
    if ability.effect not in PLAYER_EFFECTS:
        return ""
    for i, slot in enumerate(ability.targets):
        if slot.kind is not TargetKind.PLAYER:
            return f"effect {ability.effect} takes players; target {i + 1} is a {slot.kind}"
    return ""


def unresolvable(ruleset: Ruleset) -> dict[str, str]:
    """Abilities of a ruleset the engine cannot run yet, with the reason."""
    out = {}
    for ability in ruleset.abilities.values():
        reason = _ability_problem(ability, ruleset)
        if reason:
            out[ability.id] = reason
    return out


def _ability_problem(ability: Ability, ruleset: Ruleset) -> str:
    handler = ability.effect_params.get("handler")
    if handler:
        from resolver.hooks import HOOKS  # local: hook modules import the engine's helpers

        effects = getattr(HOOKS.get(ruleset.hooks or ""), "EFFECTS", {})
        if handler in effects:
            return ""
        if ability.effect is not Effect.HOOK:  # an `effect: hook` handler is checked below
            return f"no hook effect {handler!r} in {ruleset.hooks!r}"
    return slot_problem(ability) or problem(
        ability.effect, ability.effect_params, len(ability.targets), ruleset
    )
