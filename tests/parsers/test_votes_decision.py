"""The Day's decision: the hammer, the deadline rules, doubtful votes; names and syntax a
human counter reads; replacements."""

from __future__ import annotations

from dataclasses import replace
from itertools import count

import pytest

from parsers.names import MatchKind, NameEntry, NameIndex, Resolved
from parsers.roster import Roster, Slot, roster_from_data
from parsers.votes import (
    DaySetup,
    EventStatus,
    PostInput,
    VoteRules,
    count_votes,
    rules_from_data,
)

_ids = count(1)
MAJORITY = {"syntax": ["bold_vote", "vote_tag"], "rule": "majority"}
FIVE = roster_from_data({"players": ["Ann", "Bob", "Cy", "Dee", "Eve"], "hosts": ["Mod"]})
OVER = DaySetup(ended=True)


def post(author: str, html: str) -> PostInput:
    number = next(_ids)
    return PostInput(str(number), author, html, number=number)


def votes(pairs: list[tuple[str, str]]) -> list[PostInput]:
    return [post(voter, f"<b>Vote: {target}</b>") for voter, target in pairs]


def rules(**extra: object) -> VoteRules:
    return rules_from_data({**MAJORITY, **extra})


# --- the hammer -------------------------------------------------------------------------


def test_the_day_ends_at_the_post_that_reaches_a_majority() -> None:
    posts = votes([("Ann", "Cy"), ("Bob", "Cy"), ("Dee", "Cy")])
    posts += [post("Bob", "<b>Unvote</b>"), post("Eve", "<b>Vote: Ann</b>")]
    result = count_votes(posts, FIVE, rules())
    assert result.decision.outcome == "lynch" and result.decision.lynched == "Cy"
    assert result.decision.ended == "hammer" and result.decision.hammer_post == posts[2].number
    late = [e for e in result.events if e.post_id in (posts[3].id, posts[4].id)]
    assert [e.status for e in late] == [EventStatus.IGNORED, EventStatus.IGNORED]
    assert "after the Day ended" in late[0].reason


def test_without_majority_ends_day_the_deadline_counts_later_votes() -> None:
    posts = votes([("Ann", "Cy"), ("Bob", "Cy"), ("Dee", "Cy"), ("Bob", "Ann")])
    result = count_votes(posts, FIVE, rules(majority_ends_day=False), OVER)
    assert result.decision.outcome == "no_lynch"  # Cy 2 of 3 at the deadline, majority rule


def test_no_lynch_threshold_is_a_game_option() -> None:
    four = roster_from_data({"players": ["Ann", "Bob", "Cy", "Dee"]})
    posts = votes([("Ann", "No Lynch"), ("Bob", "No Lynch")])
    assert count_votes(posts, four, rules()).decision.outcome == "undecided"  # 2 of 3
    half = count_votes(posts, four, rules(no_lynch_votes="half"))
    assert half.decision.outcome == "no_lynch" and half.decision.ended == "hammer"


# --- the deadline ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("at_deadline", "outcome", "lynched"),
    [
        ("plurality", "lynch", "Cy"),
        ("no_lynch", "no_lynch", None),
        ("moderator", "undecided", None),
        ("unknown", "undecided", None),
    ],
)
def test_the_deadline_rule_decides_a_day_without_a_majority(
    at_deadline: str, outcome: str, lynched: str | None
) -> None:
    posts = votes([("Ann", "Cy"), ("Bob", "Cy"), ("Cy", "Ann")])
    result = count_votes(posts, FIVE, rules(at_deadline=at_deadline), OVER)
    assert (result.decision.outcome, result.decision.lynched) == (outcome, lynched)
    assert result.decision.ended == "deadline"


def test_the_moderators_pick_decides_once_recorded() -> None:
    posts = votes([("Ann", "Cy"), ("Bob", "Dee")])
    day = replace(OVER, gm_choice="Dee")
    result = count_votes(posts, FIVE, rules(at_deadline="moderator"), day)
    assert result.decision.lynched == "Dee"


def test_an_open_day_is_never_no_lynch() -> None:
    posts = votes([("Ann", "Cy")])
    result = count_votes(posts, FIVE, rules())
    assert result.decision.outcome == "undecided" and not result.decision.no_lynch
    assert "The Day is open" in result.decision.reason and "no lynch" in result.decision.reason


