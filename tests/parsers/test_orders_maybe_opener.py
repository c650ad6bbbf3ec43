"""Russian "может" opening a sentence is "maybe": the order it opens is not decided (the GM
reads it); inside a sentence it is "can" and leaves the order alone."""

from __future__ import annotations

import pytest

from tests.parsers.blind_games import read_as


@pytest.mark.parametrize(
    "text",
    [
        "Может, лишу голоса Малушу.",
        "А может лишу голоса Малушу",
        "мб лишу голоса Малушу",
        "Ну может лишу голоса Малушу, посмотрим.",
        "Ну, может лишу голоса Малушу.",
        "А, может, лишу голоса Малушу",
    ],
)
def test_an_order_opened_by_maybe_goes_to_the_gm(text: str) -> None:
    assert read_as("ru_mafia", "blindH_ru", "night3", "Ипатий", text) == ("ambiguous", ())


@pytest.mark.parametrize(
    "text",
    [
        "Лишаю голоса Малушу, она может всё испортить.",
        "Лишаю голоса Малушу. Она может завтра всех запутать.",
    ],
)
def test_can_inside_the_sentence_leaves_the_order(text: str) -> None:
    assert read_as("ru_mafia", "blindH_ru", "night3", "Ипатий", text) == (
        "accepted",
        ("deprive_vote Малуша",),
    )
