"""A vote told in the same sentence as another order, by a pronoun ("…, and my vote goes on
him too"), is never dropped silently: the PM goes to the GM with the orders read as a
candidate; named, both orders are read; a power used "on that vote" is still an add-on."""

from __future__ import annotations

from tests.parsers.blind_games import read_as

GAME = ("dctp", "practice6_dctp_en", "day2", "Aveline")


def test_a_vote_by_pronoun_next_to_another_order_goes_to_the_gm() -> None:
    text = "Voice of Accusation on Thackeray, and my vote goes on him too."
    assert read_as(*GAME, text)[0] == "ambiguous"


def test_both_orders_named_are_read() -> None:
    text = "Voice of Accusation on Thackeray, and my vote goes on Thackeray too."
    assert read_as(*GAME, text) == (
        "accepted",
        ("voice_of_accusation Thackeray", "vote Thackeray"),
    )


def test_a_power_on_that_vote_is_an_add_on() -> None:
    text = "I vote Thackeray and I'm using Voice of Accusation on that vote."
    assert read_as(*GAME, text) == (
        "accepted",
        ("vote Thackeray", "voice_of_accusation Thackeray"),
    )
