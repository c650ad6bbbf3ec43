"""A vote told for a past day on a player the roster now shows dead: the history's day
results say whether the player was alive that day (lynched by that very vote) or already
dead (lynched the day before)."""

from __future__ import annotations

from tests.parsers.blind_games import read_as

# blindH_drr_fr: Corentine was lynched by the day-1 vote (history.lynched), now dead.


def test_a_vote_on_the_day_the_player_was_lynched_stands() -> None:
    status, orders = read_as(
        "durarara",
        "blindH_drr_fr",
        "day1",
        "Ghislain",
        "Je vote Corentine, elle ment depuis le début.",
    )
    assert (status, orders) == ("accepted", ("vote Corentine",))


def test_a_vote_a_day_after_the_lynch_is_refused() -> None:
    status, orders = read_as(
        "durarara",
        "blindH_drr_fr",
        "day2",
        "Ghislain",
        "Je vote Corentine, elle ment depuis le début.",
    )
    assert (status, orders) == ("rejected", ())
