"""Issue 11, runtime point (a PM is read in bounded time): one sentence of more words than
any sentence a player writes (``MAX_SENTENCE_WORDS``) is never scanned word by word; the
PM goes to the GM as "a sentence too long to read". Long chat of lines wrapped by an editor
(joined into one run) is still read to its last order."""

from __future__ import annotations

import functools

from parsers.orders import History, OrderParser, ParseResult, Status
from parsers.orders.parse import MAX_PM_BYTES
from parsers.orders.text import MAX_SENTENCE_WORDS
from parsers.roster import roster_from_data
from resolver.ruleset import load_ruleset

PLAYERS = {"Bob": "doctor", "Ann": "sheriff", "Dave": "bodyguard", "Iris": "villager",
           "Gwen": "villager", "Frank": "mayor"}  # fmt: skip
TOO_LONG = f"sentence too long to read (over {MAX_SENTENCE_WORDS} words)"


@functools.cache
def _parser() -> OrderParser:
    return OrderParser(load_ruleset("failheap"))


def _parse(text: str) -> ParseResult:
    roster = roster_from_data({"players": PLAYERS})
    assert len(text.encode("utf-8")) <= MAX_PM_BYTES  # under the size cap: the bound decides
    return _parser().parse(text, roster=roster, actor="Bob", phase="night2", history=History())


def _words(clause: str, count: int) -> str:
    """``clause`` repeated to at least ``count`` words, as one sentence (commas, no end)."""
    parts: list[str] = []
    while sum(len(p.split()) for p in parts) < count:
        parts.append(clause)
    return ", ".join(parts)


def test_a_sentence_of_more_words_than_the_bound_goes_to_the_gm_unread() -> None:
    chat = _words("sorry I was stuck at the office until late and my phone died", 600)
    result = _parse(f"hey gm {chat} so yeah I heal Frank tonight")
    assert result.status is Status.AMBIGUOUS and not result.orders
    assert TOO_LONG in result.reason


def test_a_french_sentence_of_orders_with_no_end_goes_to_the_gm_unread() -> None:
    orders = ["je protège Iris", "je soigne Gwen", "je protège Dave"] * 60  # 720 words
    text = " et ".join(orders)
    result = _parse(text)
    assert result.status is Status.AMBIGUOUS and not result.orders
    assert TOO_LONG in result.reason


def test_a_long_sentence_under_the_bound_is_still_read() -> None:
    chat = _words("sorry I was stuck at the office until late and my phone died", 400)
    assert len(chat.split()) < MAX_SENTENCE_WORDS
    result = _parse(f"{chat}.\nHeal Frank tonight.")
    assert result.status is Status.ACCEPTED
    assert [o.render() for o in result.orders] == ["heal Frank"]


def test_long_chat_of_wrapped_lines_is_read_to_its_last_order() -> None:
    line = "honestly no clue what happened in the thread today, everyone was just asleep"
    text = "\n".join([line] * 400) + "\n\nAnyway. Heal Frank tonight."  # 5,200 words of chat
    assert len(text.split()) > 10 * MAX_SENTENCE_WORDS
    result = _parse(text)
    assert TOO_LONG not in result.reason
    assert result.status is Status.ACCEPTED
    assert [o.render() for o in result.orders] == ["heal Frank"]
