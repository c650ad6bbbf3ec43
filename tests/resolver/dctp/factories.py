"""Random DCTP games: setups with every faction and orders whose slots hold what they say.

Role slots get role ids, claim slots ``Subject>verb>Object@phase`` claims, crime slots
``crime:victim:phase`` crimes and phase slots past phase ids (the order parser's forms), so
random games reach the handlers' real paths. ``benchmarks/bench_resolver.py --ruleset dctp``
plays the same games.
"""

from __future__ import annotations

import random
from typing import Any

from resolver.model import GameState, Order, Ruleset
from resolver.phases import from_index, index_of, parse_phase

ALLOWED_ENDS = {"bo_neutralised", "town_neutralised", "parity", "night_kill_makes_parity",
                "lovers_last_alive", "everyone_died"}  # fmt: skip
EXCLUSIVE = (("conan", "shinichi"), ("sherry", "haibara"))
CRIMES = ("kill", "slander", "discombobulate", "frighten", "steal", "disguise", "frame")


def random_setup(rnd: random.Random, ruleset: Ruleset) -> dict[str, str]:
    """12 to 20 players: 3 to 5 BO, the rest town, no two roles the seed keeps apart."""
    bo_roles = sorted(r for r, role in ruleset.roles.items() if role.faction == "bo")
    town_roles = sorted(r for r, role in ruleset.roles.items() if role.faction == "town")
    n = rnd.randint(12, 20)
    bo = rnd.sample(bo_roles, k=rnd.randint(3, 5))
    town: list[str] = []
    for role in rnd.sample(town_roles, k=len(town_roles)):
        if len(town) == n - len(bo):
            break
        if any(role in pair and other in town + bo for pair in EXCLUSIVE for other in pair):
            continue
        town.append(role)
    roles = bo + town
    rnd.shuffle(roles)
    return {f"P{i:02d}": role for i, role in enumerate(roles)}


def _past_phase(rnd: random.Random, ruleset: Ruleset, phase: str, night: bool = True) -> str:
    now = index_of(parse_phase(phase, ruleset), ruleset)
    first = index_of(parse_phase(ruleset.phases.first, ruleset), ruleset)
    options = [from_index(i, ruleset) for i in range(first, max(now, first + 1))]
    nights = [p.id for p in options if p.kind == "night" or not night]
    return rnd.choice(nights or [ruleset.phases.first])


def _value(rnd: random.Random, kind: str, ctx: dict[str, Any]) -> str:
    alive, ruleset, phase = ctx["alive"], ctx["ruleset"], ctx["phase"]
    if kind == "role":
        pool = ctx["roles_in_game"] if rnd.random() < 0.6 else sorted(ruleset.roles)
        return str(rnd.choice(pool))
    if kind == "claim":
        verb = rnd.choice(sorted(ruleset.abilities))
        when = _past_phase(rnd, ruleset, phase) if rnd.random() < 0.5 else phase
        return f"{rnd.choice(alive)}>{verb}>{rnd.choice(alive)}@{when}"
    if kind == "crime":
        return f"{rnd.choice(CRIMES)}:{rnd.choice(alive)}:{_past_phase(rnd, ruleset, phase, False)}"
    if kind == "phase":
        return _past_phase(rnd, ruleset, phase)
    if kind == "text":
        return str(rnd.choice(("interrogate", "discombobulate", "protect", "heal", "investigate")))
    return str(rnd.choice(alive))


def random_orders(
    rnd: random.Random, state: GameState, ruleset: Ruleset, phase: str
) -> list[Order]:
    """Each living player tries each ability of his role (and of his items) at random."""
    kind = parse_phase(phase, ruleset).kind
    alive = [p.name for p in state.players if p.alive]
    ctx = {"alive": alive, "ruleset": ruleset, "phase": phase,
           "roles_in_game": sorted({p.role for p in state.players})}  # fmt: skip
    orders = []
    for p in state.players:
        if not p.alive:
            continue
        abilities = dict(ruleset.roles[p.role].abilities)
        for item, count in p.items:
            granted = ruleset.items[item].ability
            if count and granted:
                abilities[granted] = ruleset.abilities[granted]
        for ability in abilities.values():
            if ability.passive or not ability.allowed_in(kind) or rnd.random() < 0.4:
                continue
            targets = [_value(rnd, s.kind, ctx) for s in ability.targets
                       if not (s.optional and rnd.random() < 0.5)]  # fmt: skip
            params: dict[str, str] = {}
            if "ability" in ability.params:
                params["ability"] = rnd.choice(sorted(ruleset.abilities))
                params["ability_target"] = rnd.choice(alive)
            orders.append(Order(p.name, ability.id, tuple(targets), params))
    return orders


def random_votes(rnd: random.Random, state: GameState) -> dict[str, str | None]:
    """Votes concentrated on two candidates so that lynches happen."""
    alive = [p.name for p in state.players if p.alive]
    candidates = rnd.sample(alive, k=min(2, len(alive)))
    return {v: rnd.choice(candidates) for v in alive if rnd.random() < 0.9}
