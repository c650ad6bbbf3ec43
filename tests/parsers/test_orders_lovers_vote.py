"""A lover's PM vote against his partner by the ruleset option ``lovers_vote_against``
(blind rounds F and G, issue 11): Durarara's default sends it to the GM (seed 003 forbids it
and the resolver's penalty needs the cast vote), ``refuse`` refuses it, DCTP's default
(``count``: seed 000 is silent) counts it. Through the real parser and roster."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from parsers.orders import History, OrderParser, Status
from parsers.roster import roster_from_data
from resolver.ruleset import load_ruleset

DURARARA = {"Jules": "celty", "Nina": "villager", "Paul": "villager", "Rose": "taro"}
DCTP = {"Tyne": "eisuke", "Mona": "tequila", "Rex": "megure", "Lu": "gin"}


def _status(
    ruleset: str, players: Mapping[str, str], lovers: list[str], text: str, actor: str,
    options: Mapping[str, object] | None = None,
) -> Status:  # fmt: skip
    roster = roster_from_data({"players": dict(players), "lovers": [lovers]})
    parser = OrderParser(load_ruleset(ruleset, options=dict(options or {})))
    return parser.parse(text, roster=roster, actor=actor, phase="day2", history=History()).status


@pytest.mark.parametrize("text", ["Je vote Nina, désolé mon cœur.", "mon vote : Nina"])
def test_refuse_refuses_a_lovers_vote_against_his_partner(text: str) -> None:
    options = {"lovers_vote_against": "refuse"}
    assert _status("durarara", DURARARA, ["Nina", "Jules"], text, "Jules", options) is (
        Status.REJECTED
    )


def test_durararas_default_sends_it_to_the_gm_and_another_vote_stays_accepted() -> None:
    lovers = ["Nina", "Jules"]
    assert _status("durarara", DURARARA, lovers, "je vote Nina", "Jules") is Status.AMBIGUOUS
    refuse = {"lovers_vote_against": "refuse"}
    assert _status("durarara", DURARARA, lovers, "je vote Paul", "Jules", refuse) is (
        Status.ACCEPTED
    )


def test_dctp_counts_a_lovers_vote_its_seed_does_not_forbid() -> None:
    assert _status("dctp", DCTP, ["Mona", "Rex"], "Vote Mona.", "Rex") is Status.ACCEPTED
    gm = {"lovers_vote_against": "gm"}
    assert _status("dctp", DCTP, ["Mona", "Rex"], "Vote Mona.", "Rex", gm) is Status.AMBIGUOUS
