"""The Russian misses of blind round C, as classes (the performer task's second part):
a PM written wholly in Latin transliteration ("lechu Varvaru") is read as Russian."""

from __future__ import annotations

from parsers.orders import History, Status
from tests.parsers.test_orders_performer import CLAN, _parse, _read


def test_a_pm_in_latin_transliteration_is_read_as_russian() -> None:
    heal = _parse(CLAN, "Dobryj vecher. Lechu Timura, na nego segodnya ohotyatsya.", "Оля")
    assert heal.status is Status.ACCEPTED and _read(heal) == [("heal Тимур", None)]
    shot = _parse(CLAN, "Gena strelyaet v Sonyu", "Рома")
    assert _read(shot) == [("shoot Соня by=Гена", "Гена")]


def test_a_transliterated_pm_keeps_every_doubt() -> None:
    for text in ("lechu Timura ili Dinu", "lechu Timura?", "mozhet byt' lechu Timura"):
        assert _parse(CLAN, text, "Оля").status is Status.AMBIGUOUS, text
    assert _parse(CLAN, "lechu Timura", "Оля", history=None).status is Status.AMBIGUOUS


def test_latin_text_is_not_transliterated_where_the_ruleset_is_not_russian() -> None:
    players = {"Vito": "godfather", "Nick": "mafioso", "Ann": "sheriff", "Bob": "doctor"}
    result = _parse(players, "lechu Ann", "Bob", ruleset="failheap", history=History())
    assert result.status is Status.AMBIGUOUS and not result.orders
