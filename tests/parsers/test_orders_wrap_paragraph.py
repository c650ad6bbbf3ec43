"""A blank line ends a paragraph: a long line before it is never joined to the line after
it as a hard wrap (the order on its own line after chat stays its own sentence)."""

from __future__ import annotations

from tests.parsers.blind_games import read_as

CHAT = "long day in the thread and honestly i have no idea what to make of it"


def test_an_order_after_a_blank_line_is_its_own_sentence() -> None:
    text = f"{CHAT}\n\ncheck ignatz"
    assert read_as("failheap", "blindH_fh_en", "night3", "Leocadia", text) == (
        "accepted",
        ("check Ignatz",),
    )
