"""Random full Failheap games all end, with a winner or a draw the rulebook allows."""

from __future__ import annotations

import random

import pytest

from resolver.engine import resolve_phase
from resolver.rng import PurposeRng
from tests.resolver.factories import failheap, make_state, random_orders, random_setup, random_votes

ALLOWED_DRAWS = {"everyone_died", "tie:amnesiac+amnesiac"}


@pytest.mark.parametrize("block", range(4))
def test_random_games_end_properly(block: int) -> None:
    ruleset = failheap()
    for seed in range(block * 50, block * 50 + 50):
        rnd = random.Random(seed)
        state = make_state(ruleset, random_setup(rnd), seed=seed)
        for n in range(80):
            kind = "night" if n % 2 == 0 else "day"
            votes = random_votes(rnd, state) if kind == "day" else None
            res = resolve_phase(
                state,
                random_orders(rnd, state, ruleset, kind),
                ruleset,
                rng=PurposeRng(seed),
                votes=votes,
            )
            state = res.state
            if state.winner:
                break
        winner = state.winner
        assert winner is not None, f"seed {seed}: no winner after 80 phases"
        assert not winner.draw or winner.reason in ALLOWED_DRAWS, (seed, winner)
        assert set(winner.players) <= {p.name for p in state.players}
