"""Blind round D's wrong accepts (issue 11, class 1): a rule of the ruleset, checked from the
game state, that the parser did not apply. New texts, each with a twin that stays accepted."""

from __future__ import annotations

import functools
from collections.abc import Mapping

import pytest

from parsers.orders import History, OrderParser, ParseResult, Status
from parsers.roster import Roster, SetupError, roster_from_data
from resolver.ruleset import load_ruleset


@functools.cache
def _parser(name: str) -> OrderParser:
    return OrderParser(load_ruleset(name))


def _parse(ruleset: str, data: Mapping[str, object], text: str, actor: str, phase: str,
           history: History | None = History()) -> ParseResult:  # fmt: skip
    roster: Roster = roster_from_data(data)
    return _parser(ruleset).parse(text, roster=roster, actor=actor, phase=phase, history=history)


DCTP = {"Tyne": "eisuke", "Mona": "tequila", "Rex": "megure", "Lu": "gin"}


def test_an_order_on_an_arrested_player_is_refused_but_a_lawsuit_frees() -> None:
    """Seed 000: "Any actions, except those that release them from prison, on them will fail"
    (the status's ``targets_fail``; a release ``removes`` it)."""
    jailed = {"players": {**DCTP, "Mona": {"role": "tequila", "statuses": ["arrested"]}}}
    refused = _parse("dctp", jailed, "discombobulating Mona this night", "Tyne", "night2")
    assert refused.status is Status.REJECTED and "arrested" in (refused.rule or "")
    free = {"players": DCTP}
    assert _parse("dctp", free, "discombobulating Mona this night", "Tyne", "night2").status \
        is Status.ACCEPTED  # fmt: skip
    lawyer = {"players": {**jailed["players"], "Rex": "eri"}}  # type: ignore[dict-item]
    sued = _parse("dctp", lawyer, "file a lawsuit for Mona", "Rex", "night2")
    assert sued.status is Status.ACCEPTED  # "except those that release them from prison"


FAILHEAP = {"Doc": "doctor", "Guardo": "bodyguard", "May": "mayor", "Ann": "sheriff"}


@pytest.mark.parametrize("status", ["revealed_mayor", "revealed"])
def test_a_revealed_mayor_named_as_in_setup_files_cannot_be_guarded(status: str) -> None:
    """Seed 002: "a revealed Mayor cannot be protected by a Doctor or Bodyguard": the SETUP
    files' ``revealed_mayor`` is the ruleset's ``revealed`` status."""
    shown = {"players": {**FAILHEAP, "May": {"role": "mayor", "statuses": [status]}}}
    guarded = _parse("failheap", shown, "I will bodyguard May", "Guardo", "night2")
    assert guarded.status is Status.REJECTED and "revealed Mayor" in (guarded.rule or "")
    healed = _parse("failheap", shown, "heal May please", "Doc", "night2")
    assert healed.status is Status.REJECTED
    hidden = {"players": FAILHEAP}
    assert _parse("failheap", hidden, "I will bodyguard May", "Guardo", "night2").status \
        is Status.ACCEPTED  # fmt: skip


DURARARA = {"Jules": "celty", "Nina": "villager", "Paul": "villager", "Rose": "taro"}


def test_the_lovers_key_gives_both_the_lover_status_and_a_vote_between_them_is_queued() -> None:
    """Seed 003: "Les amoureux ne peuvent ni voter l'un contre l'autre ... Un amoureux votant
    contre son couple sera privé de son droit de vote au tour suivant": the resolver gives
    that penalty on the cast vote, so the vote goes to the GM (never accepted, never dropped
    before the penalty); the ``lovers`` key was ignored and the vote accepted."""
    data = {"players": DURARARA, "lovers": [["Nina", "Jules"]]}
    roster = roster_from_data(data)
    assert {s.name for s in roster.slots if "lover" in s.statuses} == {"Nina", "Jules"}
    queued = _parse("durarara", data, "je vote contre Nina", "Jules", "day2")
    assert queued.status is Status.AMBIGUOUS and "lover" in queued.reason
    other = _parse("durarara", data, "je vote contre Paul", "Jules", "day2")
    assert other.status is Status.ACCEPTED


def test_a_lovers_pair_naming_a_non_player_is_a_clear_error() -> None:
    with pytest.raises(SetupError, match=r"lovers\[0\].*'Zoé' is not a player"):
        roster_from_data({"players": DURARARA, "lovers": [["Nina", "Zoé"]]})
    with pytest.raises(SetupError, match=r"lovers\[0\]"):
        roster_from_data({"players": DURARARA, "lovers": [["Nina"]]})


def test_the_leader_s_kill_order_on_an_arrested_victim_is_refused_not_on_a_free_one() -> None:
    """The kill order names who kills (slot ``role: killer``), then whom: the victim is the
    one acted on."""
    bo = {"Gwen": {"role": "anokata", "statuses": ["leader"]}, "Rex": "gin", "Pia": "conan",
          "Oz": "megure"}  # fmt: skip
    jailed = {"players": {**bo, "Pia": {"role": "conan", "statuses": ["arrested"]}}}
    refused = _parse("dctp", jailed, "Rex kills Pia tonight", "Gwen", "night2")
    assert refused.status is Status.REJECTED and "Pia is arrested" in (refused.rule or "")
    free = _parse("dctp", {"players": bo}, "Rex kills Pia tonight", "Gwen", "night2")
    assert free.status is Status.ACCEPTED