def test_a_vote_after_the_deadline_shows_the_day_is_over() -> None:
    from datetime import UTC, datetime, timedelta

    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    posts = [
        replace(post("Ann", "<b>Vote: Cy</b>"), time=t0),
        replace(post("Bob", "<b>Vote: Cy</b>"), time=t0 + timedelta(hours=2)),
    ]
    day = DaySetup(deadline=t0 + timedelta(hours=1))
    result = count_votes(posts, FIVE, rules(at_deadline="plurality"), day)
    assert result.decision.lynched == "Cy" and result.decision.ended == "deadline"


# --- doubtful votes -----------------------------------------------------------------------


def test_a_queued_vote_that_could_have_hammered_first_makes_it_undecided() -> None:
    posts = votes([("Ann", "Cy"), ("Bob", "Cy"), ("Eve", "Zorro"), ("Dee", "Ann")])
    posts += votes([("Cy", "Ann"), ("Bob", "Ann")])  # Ann 3: the hammer
    result = count_votes(posts, FIVE, rules())
    # Eve's "Zorro" waits for the GM: had it been Cy, Cy had 3 before Ann did.
    assert result.decision.outcome == "undecided" and result.decision.ended == "hammer"
    assert "Cy" in result.decision.reason


def test_a_queued_vote_that_cannot_change_the_result_is_left_pending() -> None:
    posts = votes([("Eve", "Zorro"), ("Ann", "Cy"), ("Bob", "Cy"), ("Dee", "Cy")])
    result = count_votes(posts, FIVE, rules())
    assert result.decision.lynched == "Cy" and result.pending == ("Eve",)


def test_an_outsiders_vote_is_queued_and_holds_a_close_deadline() -> None:
    posts = votes([("Ann", "Cy"), ("Bob", "Dee"), ("Stranger", "Dee")])
    result = count_votes(posts, FIVE, rules(at_deadline="plurality", tie="no_lynch"), OVER)
    assert result.decision.outcome == "undecided"
    assert "Stranger" in result.decision.reason
    assert [q.kind for q in result.queue] == ["unknown_voter"]


# --- names and syntax a human counter reads ---------------------------------------------


@pytest.mark.parametrize(
    ("written", "slot", "how"),
    [
        ("Wickid", "Wickedestjr", MatchKind.PREFIX_TYPO),
        ("pac", "evilpacman18", MatchKind.SUBSTRING),
        ("K", "Kthxbye", MatchKind.INITIAL),
    ],
)
def test_names_a_human_counter_reads(written: str, slot: str, how: MatchKind) -> None:
    names = ["Wickedestjr", "evilpacman18", "Kthxbye", "RedCoyote", "theaceofspades"]
    index = NameIndex([NameEntry(n, n) for n in names], acronyms=True)
    assert index.resolve(written) == Resolved(slot, how, slot)


def test_an_initial_two_names_share_is_not_read() -> None:
    index = NameIndex([NameEntry(n, n) for n in ["Kthxbye", "Kirby"]], acronyms=True)
    assert not isinstance(index.resolve("K"), Resolved)


def test_a_vote_inside_a_bold_sentence_counts() -> None:
    posts = [post("Ann", "<b>fingers crossed, vote Cy</b>"), post("Bob", "<b>Well. Vote: Cy</b>")]
    posts.append(post("Dee", "<b>my failure to vote on Cy</b>"))
    result = count_votes(posts, FIVE, rules(majority_ends_day=False))
    assert {w.target: [v.name for v in w.voters] for w in result.wagons} == {"Cy": ["Ann", "Bob"]}


def test_an_empty_vote_tag_is_not_an_unvote() -> None:
    posts = [*votes([("Ann", "Cy")]), post("Ann", '<span class="bbvote">VOTE: </span>')]
    result = count_votes(posts, FIVE, rules())
    assert [v.name for v in result.wagons[0].voters] == ["Ann"]


# --- replacements -------------------------------------------------------------------------


def test_a_replacement_inherits_the_vote_unless_the_game_says_not() -> None:
    roster = Roster((Slot("New", previous=("Old",)), Slot("Bob"), Slot("Cy")), hosts=("Mod",))
    posts = [post("Old", "<b>Vote: Bob</b>"), post("New", "I am in for Old.")]
    kept = count_votes(posts, roster, rules(majority_ends_day=False))
    assert [w.target for w in kept.wagons] == ["Bob"]
    gone = count_votes(
        posts, roster, rules(majority_ends_day=False, replacement_inherits_vote=False)
    )
    assert gone.wagons == () and "does not carry over" in gone.notes[0]


# --- a vote's author is the forum account ------------------------------------------------


