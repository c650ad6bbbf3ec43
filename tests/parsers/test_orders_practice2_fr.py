"""Issue 11, practice rounds P4-P6's French wrong accepts as classes (cycle 2): a parting
shot sent by a living Tom, a save sent outside Shinra's 19:00-22:00 window (the time the PM
says it is sent at, or the history's ``sent_at``), and "pas de charme : je libère X" read
as a cancel next to the order it explains."""

from __future__ import annotations

import functools

from parsers.orders import History, OrderParser, ParseResult, PastOrder, Status
from parsers.roster import roster_from_data
from resolver.ruleset import load_ruleset

_PLAYERS = [
    {"name": "Gontran", "role": "tom"},
    {"name": "Ysaline", "role": "shinra"},
    {"name": "Clothilde", "role": "saika"},
    {"name": "Anselme", "role": "villager"},
    {"name": "Bérengère", "role": "ripper"},
    {"name": "Hermine", "role": "blue_square"},
    {"name": "Faustin", "role": "tom", "alive": False},
]


@functools.cache
def _parser() -> OrderParser:
    return OrderParser(load_ruleset("durarara"))


def _parse(text: str, actor: str, phase: str = "night2", history: History | None = None,
           ) -> ParseResult:  # fmt: skip
    roster = roster_from_data({"players": _PLAYERS})
    return _parser().parse(text, roster=roster, actor=actor, phase=phase,
                           history=history if history is not None else History())  # fmt: skip


def _orders(result: ParseResult) -> list[str]:
    return [o.render() for o in result.orders]


# a living Tom's parting shot: taken when he dies, so not an order for tonight


def test_a_living_toms_shot_tonight_is_refused() -> None:
    for text in ("Ce soir je cogne Hermine, aucun doute.", "J'emporte Anselme cette nuit."):
        result = _parse(text, "Gontran")
        assert result.status is Status.REJECTED, (text, result.status, result.reason)
        assert "alive" in (result.rule or ""), result.rule


def test_a_living_toms_shot_by_day_goes_to_the_gm() -> None:
    result = _parse("Je cogne Hermine.", "Gontran", phase="day2")
    assert result.status is Status.AMBIGUOUS and "alive" in result.reason, result.reason


def test_a_toms_shot_prepared_for_his_death_is_never_refused_as_early() -> None:
    result = _parse("Si on me tue, je cogne Hermine.", "Gontran")
    assert result.status is not Status.REJECTED and not result.orders, result.reason
    assert "alive" not in result.reason, result.reason


def test_a_dead_toms_shot_still_goes_to_the_gm() -> None:
    result = _parse("Je cogne Hermine en partant.", "Faustin")
    assert result.status is Status.AMBIGUOUS and "window" in result.reason, result.reason


# Shinra's 19:00-22:00 window: an early order is refused (option early_window_orders)


def test_a_save_the_pm_says_it_sends_before_the_window_is_refused() -> None:
    for text in (
        "Il est 15h30, je sauve Anselme ce soir.",
        "je sauve Anselme, il est 9h",
    ):
        result = _parse(text, "Ysaline")
        assert result.status is Status.REJECTED and "19:00" in (result.rule or ""), result.reason


def test_a_save_sent_inside_the_window_stands() -> None:
    for text in ("Il est 20h15, je sauve Anselme.", "je sauve Anselme"):
        result = _parse(text, "Ysaline")
        assert result.status is Status.ACCEPTED and _orders(result) == ["save Anselme"], text


def test_a_recorded_send_time_leaves_the_window_to_the_runtimes_deadlines() -> None:
    # the runtime knows the send time and places an early order itself (its receipt says so:
    # tests/runtime/test_durarara_rules.py); without one, the parser checks a time the PM
    # states (the tests above)
    early = History(sent_at="2026-11-29T11:05:00+01:00")
    assert _orders(_parse("je sauve Anselme", "Ysaline", history=early)) == ["save Anselme"]


# "no X tonight: I do Y" says which action; it cancels nothing unless X was sent earlier


def test_no_charm_next_to_a_cure_is_the_cure_only() -> None:
    for text in ("Pas de charme ce soir, je libère Bérengère.",
                 "Cette nuit je ne charme pas : je libère Bérengère."):  # fmt: skip
        result = _parse(text, "Clothilde")
        assert result.status is Status.ACCEPTED, (text, result.reason)
        assert _orders(result) == ["cure_ripper Bérengère"], text


def test_no_charm_after_an_earlier_charm_goes_to_the_gm() -> None:
    earlier = History(orders=(PastOrder("night2", "Clothilde", "charm", ("Anselme",)),))
    result = _parse("Pas de charme ce soir, je libère Bérengère.", "Clothilde", history=earlier)
    assert result.status is Status.AMBIGUOUS, (result.status, _orders(result))


def test_no_charm_alone_is_still_a_pass() -> None:
    result = _parse("Pas de charme cette nuit.", "Clothilde")
    assert result.status is Status.ACCEPTED and _orders(result) == ["cancel charm"]


def test_a_negation_with_no_order_of_its_own_still_holds_across_a_colon() -> None:
    result = _parse("Pas ce soir : je libère Bérengère.", "Clothilde")
    assert result.status is not Status.ACCEPTED, _orders(result)


# French correction words: "réflexion faite", "tout compte fait", "je me ravise"...


def test_a_french_correction_word_replaces_the_earlier_order() -> None:
    for text in (
        "Je sauve Hermine. Tout compte fait, je sauve Anselme.",
        "je sauve Hermine cette nuit. Après réflexion je sauve Anselme.",
        "Je sauve Hermine. Je me ravise : je sauve Anselme.",
        "Je sauve Hermine... ah non, je sauve Anselme.",
    ):
        result = _parse(text, "Ysaline")
        assert result.status is Status.ACCEPTED, (text, result.reason)
        assert _orders(result) == ["save Anselme"], text


def test_a_french_correction_word_to_nobody_still_queues() -> None:
    for text in ("Je sauve Hermine. Tout compte fait.", "Je sauve Hermine. Je me ravise."):
        result = _parse(text, "Ysaline")
        assert result.status is Status.AMBIGUOUS, (text, _orders(result))


# French words for Failheap's Paranoid staying on alert, feminine forms included


@functools.cache
def _failheap() -> OrderParser:
    return OrderParser(load_ruleset("failheap"))


def _paranoid(text: str) -> ParseResult:
    roster = roster_from_data({"players": [{"name": "Léontine", "role": "paranoid"},
                                           {"name": "Barnabé", "role": "villager"}]})  # fmt: skip
    return _failheap().parse(text, roster=roster, actor="Léontine", phase="night2",
                             history=History())  # fmt: skip


def test_staying_on_alert_in_french() -> None:
    for text in ("Cette nuit je reste éveillée.", "je reste sur mes gardes ce soir"):
        result = _paranoid(text)
        assert result.status is Status.ACCEPTED and _orders(result) == ["alert"], text


def test_staying_on_alert_asked_or_in_the_past_is_no_order() -> None:
    for text in ("Je reste éveillée cette nuit ?", "Hier je suis restée éveillée."):
        assert _paranoid(text).status is not Status.ACCEPTED, text
