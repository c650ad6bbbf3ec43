"""Order validation: every order becomes an accepted action or a rejection event with a reason."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from enum import StrEnum
from typing import Any

from resolver.model.catalogue import Ability, TargetKind
from resolver.model.events import EventKind, Visibility
from resolver.model.state import Order
from resolver.work import Action, Work

USABLE_DEAD_TAG = "usable_dead"
# The order parameter naming the player who carries out an order sent for them by the clan's
# head (``{"performer": "Гена"}`` on the Boss's shot); checked as that player's own order.
PERFORMER = "performer"
"""An ability tag: a dead player may still order it (a dead Mayor names his successor)."""


class Reject(StrEnum):
    """Why an order was refused (shown to the GM; never silently dropped)."""

    UNKNOWN_ACTOR = "unknown_actor"
    ACTOR_DEAD = "actor_dead"
    NO_SUCH_ABILITY = "no_such_ability"
    PASSIVE = "passive"
    WRONG_PHASE = "wrong_phase"
    NOT_THIS_PHASE = "not_this_phase"
    NO_USES_LEFT = "no_uses_left"
    TARGET_COUNT = "target_count"
    UNKNOWN_TARGET = "unknown_target"
    TARGET_DEAD = "target_dead"
    TARGET_ALIVE = "target_alive"
    SELF_TARGET = "self_target"
    OTHERS_TARGET = "others_target"
    DUPLICATE_TARGET = "duplicate_target"
    REQUIREMENT = "requirement_unmet"
    MISSING_PARAM = "missing_param"
    BAD_PARAM = "bad_param"
    REPLACED = "replaced"
    GAME_OVER = "game_over"


def player_abilities(work: Work, name: str, extra: Sequence[str] = ()) -> Mapping[str, Ability]:
    """The abilities a player can use now: his role's, his items', and hook grants."""
    ruleset = work.ruleset
    player = work.players[name]
    own = ruleset.roles[player.role].abilities
    if not player.items and not extra and not player.granted:
        return own
    out = dict(own)
    for granted in player.granted:
        out.setdefault(granted, ruleset.abilities[granted])
    for item, count in player.items.items():
        ability = ruleset.items[item].ability if item in ruleset.items else None
        if ability and count > 0:
            out.setdefault(ability, ruleset.abilities[ability])
    for ability in extra:
        out.setdefault(ability, ruleset.abilities[ability])
    return out


def uses_left(work: Work, name: str, ability: Ability) -> int | None:
    """Uses left (item charges for item abilities); None for unlimited."""
    player = work.players[name]
    for item, count in player.items.items():
        idef = work.ruleset.items.get(item)
        if (
            idef is not None
            and idef.ability == ability.id
            and ability.id not in (work.ruleset.roles[player.role].abilities)
        ):
            return count
    if ability.uses is None:
        return None
    return player.uses.get(ability.id, ability.uses)


def validate_orders(
    work: Work,
    orders: Sequence[Order],
    grants: dict[str, tuple[str, ...]],
    order_problem: Callable[[Order, Ability], str] | None = None,
) -> list[Action]:
    """Check every order; accepted ones become actions, the rest rejection events.

    Args:
        work: the phase scratchpad.
        orders: the phase's orders in submission order.
        grants: extra ability ids per player from the ruleset hook.
        order_problem: the ruleset hook's reason to refuse an otherwise valid order.

    Returns:
        The accepted actions (an actor's later order replaces his earlier ones beyond
        the ruleset's ``actions_per_phase``).
    """
    accepted: list[Action] = []
    for index, order in enumerate(orders):
        verdict = _check(work, index, order, grants.get(order.actor, ()))
        if isinstance(verdict, Action):
            problem = order_problem(order, verdict.ability) if order_problem else ""
            verdict = (Reject.REQUIREMENT, problem) if problem else verdict
        if isinstance(verdict, Action):
            accepted.append(verdict)
        else:
            reject(work, index, order.actor, order.ability, order.targets, verdict[0], verdict[1])
    return _limit_per_actor(work, accepted)


def reject(
    work: Work,
    index: int,
    actor: str,
    ability: str,
    targets: Sequence[str],
    reason: Reject,
    detail: str,
) -> None:
    """Emit the outcome event of a refused order."""
    work.emit(
        EventKind.OUTCOME,
        Visibility.GM,
        order=index,
        actor=actor,
        ability=ability,
        targets=list(targets),
        outcome="rejected",
        reason=str(reason),
        detail=detail,
    )


def _limit_per_actor(work: Work, actions: list[Action]) -> list[Action]:
    limit = (
        int(work.ruleset.options["actions_per_phase"].value)
        if ("actions_per_phase" in work.ruleset.options)
        else 0
    )
    keep: list[Action] = []
    counts: dict[tuple[str, str], int] = {}
    per_actor: dict[str, int] = {}
    for action in reversed(actions):
        key = (action.actor, action.ability.id)
        over_ability = counts.get(key, 0) >= action.ability.per_phase
        over_actor = limit > 0 and per_actor.get(action.actor, 0) >= limit
        if over_ability or over_actor:
            reject(
                work,
                action.index or 0,
                action.actor,
                action.ability.id,
                action.ordered,
                Reject.REPLACED,
                "a later order from the same player replaces it",
            )
            continue
        counts[key] = counts.get(key, 0) + 1
        per_actor[action.actor] = per_actor.get(action.actor, 0) + 1
        keep.append(action)
    keep.reverse()
    return keep


def _check(
    work: Work, index: int, order: Order, extra: Sequence[str]
) -> Action | tuple[Reject, str]:
    player = work.players.get(order.actor)
    if player is None:
        return Reject.UNKNOWN_ACTOR, f"no player named {order.actor!r}"
    sent, doer = order, str(order.params.get(PERFORMER) or order.actor)
    if doer not in work.players:
        return Reject.UNKNOWN_ACTOR, f"no player named {doer!r} to carry out the order"
    if doer != order.actor and not player.alive:
        return Reject.ACTOR_DEAD, f"{order.actor} is dead"
    if PERFORMER in order.params:  # a clan member's move: checked as the member's own order
        own = {k: v for k, v in order.params.items() if k != PERFORMER}
        extra = extra if doer == order.actor else ()
        order, player = replace(order, actor=doer, params=own), work.players[doer]
    ability_id = work.ruleset.aliases.get("abilities", {}).get(order.ability, order.ability)
    abilities = player_abilities(work, order.actor, extra)
    ability = abilities.get(ability_id)
    if not player.alive and (ability is None or USABLE_DEAD_TAG not in ability.tags):
        return Reject.ACTOR_DEAD, f"{order.actor} is dead"
    if ability is None:
        return (
            Reject.NO_SUCH_ABILITY,
            f"{order.actor} cannot {order.ability!r}: has {sorted(abilities)}",
        )
    problem = _check_use(work, order, ability) or _check_targets(work, order, ability)
    problem = (
        problem or _check_params(order.params, ability) or _check_requires(work, order, ability)
    )
    if problem:
        return problem
    by_kind = ability.effect_params.get("priority_by_phase") or {}
    return Action(
        index,
        sent.actor,
        ability,
        list(order.targets),
        ability.effect_params,
        str(by_kind.get(work.phase.kind, ability.priority)),
        order.actor,  # the performer: the sender, or the member the order names
        tuple(order.targets),
        order_params=sent.params,
    )


def _check_use(work: Work, order: Order, ability: Ability) -> tuple[Reject, str] | None:
    phase = work.phase
    if ability.passive:
        return Reject.PASSIVE, f"{ability.id} works by itself; it needs no order"
    if not ability.allowed_in(phase.kind):
        return (
            Reject.WRONG_PHASE,
            f"{ability.id} is used in {sorted(ability.phases)}, not {phase.kind}",
        )
    if phase.id in ability.not_on:
        return Reject.NOT_THIS_PHASE, f"{ability.id} may not be used on {phase.id}"
    left = uses_left(work, order.actor, ability)
    if left is not None and left <= 0:
        return Reject.NO_USES_LEFT, f"{ability.id} has no uses left"
    return None


def _check_targets(work: Work, order: Order, ability: Ability) -> tuple[Reject, str] | None:
    slots = ability.targets
    need = sum(1 for s in slots if not s.optional)
    if not need <= len(order.targets) <= len(slots):
        return Reject.TARGET_COUNT, f"{ability.id} takes {need}..{len(slots)} targets"
    players = [t for t, s in zip(order.targets, slots, strict=False) if s.kind is TargetKind.PLAYER]
    if len(set(players)) != len(players):
        return Reject.DUPLICATE_TARGET, "the same player is named twice"
    for target, slot in zip(order.targets, slots, strict=False):
        if slot.kind is not TargetKind.PLAYER:
            continue
        found = work.players.get(target)
        if found is None:
            return Reject.UNKNOWN_TARGET, f"no player named {target!r}"
        if slot.alive is True and not found.alive:
            return Reject.TARGET_DEAD, f"{target} is dead"
        if slot.alive is False and found.alive:
            return Reject.TARGET_ALIVE, f"{target} is alive"
        if target == order.actor and not slot.self:
            return Reject.SELF_TARGET, f"{ability.id} cannot target oneself"
        if target != order.actor and not slot.others:
            return Reject.OTHERS_TARGET, f"{ability.id} can only target oneself"
    return None


def _check_params(params: Any, ability: Ability) -> tuple[Reject, str] | None:
    for name, spec in ability.params.items():
        if name not in params and not spec.optional:
            return Reject.MISSING_PARAM, f"{ability.id} needs {name!r}"
        if name in params and spec.choices and params[name] not in spec.choices:
            return Reject.BAD_PARAM, f"{name!r} must be one of {list(spec.choices)}"
    for name in params:
        if name not in ability.params:
            return Reject.BAD_PARAM, f"{ability.id} has no parameter {name!r}"
    return None


def _check_requires(work: Work, order: Order, ability: Ability) -> tuple[Reject, str] | None:
    for key, value in ability.requires.items():
        if key == "status_exists" and not any(p.status(value) for p in work.living()):
            return Reject.REQUIREMENT, f"nobody alive is {value}"
        if key == "own_status_exists" and not any(
            (s := p.status(value)) and s.source == order.actor for p in work.living()
        ):
            return Reject.REQUIREMENT, f"nobody alive was made {value} by {order.actor}"
        if key == "dead_exists" and all(p.alive for p in work.players.values()):
            return Reject.REQUIREMENT, "nobody is dead yet"
    return None
