"""Primitive contracts: Failheap resolves fully; other catalogues fail politely, never crash."""

from __future__ import annotations

import random

import pytest

from resolver.contracts import CONTRACTS, unresolvable
from resolver.engine import resolve_phase
from resolver.model import Effect, EventKind, Order
from resolver.rng import PurposeRng
from resolver.ruleset import RULESETS_DIR, load_ruleset
from resolver.setup import new_game


def test_every_effect_has_a_contract() -> None:
    assert set(CONTRACTS) == set(Effect)


def test_failheap_is_fully_resolvable() -> None:
    assert unresolvable(load_ruleset("failheap")) == {}


@pytest.mark.parametrize("path", sorted(RULESETS_DIR.glob("*.yaml")), ids=lambda p: p.stem)
def test_any_catalogue_resolves_random_orders_without_crashing(path) -> None:
    ruleset = load_ruleset(path)
    rnd = random.Random(7)
    roles = sorted(ruleset.roles)
    for game in range(5):
        state = new_game(ruleset, {f"P{i}": rnd.choice(roles) for i in range(9)}, seed=game).state
        for _ in range(4):
            names = [p.name for p in state.players]
            orders = [
                Order(p.name, a.id, tuple(rnd.choice(names) for _ in a.targets))
                for p in state.players
                for a in ruleset.roles[p.role].abilities.values()
                if rnd.random() < 0.5
            ]
            votes = {n: rnd.choice(names) for n in names}
            res = resolve_phase(state, orders, ruleset, rng=PurposeRng(game), votes=votes)
            outcomes = [e for e in res.events if e.kind is EventKind.OUTCOME]
            assert len(outcomes) == len(orders)
            state = res.state
