"""DCTP: every ability resolves (none unresolvable, none crashing) and every one is proven by a
scenario of ``fixtures/games/dctp-*.yaml`` or by a test here."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from resolver.contracts import unresolvable
from resolver.engine import resolve_phase
from resolver.hooks.dctp import HANDLERS
from resolver.model import EventKind, GameState, Order
from resolver.phases import next_phase
from resolver.rng import PurposeRng
from resolver.ruleset import load_ruleset
from resolver.setup import new_game
from tests.resolver.dctp.factories import ALLOWED_ENDS, random_orders, random_setup, random_votes

GAMES = Path(__file__).resolve().parents[3] / "fixtures" / "games"
PASSIVES = {  # passive abilities need no order: the scenario that shows each one working
    "betrayal": "dctp-passives-and-friends",
    "gossip": "dctp-passives-and-friends",
    "vengeance": "dctp-vengeance-revenge",
    "revenge": "dctp-vengeance-revenge",
}
NO_ROLE = ("bone_breaking", "confuse", "hinder")  # named by the seed, on no role sheet


@pytest.fixture(scope="module")
def dctp():
    return load_ruleset("dctp")


def test_no_dctp_ability_is_unresolvable(dctp) -> None:
    """Issue 13: 33 of 82 were; none may be."""
    assert unresolvable(dctp) == {}


def test_every_ability_names_a_handler_and_every_handler_is_used(dctp) -> None:
    named = {str(a.effect_params["handler"]) for a in dctp.abilities.values()}
    assert all(a.effect == "hook" for a in dctp.abilities.values())
    assert named == set(HANDLERS)


def _ordered_in_scenarios() -> set[str]:
    ordered: set[str] = set()
    for path in GAMES.glob("dctp-*.yaml"):
        for phase in yaml.safe_load(path.read_text(encoding="utf-8"))["phases"]:
            ordered |= {str(o["ability"]) for o in phase.get("orders") or []}
    return ordered


def test_every_ability_is_proven_by_a_scenario_or_a_test(dctp) -> None:
    ordered = _ordered_in_scenarios()
    for passive, scenario in PASSIVES.items():
        assert (GAMES / f"{scenario}.yaml").exists(), passive
    missing = set(dctp.abilities) - ordered - set(PASSIVES) - set(NO_ROLE)
    assert not missing, f"abilities without a scenario: {sorted(missing)}"


def _granted(state: GameState, name: str, ability: str) -> GameState:
    players = tuple(
        replace(p, granted=(*p.granted, ability)) if p.name == name else p for p in state.players
    )
    return state.evolve(players=players)


def test_abilities_no_role_has_still_resolve_when_a_gm_grants_them(dctp) -> None:
    """Bone Breaking ('Bone Breaker > Watch protection > Protect'), Confuse and Hinder (crimes)."""
    roles = {"Gin1": "gin", "Vod": "vodka", "Bob": "conan", "Cid": "heiji", "Dee": "araide",
             "Eve": "megure", "Fay": "takagi"}  # fmt: skip
    state = new_game(dctp, roles, seed=1).state
    state = _granted(
        _granted(_granted(state, "Bob", "bone_breaking"), "Cid", "confuse"), "Dee", "hinder"
    )
    orders = [
        Order("Bob", "bone_breaking", ("Eve",)),
        Order("Gin1", "kill", ("Eve",)),
        Order("Cid", "confuse", ("Vod",)),
        Order("Vod", "discombobulate", ("Fay",)),
        Order("Dee", "hinder", ("Fay",)),
    ]
    res = resolve_phase(state, orders, dctp, rng=PurposeRng(1))
    after = {p.name: p for p in res.state.players}
    assert after["Eve"].alive  # the bone breaker stopped the kill ...
    assert after["Gin1"].has("injured")  # ... and injured the attacker
    outcomes = {
        e.data["ability"]: e.data["outcome"] for e in res.events if e.kind is EventKind.OUTCOME
    }
    assert outcomes["discombobulate"] == "failed"  # the trickster was confused
    assert after["Fay"].has("hindered")  # no vote tomorrow


def test_setup_tells_kir_the_bo_count_and_james_his_subordinates(dctp) -> None:
    roles = {"Kir1": "kir", "Jam": "james", "Jod": "jodie", "Gin1": "gin", "Vod": "vodka"}
    res = new_game(dctp, roles, seed=2)
    notes = {
        (e.to, e.data.get("message"), e.data.get("count"))
        for e in res.events
        if e.kind is EventKind.NOTE
    }
    assert (("Kir1",), "bo_count", 2) in notes
    assert (("Jam",), "subordinates", 2) in notes  # Jodie and Kir
    leader = [p.name for p in res.state.players if p.has("leader")]
    assert leader == ["Gin1"]  # "It starts off as the highest rank BO member"


@pytest.mark.parametrize("block", range(2))
def test_random_games_never_crash_and_end_as_the_seed_allows(dctp, block: int) -> None:
    for seed in range(block * 20, block * 20 + 20):
        rnd = random.Random(seed)
        state = new_game(dctp, random_setup(rnd, dctp), seed=seed).state
        for _ in range(80):
            phase = next_phase(state.phase, dctp).id
            orders = random_orders(rnd, state, dctp, phase)
            votes = random_votes(rnd, state) if phase.startswith("day") else None
            res = resolve_phase(state, orders, dctp, rng=PurposeRng(seed), votes=votes, phase=phase)
            assert len([e for e in res.events if e.kind is EventKind.OUTCOME]) == len(orders)
            state = res.state
            if state.winner:
                break
        assert state.winner is not None, f"seed {seed}: no end after 80 phases"
        assert state.winner.reason in ALLOWED_ENDS, (seed, state.winner)
