"""Blind rounds F-H's open classes (issue 11), new texts, through the real parser and the
blind rounds' setups: the next day named as a night order's effect (deprive a vote, accuse
with a double vote, a diploma) is no later phase; twins that must stay queued."""

from __future__ import annotations

import pytest

from tests.parsers.blind_games import read_as


def _ru(setup: str, actor: str, text: str) -> tuple[str, tuple[str, ...]]:
    return read_as("ru_mafia", setup, "night3", actor, text)


@pytest.mark.parametrize(
    ("setup", "actor", "text", "order"),
    [
        ("blindH_ru", "Ипатий", "Забираю голос у Малуши на завтра.", "deprive_vote Малуша"),
        ("blindH_ru", "Ипатий", "На завтра лишаю голоса Малушу.", "deprive_vote Малуша"),
        ("blindH_ru", "Ипатий", "Лишаю голоса Малушу, пусть завтра помолчит.",
         "deprive_vote Малуша"),
        ("blindH_ru", "Ксенофонт", "Обвиняю Малушу, завтра двойной голос против неё.",
         "accuse Малуша"),
        ("blindF_ru", "Христина", "Использую диплом на завтра.", "use_item diploma"),
    ],
)  # fmt: skip
def test_the_next_day_of_a_vote_effect_is_tonights_order(
    setup: str, actor: str, text: str, order: str
) -> None:
    assert _ru(setup, actor, text) == ("accepted", (order,))


@pytest.mark.parametrize(
    ("setup", "actor", "text"),
    [
        ("blindH_ru", "Ипатий", "Лишаю голоса Малушу завтра ночью."),  # a later night named
        ("blindH_ru", "Агриппина", "Лечу Малушу на завтра."),  # a heal acts tonight
        ("blindF_ru", "Христина", "Использую диплом завтра ночью."),
        ("blindH_ru", "Ипатий", "Наверное, лишу голоса Малушу на завтра."),  # still a hedge
    ],
)
def test_a_later_night_or_another_ability_for_tomorrow_stays_queued(
    setup: str, actor: str, text: str
) -> None:
    status, orders = _ru(setup, actor, text)
    assert status == "ambiguous", orders


@pytest.mark.parametrize(
    "text",
    [
        "Обвиняю Малушу в мафии. Завтра проголосую против неё двойным голосом.",
        "Обвиняю Малушу. Завтра голосую двойным!",
    ],
)
def test_the_accusations_double_vote_told_for_tomorrow_is_its_effect(text: str) -> None:
    assert _ru("blindH_ru", "Ксенофонт", text) == ("accepted", ("accuse Малуша",))


@pytest.mark.parametrize(
    ("actor", "text"),
    [
        ("Ксенофонт", "Обвиняю Малушу. Завтра голосую против Яны."),  # another player named
        ("Агриппина", "Лечу Малушу. Завтра голосую двойным."),  # no next-day ability before
        ("Ксенофонт", "Завтра голосую против Малуши."),  # a vote for tomorrow, alone
    ],
)
def test_a_vote_for_tomorrow_that_is_no_effect_stays_queued(actor: str, text: str) -> None:
    status, orders = _ru("blindH_ru", actor, text)
    assert status != "accepted", orders
