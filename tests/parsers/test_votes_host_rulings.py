"""The host's own vote counts decide the names the counter queued (``parsers.votes.hostrulings``).

Posts are the HTML a phpBB board serves (bold as ``<div style="display:inline;font-weight:
bold">``); the host's counts are written the ways the real moderators of
``shared/real_threads`` wrote them.
"""

from __future__ import annotations

from itertools import count

import pytest

from parsers.names import NameIndex
from parsers.roster import roster_from_data
from parsers.votes import DaySetup, PostInput, VoteRules, count_votes, rules_from_data
from parsers.votes.hostrulings import CountLine, read_count
from parsers.votes.model import DayEvent, DayEventKind

_ids = count(1)
RULES: VoteRules = rules_from_data(
    {"syntax": ["bold_vote", "vote_tag"], "rule": "majority", "at_deadline": "no_lynch"}
)
PLAYERS = ["crazypianist1116", "Parama", "AGar", "Oso", "Sundy", "Cecily", "Akira"]
ROSTER = roster_from_data({"players": PLAYERS, "hosts": ["Enigma"]})
OVER = DaySetup(ended=True)


def bold(text: str) -> str:
    return f'<div style="display:inline;font-weight:bold">{text}</div>'


def post(author: str, html: str) -> PostInput:
    number = next(_ids)
    return PostInput(str(number), author, html, number=number)


def vote(voter: str, target: str) -> PostInput:
    return post(voter, f"I think so.<br>{bold(f'Vote: {target}')}")


def host(*lines: str) -> PostInput:
    return post(
        "Enigma", "<br>".join(["Votecount 1.3", *lines, "With 7 alive it takes 4 to lynch."])
    )


def test_a_nickname_the_hosts_count_lists_under_a_player_counts_for_him() -> None:
    posts = [vote("Oso", "Parama"), vote("Sundy", "Parama"), vote("Cecily", "CP")]
    alone = count_votes(posts, ROSTER, RULES, OVER)
    assert [q.written for q in alone.queue] == ["CP"]
    assert "crazypianist1116" in alone.queue[0].candidates
    posts.append(host("Parama (2) - Oso, Sundy", "crazypianist1116 (1) - Cecily"))
    posts += [vote("AGar", "Parama"), vote("Akira", "Parama")]
    result = count_votes(posts, ROSTER, RULES, OVER)
    assert not result.queue and not result.pending
    cp = next(w for w in result.wagons if w.target == "crazypianist1116")
    assert [v.name for v in cp.voters] == ["Cecily"]
    assert result.decision.lynched == "Parama"
    assert any("counts Cecily's 'CP' for crazypianist1116" in n for n in result.notes)


def test_a_name_that_could_have_hammered_another_wagon_holds_the_day_without_the_host() -> None:
    posts = [vote("Oso", "AGar"), vote("Sundy", "AGar"), vote("Parama", "AGar")]
    posts += [vote("Cecily", "Sundy"), vote("Cecily", "Town wins because we are cool")]
    posts += [vote("Akira", "Parama"), vote("crazypianist1116", "Parama"), vote("AGar", "Parama")]
    posts += [vote("Cecily", "Parama")]
    held = count_votes(posts, ROSTER, RULES, OVER)
    assert held.decision.outcome == "undecided"  # the joke might have been a 4th vote on AGar
    count_line = "Not Voting (4) - Cecily, Akira, crazypianist1116, AGar"
    ruled = [*posts[:5], host("AGar (3) - Oso, Sundy, Parama", count_line), *posts[5:]]
    result = count_votes(ruled, ROSTER, RULES, OVER)
    assert result.decision.outcome == "lynch" and result.decision.lynched == "Parama"
    assert any("lists Cecily as not voting" in n for n in result.notes)


def test_a_hosts_option_counted_beside_the_lynch_leaves_the_standing_vote() -> None:
    posts = [vote(v, "AGar") for v in ("Oso", "Sundy", "Parama")]
    posts += [post("Enigma", bold("Vote: Deadline Extension"))]
    posts += [vote("Oso", "Deadline Extension")]
    posts += [host("AGar - 3 (Oso, Sundy, Parama)", "Deadline Extension - 1 (Oso)")]
    posts += [vote("Cecily", "AGar")]
    result = count_votes(posts, ROSTER, RULES, OVER)
    assert result.decision.lynched == "AGar" and result.decision.ended == "hammer"
    agar = next(w for w in result.wagons if w.target == "AGar")
    assert [v.name for v in agar.voters] == ["Oso", "Sundy", "Parama", "Cecily"]
    assert any("apart from the lynch: his vote stands" in n for n in result.notes)


def test_a_hosts_joke_wagon_is_no_vote_for_anybody() -> None:
    posts = [vote("Oso", "No lolwagons"), vote("Sundy", "No lolwagons")]
    posts += [host("No Lolwagons - Oso, Sundy [L-2]", "Not Voting (5) - AGar, Parama")]
    result = count_votes(posts, ROSTER, RULES, OVER)
    assert not result.pending and not result.wagons
    assert result.decision.outcome == "no_lynch"


