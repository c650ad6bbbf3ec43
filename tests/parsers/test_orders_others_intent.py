"""Issue 11, structural class of practice round P1 (p1-ff05): after a clear order, a clause
telling what a third person wants or is about to do ("elle a l'air de vouloir tirer dans le
tas", "он хочет проверить Малушу") is the sender's reasoning, not a second order word left
without a player; the carrying-out sentence after it still names the performer. New texts
through the real parser and the practice rounds' setups; twins that must stay queued."""

from __future__ import annotations

import pytest

from tests.parsers.blind_games import read_as


def _ff(text: str) -> tuple[str, tuple[str, ...]]:
    return read_as("failheap", "practice1_fh_fr", "night2", "Clodomir", text)


def _ru(text: str) -> tuple[str, tuple[str, ...]]:
    return read_as("ru_mafia", "blindH_ru", "night3", "Агриппина", text)


@pytest.mark.parametrize(
    ("text", "order"),
    [
        (
            "Cette nuit on élimine Victorine, elle a l'air de vouloir protéger n'importe qui. "
            "Grimoald s'en occupe.",
            "mafia_kill Victorine",
        ),
        (
            "On tue Jehanne cette nuit, elle voulait soigner tout le monde. Grimoald s'en occupe.",
            "mafia_kill Jehanne",
        ),
    ],
)
def test_what_a_third_person_wants_to_do_is_reasoning_in_french(text: str, order: str) -> None:
    assert _ff(text) == ("accepted", (order,))


@pytest.mark.parametrize(
    "text",
    [
        # the sender's own wish: a second order without a clear reading
        "On tue Jehanne cette nuit, je veux tirer sur Isambert aussi. Grimoald s'en occupe.",
        # the framer is not the one the ruleset sends for the kill
        "On tue Jehanne cette nuit, elle a l'air de vouloir tirer. Ermessinde s'en occupe.",
    ],
)
def test_the_senders_own_wish_or_another_performer_stays_queued(text: str) -> None:
    status, orders = _ff(text)
    assert status == "ambiguous", orders


@pytest.mark.parametrize(
    "text",
    ["Лечу Ипатия, он хочет проверить Малушу.", "Лечу Ипатия, они собираются проверить Малушу."],
)
def test_what_a_third_person_wants_to_do_is_reasoning_in_russian(text: str) -> None:
    assert _ru(text) == ("accepted", ("heal Ипатий",))


@pytest.mark.parametrize(
    "text",
    [
        "Лечу Ипатия, я хочу проверить Малушу.",
        "Лечу Ипатия, он хочет, наверное, лечить Малушу или Яну.",
    ],
)
def test_the_senders_own_wish_or_an_open_choice_stays_queued_in_russian(text: str) -> None:
    status, orders = _ru(text)
    assert status == "ambiguous", orders
