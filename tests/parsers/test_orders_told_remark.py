"""Issue 11, the sender's reasoning after a clear order (practice rounds P3, blind round G:
p3-ru15, bG-ru11): a plain sentence that only tells what a player did (a verb in the past,
also an order or vote word told as done: "она вчера топила Зосиму"), with no role, item or
ability word, no word that adds to or picks an order and no phase but a past one, cannot
change the order. New texts through the real parser; twins that must stay queued."""

from __future__ import annotations

import pytest

from tests.parsers.blind_games import read_as


def _ru(text: str) -> tuple[str, tuple[str, ...]]:
    return read_as("ru_mafia", "blindH_ru", "night3", "Агриппина", text)


@pytest.mark.parametrize(
    "text",
    [
        "Лечу Ипатия. Он так уверенно вёл посадку Яны.",
        "Лечу Ипатия. Очень уж она вчера топила Малушу.",
        "Лечу Ипатия. Слишком рьяно они травили Яну.",
    ],
)
def test_a_tale_of_what_a_player_did_after_the_order_is_reasoning(text: str) -> None:
    assert _ru(text) == ("accepted", ("heal Ипатий",))


@pytest.mark.parametrize(
    "text",
    [
        "Лечу Ипатия. Он вчера голосовал за Малушу, и Яна тоже.",  # "и … тоже" adds a player
        "Лечу Ипатия. Она была шерифом у Малуши.",  # a role word
        "Лечу Ипатия. Он вчера лечил Малушу или Яну?",  # a question, an "or"
    ],
)
def test_a_tale_that_adds_a_player_a_role_or_a_question_stays_queued(text: str) -> None:
    status, orders = _ru(text)
    assert status == "ambiguous", orders
