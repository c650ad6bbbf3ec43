"""The effect primitives hooks may emit, applied through the same table as abilities."""

from __future__ import annotations

from resolver.abilities import ABILITIES
from resolver.engine import apply_primitive
from resolver.finalize import freeze
from resolver.lynch import vote_weight
from resolver.model import Effect, EventKind, Phase, Primitive, Visibility
from resolver.rng import PurposeRng
from resolver.work import Work
from tests.resolver.factories import failheap, make_state

RULESET = failheap()
ROLES = {"Ann": "sheriff", "Bob": "mafioso", "Cid": "villager", "Dee": "vigilante"}


def _work() -> Work:
    state = make_state(RULESET, ROLES)
    return Work.start(state, RULESET, Phase(2, 0, "night"), PurposeRng(1))


def test_every_effect_has_a_module() -> None:
    assert set(ABILITIES) == set(Effect)


def test_counter_changes_uses() -> None:
    work = _work()
    apply_primitive(
        work, Primitive(Effect.COUNTER, None, ("Dee",), {"ability": "shoot", "delta": -2})
    )
    assert work.players["Dee"].uses["shoot"] == 1
    apply_primitive(work, Primitive(Effect.COUNTER, None, ("Dee",), {"ability": "shoot", "set": 5}))
    assert work.players["Dee"].uses["shoot"] == 5


def test_item_gives_and_takes_charges() -> None:
    work = _work()
    apply_primitive(work, Primitive(Effect.ITEM, None, ("Cid",), {"item": "vest", "delta": 2}))
    assert work.players["Cid"].items["vest"] == 2
    apply_primitive(work, Primitive(Effect.ITEM, None, ("Cid",), {"item": "vest", "delta": -5}))
    assert work.players["Cid"].items["vest"] == 0


def test_grant_vote_modifier_appearance() -> None:
    work = _work()
    apply_primitive(work, Primitive(Effect.GRANT, None, ("Cid",), {"ability": "check"}))
    assert work.grants["Cid"] == ("check",)
    apply_primitive(work, Primitive(Effect.VOTE_MODIFIER, None, ("Cid",), {"weight": 2}))
    assert vote_weight(work, "Cid") == 2
    apply_primitive(
        work, Primitive(Effect.APPEARANCE, None, ("Bob",), {"query": "check", "value": "innocent"})
    )
    assert work.appearances[("Bob", "check")] == "innocent"


def test_notify_link_schedule_none() -> None:
    work = _work()
    apply_primitive(work, Primitive(Effect.NOTIFY, None, ("Ann",), {"message": "hello"}))
    apply_primitive(work, Primitive(Effect.NOTIFY, None, (), {"message": "all", "public": True}))
    apply_primitive(work, Primitive(Effect.LINK, "Ann", ("Bob",), {"kind": "lovers"}))
    later = Primitive(Effect.ATTACK, None, ("Cid",), {"kind": "curse"})
    apply_primitive(
        work, Primitive(Effect.SCHEDULE, None, ("Cid",), {"at": "day3", "primitive": later})
    )
    apply_primitive(work, Primitive(Effect.NONE, None, ()))
    kinds = [(e.kind, e.visibility) for e in work.events]
    assert (EventKind.NOTE, Visibility.PRIVATE) in kinds
    assert (EventKind.NOTE, Visibility.PUBLIC) in kinds
    state = freeze(work, make_state(RULESET, ROLES))
    assert state.links[-1].kind == "lovers"
    assert state.scheduled[0].phase == "day3"


def test_a_primitive_with_a_step_waits_for_it() -> None:
    work = _work()
    apply_primitive(
        work, Primitive(Effect.ATTACK, "Bob", ("Cid",), {"kind": "mafia"}, "hook", "kill")
    )
    assert not work.dying
    assert [a.targets for a in work.queued["kill"]] == [["Cid"]]


def test_input_state_is_never_mutated() -> None:
    state = make_state(RULESET, ROLES)
    before = repr(state)
    work = Work.start(state, RULESET, Phase(1, 0, "night"), PurposeRng(1))
    apply_primitive(work, Primitive(Effect.ATTACK, "Bob", ("Cid",), {"kind": "mafia"}))
    work.players["Ann"].uses["x"] = 1
    assert repr(state) == before


def test_a_converting_use_leaves_only_the_new_roles_uses() -> None:
    from resolver.model import Order
    from tests.resolver.factories import resolve

    state = make_state(RULESET, {"Amy": "amnesiac", **ROLES})
    state = resolve(state, RULESET, [Order("Bob", "mafia_kill", ("Dee",))]).state
    state = resolve(state, RULESET, [Order("Amy", "remember", ("Dee",))]).state
    assert dict(state.player("Amy").uses) == {"shoot": 3}


def test_an_inconsistent_state_is_a_bug_not_a_game_event() -> None:
    import pytest

    from resolver.errors import InvariantViolation

    work = _work()
    work.players["Cid"].role = "wizard"
    with pytest.raises(InvariantViolation, match="Cid"):
        freeze(work, make_state(RULESET, ROLES))
