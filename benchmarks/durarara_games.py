"""Random Durarara (seed 003) setups for ``bench_resolver.py --ruleset durarara``."""

from __future__ import annotations

import random

from resolver.model import GameState

SPECIALS = ["saki", "bacula", "taro", "shinra", "celty", "tom", "cupid"]
ALLOWED_DRAWS = {"everyone_died", "last_two:charmer_and_mayor_draw"}
"""The seed's only draws: everyone dead, and a charmer left with the innocent mayor."""


def random_setup(rnd: random.Random) -> dict[str, str]:
    """7-16 players: 1-4 Blue Squares, Saika and/or the Ripper, maybe Izaya, special
    villagers and plain villagers."""
    n = rnd.randint(7, 16)
    roles = ["blue_square"] * max(1, min(4, n // 4 + rnd.randint(-1, 1)))
    roles += rnd.sample(["saika", "ripper"], k=rnd.randint(0, 2))
    if rnd.random() < 0.5:
        roles.append("izaya")
    roles += rnd.sample(SPECIALS, k=min(len(SPECIALS), max(0, n - len(roles) - 1)))
    roles += ["villager"] * max(0, n - len(roles))
    rnd.shuffle(roles)
    return {f"P{i:02d}": role for i, role in enumerate(roles)}


def random_absent(rnd: random.Random, state: GameState) -> tuple[str, ...]:
    """Whole-day absentees of a day (each living player one time in twenty): replaced
    before Day 5, struck by lightning from it."""
    return tuple(p.name for p in state.players if p.alive and rnd.random() < 0.05)
