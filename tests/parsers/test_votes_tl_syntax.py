"""TeamLiquid-style votes (``##Vote X``) whose BBCode the forum left half as text."""

from __future__ import annotations

import pytest

from parsers.roster import roster_from_data
from parsers.votes import DaySetup, EventStatus, PostInput, count_votes, rules_from_data

ROSTER = roster_from_data(
    {"players": ["quillquillmoss", "Tobiah", "Wrenfield", "Osgood", "Pellam"], "hosts": ["Gm"]}
)
HASH = rules_from_data({"syntax": ["hash_vote"], "rule": "majority"})


@pytest.mark.parametrize(
    ("body", "target"),
    [
        ("Not convinced yet.<br>[b]##Vote:QQM/b] <br>more later", "quillquillmoss"),
        ("[b]##vote Tobiah/b]", "Tobiah"),
        ("[b]##Vote: Osgood/i]", "Osgood"),
    ],
)
def test_a_vote_whose_closing_tag_lost_its_bracket_counts(body: str, target: str) -> None:
    post = PostInput("1", "Pellam", body, number=1)
    result = count_votes([post], ROSTER, HASH, DaySetup(ended=True))
    assert [e.status for e in result.events] == [EventStatus.COUNTED]
    assert not result.queue
    assert [w.target for w in result.wagons] == [target]


def test_a_slash_inside_a_name_is_not_cut() -> None:
    roster = roster_from_data({"players": ["AC/DC", "Tobiah"], "hosts": ["Gm"]})
    post = PostInput("1", "Tobiah", "##vote AC/DC", number=1)
    result = count_votes([post], roster, HASH, DaySetup(ended=True))
    assert [w.target for w in result.wagons] == ["AC/DC"]
