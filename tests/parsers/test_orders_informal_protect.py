"""Blind round H's vocabulary gap "tonight I'm patching up X" (issue 11): the informal
words of a protection ("patch up", "stitch"; "rafistoler", "подлатать") read as the
sender's own protect ability; twins without a player or negated stay queued. Through the
real parser and the blind rounds' setups."""

from __future__ import annotations

import pytest

from tests.parsers.blind_games import read_as


@pytest.mark.parametrize(
    ("actor", "text", "order"),
    [
        ("Amadeo", "Patching up Oswin tonight, he looks worried.", "heal Oswin"),
        ("Amadeo", "I'll stitch up Haverford tonight.", "heal Haverford"),
        ("Amadeo", "Stitching Cosmo tonight, he looks pale.", "heal Cosmo"),
    ],
)
def test_informal_words_of_a_protection_are_the_senders_heal(
    actor: str, text: str, order: str
) -> None:
    assert read_as("failheap", "blindH_fh_en", "night3", actor, text) == ("accepted", (order,))


@pytest.mark.parametrize(
    "text",
    [
        "I'd rather not be patching up anyone tonight.",
        "Maybe patching up Oswin tonight?",
        "Not patching up Oswin tonight.",
    ],
)
def test_a_protection_word_without_a_sure_target_stays_queued(text: str) -> None:
    status, orders = read_as("failheap", "blindH_fh_en", "night3", "Amadeo", text)
    assert status != "accepted", orders
