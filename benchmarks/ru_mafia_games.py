"""Random Russian forum mafia (seed 004) setups for ``bench_resolver.py --ruleset ru_mafia``."""

from __future__ import annotations

import random

CLAN = ["mafia_boss", "mafioso", "mafia_recruiter"]
CLAN_2 = ["mafia_boss_2", "mafioso_2", "mafia_recruiter_2"]
COPS = ["sheriff", "investigator", "recruit_cop"]
TOWN = [
    "mayor",
    "doctor",
    "nurse",
    "reanimator",
    "priest",
    "van_helsing",
    "journalist",
    "bodyguard",
    "prosecutor",
    "executioner",
    "jailer",
    "fairy",
    "tour_operator",
]
LONERS = ["maniac", "telepath", "clonidine_woman", "psycho", "rebel", "swindler"]
UNDEAD = ["vampire", "domovoi", "headless_horseman", "banshee"]
ALLOWED_DRAWS = {"everyone_died"}
"""п.14 names no draw; only an empty town ends without a winner."""


def random_setup(rnd: random.Random) -> dict[str, str]:
    """10-18 players: one or two clans (a Godfather sometimes), cops, loners, undead, town
    roles and plain villagers."""
    n = rnd.randint(10, 18)
    roles = rnd.sample(CLAN, k=rnd.randint(2, 3))
    if rnd.random() < 0.3:
        roles += rnd.sample(CLAN_2, k=2)
    if rnd.random() < 0.4:
        roles.append("godfather")
    roles += COPS[: rnd.randint(1, 3)]
    roles += rnd.sample(LONERS, k=rnd.randint(1, 3))
    roles += rnd.sample(UNDEAD, k=rnd.randint(0, 2))
    roles += rnd.sample(TOWN, k=min(len(TOWN), max(0, n - len(roles) - 3)))
    roles += ["villager"] * max(3, n - len(roles))
    rnd.shuffle(roles)
    return {f"P{i:02d}": role for i, role in enumerate(roles)}