@pytest.mark.parametrize("impostor", ["\u0410nn", "Ann\u200b", "\u202eZed"])
def test_a_look_alike_account_never_votes_as_the_player(impostor: str) -> None:
    roster = roster_from_data({"players": ["Ann", "Zed", "Bob", "Cy"], "hosts": ["Mod"]})
    posts = votes([("Ann", "Bob"), ("Zed", "Bob"), (impostor, "Cy")])
    result = count_votes(posts, roster, rules(majority_ends_day=False))
    assert {w.target: [v.name for v in w.voters] for w in result.wagons} == {"Bob": ["Ann", "Zed"]}
    assert [q.kind for q in result.queue] == ["lookalike_account"]
    assert result.events[-1].status is EventStatus.IGNORED


def test_the_account_id_decides_who_votes() -> None:
    roster = Roster((Slot("Ann", user_id="7"), Slot("Bob", user_id="8"), Slot("Cy")), ("Mod",))
    real = replace(post("Ann", "<b>Vote: Bob</b>"), author_id="7")
    fake = replace(post("Ann", "<b>Vote: Cy</b>"), author_id="99")  # renamed to look like Ann
    result = count_votes([real, fake], roster, rules(majority_ends_day=False))
    assert [(w.target, [v.name for v in w.voters]) for w in result.wagons] == [("Bob", ["Ann"])]
    assert [q.kind for q in result.queue] == ["lookalike_account"]


def test_a_look_alike_of_the_host_cannot_post_a_checkpoint() -> None:
    roster = roster_from_data({"players": ["Ann", "Bob", "Cy"], "hosts": ["Mod"]})
    count_post = "<b>Vote count</b><br>Cy (2): Ann, Bob"
    posts = [*votes([("Ann", "Bob")]), post("M\u043ed", count_post)]  # Cyrillic о
    result = count_votes(posts, roster, rules(majority_ends_day=False, host_counts=True))
    assert [(w.target, [v.name for v in w.voters]) for w in result.wagons] == [("Bob", ["Ann"])]
    real = count_votes([*posts[:1], post("Mod", count_post)], roster,
                       rules(majority_ends_day=False, host_counts=True))  # fmt: skip
    assert [w.target for w in real.wagons] == ["Cy"]


def test_an_ambiguous_vote_can_only_be_on_its_candidates() -> None:
    roster = roster_from_data({"players": ["Ann", "Anna", "Bob", "Cy", "Dee"]})
    # Bob's "An" is Ann or Anna: it could never have brought Cy to the majority first.
    posts = votes([("Ann", "Cy"), ("Dee", "Cy"), ("Bob", "An")])
    posts += votes([("Cy", "Dee"), ("Ann", "Dee"), ("Anna", "Dee")])
    result = count_votes(posts, roster, rules())
    assert result.decision.lynched == "Dee" and result.pending == ("Bob",)
    unknown = [*votes([("Ann", "Cy"), ("Dee", "Cy"), ("Bob", "Zorro")]), *posts[3:]]
    assert count_votes(unknown, roster, rules()).decision.outcome == "undecided"


def test_a_vote_in_a_post_with_a_broken_quote_waits_for_the_gm() -> None:
    broken = "<b>unvote, vote: Cy</b> that's what you said[/quote] and I disagree"
    posts = [*votes([("Ann", "Bob")]), post("Ann", broken)]
    result = count_votes(posts, FIVE, rules(majority_ends_day=False))
    assert result.queue[-1].kind == "broken_quote" and result.pending == ("Ann",)
    assert result.wagons == ()


@pytest.mark.parametrize(
    ("html", "counted"),
    [
        # After a stray [/quote], the vote is the author's own, as a reader sees it.
        ("you said it[/quote] and I disagree. <b>vote: Cy</b>", True),
        # Between an unrendered [quote] and its close, it may be the quoted player's.
        ("[quote=Bob]so <b>vote: Cy</b>[/quote] lol no", False),
        # An unrendered [quote] that never closes covers the rest of the post.
        ("[quote=Bob]I think <b>vote: Cy</b> is right", False),
        # A stray close after the vote: the quote may have begun before it.
        ("<b>vote: Cy</b> is what he wrote[/quote] no way", False),
        # The quoted vote before the stray close does not count; the author's own after it
        # does (t17173 post 101: "Vote: Kanyeknowsbest ...[/quote] ... unvote, vote: X").
        ("<b>Vote: Dee</b> obv wagon[/quote] no wagon at all. <b>unvote, vote: Cy</b>", True),
    ],
)
def test_only_a_vote_an_unrendered_quote_may_cover_waits(html: str, counted: bool) -> None:
    result = count_votes([post("Ann", html)], FIVE, rules(majority_ends_day=False))
    assert (result.queue == ()) is counted
    assert [w.target for w in result.wagons] == (["Cy"] if counted else [])
