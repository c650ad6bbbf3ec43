"""Interaction matrix generated from the ruleset: every blocker, redirector and switch
against every other night ability (research notes §6.8: new abilities are tested for free).
"""

from __future__ import annotations

import pytest

from resolver.model import Event, EventKind, Order
from tests.resolver.factories import failheap, make_state, resolve

RULESET = failheap()
NIGHT_STEPS = RULESET.steps("night")
HOLDER = {a: RULESET.holders[a][0] for a in RULESET.holders}
HOLDER["vest"] = "survivalist"
# abilities that need a target the matrix cannot give on night 1 (a dead player)
SKIP = {"remember"}
NIGHT_ABILITIES = sorted(
    a.id for a in RULESET.abilities.values() if a.allowed_in("night") and a.id not in SKIP
)


def _setup(ability: str, modifier_role: str) -> dict[str, str]:
    actor_role = HOLDER[ability]
    roles = {
        "Mod": modifier_role,
        "Act": actor_role,
        "T1": "villager",
        "T2": "villager",
        "X1": "villager",
        "X2": "villager",
        "X3": "framer",
    }
    if actor_role == modifier_role:
        roles["Mod"] = "villager"
    return roles


def _order(ability: str) -> Order:
    slots = RULESET.abilities[ability].targets
    return Order("Act", ability, ("T1", "T2")[: len([s for s in slots if not s.optional])])


def _night2(roles: dict[str, str], orders: list[Order]) -> list[Event]:
    """Night 2 (so that night-1 bans such as the Vigilante's do not apply)."""
    state = make_state(RULESET, roles, statuses={"T1": ("doused",)})
    state = resolve(resolve(state, RULESET).state, RULESET).state
    return list(resolve(state, RULESET, orders).events)


def _night(ability: str, modifier: str, modifier_order: Order | None) -> tuple[list[Event], Order]:
    order = _order(ability)
    orders = [order] + ([modifier_order] if modifier_order else [])
    return _night2(_setup(ability, modifier), orders), order


def _outcome(events: list[Event], actor: str = "Act") -> Event:
    found = [e for e in events if e.kind is EventKind.OUTCOME and e.data["actor"] == actor]
    assert len(found) == 1, found
    return found[0]


def _effects(events: list[Event]) -> list[Event]:
    """Events that show an effect of the actor's ability (not outcomes or notices)."""
    ignored = {EventKind.OUTCOME, EventKind.BLOCKED_NOTICE}
    return [e for e in events if e.kind not in ignored]


def _is_before(ability: str, step: str) -> bool:
    return NIGHT_STEPS.index(RULESET.abilities[ability].priority) < NIGHT_STEPS.index(step)


@pytest.mark.parametrize("ability", NIGHT_ABILITIES)
def test_courtesan_block_against(ability: str) -> None:
    blocked, _ = _night(ability, "courtesan", Order("Mod", "block", ("Act",)))
    if _is_before(ability, "block") or HOLDER[ability] == "courtesan":
        assert _outcome(blocked).data["outcome"] == "done"
        return
    assert _outcome(blocked).data["outcome"] == "blocked"
    baseline = _night2(_setup(ability, "courtesan"), [Order("Mod", "block", ("Act",))])
    assert _effects(blocked) == _effects(baseline)


@pytest.mark.parametrize("ability", NIGHT_ABILITIES)
def test_witch_no_action_against(ability: str) -> None:
    events, _ = _night(ability, "witch", Order("Mod", "control", ("Act",)))
    expected = "done" if _is_before(ability, "control") or HOLDER[ability] == "witch" else "blocked"
    assert _outcome(events).data["outcome"] == expected


@pytest.mark.parametrize("ability", NIGHT_ABILITIES)
def test_witch_redirect_against(ability: str) -> None:
    events, order = _night(ability, "witch", Order("Mod", "control", ("Act", "X1")))
    outcome = _outcome(events).data
    if not order.targets or _is_before(ability, "control") or HOLDER[ability] == "witch":
        assert outcome["final_targets"] == list(order.targets)
    else:
        assert outcome["final_targets"][0] == "X1"


@pytest.mark.parametrize("ability", NIGHT_ABILITIES)
def test_cab_switch_against(ability: str) -> None:
    events, order = _night(ability, "cab_driver", Order("Mod", "switch", ("T1", "X1")))
    outcome = _outcome(events).data
    if HOLDER[ability] == "cab_driver":
        return
    expected = [{"T1": "X1", "X1": "T1"}.get(t, t) for t in order.targets]
    if _is_before(ability, "switch"):
        expected = list(order.targets)
    assert outcome["final_targets"] == expected


def test_serial_killer_block_reaction_replaces_the_effect() -> None:
    events, _ = _night("serial_kill", "courtesan", Order("Mod", "block", ("Act",)))
    deaths = [
        e.data["victim"]
        for e in events
        if e.kind is EventKind.ATTACKED and e.data["outcome"] == "killed"
    ]
    assert deaths == ["Mod"]
