"""Issue 11, recall classes after blind round D: clear orders that were queued for a reading
the sentence does not have, each with twins that must stay queued. None of these texts is a
corpus sentence."""

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
           history: History = History()) -> ParseResult:  # fmt: skip
    roster = roster_from_data({"players": players})
    return _parser(ruleset).parse(text, roster=roster, actor=actor, phase=phase, history=history)


def _orders(result: ParseResult) -> list[str]:
    return [o.render() for o in result.orders]


DCTP = {"Ines": "chianti", "Otto": "kujou", "Bea": "conan", "Ugo": "megure", "Rex": "vodka"}


# --- "my vote is X": the vote's linking verb is not DCTP's identify word ("X is Y") ----------


def test_a_vote_linked_by_is_reads_its_player() -> None:
    for text in (
        "My vote is Ugo.",
        "my vote is on Bea, her claim is thin.",
        "Vote is Rex tonight... er, today.",
    ):
        result = _parse("dctp", DCTP, text, "Otto", "day2")
        assert result.status is Status.ACCEPTED, result.reason
        assert [o.ability for o in result.orders] == ["vote"], result.reason


def test_a_linked_vote_still_queues_when_undecided_or_cut_off() -> None:
    # twins: an open choice, or the "is" after punctuation, still goes to the GM
    for text in ("My vote is Ugo or Bea, your call.", "My vote, is Ugo"):
        result = _parse("dctp", DCTP, text, "Otto", "day2")
        assert result.status is not Status.ACCEPTED, text
    # another role's identify sentence with no vote word stays queued
    other = _parse("dctp", DCTP, "Bea is Ugo.", "Otto", "day2")
    assert other.status is not Status.ACCEPTED


# --- "Vote: X, with Voice of Accusation": the vote modifier is on the vote's player ---------

CROSSED = History(
    orders=(PastOrder("night1", "Otto", "cross_examine", ("Ugo",), result="not guilty"),)
)


def test_a_vote_modifier_after_with_is_on_the_votes_player() -> None:
    for text in ("I vote Ugo with VoA", "Vote - Ugo, using Voice of Accusation!"):
        result = _parse("dctp", DCTP, text, "Otto", "day2", CROSSED)
        assert result.status is Status.ACCEPTED, result.reason
        assert _orders(result) == ["vote Ugo", "voice_of_accusation Ugo"], result.reason


def test_a_vote_modifier_the_history_does_not_allow_or_on_someone_else_stays_queued() -> None:
    # twins: Bea was never cross-examined; the modifier names another player; no history
    cases = (
        ("I vote Bea with VoA", CROSSED),
        ("Vote Ugo, with VoA on Bea.", CROSSED),
        ("I vote Ugo with VoA", History()),
        ("Vote Ugo or Bea, with VoA.", CROSSED),
    )
    for text, history in cases:
        result = _parse("dctp", DCTP, text, "Otto", "day2", history)
        assert result.status is not Status.ACCEPTED, text


# --- A name said in the sentence before the order is that order's own target -----------------

NICKS = {"Maelle": "doctor", "Odile": "sheriff", "Sidonie": "villager",
         "Dashiell": {"role": "mafioso", "aliases": ["Dash"]}}  # fmt: skip


def test_the_orders_own_target_named_earlier_in_the_sentence_is_no_stranger() -> None:
    for text in ("Sidonie keeps dodging questions, so check sidonie tonight.",
                 "Dash was awfully quiet today, check dash please."):  # fmt: skip
        result = _parse("failheap", NICKS, text, "Odile", "night3")
        assert result.status is Status.ACCEPTED and len(result.orders) == 1, result.reason


def test_another_player_named_before_the_order_still_queues() -> None:
    # twins: the earlier name is someone else, or the order is addressed to that player
    for text in ("Sidonie keeps dodging questions, so check dash tonight.",
                 "Dash, check Sidonie tonight."):  # fmt: skip
        result = _parse("failheap", NICKS, text, "Odile", "night3")
        assert result.status is not Status.ACCEPTED, text
