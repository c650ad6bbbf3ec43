"""Round F's French recall classes (issue 11): new texts, not the corpus's, each with a twin
that must stay queued. Through the real parser and the blind round F setups."""

from __future__ import annotations

import pytest

from tests.parsers.blind_games import read_as

GAMES = {
    "dr": ("durarara", "blindF_drr_fr", "day1"),
    "fr": ("failheap", "blindF_fh_fr", "night2"),
    "en": ("failheap", "blindF_fh_en", "night3"),
    "ru": ("ru_mafia", "blindF_ru", "night3"),
}


def _parse(game: str, actor: str, text: str) -> tuple[str, tuple[str, ...]]:
    return read_as(*GAMES[game], actor, text)


@pytest.mark.parametrize(
    ("game", "actor", "text", "order"),
    [
        ("dr", "Lison", "Je vote Gratien, sans hésiter une seconde.", "vote Gratien"),
        ("dr", "Oriane", "Sans hésitation : mon vote va à Eudes.", "vote Eudes"),
        ("fr", "Blanche", "Je soigne Reine, sans hésiter.", "heal Reine"),
        ("en", "Ingrid", "Without hesitation: shoot Peregrine.", "shoot Peregrine"),
        (
            "ru",
            "Радомир",
            "Проверяю посаженного Венедикта, не сомневаюсь.",
            "check_jailed Венедикт",
        ),
    ],
)
def test_sans_hesiter_is_no_hedge(game: str, actor: str, text: str, order: str) -> None:
    """'sans hésiter' ('without hesitating', 'не сомневаюсь') says the player is sure."""
    assert _parse(game, actor, text) == ("accepted", (order,))


@pytest.mark.parametrize(
    ("game", "actor", "text"),
    [
        ("dr", "Lison", "Je vote Gratien, mais j'hésite encore."),
        ("dr", "Oriane", "Sans hésiter... enfin, j'hésite : Eudes ?"),
        ("fr", "Blanche", "Je soigne Reine. J'hésite avec Lucille."),
        ("ru", "Радомир", "Проверяю посаженного Венедикта, но сомневаюсь."),
    ],
)
def test_hesitation_still_queues(game: str, actor: str, text: str) -> None:
    """The hesitation itself ('j'hésite') still queues the order."""
    status, orders = _parse(game, actor, text)
    assert status == "ambiguous", orders


@pytest.mark.parametrize(
    ("game", "actor", "text"),
    [
        ("dr", "Lison", "Je vote Eudes. J'hésite."),
        ("fr", "Blanche", "Je soigne Reine. Je doute, mais bon."),
        ("en", "Ingrid", "Shoot Peregrine. I'm hesitant."),
    ],
)
def test_a_hesitation_after_the_order_queues_it(game: str, actor: str, text: str) -> None:
    """A sentence of its own after the order that hesitates ('J'hésite.') doubts it."""
    status, orders = _parse(game, actor, text)
    assert status == "ambiguous", orders


def test_a_sure_sentence_after_the_order_keeps_it() -> None:
    assert _parse("dr", "Lison", "Je vote Eudes. Sans hésiter.") == ("accepted", ("vote Eudes",))
    assert _parse("en", "Ingrid", "Shoot Peregrine. No hesitation.") == (
        "accepted",
        ("shoot Peregrine",),
    )


def test_a_colloquial_negated_hesitation_keeps_the_order() -> None:
    """'j'hésite pas' (the 'ne' dropped) is sure; 'j'hésite pas mal' (quite a lot) is not."""
    assert _parse("dr", "Lison", "Je vote Gratien, j'hésite pas.") == (
        "accepted",
        ("vote Gratien",),
    )
    assert _parse("dr", "Lison", "Je vote Gratien, j'hésite pas mal.")[0] == "ambiguous"
    assert _parse("dr", "Lison", "Je vote Gratien. J'hésite pas mal.")[0] == "ambiguous"
