"""Issue 11, recall classes after blind round D: a clear order next to a remark about other
players, each with twins that must stay queued. None of these texts is a corpus sentence."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from parsers.orders import OrderParser, ParseResult, Status
from parsers.roster import roster_from_data
from resolver.ruleset import load_ruleset


@functools.cache
def _parser(name: str) -> OrderParser:
    return OrderParser(load_ruleset(name))


def _parse(players: Mapping[str, object], text: str, actor: str, phase: str) -> ParseResult:
    roster = roster_from_data({"players": players})
    return _parser("failheap").parse(text, roster=roster, actor=actor, phase=phase)


FAILHEAP = {"Maelle": "doctor", "Gaston": "arsonist", "Odile": "sheriff", "Rufus": "vigilante",
            "Sidonie": "villager", "Tibo": "mafioso"}  # fmt: skip


# --- A remark about the day just gone, with "today" or "too hard", after a night order -------


def test_a_remark_about_today_sent_at_night_does_not_hold_the_order() -> None:
    for text in (
        "Investigate Rufus. She accused Tibo far too quickly today.",
        "Investigate Rufus please. He defended Tibo way too hard today, weird.",
        "J'enquête sur Rufus. Il a défendu Tibo aujourd'hui.",
    ):
        result = _parse(FAILHEAP, text, "Odile", "night2")
        assert result.status is Status.ACCEPTED, (text, result.reason)
        assert [o.render() for o in result.orders] == ["check Rufus"]


def test_a_remark_that_could_change_the_order_stays_queued() -> None:
    for text, phase in (
        ("Investigate Rufus. Or Tibo, he lied.", "night2"),  # another target offered
        ("Investigate Rufus. Ou Tibo, il a menti.", "night2"),
        ("Investigate Rufus. Or Tibo, he defended Gaston today.", "night2"),
        ("Investigate Rufus. Tibo seems scummy too.", "night2"),  # "Tibo too"
        ("Investigate Rufus. Tibo too seems scummy.", "night2"),
        ("Investigate Rufus. Tibo seems scummy tonight.", "night2"),  # tonight's phase
        ("Investigate Rufus. He defended Tibo too hard, tomorrow?", "night2"),  # a question
        ("Heal Rufus. Tibo seems scummy today.", "day2"),  # by day, "today" is the phase
    ):
        result = _parse(FAILHEAP, text, "Maelle" if text.startswith("Heal") else "Odile", phase)
        assert result.status is not Status.ACCEPTED, (text, result.reason)


# --- A change of mind told of the target, not of the sender ----------------------------------

DURARARA = {"Anatole": "blue_square", "Colombe": "ripper", "Gontran": "bacula",
            "Sidonie": "villager", "Octave": "villager"}  # fmt: skip


def _vote(text: str) -> ParseResult:
    roster = roster_from_data({"players": DURARARA})
    return _parser("durarara").parse(text, roster=roster, actor="Sidonie", phase="day2")


def test_the_targets_change_of_mind_is_no_correction() -> None:
    for text in (
        "Mon vote : Colombe. Navrée Colombe mais tu as souvent changé d'avis ce matin",
        "Vote Colombe. Sorry Colombe, you changed your mind three times yesterday.",
    ):
        result = _vote(text)
        assert result.status is Status.ACCEPTED, (text, result.reason)
        assert [o.render() for o in result.orders] == ["vote Colombe"]


def test_a_change_of_mind_with_another_player_stays_queued() -> None:
    for text in (
        "Mon vote : Colombe. tu as changé d'avis, Anatole",  # a third player
        "Mon vote : Colombe. Colombe, tu as changé d'avis ? Gontran alors",  # a question
        "Mon vote : Colombe. Désolée, il a changé d'avis, Gontran",
        "Vote Colombe. Sorry Anatole, you changed your mind.",  # a third player
    ):
        assert _vote(text).status is not Status.ACCEPTED, text
