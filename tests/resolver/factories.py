"""Builders for resolver tests: games from a role table, random legal orders and votes."""

from __future__ import annotations

import random
from collections.abc import Mapping

from resolver.engine import resolve_phase
from resolver.model import GameState, Order, Resolution, Ruleset
from resolver.rng import PurposeRng
from resolver.ruleset import load_ruleset
from resolver.setup import StartState, new_game

VILLAGE = [
    "sheriff",
    "doctor",
    "sleuth",
    "bodyguard",
    "vigilante",
    "cab_driver",
    "mayor",
    "lawyer",
    "paranoid",
    "courtesan",
    "villager",
]
MAFIA = ["mafioso", "framer", "consigliere", "janitor"]
NEUTRAL = ["serial_killer", "arsonist", "witch", "amnesiac", "rival", "lunatic", "survivalist"]


def failheap(**options: object) -> Ruleset:
    """The Failheap ruleset with some options set."""
    return load_ruleset("failheap", options=options)


def make_state(
    ruleset: Ruleset, roles: Mapping[str, str], seed: int = 1, **start: object
) -> GameState:
    """A fresh game: player name → role id."""
    return new_game(ruleset, roles, seed=seed, start=StartState(**start)).state  # type: ignore[arg-type]


def resolve(
    state: GameState,
    ruleset: Ruleset,
    orders: list[Order] | None = None,
    votes: Mapping[str, str | None] | None = None,
    seed: int = 1,
) -> Resolution:
    """Resolve the next phase."""
    return resolve_phase(state, orders or [], ruleset, rng=PurposeRng(seed), votes=votes)


def random_setup(rnd: random.Random) -> dict[str, str]:
    """A random plausible setup of 7-13 players."""
    n = rnd.randint(7, 13)
    mafia = ["godfather", *rnd.sample(MAFIA, k=rnd.randint(1, 3))]
    neutral = rnd.sample(NEUTRAL, k=rnd.randint(0, 3))
    roles = mafia + neutral + [rnd.choice(VILLAGE) for _ in range(n - len(mafia) - len(neutral))]
    rnd.shuffle(roles)
    return {f"P{i}": r for i, r in enumerate(roles)}


def random_orders(rnd: random.Random, state: GameState, ruleset: Ruleset, kind: str) -> list[Order]:
    """Random orders, mostly legal, some deliberately not (dead targets, wrong abilities)."""
    names = [p.name for p in state.players]
    alive = [p.name for p in state.players if p.alive]
    orders = []
    for p in state.players:
        abilities = list(ruleset.roles[p.role].abilities.values())
        for ability in abilities:
            if rnd.random() < 0.3:
                continue
            pool = alive if rnd.random() < 0.9 else names
            targets = tuple(rnd.choice(pool) for _ in ability.targets if pool)
            orders.append(Order(p.name, ability.id, targets))
        if rnd.random() < 0.05:
            orders.append(Order(p.name, rnd.choice(list(ruleset.abilities)), (rnd.choice(names),)))
    rnd.shuffle(orders)
    return orders


def random_votes(rnd: random.Random, state: GameState) -> dict[str, str | None]:
    """Votes on two candidates, with the odd no-lynch vote."""
    alive = [p.name for p in state.players if p.alive]
    pick = rnd.sample(alive, k=min(2, len(alive)))
    return {v: (None if rnd.random() < 0.05 else rnd.choice(pick)) for v in alive}


def play_random(seed: int, phases: int = 8) -> list[tuple[GameState, list[Order], Resolution]]:
    """A random game: (state before, orders, resolution) per phase."""
    rnd = random.Random(seed)
    ruleset = failheap()
    state = make_state(ruleset, random_setup(rnd), seed=seed)
    out = []
    for n in range(phases):
        kind = "night" if n % 2 == 0 else "day"
        orders = random_orders(rnd, state, ruleset, kind)
        votes = random_votes(rnd, state) if kind == "day" else None
        res = resolve_phase(state, orders, ruleset, rng=PurposeRng(seed), votes=votes)
        out.append((state, orders, res))
        state = res.state
    return out
