"""Issue 11, English classes after blind round G (engineer "orders"): new texts, not the
corpus's, each with a twin on the other side. Through the real parser."""

from __future__ import annotations

import functools
from collections.abc import Mapping

import pytest

from parsers.orders import History, OrderParser, ParseResult, Status
from parsers.roster import roster_from_data
from resolver.ruleset import load_ruleset


@functools.cache
def _parser(name: str) -> OrderParser:
    return OrderParser(load_ruleset(name))


def _parse(ruleset: str, players: Mapping[str, object], text: str, actor: str,
           history: History | None = None) -> ParseResult:  # fmt: skip
    roster = roster_from_data({"players": players})
    return _parser(ruleset).parse(text, roster=roster, actor=actor, phase="night2",
                                  history=history)  # fmt: skip


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


# --- the ability that ends a status is not blocked by it (Travel from abroad) ------------


def _abroad(status: str) -> dict[str, object]:
    return {**DCTP, "Hal": {"role": "hakuba", "statuses": [status]}}


def test_travelling_home_from_abroad_is_accepted() -> None:
    text = "Done with the holiday, I'll fly back to Japan tonight."
    result = _parse("dctp", _abroad("abroad"), text, "Hal")
    assert (result.status, _orders(result)) == (Status.ACCEPTED, ["travel"])


def test_another_ability_from_abroad_or_travel_on_the_plane_stays_queued() -> None:
    assert _parse("dctp", _abroad("abroad"), "Interrogate Otto.", "Hal").status is not (
        Status.ACCEPTED
    )
    text = "I'll fly back to Japan tonight."
    assert _parse("dctp", _abroad("on_plane"), text, "Hal").status is Status.AMBIGUOUS


# --- "Night 3 orders from the Leader.": a title over the orders, not an order ----------

LEADER = {**DCTP, "Leo": {"role": "gin", "statuses": ["leader"]}}


@pytest.mark.parametrize(
    "header",
    ["N2 orders from the boss.", "Tonight's orders:", "Here are my orders for night 2."],
)
def test_a_title_with_the_noun_orders_is_no_order(header: str) -> None:
    result = _parse("dctp", LEADER, f"{header}\nPry on Ugo.", "Leo", History())
    assert (result.status, _orders(result)) == (Status.ACCEPTED, ["pry Ugo"])


def test_orders_naming_players_are_still_read() -> None:
    result = _parse("dctp", LEADER, "Orders: Otto kills Rex.", "Bea", History())
    assert result.status is Status.REJECTED  # Bea gives no kill orders
    result = _parse("dctp", LEADER, "Orders for Otto.\nPry on Ugo.", "Leo", History())
    assert result.status is Status.AMBIGUOUS  # a kill order without its victim


# --- a remark about a wagon after the order ("she's been pushing the X wagon") ----------


@pytest.mark.parametrize(
    "text",
    [
        "bullet #2 is going into tamsin. she's been pushing the Osric wagon way too hard",
        "Shoot Osric tonight. He pushed the Maud wagon all day.",
    ],
)
def test_a_wagon_remark_after_the_order_is_chat(text: str) -> None:
    result = _parse("failheap", FH, text, "Wynne")
    assert result.status is Status.ACCEPTED and len(_orders(result)) == 1


def test_a_wagon_line_that_may_change_the_order_stays_queued() -> None:
    text = "Shoot Tamsin. Or Maud, she's pushing hard too."
    assert _parse("failheap", FH, text, "Wynne").status is Status.AMBIGUOUS
    text = "Shoot Tamsin. Maud has been pushing me to shoot her instead."
    assert _parse("failheap", FH, text, "Wynne").status is Status.AMBIGUOUS
