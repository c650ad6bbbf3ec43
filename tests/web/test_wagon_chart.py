"""The GM page's wagon chart: an SVG drawn on the server from the counter's timeline."""

from __future__ import annotations

from xml.etree import ElementTree

from forumbot.web.wagons import wagon_chart
from parsers.roster import roster_from_data
from parsers.votes import DaySetup, PostInput, count_votes, rules_from_data

ROSTER = roster_from_data({"players": ["Ann", "Bob", "Cy", "Dee", "<Eve>"]})
RULES = rules_from_data({"syntax": ["bold_vote"], "rule": "majority"})


def thread(pairs: list[tuple[str, str]]) -> list[PostInput]:
    return [
        PostInput(str(i), voter, f"<b>Vote: {target}</b>", number=i)
        for i, (voter, target) in enumerate(pairs)
    ]


def test_the_chart_draws_each_wagon_the_majority_and_the_hammer() -> None:
    posts = thread([("Ann", "Cy"), ("Bob", "&lt;Eve&gt;"), ("Dee", "Cy"), ("Bob", "Cy")])
    result = count_votes(posts, ROSTER, RULES)
    svg = wagon_chart(result, "Day 1")
    root = ElementTree.fromstring(svg)  # well-formed, the <Eve> name escaped
    ns = "{http://www.w3.org/2000/svg}"
    lines = root.findall(f"{ns}polyline")
    assert sorted(line.find(f"{ns}title").text for line in lines) == [  # type: ignore[union-attr]
        "<Eve>",
        "Cy: Ann, Dee, Bob",
    ]
    assert "majority 3" in svg and "hammer (post 3)" in svg


def test_a_day_at_its_deadline_is_marked_and_no_votes_draw_nothing() -> None:
    posts = thread([("Ann", "Cy"), ("Bob", "Dee")])
    over = count_votes(
        posts, ROSTER, rules_from_data({"syntax": ["bold_vote"]}), DaySetup(ended=True)
    )
    assert "deadline (post 1)" in wagon_chart(over)
    assert wagon_chart(count_votes([], ROSTER, RULES)) == ""
