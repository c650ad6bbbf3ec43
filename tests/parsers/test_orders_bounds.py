"""Issue 11, runtime point: a PM is read in bounded time. Besides the 64 KB cap, a PM of more
sentences (``MAX_PM_SENTENCES``) or more order words (``MAX_PM_ORDERS``) than a PM for the GM
ever has is queued once the bound is reached, never read for seconds; a long PM under the
bounds is read to its end."""

from __future__ import annotations

import functools

from parsers.orders import History, OrderParser, ParseResult, Status
from parsers.orders.parse import MAX_PM_BYTES, MAX_PM_ORDERS, MAX_PM_SENTENCES
from parsers.roster import roster_from_data
from resolver.ruleset import load_ruleset

PLAYERS = {"Bob": "doctor", "Ann": "sheriff", "Dave": "bodyguard", "Iris": "villager",
           "Gwen": "villager", "Frank": "mayor"}  # fmt: skip


@functools.cache
def _parser() -> OrderParser:
    return OrderParser(load_ruleset("failheap"))


def _parse(text: str) -> ParseResult:
    roster = roster_from_data({"players": PLAYERS})
    assert len(text.encode("utf-8")) <= MAX_PM_BYTES  # under the size cap: the bounds decide
    return _parser().parse(text, roster=roster, actor="Bob", phase="night2", history=History())


def test_a_pm_of_more_order_words_than_the_bound_goes_to_the_gm() -> None:
    lines = [f"protect {name} tonight" for name in ("Iris", "Gwen", "Dave")]
    text = "\n".join(lines[i % 3] for i in range(MAX_PM_ORDERS + 5))
    result = _parse(text)
    assert result.status is Status.AMBIGUOUS and not result.orders
    assert f"too many order words to read (over {MAX_PM_ORDERS})" in result.reason


def test_a_few_orders_are_still_read_each_as_a_candidate() -> None:
    result = _parse("protect Iris tonight\nprotect Gwen tonight\nprotect Dave tonight")
    assert result.status is Status.AMBIGUOUS and "too many" not in result.reason
    read = {o.render() for c in result.candidates for o in c.orders}
    assert read == {"heal Iris", "heal Gwen", "heal Dave"}


def test_a_pm_of_more_sentences_than_the_bound_goes_to_the_gm() -> None:
    text = "hm ok.\n" * (MAX_PM_SENTENCES + 10) + "Heal Frank tonight."
    result = _parse(text)
    assert result.status is Status.AMBIGUOUS and not result.orders
    assert f"too long to read (over {MAX_PM_SENTENCES} sentences)" in result.reason


def test_a_long_pm_of_chat_under_the_bounds_is_read_to_its_last_order() -> None:
    chat = "ok, sorry for the late reply lol.\n"
    text = chat * (MAX_PM_SENTENCES - 10) + "Heal Frank tonight."
    assert len(text.encode("utf-8")) > MAX_PM_BYTES // 2
    result = _parse(text)
    assert result.status is Status.ACCEPTED
    assert [o.render() for o in result.orders] == ["heal Frank"]
