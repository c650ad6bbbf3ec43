"""Random Russian forum mafia (seed 004) setups for ``bench_resolver.py --ruleset ru_mafia``."""

from __future__ import annotations

import random

from resolver.model import GameState, Order, Ruleset

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


def random_extras(rnd: random.Random, state: GameState, ruleset: Ruleset, kind: str) -> list[Order]:
    """Orders with parameters: answers to invitations and the Fairy's gifts at night; the
    host's penalties by day (п.09а, п.15, п.18, a lightning sometimes)."""
    alive = [p for p in state.players if p.alive]
    if kind == "night":
        answers = ruleset.abilities["answer_recruitment"].params["answer"].choices
        gifts = list(ruleset.abilities["gift"].effect_params["gift_list"])
        out = [Order(p.name, "answer_recruitment", (), {"answer": rnd.choice(answers)})
               for p in alive if p.faction == "town" and rnd.random() < 0.3]  # fmt: skip
        for p in [p for p in alive if p.role == "fairy" and len(alive) > 1]:
            to = rnd.choice([q.name for q in alive if q.name != p.name])
            out.append(Order(p.name, "gift", (to,), {"item": rnd.choice(gifts)}))
        return out
    reasons = ruleset.abilities["host_penalty"].params
    out = []
    for p in [p for p in alive if rnd.random() < 0.05]:
        params = {"reason": rnd.choice(reasons["reason"].choices)}
        if rnd.random() < 0.5:
            params["penalty"] = rnd.choice(reasons["penalty"].choices)
        out.append(Order(p.name, "host_penalty", (), params))
    return out
