"""The recorded test game on three forums (fixtures/smf20, smf21, phpbb33) matches its truth.

The saved pages are read as ``count-votes`` reads them: the adapters' pure parse functions
(``forumbot.savedpages``), so offline and live counts read a page the same way.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest
import yaml

from forum_adapters import detect_engine
from forum_adapters.errors import ForumNotSupported
from forum_adapters.timeparse import parse_forum_time
from forumbot.savedpages import PageError, read_saved_page
from parsers.roster import roster_from_data
from parsers.votes import (
    CountResult,
    EventStatus,
    PostInput,
    Source,
    count_votes,
    day_from_data,
    rules_for,
)
from resolver.ruleset import load_ruleset

VOTES = Path(__file__).resolve().parents[2] / "fixtures" / "votes"
# The recorded pages are the adapters\' fixtures (one copy in the project).
PAGES = Path(__file__).resolve().parents[2] / "fixtures"
SAVED = date(2026, 11, 29)


def load_thread(folder: str, pattern: str) -> list[PostInput]:
    posts: list[PostInput] = []
    for page in sorted((PAGES / folder).glob(pattern)):
        _, _, found = read_saved_page(page.read_text(encoding="utf-8"), page.name, UTC, SAVED)
        posts.extend(found)
    return [replace(p, number=i if p.number is None else p.number) for i, p in enumerate(posts)]


def count(folder: str, pattern: str, setup: str, upto: int | None = None) -> CountResult:
    data = yaml.safe_load((VOTES / setup).read_text(encoding="utf-8"))
    posts = [p for p in load_thread(folder, pattern) if upto is None or (p.number or 0) <= upto]
    # The whole thread is a finished Day; a shorter window is the count as of that post.
    day = replace(day_from_data(data), ended=upto is None)
    return count_votes(
        posts, roster_from_data(data), rules_for(load_ruleset("failheap"), data["vote"]), day
    )


def tally(result: CountResult) -> dict[str, list[str]]:
    return {w.target: [v.name for v in w.voters] for w in result.wagons}


def test_engines_are_detected() -> None:
    for folder, pattern, engine in [
        ("phpbb33", "topic_page_1.html", "phpbb"),
        ("smf20", "topic_p1.html", "smf20"),
        ("smf21", "topic_p1.html", "smf21"),
    ]:
        html = (PAGES / folder / pattern).read_text(encoding="utf-8")
        assert read_saved_page(html, pattern, UTC, SAVED)[0] == engine


def test_pages_give_every_post_with_author_time_and_edit_flag() -> None:
    posts = load_thread("phpbb33", "topic_page_*.html")
    assert len(posts) == 61
    assert posts[34].author == "LaRa2000" and posts[34].edited
    assert posts[0].time is not None and posts[0].time.tzinfo is not None
    smf = load_thread("smf20", "topic_p*.html")
    assert [p.number for p in smf] == list(range(64))
    assert smf[31].author == "player_42" and smf[31].edited
    assert smf[-1].time is not None and smf[-1].time.date() == SAVED  # "Today at ..."


def test_phpbb_final_tally_in_vote_order() -> None:
    truth = json.loads((PAGES / "phpbb33" / "game.json").read_text(encoding="utf-8"))
    result = count("phpbb33", "topic_page_*.html", "setup_phpbb33.yaml")
    assert tally(result) == truth["final_tally"]
    assert list(result.not_voting) == truth["not_voting"]
    assert result.decision.lynched == "Akonyl"  # plurality: 5 of 10, no majority (6)
    assert result.decision.majority == 6
    assert result.queue == ()


@pytest.mark.parametrize("page_end", ["9", "19", "29", "39", "49", "59"])
def test_phpbb_tally_at_the_end_of_every_page(page_end: str) -> None:
    truth = json.loads((PAGES / "phpbb33" / "game.json").read_text(encoding="utf-8"))
    expected = truth["tally_at_end_of_page"][page_end]
    result = count("phpbb33", "topic_page_*.html", "setup_phpbb33.yaml", upto=int(page_end))
    assert tally(result) == expected["tally"]
    assert sorted(result.not_voting) == sorted(expected["not_voting"])


@pytest.mark.parametrize("folder", ["smf20", "smf21"])
def test_smf_final_tally(folder: str) -> None:
    truth = json.loads((PAGES / folder / "game_ground_truth.json").read_text(encoding="utf-8"))
    result = count(folder, "topic_p*.html", "setup_smf.yaml")
    expected = {k: sorted(v) for k, v in truth["final_tally"].items() if k != "(not voting)"}
    assert {k: sorted(v) for k, v in tally(result).items()} == expected
    assert list(result.not_voting) == truth["final_tally"]["(not voting)"]
    assert result.decision.majority == truth["majority"]
    assert result.queue == ()


@pytest.mark.parametrize("folder", ["smf20", "smf21"])
def test_smf_vote_events_match_the_ground_truth(folder: str) -> None:
    truth = json.loads((PAGES / folder / "game_ground_truth.json").read_text(encoding="utf-8"))
    expected = [
        (str(p["msg_id"]), e["action"], e.get("target"))
        for p in truth["posts"]
        for e in p["events"]
        if e["action"] != "none"
    ]
    result = count(folder, "topic_p*.html", "setup_smf.yaml")
    got = [
        (e.post_id, e.action.value, e.target)
        for e in result.events
        if e.status is EventStatus.COUNTED or e.reason == "already voting"
    ]
    assert got == expected


def test_smf_count_as_of_the_hosts_first_count() -> None:
    # Reply 25 (msg 27): "Vote Count 1: Akonyl 6, Kleene 2, Conia 1, CTU 1, not voting 2".
    result = count("smf20", "topic_p*.html", "setup_smf.yaml", upto=25)
    assert {w.target: w.total for w in result.wagons} == {
        "Akonyl": 6,
        "Kleene": 2,
        "Conia": 1,
        "CTU": 1,
    }
    assert len(result.not_voting) == 2


def test_traps_never_count() -> None:
    result = count("phpbb33", "topic_page_*.html", "setup_phpbb33.yaml")
    voters_by_post = {e.post_id for e in result.events}
    # Quotes (#7 quotes a vote but also votes; #20/#25/#48/#49's quoted votes), bold claims,
    # the host's counts and the plain-text "Vote: CTU" (#26) produce no event at all.
    for post_id in ("16", "17", "22", "27", "28", "33", "45", "50", "60", "62"):
        assert post_id not in voters_by_post


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("November 27, 2026, 06:06:15 pm", "2026-11-27T18:06:15+00:00"),  # SMF 2.0
        ("Nov 28, 2026, 01:18 PM", "2026-11-28T13:18:00+00:00"),  # SMF 2.1
        ("Sun Nov 29, 2026 1:05 pm", "2026-11-29T13:05:00+00:00"),  # phpBB
        ("Today at 09:09:45 am", "2026-11-29T09:09:45+00:00"),
        ("« Yesterday at 11:17 PM »", "2026-11-28T23:17:00+00:00"),
    ],
)
def test_forum_times(text: str, expected: str) -> None:
    noon = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)  # the day the pages were saved
    assert parse_forum_time(text, now=noon, tz=UTC).isoformat() == expected


def test_unknown_pages_and_times() -> None:
    with pytest.raises(ForumNotSupported):
        detect_engine(html="<html><body>hello</body></html>")
    with pytest.raises(PageError, match="not a page of an SMF or phpBB forum"):
        read_saved_page("<html></html>", "x.html", UTC, SAVED)
    with pytest.raises(ValueError, match="no date"):
        parse_forum_time("sometime", now=datetime(2026, 11, 29, tzinfo=UTC), tz=UTC)


def test_a_cut_page_is_refused_not_half_read() -> None:
    html = (PAGES / "smf21" / "topic_p1.html").read_text(encoding="utf-8")
    cut = html[: html.index('id="footer')]
    with pytest.raises(PageError, match="not a whole topic or PM page"):
        read_saved_page(cut, "cut.html", UTC, SAVED)


@pytest.mark.parametrize(
    ("shown", "expected"),
    [
        ("27 novembre 2026 à 18:06:15", "2026-11-27T18:06:15+01:00"),
        ("Aujourd'hui à 09:09", "2026-11-29T09:09:00+01:00"),
        ("27 ноября 2026, 18:06", "2026-11-27T18:06:00+01:00"),
        ("Вчера в 23:17", "2026-11-28T23:17:00+01:00"),
    ],
)
def test_french_and_russian_dates_of_a_saved_page_are_read(shown: str, expected: str) -> None:
    # A French or Russian board prints its dates in its language: the post time is read (the
    # old offline scraper gave None, so the deadline rule could not see a late vote).
    html = (PAGES / "smf21" / "topic_p1.html").read_text(encoding="utf-8")
    html = html.replace(">Nov 27, 2026, 06:06 PM<", f">{shown}<", 1)
    paris = timezone(timedelta(hours=1))
    _, _, posts = read_saved_page(html, "fr.html", paris, SAVED)
    assert posts[1].time is not None and posts[1].time.isoformat() == expected


def test_older_phpbb_pages_print_the_time_as_text() -> None:
    html = (
        '<html><body id="phpbb"><h2 class="topic-title"><a href="./viewtopic.php?t=3">Day 1</a>'
        '</h2><div id="p12" class="post bg2"><p class="author">by <strong>'
        '<a href="./memberlist.php?u=7" class="username">Ann</a></strong> &raquo; Sun Aug 28, 2011'
        ' 10:24 am</p><div class="content"><b>Vote: Bob</b></div></div>'
        '<div id="page-footer"></div></body></html>'
    )
    engine, page, posts = read_saved_page(html, "old.html", UTC, SAVED)
    assert (engine, page) == ("phpbb", 1)
    assert posts[0].author == "Ann" and posts[0].html == "<b>Vote: Bob</b>"
    assert posts[0].author_id == "7"
    assert posts[0].time is not None and posts[0].time.isoformat() == "2011-08-28T10:24:00+00:00"


@pytest.mark.parametrize(
    ("page", "count", "first", "last_recipients"),
    [
        ("smf21/pm_inbox_p1.html", 15, ("13", "Kleene", "2026-11-28T21:32:00+00:00"), ("ModBot",)),
        (
            "smf20/pm_inbox_p2.html",
            7,
            ("28", "GameMaster", "2026-11-29T09:19:58+00:00"),
            ("ModBot", "Akonyl"),
        ),
        (
            "phpbb33/pm_view_two_recipients.html",
            1,
            ("8", "LaRa2000", "2026-11-29T13:08:00+00:00"),
            ("GameMaster", "ModBot"),
        ),
    ],
)
def test_saved_pm_pages_give_pms_with_recipients(
    page: str, count: int, first: tuple[str, str, str], last_recipients: tuple[str, ...]
) -> None:
    _, number, posts = read_saved_page((PAGES / page).read_text(encoding="utf-8"), page, UTC, SAVED)
    assert number is None  # a PM page has no place in the thread
    assert len(posts) == count
    assert all(p.source is Source.PM and p.number is None for p in posts)
    head = posts[0]
    assert (head.id, head.author, head.time.isoformat() if head.time else None) == first
    assert posts[-1].recipients == last_recipients


def test_edit_times_are_read_and_a_late_edit_goes_to_the_gm() -> None:
    data = yaml.safe_load((VOTES / "setup_phpbb33.yaml").read_text(encoding="utf-8"))
    posts = load_thread("phpbb33", "topic_page_*.html")
    edited = [p for p in posts if p.edited]
    assert [(p.id, p.edited_at.isoformat() if p.edited_at else None) for p in edited] == [
        ("36", "2026-11-29T13:06:00+00:00")
    ]
    # A deadline between the post (13:05:53) and its edit (13:06): the vote is queued.
    data["day"]["deadline"] = "2026-11-29T13:05:59+00:00"
    result = count_votes(
        posts,
        roster_from_data(data),
        rules_for(load_ruleset("failheap"), data["vote"]),
        day_from_data(data),
    )
    late = [q for q in result.queue if q.kind == "edited_after_deadline"]
    assert [(q.post_id, q.voter) for q in late] == [("36", "LaRa2000")]
