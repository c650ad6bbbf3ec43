"""A doubt written as a sentence of its own after the order ("Shoot X. Some doubts though.",
"Проверяю X. Сомневаюсь.") takes the order to the GM (issue 11 class 4); the order alone
and a negated doubt ("no hesitation", "не сомневаюсь") stay read."""

from __future__ import annotations

import pytest

from tests.parsers.blind_games import read_as

GAMES = {"en": ("failheap", "blindF_fh_en", "night3"), "ru": ("ru_mafia", "blindF_ru", "night3")}


def _parse(game: str, actor: str, text: str) -> tuple[str, tuple[str, ...]]:
    return read_as(*GAMES[game], actor, text)


@pytest.mark.parametrize(
    ("game", "actor", "text"),
    [
        ("en", "Ingrid", "Shoot Peregrine. Some doubts though."),
        ("en", "Ingrid", "Shoot Peregrine. Still having doubts."),
        ("ru", "Радомир", "Проверяю посаженного Венедикта. Сомневаюсь."),
        ("ru", "Радомир", "Проверяю посаженного Венедикта. Колеблюсь пока."),
    ],
)
def test_a_doubt_after_the_order_queues_it(game: str, actor: str, text: str) -> None:
    status, orders = _parse(game, actor, text)
    assert status == "ambiguous", orders


@pytest.mark.parametrize(
    ("game", "actor", "text", "order"),
    [
        ("en", "Ingrid", "Shoot Peregrine. No hesitation.", "shoot Peregrine"),
        ("en", "Ingrid", "Shoot Peregrine.", "shoot Peregrine"),
        (
            "ru",
            "Радомир",
            "Проверяю посаженного Венедикта. Не сомневаюсь.",
            "check_jailed Венедикт",
        ),
    ],
)
def test_the_order_alone_or_a_negated_doubt_stays_read(
    game: str, actor: str, text: str, order: str
) -> None:
    assert _parse(game, actor, text) == ("accepted", (order,))
