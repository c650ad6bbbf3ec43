"""A curly-apostrophe elision ("l’autre", "d’Anicet") keeps every later word at its place in
the sentence: a will's text, a quoted claim and an aside are cut where the player wrote them,
exactly as with a straight apostrophe ("l'autre")."""

from __future__ import annotations

import functools

import pytest

from parsers.orders import History, OrderParser, ParseResult
from parsers.orders.text import tokenize
from parsers.roster import roster_from_data
from resolver.ruleset import load_ruleset

PLAYERS = {"Jeanne": "villager", "Lucas": "taro", "Hugo": "izaya", "Anicet": "villager",
           "Zoé": "shinra"}  # fmt: skip

SENTENCES = [
    "Je protège l’autre, d’Anicet et Hugo",
    "« l’autre » d’Anicet (qu’il dit) Hugo",
    "D’après moi c’est l’un d’eux : Hugo, (peut-être) Lucas",
]


@functools.cache
def _parser() -> OrderParser:
    return OrderParser(load_ruleset("durarara"))


def _parse(text: str) -> ParseResult:
    roster = roster_from_data({"players": PLAYERS})
    return _parser().parse(text, roster=roster, actor="Jeanne", phase="night2", history=History())


@pytest.mark.parametrize("sentence", SENTENCES)
def test_each_word_after_a_curly_elision_sits_where_it_was_written(sentence: str) -> None:
    tokens = tokenize(sentence).tokens
    starts = [t.start for t in tokens]
    assert starts == sorted(set(starts))  # every word at its own offset, in order
    for token in tokens:
        written = sentence[token.start : token.start + len(token.text)].replace("’", "'")
        assert written == token.text


@pytest.mark.parametrize("sentence", SENTENCES)
def test_a_curly_elision_reads_as_a_straight_one(sentence: str) -> None:
    straight = sentence.replace("’", "'")
    curly = [(t.norm, t.start, t.quote, t.aside) for t in tokenize(sentence).tokens]
    assert curly == [(t.norm, t.start, t.quote, t.aside) for t in tokenize(straight).tokens]


def test_a_will_after_a_curly_elision_keeps_its_own_words() -> None:
    # the will used to start at the apostrophe: "’après moi, testament : Lucas ment"
    result = _parse("D’après moi, testament : Lucas ment")
    assert [o.targets[0].value for o in result.orders] == ["Lucas ment"]


def test_a_will_with_straight_apostrophes_is_read_the_same() -> None:
    result = _parse("D'après moi, testament : Lucas ment")
    assert [o.targets[0].value for o in result.orders] == ["Lucas ment"]
