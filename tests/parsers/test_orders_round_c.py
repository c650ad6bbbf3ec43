"""Issue 11, blind round C's wrong accepts, each as a class: a second order dropped from a
PM (an add-on to a vote, a phrase split by its target), an add-on whose condition depends
on orders not known yet, a penalty from the history, an item outside the giver's list, an
arrest for a kill whose victim lived, a target matching a dead player next to a living
look-alike."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from parsers.orders import History, OrderParser, ParseResult, PastOrder, Status
from parsers.roster import roster_from_data
from resolver.ruleset import load_ruleset


@functools.cache
def _parser(name: str) -> OrderParser:
    return OrderParser(load_ruleset(name))


def _parse(ruleset: str, players: Mapping[str, object], text: str, actor: str, phase: str,
           history: History | None = History(),
           items: tuple[str, ...] = ()) -> ParseResult:  # fmt: skip
    roster = roster_from_data({"players": players})
    return _parser(ruleset).parse(
        text, roster=roster, actor=actor, phase=phase, history=history, items=items
    )


def _candidates(result: ParseResult) -> set[str]:
    return {o.render() for c in result.candidates for o in c.orders}


DCTP = {"Ines": "chianti", "Otto": "kujou", "Bea": "conan", "Ugo": "megure", "Rex": "vodka",
        "Lou": "gin", "Pim": "ran"}  # fmt: skip


def test_an_ability_with_no_player_in_a_vote_s_sentence_is_not_dropped() -> None:
    text = "Voting Bea today, and I'm putting my Voice of Accusation behind that vote."
    both = _parse("dctp", DCTP, text, "Otto", "day2")
    assert both.status is Status.AMBIGUOUS
    assert "voice_of_accusation" in {o.ability for c in both.candidates for o in c.orders}
    # twin: the vote alone stays accepted
    alone = _parse("dctp", DCTP, "Voting Bea today.", "Otto", "day2")
    assert alone.status is Status.ACCEPTED and [o.render() for o in alone.orders] == ["vote Bea"]


def test_an_order_phrase_split_by_its_target_is_not_dropped() -> None:
    split = _parse("dctp", DCTP, "Observe Ugo tonight, then stake him out too.", "Ines", "night3")
    assert split.status is Status.AMBIGUOUS and "stake_out" in split.reason
    assert "observe Ugo" in _candidates(split)
    by_name = _parse("dctp", DCTP, "Stake Ugo out, and observe Bea.", "Ines", "night3")
    assert by_name.status is Status.AMBIGUOUS
    # twins: each order alone, and a split phrase of an ability the sender lacks
    for text, want in (("Observe Ugo tonight.", "observe Ugo"),
                       ("Stake out Ugo tonight.", "stake_out Ugo")):  # fmt: skip
        one = _parse("dctp", DCTP, text, "Ines", "night3")
        assert one.status is Status.ACCEPTED and [o.render() for o in one.orders] == [want]


def test_two_exclusive_abilities_in_one_pm_queue() -> None:
    both = _parse("dctp", DCTP, "Observe Ugo. Stake out Bea.", "Ines", "night3")
    assert both.status is Status.AMBIGUOUS and "more orders" in both.reason


def test_a_killing_action_waits_for_the_night_s_kill() -> None:
    # Rex (Vodka) may use Heavy Handed only on a night he is assigned the kill
    addon = "Discombobulate Bea, and heavy handed too."
    unknown = _parse("dctp", DCTP, addon, "Rex", "night3")
    assert unknown.status is Status.AMBIGUOUS and "assigned the kill" in unknown.reason
    other = History(orders=(PastOrder("night3", "Lou", "order_kill", ("Lou", "Ugo")),))
    assert _parse("dctp", DCTP, addon, "Rex", "night3", other).status is Status.AMBIGUOUS
    # twins: the kill in the same PM, or the leader's order of the night giving it to Rex
    same_pm = _parse("dctp", DCTP, f"Kill Pim. {addon}", "Rex", "night3")
    assert same_pm.status is Status.ACCEPTED
    assert {o.ability for o in same_pm.orders} == {"kill", "discombobulate", "heavy_handed"}
    given = History(orders=(PastOrder("night3", "Lou", "order_kill", ("Rex", "Pim")),))
    assert _parse("dctp", DCTP, addon, "Rex", "night3", given).status is Status.ACCEPTED
    # a night action that is no killing action is not held back
    assert _parse("dctp", DCTP, "Discombobulate Bea.", "Rex", "night3").status is Status.ACCEPTED


RU = {"Дина": "fairy", "Глеб": "villager", "Вера": "doctor", "Лев": "mafia_boss"}


def test_a_gift_outside_the_giver_s_list_is_refused() -> None:
    # the Fairy gives only the items of her list (ru_mafia.yaml gift_list): vodka is not one
    off_list = _parse("ru_mafia", RU, "Дарю Глебу водку", "Дина", "night3")
    assert off_list.status is Status.REJECTED and "list" in (off_list.rule or "")
    # twin: an item of the list stays accepted
    listed = _parse("ru_mafia", RU, "Дарю Глебу бронежилет", "Дина", "night3")
    assert listed.status is Status.ACCEPTED
    assert [o.render() for o in listed.orders] == ["gift Глеб item=vest"]


def test_a_dead_target_with_a_living_name_one_letter_away_queues() -> None:
    near = {"Ada": "doctor", "Noel": "villager", "Vito": "godfather",
            "Noe": {"role": "villager", "alive": False}}  # fmt: skip
    queued = _parse("failheap", near, "heal noe tonight", "Ada", "night3")
    assert queued.status is Status.AMBIGUOUS and "Noel" in queued.reason
    # twin: no living name one letter away: the dead player is refused
    alone = {"Ada": "doctor", "Vito": "godfather", "Bea": {"role": "villager", "alive": False}}
    refused = _parse("failheap", alone, "heal bea tonight", "Ada", "night3")
    assert refused.status is Status.REJECTED and refused.rule == "Bea is dead"


def test_an_arrest_for_a_kill_that_was_stopped_queues() -> None:
    kill = PastOrder("night1", "Rex", "kill", ("Bea",), result="failed")
    stopped = History(orders=(kill, PastOrder("night1", "Pim", "protect", ("Bea",))))
    text = "Arresting Rex, the crime: killing Bea on night 1."
    queued = _parse("dctp", DCTP, text, "Ugo", "night2", stopped)
    assert queued.status is Status.AMBIGUOUS and "Bea did not die" in queued.reason
    # the leader's kill order names the victim second
    ordered = PastOrder("night1", "Lou", "order_kill", ("Rex", "Bea"), result="blocked")
    by_order = _parse("dctp", DCTP, text, "Ugo", "night2", History(orders=(ordered,)))
    assert by_order.status is Status.AMBIGUOUS
    # twin: the kill went through (Bea died): the arrest stands
    dead = {**DCTP, "Bea": {"role": "conan", "alive": False}}
    done = History(orders=(PastOrder("night1", "Rex", "kill", ("Bea",), result="success"),))
    accepted = _parse("dctp", dead, text, "Ugo", "night2", done)
    assert accepted.status is Status.ACCEPTED
    assert [o.render() for o in accepted.orders] == ["arrest Rex kill:Bea:night1 phase=night1"]


def test_a_protection_lost_after_a_success_is_refused() -> None:
    saved = History(orders=(PastOrder("night2", "Pim", "protect", ("Bea",), result="success"),))
    text = "Protecting Ugo tonight, he needs it."
    from_history = _parse("dctp", DCTP, text, "Pim", "night3", saved)
    assert from_history.status is Status.REJECTED and "lost Protect" in (from_history.rule or "")
    by_status = {**DCTP, "Pim": {"role": "ran", "statuses": ["protect_lost"]}}
    assert _parse("dctp", by_status, text, "Pim", "night3").status is Status.REJECTED
    # statuses without the game's history may be stale: the GM checks
    assert _parse("dctp", by_status, text, "Pim", "night3", None).status is Status.AMBIGUOUS
    injured = {**DCTP, "Pim": {"role": "ran", "statuses": ["temporarily_injured"]}}
    assert _parse("dctp", injured, text, "Pim", "night3").status is Status.AMBIGUOUS
    # twins: a failed protection costs nothing; nor does one by a role without the penalty
    failed = History(orders=(PastOrder("night2", "Pim", "protect", ("Bea",), result="failed"),))
    assert _parse("dctp", DCTP, text, "Pim", "night3", failed).status is Status.ACCEPTED
    makoto = {**DCTP, "Pim": "makoto"}
    assert _parse("dctp", makoto, text, "Pim", "night3", saved).status is Status.ACCEPTED


def test_a_second_ability_joined_by_and_with_no_player_is_not_dropped() -> None:
    both = _parse("dctp", DCTP, "Kill Pim tonight and discombobulate as well.", "Rex", "night3")
    assert both.status is Status.AMBIGUOUS
    assert "discombobulate" in {o.ability for c in both.candidates for o in c.orders}
    # twin: the kill alone stands
    alone = _parse("dctp", DCTP, "Kill Pim tonight.", "Rex", "night3")
    assert alone.status is Status.ACCEPTED and [o.render() for o in alone.orders] == ["kill Pim"]
