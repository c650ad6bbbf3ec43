"""Vote rules and tie policies beyond Failheap's default (no lynch on a tie)."""

from __future__ import annotations

import yaml

from resolver.engine import resolve_phase
from resolver.model import EventKind
from resolver.rng import PurposeRng
from resolver.ruleset import RULESETS_DIR, ruleset_from_data
from tests.resolver.factories import make_state

ROLES = {"Ann": "villager", "Bob": "villager", "Cid": "mafioso", "Dee": "framer", "Eve": "villager"}
VOTES = {"Ann": "Cid", "Bob": "Cid", "Cid": "Ann", "Dee": "Ann"}


def _ruleset(tie: str):
    data = yaml.safe_load((RULESETS_DIR / "failheap.yaml").read_text(encoding="utf-8"))
    data["vote"]["tie"] = tie
    return ruleset_from_data(data, "failheap.yaml")


def _day(tie: str, seed: int = 1):
    ruleset = _ruleset(tie)
    state = make_state(ruleset, ROLES, seed=seed)
    state = resolve_phase(state, [], ruleset, rng=PurposeRng(seed)).state
    return resolve_phase(state, [], ruleset, rng=PurposeRng(seed), votes=VOTES)


def test_random_tie_draws_one_of_the_leaders_and_logs_it() -> None:
    res = _day("random")
    lynched = [e.data["player"] for e in res.events if e.kind is EventKind.LYNCH]
    draws = [e for e in res.events if e.kind is EventKind.DRAW]
    assert len(lynched) == 1 and lynched[0] in ("Ann", "Cid")
    assert draws[0].data["pick"] == lynched[0] and draws[0].data["options"] == ["Ann", "Cid"]
    assert _day("random").events == res.events


def test_all_tied_lynches_every_leader() -> None:
    res = _day("all_tied")
    assert sorted(e.data["player"] for e in res.events if e.kind is EventKind.LYNCH) == [
        "Ann",
        "Cid",
    ]


def test_mayor_decides_leaves_it_to_the_gm() -> None:
    res = _day("mayor_decides")
    assert not [e for e in res.events if e.kind is EventKind.LYNCH]
