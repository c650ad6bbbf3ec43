"""Resolve many random full games of any bundled ruleset; report games/s and the slowest phase.

    .venv/bin/python benchmarks/bench_resolver.py            # 10,000 Failheap games
    .venv/bin/python benchmarks/bench_resolver.py --games 500 --seed 7
    .venv/bin/python benchmarks/bench_resolver.py --ruleset durarara   # setups: durarara_games.py
    .venv/bin/python benchmarks/bench_resolver.py --ruleset dctp   # 10,000 DCTP games
    .venv/bin/python benchmarks/bench_resolver.py --ruleset ru_mafia   # setups: ru_mafia_games.py

DCTP games (``--ruleset dctp``) come from ``tests/resolver/dctp/factories.py``: 12-20 players
with 3-5 BO, orders whose role/claim/crime/phase slots hold values of that kind; a game must end
with one of the seed's ends (the BO neutralised, parity, the night special case, the lovers).

Each game: 7-15 players with a random legal setup, random orders for every living player's
usable abilities (random targets), random votes concentrated on two candidates. A game
must end with a winner (or a draw the rulebook allows: everyone dead, or the tie table's
"none" row) within ``--max-phases``; anything else is reported as a failure.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import durarara_games, ru_mafia_games
from resolver.engine import resolve_phase
from resolver.model import GameState, Order, Ruleset, TargetKind
from resolver.phases import next_phase
from resolver.rng import PurposeRng
from resolver.ruleset import load_ruleset
from resolver.setup import new_game

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
    "villager",
    "villager",
]
MAFIA = ["mafioso", "framer", "consigliere", "janitor"]
NEUTRAL = ["serial_killer", "arsonist", "witch", "amnesiac", "rival", "lunatic", "survivalist"]
ALLOWED_DRAWS = {"everyone_died", "tie:amnesiac+amnesiac"}


def random_setup(rnd: random.Random) -> dict[str, str]:
    """A random but plausible Failheap setup."""
    n = rnd.randint(7, 15)
    mafia = [
        "godfather",
        *rnd.sample(MAFIA, k=min(len(MAFIA), max(1, n // 4) - 1 + rnd.randint(0, 1))),
    ]
    neutral = rnd.sample(NEUTRAL, k=rnd.randint(0, 2))
    village = [rnd.choice(VILLAGE) for _ in range(n - len(mafia) - len(neutral))]
    roles = mafia + neutral + village
    rnd.shuffle(roles)
    return {f"P{i:02d}": role for i, role in enumerate(roles)}


def random_orders(rnd: random.Random, state: GameState, ruleset: Ruleset, kind: str) -> list[Order]:
    """Random orders: each living player tries each usable ability with some probability."""
    alive = [p.name for p in state.players if p.alive]
    dead = [p.name for p in state.players if not p.alive]
    orders = []
    for p in state.players:
        abilities = dict(ruleset.roles[p.role].abilities)
        if not p.alive:  # a dead player may still order a usable_dead ability
            abilities = {a: ab for a, ab in abilities.items() if "usable_dead" in ab.tags}
        for item, count in p.items:
            ability = ruleset.items[item].ability
            if count and ability:
                abilities[ability] = ruleset.abilities[ability]
        for ability in abilities.values():
            if not ability.allowed_in(kind) or rnd.random() < 0.25:
                continue
            targets = []
            for slot in ability.targets:
                pool = dead if slot.alive is False else alive
                if slot.kind is TargetKind.ROLE:
                    pool = list(ruleset.roles)
                pool = [t for t in pool if slot.self or t != p.name]
                if not pool or (slot.optional and rnd.random() < 0.5):
                    break
                targets.append(rnd.choice(pool))
            orders.append(Order(p.name, ability.id, tuple(targets)))
    return orders


def random_votes(rnd: random.Random, state: GameState) -> dict[str, str | None]:
    """Votes concentrated on two candidates so that lynches happen."""
    alive = [p.name for p in state.players if p.alive]
    candidates = rnd.sample(alive, k=min(2, len(alive)))
    return {v: rnd.choice(candidates) for v in alive if rnd.random() < 0.9}


GAMES = {
    "failheap": (random_setup, ALLOWED_DRAWS),
    "durarara": (durarara_games.random_setup, durarara_games.ALLOWED_DRAWS),
    "ru_mafia": (
        ru_mafia_games.random_setup,
        ru_mafia_games.ALLOWED_DRAWS,
        ru_mafia_games.random_extras,
    ),
}
"""Ruleset id → (random setup, the draws its rulebook allows[, orders random_orders cannot
make: parameters, the host's records])."""


def play_dctp(ruleset: Ruleset, seed: int, max_phases: int, slowest: list) -> tuple[str, int]:
    """Play one random DCTP game; returns (win reason or failure, phases played)."""
    from resolver.phases import next_phase
    from tests.resolver.dctp import factories

    rnd = random.Random(seed)
    state = new_game(ruleset, factories.random_setup(rnd, ruleset), seed=seed).state
    rng = PurposeRng(seed)
    for n in range(1, max_phases + 1):
        phase = next_phase(state.phase, ruleset).id
        orders = factories.random_orders(rnd, state, ruleset, phase)
        votes = factories.random_votes(rnd, state) if phase.startswith("day") else None
        start = time.process_time()
        res = resolve_phase(state, orders, ruleset, rng=rng, votes=votes, phase=phase)
        took = time.process_time() - start
        slowest[5] += took
        if took > slowest[0]:
            slowest[:5] = [took, seed, res.state.phase, len(state.players), len(orders)]
        state = res.state
        if state.winner is not None:
            if state.winner.reason not in factories.ALLOWED_ENDS:
                return f"FAIL bad end {state.winner.reason}", n
            return state.winner.reason, n
    return "FAIL no winner", max_phases


def play(ruleset: Ruleset, seed: int, max_phases: int, slowest: list) -> tuple[str, int]:
    """Play one game; returns (win reason or failure, phases played)."""
    if ruleset.id == "dctp":
        return play_dctp(ruleset, seed, max_phases, slowest)
    rnd = random.Random(seed)
    setup, allowed_draws, *extras = GAMES[ruleset.id]
    state = new_game(ruleset, setup(rnd), seed=seed).state
    rng = PurposeRng(seed)
    for n in range(1, max_phases + 1):
        kind = next_phase(state.phase, ruleset).kind
        orders = random_orders(rnd, state, ruleset, kind)
        orders += [o for extra in extras for o in extra(rnd, state, ruleset, kind)]
        votes = random_votes(rnd, state) if kind == "day" else None
        start = time.process_time()
        res = resolve_phase(state, orders, ruleset, rng=rng, votes=votes)
        took = time.process_time() - start
        slowest[5] += took
        if took > slowest[0]:
            slowest[:5] = [took, seed, res.state.phase, len(state.players), len(orders)]
        state = res.state
        if state.winner is not None:
            w = state.winner
            if w.draw and w.reason not in allowed_draws:
                return f"FAIL bad draw {w.reason}", n
            return w.reason.split(":")[0] if not w.reason.startswith("tie") else w.reason, n
    return "FAIL no winner", max_phases


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-phases", type=int, default=80)
    parser.add_argument("--ruleset", choices=sorted([*GAMES, "dctp"]), default="failheap")
    args = parser.parse_args(argv)
    ruleset = load_ruleset(args.ruleset)
    outcomes: collections.Counter[str] = collections.Counter()
    phases = 0
    slowest: list = [0.0, None, None, 0, 0, 0.0]
    failures = []
    start = time.perf_counter()
    cpu = time.process_time()
    for i in range(args.games):
        seed = args.seed * 1_000_003 + i
        try:
            reason, n = play(ruleset, seed, args.max_phases, slowest)
        except Exception as exc:  # the benchmark reports crashes instead of stopping
            reason, n = f"FAIL crash {type(exc).__name__}: {exc}", 0
        outcomes[
            reason.split(" seed")[0] if not reason.startswith("FAIL crash") else "FAIL crash"
        ] += 1
        phases += n
        if reason.startswith("FAIL"):
            failures.append((seed, reason))
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    print(
        f"{args.ruleset} games: {args.games} in {elapsed:.1f}s = "
        f"{args.games / elapsed:.0f} games/s; "
        f"{phases} phases ({phases / elapsed:.0f} phases/s, {phases / args.games:.1f} per game)"
    )
    print(f"CPU time (one core): {cpu:.1f}s = {args.games / cpu:.0f} games/s")
    print(
        f"CPU time inside resolve_phase: {slowest[5]:.1f}s "
        f"({args.games / slowest[5]:.0f} games/s of pure resolution)"
    )
    print(
        f"slowest phase (CPU): {slowest[0] * 1000:.2f} ms (game seed {slowest[1]}, {slowest[2]}, "
        f"{slowest[3]} players, {slowest[4]} orders)"
    )
    for reason, count in outcomes.most_common():
        print(f"  {count:6d}  {reason}")
    for seed, reason in failures[:10]:
        print(f"  failure: seed {seed}: {reason}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
