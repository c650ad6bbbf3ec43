"""Issue 11, English classes after blind round G (engineer "orders"): new texts, not the
corpus's, each with a twin on the other side. Through the real parser."""

from __future__ import annotations

import functools
from collections.abc import Mapping

import pytest

from parsers.orders import OrderParser, ParseResult, Status
from parsers.roster import roster_from_data
from resolver.ruleset import load_ruleset


@functools.cache
def _parser(name: str) -> OrderParser:
    return OrderParser(load_ruleset(name))


def _parse(ruleset: str, players: Mapping[str, object], text: str, actor: str) -> ParseResult:
    roster = roster_from_data({"players": players})
    return _parser(ruleset).parse(text, roster=roster, actor=actor, phase="night2")


def _orders(result: ParseResult) -> list[str]:
    return [o.render() for o in result.orders]


FH = {"Wynne": "vigilante", "Corwin": "doctor", "Maud": "villager", "Osric": "godfather",
      "Tamsin": "mafioso", "Elspeth": "villager"}  # fmt: skip
DCTP = {"Ines": "chianti", "Otto": "vodka", "Bea": "conan", "Ugo": "megure", "Rex": "kujou",
        "Kit": "heiji", "Lor": "mitsuhiko"}  # fmt: skip


# --- a doubt in a sentence of its own BEFORE the order is about the order ---------------


@pytest.mark.parametrize(
    ("ruleset", "players", "actor", "text"),
    [
        ("failheap", FH, "Wynne", "Not sure about this one. Shoot Maud."),
        ("failheap", FH, "Wynne", "No idea if this is right. Shoot Tamsin tonight."),
        ("failheap", FH, "Corwin", "Honestly unsure on this one... heal Elspeth"),
        ("dctp", DCTP, "Bea", "Still not 100% sure. Investigate: Ines kills Ugo"),
    ],
)
def test_a_doubt_before_the_order_queues_it(
    ruleset: str, players: Mapping[str, object], actor: str, text: str
) -> None:
    assert _parse(ruleset, players, text, actor).status is Status.AMBIGUOUS


def test_a_doubt_about_something_else_before_the_order_stays_accepted() -> None:
    result = _parse("failheap", FH, "Not sure who the mafia is. Shoot Maud.", "Wynne")
    assert (result.status, _orders(result)) == (Status.ACCEPTED, ["shoot Maud"])
    result = _parse("failheap", FH, "No hesitation. Shoot Tamsin.", "Wynne")
    assert (result.status, _orders(result)) == (Status.ACCEPTED, ["shoot Tamsin"])
    result = _parse("dctp", DCTP, "Investigate: Ines kills Ugo", "Bea")
    assert result.status is Status.ACCEPTED


# --- an order that waits on the GM's answer or the sender's confirmation -----------------


@pytest.mark.parametrize(
    "text",
    [
        "Shoot Tamsin tonight, waiting for your answer first.",
        "Shoot Osric, but wait for my confirmation.",
        "Shoot Maud. Waiting to hear back from you.",
        "Shoot Elspeth tonight - hold off until you reply to my question.",
    ],
)
def test_an_order_waiting_on_an_answer_is_queued(text: str) -> None:
    assert _parse("failheap", FH, text, "Wynne").status is Status.AMBIGUOUS


def test_an_order_that_does_not_wait_stays_accepted() -> None:
    result = _parse("failheap", FH, "Shoot Tamsin tonight, no need to wait for me.", "Wynne")
    assert (result.status, _orders(result)) == (Status.ACCEPTED, ["shoot Tamsin"])
    result = _parse("failheap", FH, "Shoot Osric tonight, I'm sure about this one.", "Wynne")
    assert (result.status, _orders(result)) == (Status.ACCEPTED, ["shoot Osric"])
