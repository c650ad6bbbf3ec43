"""The phase engine: ``resolve_phase(state, orders, ruleset, *, rng) -> Resolution``.

Orders are validated, queued by their ability's step, and run step by step in the
ruleset's order; system steps (``retaliate``, ``spread``, ``vote``) run where the order
lists them. An action is only affected by actions of earlier steps. Every order yields
exactly one ``outcome`` event: rejected, blocked, failed or done.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from types import ModuleType

from resolver import finalize
from resolver.abilities import ABILITIES
from resolver.combat import attack
from resolver.contracts import problem, slot_problem
from resolver.hooks import HOOKS
from resolver.hookspecs import HookView
from resolver.lynch import lynch_step
from resolver.model.catalogue import Ability, Ruleset, TargetKind
from resolver.model.events import EventKind, Resolution, Visibility
from resolver.model.state import GameState, LedgerEntry, Order, Phase, Primitive, Winner
from resolver.phases import next_phase, parse_phase
from resolver.rng import PurposeRng
from resolver.teamvote import merge_team_votes
from resolver.validate import PERFORMER, Reject, reject, uses_left, validate_orders
from resolver.work import Action, Work


def resolve_phase(
    state: GameState,
    orders: Sequence[Order],
    ruleset: Ruleset,
    *,
    rng: PurposeRng,
    votes: Mapping[str, str | None] | None = None,
    phase: str | None = None,
    absent: Collection[str] = (),
) -> Resolution:
    """Resolve one phase.

    Args:
        state: the state after the previous phase (never mutated).
        orders: the phase's orders, in submission order.
        ruleset: the game's ruleset.
        rng: the game's purpose-keyed random source.
        votes: lynch votes, voter → target (None: a vote for no lynch).
        phase: the phase id; defaults to the one after ``state.phase``.
        absent: players who took no part in this day at all (the runtime reads the thread;
            a ruleset's absence rule uses it).

    Returns:
        The new state and the phase's events.
    """
    current = parse_phase(phase, ruleset) if phase else next_phase(state.phase, ruleset)
    work = Work.start(state, ruleset, current, rng)
    work.hooks, work.apply = HOOKS.get(ruleset.hooks or ""), apply_primitive
    work.votes = dict(votes or {})
    work.absent = tuple(absent)
    if state.winner is not None:
        for voter, target in work.votes.items():
            work.gm(EventKind.VOTE_REJECTED, voter=voter, target=target, reason="the game is over")
        for i, order in enumerate(orders):
            reject(
                work,
                i,
                order.actor,
                order.ability,
                order.targets,
                Reject.GAME_OVER,
                "the game is over",
            )
        return Resolution(finalize.freeze(work, state), tuple(work.events))
    hooks = work.hooks
    _run_scheduled(work, current)
    start = getattr(hooks, "on_phase_start", None)
    if start is not None:
        for prim in start(HookView(work)):
            apply_primitive(work, prim)
    grants = hook_grants(work, hooks)
    for action in validate_orders(work, orders, grants, _order_problem(work, hooks)):
        work.acted.add(action.actor)
        work.accepted.append(action)
        work.queue(action)
    _run_steps(work, hooks)
    _after_deaths(work, hooks, finalize.settle_deaths(work))
    _end_of_phase(work, hooks)
    finalize.finish(work, _win_check(hooks))
    return Resolution(finalize.freeze(work, state), tuple(work.events))


def apply_primitive(work: Work, prim: Primitive) -> None:
    """Apply a hook's primitive now, or queue it for its step."""
    action = work.primitive_action(prim)
    if prim.step:
        work.queue(action)
    else:
        run_action(work, action)


def _after_deaths(work: Work, hooks: ModuleType | None, deaths: dict[str, str]) -> None:
    """Apply the ruleset's ``after_deaths`` primitives for this phase's deaths; deaths they
    cause (a lover's grief) settle in the same phase, and call it again."""
    hook = getattr(hooks, "after_deaths", None)
    for _ in range(len(work.players) + 1):  # each round settles deaths the last one caused
        if hook is None or not deaths:
            break
        for prim in hook(HookView(work), deaths):
            apply_primitive(work, prim)
        deaths = finalize.kill_dying(work)


def _end_of_phase(work: Work, hooks: ModuleType | None) -> None:
    """Apply the ruleset's ``on_phase_end`` primitives; their deaths settle in the phase."""
    hook = getattr(hooks, "on_phase_end", None)
    if hook is not None:
        for prim in hook(HookView(work)):
            apply_primitive(work, prim)
        _after_deaths(work, hooks, finalize.kill_dying(work))


def _order_problem(work: Work, hooks: ModuleType | None) -> Callable[[Order, Ability], str] | None:
    """The ruleset hook's ``order_problem`` bound to this phase, if it has one."""
    hook = getattr(hooks, "order_problem", None)
    if hook is None:
        return None
    return lambda order, ability: str(hook(HookView(work), order, ability))


def _win_check(hooks: ModuleType | None) -> Callable[[Work], Winner | None] | None:
    """The ruleset hook's own win check, if it has one."""
    hook = getattr(hooks, "check_win", None)
    if hook is None:
        return None
    return lambda work: hook(HookView(work))


def hook_grants(work: Work, hooks: ModuleType | None) -> dict[str, tuple[str, ...]]:
    """Extra ability ids per player this phase: grants so far plus the hook's ``grants``."""
    grants = dict(work.grants)
    hook = getattr(hooks, "grants", None)
    if hook is not None:
        for who, extra in hook(HookView(work)).items():
            grants[who] = (*grants.get(who, ()), *extra)
    return grants


def _run_scheduled(work: Work, current: Phase) -> None:
    due = [s for s in work.scheduled if s.phase == current.id]
    work.scheduled = [s for s in work.scheduled if s.phase != current.id]
    for item in due:
        apply_primitive(work, item.primitive)


def _run_steps(work: Work, hooks: ModuleType | None) -> None:
    steps = list(work.ruleset.steps(work.phase.kind))
    if work.votes and "vote" not in steps:
        for voter, target in work.votes.items():
            work.gm(
                EventKind.VOTE_REJECTED,
                voter=voter,
                target=target,
                reason=f"no vote in a {work.phase.kind} phase",
            )
    for step in steps:
        work.step = step
        system = SYSTEM_STEPS.get(step)
        if system is not None:
            system(work, hooks)
        for action in merge_team_votes(work, _pop_sorted(work, step)):
            run_action(work, action)
        after = getattr(hooks, "STEP_END", {}).get(step)
        if after is not None:
            after(work)
    for step in sorted(work.queued):  # actions whose step this phase kind does not list
        for action in _pop_sorted(work, step):
            _finish(work, action, "failed", f"step {step!r} is not part of {work.phase.kind}")


def _pop_sorted(work: Work, step: str) -> list[Action]:
    actions = work.queued.pop(step, [])
    seats = work.players
    return sorted(
        actions,
        key=lambda a: (
            seats[a.actor].seat if a.actor in seats else -1,
            a.index if a.index is not None else -1,
        ),
    )


def run_action(work: Work, action: Action) -> None:
    """Gate, route, record and apply one action; answer its order with one outcome event."""
    ability = action.ability
    action.performer = _performer(work, action)
    if action.index is not None:
        gate = _gate(work, action)
        if gate is not None:
            _record(work, action, (), gate[0])
            if (
                work.ruleset.options.get("spend_uses_on")
                and work.ruleset.option("spend_uses_on") == "attempted"
            ):
                _spend(work, action)
            _finish(work, action, *gate)
            return
    slots = ability.targets
    action.targets = [
        work.route(t, action.performer, i)
        if i >= len(slots) or slots[i].kind is TargetKind.PLAYER
        else t
        for i, t in enumerate(action.targets)
    ]
    players = [
        t
        for i, t in enumerate(action.targets)
        if i >= len(slots) or slots[i].kind is TargetKind.PLAYER
    ]
    visited = tuple(dict.fromkeys(players)) if ability.visits else ()
    role_before = work.players[action.actor].role if action.actor in work.players else None
    handler = hook_effect(work.ruleset, ability)
    reason = (
        ""
        if handler
        else slot_problem(ability)
        or problem(ability.effect, action.params, len(action.targets), work.ruleset)
    )
    if reason:  # a catalogue ability the engine cannot run yet: an outcome, not a crash
        action.outcome, action.reason = "failed", f"not resolvable: {reason}"
        visited = ()
    elif handler is not None:
        handler(action, work)
    else:
        ABILITIES[ability.effect](action, work)
    _record(work, action, visited, action.outcome)
    if action.index is not None:
        if work.players[action.actor].role == role_before:  # a converting use is spent by it
            _spend(work, action)
        _finish(work, action, action.outcome, action.reason)


def hook_effect(ruleset: Ruleset, ability: Ability) -> Callable[[Action, Work], None] | None:
    """The ruleset hook's own effect for an ability (``effect_params.handler``), if any."""
    name = ability.effect_params.get("handler")
    if not name:
        return None
    effects = getattr(HOOKS.get(ruleset.hooks or ""), "EFFECTS", {})
    found: Callable[[Action, Work], None] | None = effects.get(str(name))
    return found


def _performer(work: Work, action: Action) -> str:
    named = action.order_params.get(PERFORMER)  # the order's own performer wins
    if isinstance(named, str) and named in work.players:
        return named
    tag = action.params.get("performer_tag")
    if not tag or action.actor not in work.players:
        return action.actor
    faction = work.players[action.actor].faction
    for p in work.tagged_alive(str(tag)):
        if p.faction == faction:
            return p.name
    return action.actor


def _gate(work: Work, action: Action) -> tuple[str, str] | None:
    options = work.ruleset.options
    immediate = "night_deaths" in options and options["night_deaths"].value == "immediate"
    if immediate and (action.actor in work.dying or action.performer in work.dying):
        return "failed", "killed before acting"
    mode = str(action.params.get("blocked_if", "performer"))
    who = {
        "performer": {action.performer},
        "orderer": {action.actor},
        "either": {action.actor, action.performer},
        "none": set(),  # the ability decides itself (a DCTP kill order, a Quickshot)
    }.get(mode, {action.performer})
    if any(work.is_cancelled(w) for w in who):
        return "blocked", "controlled: no action"
    if any(work.is_blocked(w) for w in who):
        return "blocked", "blocked"
    if any(any(work.status_effect(w, "blocks_actions")) for w in who if w in work.players):
        return "blocked", "occupied"
    return None


def _record(work: Work, action: Action, visited: tuple[str, ...], outcome: str) -> None:
    if action.index is None and not action.ability.visits:
        return
    work.ledger.append(
        LedgerEntry(
            work.phase.id,
            action.actor,
            action.ability.id,
            tuple(action.targets),
            outcome,
            visited,
            action.performer,
        )
    )


def _spend(work: Work, action: Action) -> None:
    """Spend one use (or item charge); callers decide when, per ``spend_uses_on``. The use
    is the one the order was checked against: the named performer's for a clan member's move
    the clan head sent (``PERFORMER``), else the sender's."""
    ability = action.ability
    named = action.order_params.get(PERFORMER)
    spender = named if isinstance(named, str) and named in work.players else action.actor
    player = work.players[spender]
    left = uses_left(work, spender, ability)
    if left is None:
        return
    for item, _count in list(player.items.items()):
        idef = work.ruleset.items.get(item)
        if (
            idef is not None
            and idef.ability == ability.id
            and ability.id not in (work.role_of(spender).abilities)
        ):
            player.items[item] = max(0, left - 1)
            return
    player.uses[ability.id] = max(0, left - 1)


def _finish(work: Work, action: Action, outcome: str, reason: str) -> None:
    if action.index is None:
        return
    work.emit(
        EventKind.OUTCOME,
        Visibility.GM,
        order=action.index,
        actor=action.actor,
        ability=action.ability.id,
        targets=list(action.ordered),
        final_targets=list(action.targets),
        performer=action.performer,
        outcome=outcome,
        reason=reason,
    )


def _retaliate(work: Work, hooks: ModuleType | None) -> None:
    """Players with a ``retaliate`` status shoot everyone who visited them."""
    for player in work.living():
        for spec in work.status_effect(player.name, "retaliate"):
            for visitor in work.visitors_of(player.name):
                attack(
                    work,
                    visitor,
                    player.name,
                    str(spec.get("kind", "counter")),
                    tuple(spec.get("pierces", ())),
                    cause="retaliate",
                )


def _spread(work: Work, hooks: ModuleType | None) -> None:
    """Visitors of a player killed by a spreading attack die with him."""
    for victim, kind, attacker, params in list(work.spreads):
        dying = work.dying.get(victim)
        if dying is None or dying.kind != kind:
            continue
        for visitor in work.visitors_of(victim, exclude=attacker):
            attack(work, visitor, attacker, kind, tuple(params.get("pierces", ())), cause="spread")


def _vote(work: Work, hooks: ModuleType | None) -> None:
    override = getattr(hooks, "vote_step", None)
    prims = override(HookView(work)) if override is not None else None
    for prim in lynch_step(work, hooks) if prims is None else prims:
        apply_primitive(work, prim)


SYSTEM_STEPS: dict[str, Callable[[Work, ModuleType | None], None]] = {
    "retaliate": _retaliate,
    "spread": _spread,
    "vote": _vote,
}
"""Steps the engine runs itself when a ruleset's order lists them."""