def test_a_host_count_still_showing_the_old_vote_decides_nothing() -> None:
    posts = [vote("Oso", "Parama"), vote("Cecily", "Parama"), vote("Cecily", "CP")]
    posts.append(host("Parama (2) - Oso, Cecily"))  # not caught up: it shows her old vote
    result = count_votes(posts, ROSTER, RULES, OVER)
    assert "Parama" in result.queue[0].candidates  # "CP" could be read as Parama...
    assert [q.written for q in result.queue] == ["CP"] and result.pending == ("Cecily",)
    assert not any("host" in n for n in result.notes)  # ...but this count does not say so


def test_a_nickname_the_host_lists_as_not_voting_is_no_vote_only_if_he_saw_it() -> None:
    stale = [vote("Cecily", "CP"), host("Not Voting (7) - Cecily, Oso")]
    assert count_votes(stale, ROSTER, RULES, OVER).pending == ("Cecily",)
    moved = [vote("Cecily", "Oso"), vote("Cecily", "CP"), host("Not Voting (7) - Cecily, Oso")]
    result = count_votes(moved, ROSTER, RULES, OVER)
    assert not result.pending and not result.wagons


def test_a_count_posted_after_the_voter_voted_again_decides_nothing() -> None:
    posts = [vote("Cecily", "CP"), vote("Cecily", "Oso")]
    posts.append(host("Oso (1) - Cecily", "crazypianist1116 (0)"))
    result = count_votes(posts, ROSTER, RULES, OVER)
    assert not any("host" in n for n in result.notes)
    assert [q.written for q in result.queue] == ["CP"]


def test_a_decision_the_hosts_last_count_contradicts_goes_to_the_gm() -> None:
    posts = [vote(v, "Akira") for v in ("Oso", "Sundy", "Parama")]
    posts += [vote(v, "Cecily") for v in ("AGar", "Akira")]
    posts.append(host("Akira (4) - Oso, Sundy, Parama, AGar", "Cecily (1) - Akira"))
    result = count_votes(posts, ROSTER, RULES, OVER)
    assert result.decision.outcome == "undecided" and result.decision.waits_for == "gm"
    assert "shows Akira with 4 votes" in result.decision.reason


def test_a_host_count_with_the_same_voters_under_another_label_is_his_slip() -> None:
    posts = [vote(v, "Akira") for v in ("Oso", "Sundy", "Parama", "AGar")]
    posts.append(host("Cecily (4) - Oso, Sundy, Parama, AGar"))
    result = count_votes(posts, ROSTER, RULES, OVER)
    assert result.decision.lynched == "Akira"


def test_the_gms_corrections_settle_a_day_an_older_host_count_contradicts() -> None:
    posts = [vote(v, "Akira") for v in ("Oso", "Sundy", "Parama", "AGar")]
    posts.append(host("Akira (4) - Oso, Sundy, Parama, AGar"))  # the hammer, as counted then
    void = DayEvent(DayEventKind.CORRECT, posts[3].id)  # the GM: AGar's vote did not count
    result = count_votes(posts, ROSTER, RULES, DaySetup(ended=True, events=(void,)))
    assert result.decision.outcome == "no_lynch"  # Akira 3 of 4: his count is not re-read


@pytest.mark.parametrize(
    "last",
    ["Cecily (LYNCH)", "Cecily -- LYNCH", "Cecily - LYNCHED", "Cecily[/color]", "Cecily (HAMMER!)"],
)
def test_a_hosts_count_marking_the_hammer_or_left_bbcode_still_lists_the_voter(last: str) -> None:
    posts = [vote("Oso", "crazypianist1116"), vote("Sundy", "crazypianist1116")]
    posts += [vote("AGar", "crazypianist1116"), vote("Cecily", "CP")]
    alone = count_votes(posts, ROSTER, RULES, OVER)
    assert alone.decision.outcome == "undecided"  # "CP" could be the hammer: the GM decides
    posts.append(host(f"crazypianist1116 (4) - Oso, Sundy, AGar, {last}", "Not voting (3) - x"))
    result = count_votes(posts, ROSTER, RULES, OVER)
    assert result.decision.lynched == "crazypianist1116"
    assert any("counts Cecily's 'CP' for crazypianist1116" in n for n in result.notes)


def test_a_name_in_brackets_is_no_bbcode() -> None:
    roster = roster_from_data({"players": ["[winger]", "Oso", "Sundy"], "hosts": ["Enigma"]})
    index = NameIndex(roster.name_entries(), acronyms=True)
    lines = read_count("Votecount<br>[winger] (2) - Oso, Sundy[/color]<br>", index)
    assert lines == (CountLine("[winger]", 2, ("Oso", "Sundy")),)
