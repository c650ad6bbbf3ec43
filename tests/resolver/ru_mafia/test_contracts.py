"""Every ru_mafia ability resolves: none is declared unresolvable, and each runs without a crash."""

from __future__ import annotations

import pytest

from resolver.contracts import unresolvable
from resolver.engine import resolve_phase
from resolver.model import Order
from resolver.rng import PurposeRng
from resolver.ruleset import load_ruleset
from resolver.setup import new_game

RULESET = load_ruleset("ru_mafia", options={"villager_gifts": "none"})


def test_no_ru_mafia_ability_is_unresolvable() -> None:
    assert unresolvable(RULESET) == {}


@pytest.mark.parametrize("search", ["mafia_search", "cop_search", "undead_search", "loner_search"])
def test_searches_with_a_role_slot_answer_the_actor(search: str) -> None:
    """«Ищу %роль - %имя»: the role slot is never taken for a player (it used to crash)."""
    holder = {
        "mafia_search": "mafia_boss",
        "cop_search": "sheriff",
        "undead_search": "van_helsing",
        "loner_search": "prosecutor",
    }[search]
    role = {
        "mafia_search": "sheriff",
        "cop_search": "mafia_boss",
        "undead_search": "vampire",
        "loner_search": "telepath",
    }[search]
    setup = new_game(
        RULESET,
        {"Ана": holder, "Боб": "villager", "Вера": "doctor", "Гена": "maniac", "Дина": "vampire"},
        seed=1,
    )
    day = resolve_phase(setup.state, [], RULESET, rng=PurposeRng(1))
    res = resolve_phase(
        day.state, [Order("Ана", search, (role, "Боб"))], RULESET, rng=PurposeRng(1)
    )
    answers = [e.data for e in res.events if e.kind == "result" and "Ана" in e.to]
    assert answers and answers[0]["result"] == "fail" and answers[0]["target"] == "Боб"


def test_absorb_with_a_role_slot_kills_the_named_role() -> None:
    """«Поглощаю Телепата - Ганс»: the Telepath dies, nothing saves him."""
    setup = new_game(RULESET, {"Банши": "banshee", "Ганс": "telepath", "Вера": "doctor"}, seed=1)
    day = resolve_phase(setup.state, [], RULESET, rng=PurposeRng(1))
    order = Order("Банши", "absorb", ("telepath", "Ганс"))
    res = resolve_phase(day.state, [order], RULESET, rng=PurposeRng(1))
    assert not res.state.player("Ганс").alive
