"""``usable_abilities``: what a player could order now."""

from __future__ import annotations

from resolver.model import Order
from resolver.queries import usable_abilities
from tests.resolver.factories import failheap, make_state, resolve

RULESET = failheap()


def test_night_one_vigilante_and_mayor() -> None:
    state = make_state(
        RULESET, {"Vic": "vigilante", "May": "mayor", "Goon": "framer", "Sue": "survivalist"}
    )
    assert set(usable_abilities(state, RULESET, "Vic")) == set()
    assert set(usable_abilities(state, RULESET, "May")) == {"reveal"}
    assert set(usable_abilities(state, RULESET, "Goon")) == {"frame", "mafia_kill"}
    assert set(usable_abilities(state, RULESET, "Sue")) == {"vest"}
    assert set(usable_abilities(state, RULESET, "Vic", "night2")) == {"shoot"}


def test_dead_players_and_spent_uses() -> None:
    state = make_state(
        RULESET, {"May": "mayor", "Don": "godfather", "Ann": "villager", "Bob": "villager"}
    )
    state = resolve(state, RULESET, [Order("Don", "mafia_kill", ("Ann",))]).state
    state = resolve(state, RULESET, [Order("May", "reveal")]).state
    assert usable_abilities(state, RULESET, "Ann") == {}
    assert usable_abilities(state, RULESET, "May") == {}
