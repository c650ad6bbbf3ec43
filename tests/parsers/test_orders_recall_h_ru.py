"""Recall classes of blind round G's Russian misses (issue 11): new texts, not the corpus's,
each failing before the fix, with twins that must stay refused. Through the real parser and
the blind round G Russian setup."""

from __future__ import annotations

import pytest

from benchmarks.bench_orders import Case, Runner

RUNNER = Runner()


def _parse(actor: str, text: str) -> tuple[str, tuple[str, ...]]:
    case = Case("t", "ru_mafia", "blindG_ru", "ru", actor, "night3", text, "ambiguous", ())
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
