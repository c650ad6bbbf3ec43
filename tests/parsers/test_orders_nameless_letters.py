"""Letters the property test found crashing the parser: a word with a letter Unicode gives
no name (a Tangut sign next to Cyrillic letters; pymorphy3 raised on it), and a Latin capital
whose case fold is two characters ("İ", in a PM read again as transliterated Russian). Each
PM gets a verdict, the word read like any unknown word."""

from __future__ import annotations

import functools

from parsers.orders import History, OrderParser, ParseResult, Status
from parsers.roster import roster_from_data
from resolver.ruleset import load_ruleset

PLAYERS = {"Маша": "doctor", "Кот": "sheriff", "Лиса": "villager"}


@functools.cache
def _parser() -> OrderParser:
    return OrderParser(load_ruleset("ru_mafia"))


def _parse(text: str) -> ParseResult:
    roster = roster_from_data({"players": PLAYERS})
    return _parser().parse(text, roster=roster, actor="Маша", phase="night1", history=History())


def test_a_word_with_a_nameless_letter_gets_a_verdict() -> None:
    result = _parse("\U00017000А")
    assert result.status is Status.AMBIGUOUS and not result.orders


def test_an_order_next_to_such_a_word_is_read_as_next_to_any_unknown_word() -> None:
    result, other = _parse("Лечу Кота \U00017000а"), _parse("Лечу Кота ъъа")
    assert result.status is other.status
    assert [o.render() for o in result.orders] == [o.render() for o in other.orders]
    assert [o.render() for o in result.orders] == ["heal Кот"]


def test_the_same_order_without_it_is_accepted() -> None:
    result = _parse("Лечу Кота")
    assert result.status is Status.ACCEPTED
    assert [o.render() for o in result.orders] == ["heal Кот"]


def test_a_latin_capital_whose_case_fold_is_two_letters_gets_a_verdict() -> None:
    # "İ" matched "i" case-insensitively and was looked up by its case fold "i̇": a crash
    result = _parse("İ")
    assert result.status is Status.AMBIGUOUS and not result.orders


def test_russian_in_latin_letters_is_still_read_as_russian() -> None:
    result = _parse("Lechu Kota")
    assert [o.render() for o in result.orders] == ["heal Кот"]
