"""Issue 11, blind round E's wrong accept as a class: a power used once dead (Tom's parting
shot, ``trigger: own_death``) has a window after the death that the roster cannot show."""

from __future__ import annotations

import functools

from parsers.orders import History, OrderParser, Status
from parsers.roster import roster_from_data
from resolver.ruleset import load_ruleset


@functools.cache
def _parser() -> OrderParser:
    return OrderParser(load_ruleset("durarara"))


def _players(tom_alive: bool) -> list[dict[str, object]]:
    return [
        {"name": "Basile", "role": "tom", "alive": tom_alive},
        {"name": "Odile", "role": "villager"},
        {"name": "Rémi", "role": "blue_square"},
    ]


def test_a_dead_toms_parting_shot_goes_to_the_gm() -> None:
    roster = roster_from_data({"players": _players(tom_alive=False)})
    shot = _parser().parse("Je frappe Rémi en partant !", roster=roster, actor="Basile",
                           phase="night3", history=History())  # fmt: skip
    assert shot.status is Status.AMBIGUOUS and "window" in shot.reason, shot.reason


def test_a_living_players_orders_are_not_held_for_a_death_window() -> None:
    roster = roster_from_data({"players": _players(tom_alive=True)})
    vote = _parser().parse("Je vote Rémi.", roster=roster, actor="Basile", phase="day2",
                           history=History())  # fmt: skip
    assert vote.status is Status.ACCEPTED and [o.render() for o in vote.orders] == ["vote Rémi"]
