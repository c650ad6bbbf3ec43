"""The seeds' voting rules: weights and modifiers, tie rules, PM votes, forbidden votes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from itertools import count

import pytest

from parsers.roster import Roster, Slot, VoteModifiers, roster_from_data
from parsers.votes import (
    NO_LYNCH,
    CountResult,
    DayEvent,
    DayEventKind,
    DaySetup,
    EventStatus,
    PostInput,
    Source,
    VoteRules,
    day_from_data,
    rules_for,
    rules_from_data,
)
from parsers.votes import count_votes as count_open_day
from resolver.ruleset import load_ruleset

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def count_votes(
    posts: Sequence[PostInput], roster: Roster, rules: VoteRules, day: DaySetup | None = None
) -> CountResult:
    """The count of a Day that is over (its deadline passed): the deadline rule decides."""
    return count_open_day(posts, roster, rules, replace(day or DaySetup(), ended=True))


_ids = count(1)


def post(author: str, html: str, minutes: int = 0, **kw: object) -> PostInput:
    number = next(_ids)
    return PostInput(
        str(number),
        author,
        html,
        number=number,
        time=T0 + timedelta(minutes=minutes or number),
        **kw,
    )  # type: ignore[arg-type]


def pm(author: str, text: str, minutes: int, recipients: tuple[str, ...] = ("GM",)) -> PostInput:
    return post(author, text, minutes, source=Source.PM, recipients=recipients)


def votes(pairs: list[tuple[str, str]], syntax: str = "$") -> list[PostInput]:
    return [post(voter, f"<b>{syntax}{target}</b>") for voter, target in pairs]


def wagons(result: object) -> dict[str, int]:
    return {w.target: w.total for w in result.wagons}  # type: ignore[attr-defined]


# --- seed 001, Sabotage: the two worked examples ------------------------------------------

SABOTAGE_VOTES = (
    [(f"v{i}", "Yurikochan") for i in range(3)]
    + [(f"v{i}", "PhoenixTears") for i in range(3, 6)]
    + [("v6", "xpon"), ("v7", "pofa"), ("v8", "Akonyl")]
)


def sabotage_roster(**modifiers: VoteModifiers) -> Roster:
    names = ["Yurikochan", "PhoenixTears", "xpon", "pofa", "Akonyl"] + [f"v{i}" for i in range(9)]
    return Roster(tuple(Slot(n, vote=modifiers.get(n, VoteModifiers())) for n in names), ("GM",))


def test_sabotage_example_1_breaks_the_tie() -> None:
    roster = sabotage_roster(Yurikochan=VoteModifiers(tie_bonus=1))
    result = count_votes(
        votes(SABOTAGE_VOTES),
        roster,
        rules_for(load_ruleset("dctp"), {"channel": "thread", "syntax": ["dollar_bold"]}),
    )
    assert wagons(result)["Yurikochan"] == 4
    assert result.wagons[0].raw == 3
    assert result.decision.lynched == "Yurikochan"
    assert "Sabotage" in result.decision.reason


def test_sabotage_example_2_accompany_cancels_it() -> None:
    roster = sabotage_roster(Yurikochan=VoteModifiers(tie_bonus=1, received=-1))
    result = count_votes(
        votes(SABOTAGE_VOTES),
        roster,
        rules_for(load_ruleset("dctp"), {"channel": "thread", "syntax": ["dollar_bold"]}),
    )
    assert wagons(result)["Yurikochan"] == 3
    assert result.decision.lynched is None
    assert result.decision.tied == ("Yurikochan", "PhoenixTears") or set(result.decision.tied) == {
        "Yurikochan",
        "PhoenixTears",
    }


def test_sabotage_fails_without_a_tie() -> None:
    pairs = [*SABOTAGE_VOTES[:-1], ("v8", "Yurikochan")]
    roster = sabotage_roster(PhoenixTears=VoteModifiers(tie_bonus=1))
    result = count_votes(
        votes(pairs),
        roster,
        rules_for(load_ruleset("dctp"), {"channel": "thread", "syntax": ["dollar_bold"]}),
    )
    assert wagons(result) == {"Yurikochan": 4, "PhoenixTears": 3, "xpon": 1, "pofa": 1}
    assert result.decision.lynched == "Yurikochan"


# --- weights ------------------------------------------------------------------------------


def test_revealed_mayor_counts_three_in_failheap() -> None:
    # The ruleset's own status (`revealed`, vote_weight 3): the resolver weighs it the same.
    roster = roster_from_data(
        {"players": [{"name": "May", "statuses": ["revealed"]}, "Ann", "Bob", "Cy"]}
    )
    result = count_votes(
        votes([("May", "Ann"), ("Bob", "Cy"), ("Ann", "Cy")]),
        roster,
        rules_for(load_ruleset("failheap")),
    )
    assert wagons(result) == {"Ann": 3, "Cy": 2}
    assert result.decision.lynched == "Ann"
    assert result.wagons[0].voters[0].weight == 3


RU_BANSHEE = {
    "players": [
        {"name": "Аня", "statuses": ["double_vote", "banshee"]},
        {"name": "Боря", "statuses": ["lost_vote"]},
        "Вика",
        "Гена",
    ]
}


def test_double_vote_and_lost_vote_in_ru_mafia() -> None:
    # The ruleset's statuses: a used diploma gives `double_vote` (vote_weight 2).
    roster = roster_from_data(
        {
            "players": [
                {"name": "Аня", "statuses": ["double_vote"]},
                {"name": "Боря", "statuses": ["lost_vote"]},
                "Вика",
                "Гена",
            ]
        }
    )
    posts = [
        post("Аня", '<span style="color:red">Вика</span>'),
        post("Боря", '<span style="color:#FF0000">Гена</span>'),
        post("Гена", '<span style="color:red">Вика</span>'),
    ]
    result = count_votes(posts, roster, rules_for(load_ruleset("ru_mafia")))
    assert wagons(result) == {"Вика": 3}
    banshee = rules_for(load_ruleset("ru_mafia"), {"status_weights": {"banshee": "+1"}})
    weighed = count_votes(posts, roster_from_data({**RU_BANSHEE}), banshee)
    assert wagons(weighed) == {"Вика": 4}
    assert [e.status for e in result.events][1] is EventStatus.IGNORED


def test_kujou_extra_vote_and_explicit_weight() -> None:
    roster = roster_from_data(
        {
            "players": [
                {"name": "Kujou", "vote": {"extra": 1}},
                {"name": "Big", "vote": {"weight": 2}},
                "A",
                "B",
            ]
        }
    )
    result = count_votes(
        votes([("Kujou", "A"), ("Big", "B"), ("A", "B")]),
        roster,
        rules_for(load_ruleset("failheap")),
    )
    assert wagons(result) == {"A": 2, "B": 3}
    assert "extra vote of Kujou" in result.wagons[1].notes[0]


# --- tie and lynch rules ------------------------------------------------------------------


def test_failheap_tie_lynches_nobody() -> None:
    roster = roster_from_data({"players": ["A", "B", "C", "D"]})
    result = count_votes(
        votes([("A", "B"), ("B", "A")]), roster, rules_for(load_ruleset("failheap"))
    )
    assert result.decision.lynched is None and result.decision.no_lynch
    assert set(result.decision.tied) == {"A", "B"}


def test_durarara_mayor_decides_a_tie() -> None:
    data = {"players": [{"name": "Maire", "vote": {"mayor": True}}, "A", "B"]}
    roster = roster_from_data(data)
    rules = rules_for(
        load_ruleset("durarara"),
        {
            "channel": "thread",
            "syntax": ["bold_vote"],
            "requires_participation": False,
            "no_vote_counts_as_self": False,
        },
    )
    posts = [post("Maire", "<b>Vote: A</b>"), post("A", "<b>Vote: B</b>")]
    pending = count_votes(posts, roster, rules)
    assert pending.decision.pending and set(pending.decision.tied) == {"A", "B"}
    assert pending.queue[-1].kind == "tie_break" and pending.queue[-1].voter == "Maire"
    chosen = count_votes(posts, roster, rules, DaySetup(mayor_choice="B"))
    assert chosen.decision.lynched == "B"


def test_durarara_no_vote_counts_against_oneself_and_needs_participation() -> None:
    roster = roster_from_data({"players": ["Izaya", "Celty", "Shinra", "Tom"]})
    posts = [
        post("Izaya", "Je joue !"),
        pm("Izaya", "Vote : Celty", 10),
        pm("Shinra", "vote Celty", 11),  # Shinra never posted in the thread: does not count
        post("Celty", "..."),
    ]
    result = count_votes(posts, roster, rules_for(load_ruleset("durarara")))
    # Izaya -> Celty; Shinra's vote is void and, like Celty's and Tom's absence, counts
    # against himself.
    assert wagons(result) == {"Celty": 2, "Shinra": 1, "Tom": 1}
    assert result.decision.lynched == "Celty"


def test_majority_rule_needs_a_majority() -> None:
    roster = roster_from_data({"players": ["A", "B", "C", "D", "E"]})
    rules = rules_from_data({"syntax": ["bold_vote"], "rule": "majority"})
    result = count_votes(votes([("A", "B"), ("C", "B")], "Vote: "), roster, rules)
    assert result.decision.lynched is None and result.decision.majority == 3
    hammer = count_votes(votes([("A", "B"), ("C", "B"), ("D", "B")], "Vote: "), roster, rules)
    assert hammer.decision.lynched == "B"


def test_first_to_reach_breaks_ties() -> None:
    roster = roster_from_data({"players": ["A", "B", "C", "D"]})
    rules = rules_from_data({"syntax": ["bold_vote"], "tie": "first_to_reach"})
    result = count_votes(votes([("A", "B"), ("B", "A")], "Vote: "), roster, rules)
    assert result.decision.lynched == "B"


def test_no_lynch_votes() -> None:
    roster = roster_from_data({"players": ["A", "B", "C"]})
    rules = rules_from_data({"syntax": ["bold_vote"]})
    result = count_votes(
        votes([("A", "No Lynch"), ("B", "no elimination"), ("C", "A")], "Vote: "), roster, rules
    )
    # Two of three is a majority: the Day ends there and C's later vote does not count.
    assert wagons(result) == {NO_LYNCH: 2}
    assert result.decision.no_lynch and result.decision.lynched is None
    assert result.decision.ended == "hammer" and result.events[-1].status is EventStatus.IGNORED


# --- PM votes (seeds 000 and 003) ---------------------------------------------------------


def test_dctp_pm_votes_latest_before_deadline_multi_recipient_ignored() -> None:
    roster = roster_from_data(
        {
            "players": ["Conan", "Ran", "Kogoro", {"name": "Heiji", "statuses": ["abroad"]}],
            "hosts": ["GM"],
        }
    )
    deadline = T0 + timedelta(hours=1)
    posts = [
        post("Conan", "<b>Vote: Kogoro</b>"),  # the thread does not count in dctp
        pm("Conan", "I vote Ran", 5),
        pm("Conan", "vote: Kogoro", 20),  # latest before the deadline: counts
        pm("Ran", "vote Conan", 21, recipients=("GM", "Kogoro")),  # multi-recipient
        pm("Kogoro", "vote Ran", 70),  # after the deadline
        pm("Heiji", "vote Ran", 22),  # abroad: no vote
        pm("Ran", "vote Heiji", 23),  # abroad: cannot be voted
    ]
    result = count_votes(
        posts, roster, rules_for(load_ruleset("dctp")), DaySetup(deadline=deadline)
    )
    assert wagons(result) == {"Kogoro": 1}
    reasons = {e.reason for e in result.events if e.status is EventStatus.IGNORED}
    assert "posted after the deadline" in reasons
    assert "PM sent to several recipients: the rules ignore it" in reasons
    assert "Heiji cannot vote (abroad)" in reasons
    assert "Heiji cannot be voted (abroad)" in reasons


# --- seed 004: colours, forbidden votes ---------------------------------------------------


RU = {"players": ["Аня", "Боря", "Вика", "Гена"], "hosts": ["Ведущий"]}


def test_ru_mafia_red_is_a_vote_blue_and_other_colours_are_not() -> None:
    posts = [
        post(
            "Аня",
            '<span style="color:blue">Вика</span> <span style="color:green">Гена</span>'
            ' <span style="color:#ff0000">Боря</span>',
        )
    ]
    result = count_votes(posts, roster_from_data(RU), rules_for(load_ruleset("ru_mafia")))
    assert wagons(result) == {"Боря": 1}


def test_ru_mafia_self_vote_counts_as_no_vote() -> None:
    posts = [
        post("Аня", '<font color="red">Боря</font>'),
        post("Аня", '<font color="red">Аня</font>'),
    ]
    result = count_votes(
        posts, roster_from_data(RU), rules_for(load_ruleset("ru_mafia"), {"revote": "allow"})
    )
    assert wagons(result) == {}
    assert "Аня" in result.not_voting


def test_ru_mafia_second_vote_voids_the_vote() -> None:
    posts = [
        post("Аня", '<font color="red">Боря</font>'),
        post("Аня", '<font color="red">Вика</font>'),
    ]
    result = count_votes(posts, roster_from_data(RU), rules_for(load_ruleset("ru_mafia")))
    assert wagons(result) == {}
    assert result.events[-1].status is EventStatus.IGNORED


def test_ru_mafia_edited_vote_is_void_and_flagged_with_both_versions() -> None:
    posts = [
        post("Аня", '<font color="red">Боря</font>', previous_html='<font color="red">Вика</font>')
    ]
    result = count_votes(posts, roster_from_data(RU), rules_for(load_ruleset("ru_mafia")))
    assert wagons(result) == {}
    assert result.edits[0].before == "vote Вика" and result.edits[0].after == "vote Боря"
    assert result.queue[0].kind == "edited_vote" and result.queue[0].versions == (
        "vote Вика",
        "vote Боря",
    )


def test_edit_that_changed_the_vote_is_flagged_when_edits_count() -> None:
    roster = roster_from_data({"players": ["A", "B", "C"]})
    posts = [
        post("A", "<b>$C</b>", previous_html="<b>$B</b>"),
        post("B", "<b>$C</b> ok", previous_html="<b>$C</b>"),
    ]
    result = count_votes(posts, roster, rules_for(load_ruleset("failheap")))
    assert wagons(result) == {"C": 2}
    assert [(e.post_id, e.before, e.after) for e in result.edits] == [
        (posts[0].id, "vote B", "vote C")
    ]


# --- the day: deaths, checkpoints, corrections, replacements, hosts -----------------------


def test_mid_day_death_removes_votes_by_and_on_the_player() -> None:
    roster = roster_from_data({"players": ["A", "B", "C", "D"]})
    posts = votes([("A", "B"), ("B", "C"), ("D", "C"), ("C", "A")])
    killed = DaySetup(events=(DayEvent(DayEventKind.DEATH, posts[1].number or 0, player="C"),))
    result = count_votes(posts, roster, rules_for(load_ruleset("failheap")), killed)
    # After post 2, C dies: B's vote on C goes, D's later vote on C and C's vote are refused.
    assert wagons(result) == {"B": 1}
    assert "C" not in result.alive


def test_gm_checkpoint_and_corrections() -> None:
    roster = roster_from_data({"players": ["A", "B", "C"]})
    posts = votes([("A", "B"), ("B", "C"), ("C", "Mystery")])
    data = {
        "events": [{"post": posts[1].number, "kind": "checkpoint", "votes": {"A": "C", "B": None}}],
        "corrections": [{"post": posts[2].number, "target": "A"}],
    }
    result = count_votes(posts, roster, rules_for(load_ruleset("failheap")), day_from_data(data))
    assert {w.target: [v.name for v in w.voters] for w in result.wagons} == {"C": ["A"], "A": ["C"]}
    assert result.queue == ()


def test_replacement_inherits_the_slot() -> None:
    roster = roster_from_data({"players": [{"name": "New", "replaces": ["Old"]}, "B", "C"]})
    result = count_votes(
        votes([("Old", "B"), ("C", "Old")]), roster, rules_for(load_ruleset("failheap"))
    )
    assert {w.target: [v.name for v in w.voters] for w in result.wagons} == {
        "B": ["New"],
        "New": ["C"],
    }


def test_hosts_never_vote_and_outsiders_go_to_the_gm() -> None:
    roster = roster_from_data({"players": ["A", "B"], "hosts": ["GM"]})
    result = count_votes(
        votes([("GM", "A"), ("Lurker", "A")]), roster, rules_for(load_ruleset("failheap"))
    )
    assert wagons(result) == {}
    assert [e.status for e in result.events] == [EventStatus.QUEUED]  # nothing from the GM
    assert result.queue[0].kind == "unknown_voter" and result.queue[0].voter == "Lurker"


@pytest.mark.parametrize(
    ("written", "kind", "candidates"),
    [("An", "ambiguous_name", ("Ann", "Anna")), ("Zorro", "unresolved_name", ())],
)
def test_doubtful_names_go_to_the_queue(written: str, kind: str, candidates: tuple) -> None:
    roster = roster_from_data({"players": ["Ann", "Anna", "Bob"]})
    result = count_votes(
        votes([("Bob", "Ann"), ("Bob", written)]), roster, rules_for(load_ruleset("failheap"))
    )
    assert result.queue[0].kind == kind and result.queue[0].candidates == candidates
    assert result.pending == ("Bob",) and wagons(result) == {}


def test_votes_on_dead_players_are_ignored() -> None:
    roster = roster_from_data({"players": ["A", "B", {"name": "C", "alive": False}]})
    result = count_votes(
        votes([("A", "C"), ("C", "A")]), roster, rules_for(load_ruleset("failheap"))
    )
    assert wagons(result) == {}
    assert [e.reason for e in result.events] == ["C is not alive", "C is dead"]


def test_host_counts_are_checkpoints_when_the_ruleset_says_so() -> None:
    roster = roster_from_data({"players": ["Ann", "Bob", "Cy", "Dora"], "hosts": ["GM"]})
    rules = rules_from_data({"syntax": ["bold_vote"], "host_counts": True})
    posts = [
        post("Ann", "<b>Vote: Bob</b>"),
        post("Cy", "<b>Vote: Bob</b>"),
        # The GM corrects: he counts Cy on Dora (say Cy's vote was a miscount), Ann on Bob.
        post(
            "GM",
            "<b>Vote count 1.1</b><br><b>Bob (1)</b>: Ann<br><b>Dora (1)</b>: Cy"
            ", <s>Bob</s><br>Not voting (2): Bob, Dora",
        ),
        post("Dora", "<b>Vote: Bob</b>"),
    ]
    result = count_votes(posts, roster, rules)
    assert {w.target: [v.name for v in w.voters] for w in result.wagons} == {
        "Bob": ["Ann", "Dora"],
        "Dora": ["Cy"],
    }
    assert result.wagons[1].voters[0].post_id == posts[2].id
    off = count_votes(posts, roster, rules_from_data({"syntax": ["bold_vote"]}))
    assert wagons(off) == {"Bob": 3}


def test_a_host_count_that_does_not_add_up_is_not_a_checkpoint() -> None:
    roster = roster_from_data({"players": ["Ann", "Bob", "Cy"], "hosts": ["GM"]})
    rules = rules_from_data({"syntax": ["bold_vote"], "host_counts": True})
    posts = [
        post("Ann", "<b>Vote: Bob</b>"),
        post("GM", "<b>Vote count</b><br><b>Bob (2)</b>: Ann"),  # says 2, lists 1
        post("GM", "<b>Vote count</b><br><b>Bob (1)</b>: Annabelle"),  # not a player
    ]
    result = count_votes(posts, roster, rules)
    assert wagons(result) == {"Bob": 1}
    assert sum("not read exactly" in note for note in result.notes) == 2


def test_a_decision_waits_when_queued_votes_could_change_it() -> None:
    roster = roster_from_data({"players": ["Ann", "Anna", "Bob", "Cy", "Dee"]})
    close = count_votes(
        votes([("Bob", "Cy"), ("Dee", "Cy"), ("Ann", "Bob"), ("Cy", "An")]),
        roster,
        rules_for(load_ruleset("failheap")),
    )
    assert close.decision.lynched is None and close.decision.pending
    assert "wait for the GM (Cy)" in close.decision.reason
    clear = count_votes(
        votes([("Bob", "Cy"), ("Dee", "Cy"), ("Anna", "Cy"), ("Cy", "An")]),
        roster,
        rules_for(load_ruleset("failheap")),
    )
    assert clear.decision.lynched == "Cy" and not clear.decision.pending


def test_a_vote_on_the_host_is_ignored_not_queued() -> None:
    roster = roster_from_data({"players": ["Ann", "Bob"], "hosts": ["Nikanor"]})
    result = count_votes(
        votes([("Ann", "Bob"), ("Ann", "nikanor")], "Vote: "),
        roster,
        rules_from_data({"syntax": ["bold_vote"]}),
    )
    assert wagons(result) == {"Bob": 1}
    assert result.queue == ()
    assert result.events[-1].reason == "Nikanor is the host, not a player"


def test_sabotage_and_voice_of_accusation_stack() -> None:
    # 001: "Voice of Accusation and Sabotage can stack": Kujou (who voted Yurikochan) adds one.
    pairs = [*SABOTAGE_VOTES[:2], ("Kujou", "Yurikochan"), *SABOTAGE_VOTES[3:]]
    roster = sabotage_roster(Yurikochan=VoteModifiers(tie_bonus=1))
    roster = Roster((*roster.slots, Slot("Kujou", vote=VoteModifiers(extra=1))), ("GM",))
    rules = rules_for(load_ruleset("dctp"), {"channel": "thread", "syntax": ["dollar_bold"]})
    result = count_votes(votes(pairs), roster, rules)
    assert wagons(result)["Yurikochan"] == 5  # 3, +1 Sabotage on the tie, +1 Kujou's extra
    assert result.decision.lynched == "Yurikochan"


def test_durarara_mayor_election_goes_to_the_first_to_reach_the_top() -> None:
    # 003, Day 0: relative majority; a tie goes to the one who got there first.
    roster = roster_from_data({"players": ["Mikado", "Masaomi", "Anri", "Celty"]})
    rules = rules_for(
        load_ruleset("durarara"),
        {
            "channel": "thread",
            "syntax": ["bold_vote"],
            "tie": "first_to_reach",
            "no_vote_counts_as_self": False,
            "requires_participation": False,
        },
    )
    result = count_votes(votes([("Anri", "Mikado"), ("Celty", "Masaomi")], "Vote: "), roster, rules)
    assert result.decision.lynched == "Mikado"
    assert "reached it first" in result.decision.reason
