"""The roster from SETUP data: both shapes, validation naming the bad key."""

from __future__ import annotations

import pytest

from parsers.roster import SetupError, VoteModifiers, roster_from_data


def test_short_form() -> None:
    roster = roster_from_data({"players": {"Ann": "Sheriff", "Bob": "Doctor", "Cy": None}})
    assert [s.name for s in roster.slots] == ["Ann", "Bob", "Cy"]
    assert roster.slot("Ann").role == "Sheriff"
    assert roster.slot("Cy").role is None
    assert all(s.alive for s in roster.slots)


def test_long_form_with_everything() -> None:
    roster = roster_from_data(
        {
            "players": [
                {
                    "name": "Ann",
                    "role": "Mayor",
                    "aliases": ["Annie"],
                    "statuses": ["revealed_mayor"],
                    "vote": {"weight": 3, "mayor": True},
                },
                {"name": "Bob", "replaces": ["OldBob"], "alive": False},
                "Cy",
            ],
            "hosts": ["GameMaster"],
            "aliases": {"C": "Cy"},
            "deadline": "ignored by the roster",
        }
    )
    ann = roster.slot("Ann")
    assert ann.aliases == ("Annie",)
    assert ann.statuses == frozenset({"revealed_mayor"})
    assert ann.vote == VoteModifiers(weight=3, mayor=True)
    assert roster.by_author("oldbob") is roster.slot("Bob")
    assert roster.by_author("GameMaster") is None
    assert roster.is_host("gamemaster")
    assert roster.slot("Cy").aliases == ("C",)
    assert not roster.slot("Bob").alive
    assert roster.name_index().resolve("Annie").slot == "Ann"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({}, "players"),
        ({"players": 3}, "players"),
        ({"players": []}, "players"),
        ({"players": [{"name": "Ann", "colour": "red"}]}, "players[0].colour"),
        ({"players": [{"role": "Cop"}]}, "players[0].name"),
        ({"players": [{"name": "Ann", "alive": "yes"}]}, "players[0].alive"),
        ({"players": [{"name": "Ann", "aliases": [3]}]}, "players[0].aliases"),
        ({"players": [{"name": "Ann", "vote": {"weight": "3"}}]}, "players[0].vote.weight"),
        ({"players": [{"name": "Ann", "vote": {"double": 2}}]}, "players[0].vote.double"),
        ({"players": ["Ann", "ann"]}, "players[1].name"),
        ({"players": {"Ann": 3}}, "players.Ann"),
        ({"players": ["Ann"], "aliases": {"X": "Nobody"}}, "aliases.X"),
        ({"players": ["Ann"], "hosts": [1]}, "hosts"),
    ],
)
def test_bad_data_names_the_key(data: dict, key: str) -> None:
    with pytest.raises(ValueError) as info:
        roster_from_data(data)
    assert isinstance(info.value, SetupError)
    assert info.value.key == key
    assert key in str(info.value)


def test_replaced_name_cannot_be_another_player() -> None:
    with pytest.raises(SetupError):
        roster_from_data({"players": [{"name": "Ann", "replaces": ["Bob"]}, "Bob"]})


def test_look_alike_names_are_two_players_kept_apart_by_spelling_and_user_id() -> None:
    """SMF lets "Мара" (Cyrillic) and "Mapa" (Latin) both register: the roster loads."""
    roster = roster_from_data(
        {"players": [{"name": "Мара", "user_id": 15}, {"name": "Mapa", "user_id": "16"}, "Кот"]}
    )
    cyrillic, latin = roster.by_author("Мара"), roster.by_author("Mapa")
    assert cyrillic is not None and latin is not None and cyrillic.name != latin.name
    assert roster.by_account("Mapa", "15") is cyrillic and roster.by_account("x", "16") is latin
    assert roster.look_alikes("Mapa") == ("Мара", "Mapa")
    assert roster.by_author("MAPA") is latin  # case still folds


def test_the_same_name_twice_or_one_user_id_twice_is_refused() -> None:
    with pytest.raises(SetupError, match="listed twice"):
        roster_from_data({"players": ["Bob", "bob"]})
    with pytest.raises(SetupError, match="user id 7"):
        roster_from_data(
            {"players": [{"name": "Bob", "user_id": 7}, {"name": "Ann", "user_id": 7}]}
        )
    with pytest.raises(SetupError, match="user_id"):
        roster_from_data({"players": [{"name": "Bob", "user_id": [1]}]})
