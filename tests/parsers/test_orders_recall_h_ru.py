"""Recall classes of blind rounds G and F's Russian misses (issue 11): new texts, not the
corpus's, each failing before the fix, with twins that must stay refused or queued. Through
the real parser and the blind rounds' Russian setups."""

from __future__ import annotations

import pytest

from benchmarks.bench_orders import Case, Runner

RUNNER = Runner()


def _parse(actor: str, text: str, setup: str = "blindG_ru") -> tuple[str, tuple[str, ...]]:
    case = Case("t", "ru_mafia", setup, "ru", actor, "night3", text, "ambiguous", ())
    result = RUNNER.run(case)
    return str(result.status), tuple(order.render() for order in result.orders)


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("Запру Агнию на карантин.", "quarantine Агния"),
        ("Сегодня запираю Кондрата на карантин, пусть посидит.", "quarantine Кондрат"),
    ],
)
def test_the_senders_phrase_split_by_its_target_is_the_senders(text: str, order: str) -> None:
    """The nurse's "запираю на карантин" split by the player is not the house spirit's
    "запираю" (a block she lacks)."""
    assert _parse("Клавдия", text) == ("accepted", (order,))


@pytest.mark.parametrize(
    ("actor", "text"),
    [
        ("Клавдия", "Запираю Кондрата на ночь."),  # no quarantine word: still the block
        ("Ермолай", "Запираю Кондрата на карантин."),  # the sheriff has no quarantine
    ],
)
def test_another_roles_word_without_the_senders_phrase_stays_refused(actor: str, text: str) -> None:
    status, orders = _parse(actor, text)
    assert status == "rejected", orders


@pytest.mark.parametrize(
    "text",
    [
        "Отправляю в тур Осипа. Или нет, он уже ездил в первую ночь. Тогда Нонну в тур.",
        "Отправлю в тур Осипа... ой, нет, он у меня ездил в первую ночь. Значит, Нонну в тур.",
    ],
)
def test_an_earlier_night_told_in_the_past_is_history_not_the_orders_phase(text: str) -> None:
    """ "он уже ездил в первую ночь": the reason of a take-back, not a night-1 order; the
    order after it replaces the one taken back."""
    assert _parse("Терентий", text, "blindF_ru") == ("accepted", ("tour Нонна",))


@pytest.mark.parametrize(
    "text",
    [
        "Отправляю в тур Нонну в первую ночь.",  # no past verb: which night is meant?
        "Отправляю в тур Нонну... ой, нет, в первую ночь.",
        "Отправляю в тур Нонну... ой, нет. Тогда Веронику в тур.",  # no reason: the GM's
        "Отправляю в тур Нонну... ой, нет, она устала.",  # nothing in its place
    ],
)
def test_an_earlier_night_or_a_bare_take_back_stays_queued(text: str) -> None:
    status, orders = _parse("Терентий", text, "blindF_ru")
    assert status == "ambiguous", orders
