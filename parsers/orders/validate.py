"""Checking an order against the rules: the sender's abilities, phase, uses and living targets."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from rapidfuzz.distance import OSA

from parsers.names import fold
from parsers.orders.context import Context
from parsers.orders.history import History
from parsers.orders.model import Crime, Kind, Order
from parsers.orders.rules import check_rules, failed, holds_ability_for, look_alikes
from parsers.phases import Phase, parse_phase
from parsers.roster import Roster
from parsers.roster import Slot as RosterSlot
from resolver.model import Ability, TargetKind
from resolver.validate import USABLE_DEAD_TAG

# Statuses under which the rules (seed 000 "Condition") take a player's abilities away or
# leave it to the GM; the parser queues such orders instead of deciding.
BLOCKING_STATUSES = frozenset(
    {"arrested", "abroad", "injured", "temporarily_injured", "suspended", "detained", "held",
     "jailed", "on_plane"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Verdict:
    """``rule`` set: the order breaks it (rejected); ``doubt`` set: the GM must look;
    ``sender``: the rule refuses the sender any order (dead, jailed for good), whatever the
    PM meant."""

    rule: str | None = None
    doubt: str | None = None
    sender: bool = False


@dataclass(frozen=True, slots=True)
class Situation:
    """What the validator needs besides the context: roster, PM recipients, uses left and
    the game's history (None: unknown, so rules that look back queue the order)."""

    roster: Roster
    recipients: Collection[str] | None
    uses_left: Mapping[str, int]
    history: History | None = None


def validate(order: Order, ctx: Context, sit: Situation) -> Verdict:
    """Check one order. Never raises: a broken rule is a verdict.

    Args:
        order: the order as read.
        ctx: the parse context (actor, phase, abilities).
        sit: roster, recipients and uses left.

    Returns:
        The verdict (empty when the order stands).
    """
    actor = _slot(sit.roster, ctx.actor)
    if actor is not None and not actor.alive and order.kind is not Kind.WILL:
        ability = ctx.lexicon.ruleset.abilities.get(order.ability)
        if ability is None or USABLE_DEAD_TAG not in ability.tags:  # a dead mayor's successor
            return Verdict(rule=f"{ctx.actor} is dead and may not send orders", sender=True)
    check = _CHECKS.get(order.kind)
    if check is not None:
        return check(order, ctx, sit)
    lost = _lost(order, ctx, sit, actor)
    if lost is not None:
        return lost
    held = _held_for_good(ctx, actor, sit.history)
    if held is not None:
        return held
    blocking = actor.statuses & BLOCKING_STATUSES if actor is not None else frozenset()
    if blocking and not _ends_the_status(order, ctx, blocking):
        status = sorted(blocking)[0]
        return Verdict(doubt=f"{ctx.actor} is {status}: the GM decides whether it stands")
    return _ability_rules(order, ctx, sit)


def _ends_the_status(order: Order, ctx: Context, blocking: Collection[str]) -> bool:
    """ "I'd like to travel back to Japan" from a player abroad: the ability that gives and
    ends the sender's one blocking status (its ``effect_params.statuses``: DCTP's Travel,
    "can't use abilities (except Travel)") is not blocked by it; a status of one phase (on
    the plane) stays the GM's."""
    ability = ctx.lexicon.ruleset.abilities.get(order.ability)
    statuses = ctx.lexicon.ruleset.statuses
    if ability is None or len(blocking) != 1:
        return False
    (status,) = blocking
    managed = ability.effect_params.get("statuses") or ()
    known = statuses.get(status)
    return status in managed and known is not None and known.lasts == "game"


def _held_for_good(
    ctx: Context, actor: RosterSlot | None, history: History | None
) -> Verdict | None:
    """A sender under a status the ruleset says stops every action for the rest of the game
    (``blocks_actions``, ``lasts: game``: ru_mafia's ``jailed``, "выбывшими игроками", and
    ``jailed_by_jailer``; DCTP's ``arrested``): refused when the history is given (the
    statuses are the game's state); without one, the statuses may be stale: the GM checks."""
    statuses = ctx.lexicon.ruleset.statuses
    held = sorted(s for s in (actor.statuses if actor is not None else ())
                  if s in statuses and statuses[s].lasts == "game"
                  and statuses[s].effects.get("blocks_actions"))  # fmt: skip
    if not held:
        return None
    if history is None:
        return Verdict(doubt=f"{ctx.actor} is {held[0]}: the GM decides whether it stands")
    return Verdict(rule=f"{ctx.actor} is {held[0]}: no moves while {held[0]}", sender=True)


def _lost(order: Order, ctx: Context, sit: Situation, actor: RosterSlot | None) -> Verdict | None:
    """A status ``<ability>_lost`` of the ruleset takes that ability away for good (DCTP's
    ``protect_lost``: Ran "can't protect anybody anymore" after a successful protection,
    which the resolver gives her): refused when the history is given (the statuses are the
    game's state), else the GM checks."""
    status = f"{order.ability}_lost"
    if actor is None or status not in ctx.lexicon.ruleset.statuses:
        return None
    name = ctx.lexicon.name("ability", order.ability)
    if status not in actor.statuses and not _lost_in_history(order, ctx, sit.history):
        return None
    if sit.history is None:
        return Verdict(doubt=f"{ctx.actor} has lost {name} (as far as the roster shows): "
                       "the GM checks")  # fmt: skip
    return Verdict(rule=f"{ctx.actor} has lost {name} for the rest of the game")


def _lost_in_history(order: Order, ctx: Context, history: History | None) -> bool:
    """The sender's role loses the ability after a success (its ``penalty`` names
    ``loses_<ability>``) and the history shows an earlier success of it by the sender."""
    ability = ctx.lexicon.ruleset.abilities.get(order.ability)
    if ability is None or history is None:
        return False
    penalty = str(_own_version(ctx, ability).effect_params.get("penalty") or "")
    if f"loses_{order.ability}" not in penalty:
        return False
    return any("success" in (o.result or "").casefold() and o.phase != ctx.phase.id
               for o in history.by(ctx.actor, order.ability))  # fmt: skip


def _handed_by(order: Order, ctx: Context, sit: Situation) -> str | None:
    """The player who handed the sender their actions for this phase (the history's
    hand-offs) and whose role has the order's ability, or None."""
    if sit.history is None:
        return None
    roles = ctx.lexicon.ruleset.roles
    for handoff in sit.history.handoffs:
        if handoff.delegate != ctx.actor or not handoff.covers(ctx.phase.id):
            continue
        slot = next((s for s in sit.roster.slots if s.name == handoff.sender), None)
        role = roles.get(str(slot.role)) if slot is not None else None
        if role is not None and order.ability in role.abilities:
            return handoff.sender
    return None


def _ability_rules(order: Order, ctx: Context, sit: Situation) -> Verdict:
    ability = ctx.lexicon.ruleset.abilities.get(order.ability)
    name = ctx.lexicon.name("ability", order.ability)
    if ability is None:
        return Verdict(doubt=f"'{order.ability}' is not an ability of this ruleset")
    if ctx.abilities is not None and order.ability not in ctx.abilities:
        giver = _handed_by(order, ctx, sit)
        if giver is not None:  # "ebs gave me his gadgets for today so: bow tie goes to haakon"
            why = f"{ctx.actor} has no {name} ability, but {giver} (who has it) handed"
            return Verdict(doubt=f"{why} their actions to {ctx.actor}: for {giver}? the GM checks")
        return Verdict(rule=f"{ctx.actor} has no {name} ability")
    if not ability.allowed_in(ctx.phase.kind):
        # Sent during the day for the coming night (or the reverse): the GM places it.
        kinds = " or ".join(sorted(ability.phases))
        return Verdict(doubt=f"{name} is used at {kinds}, not during {ctx.phase.id}: for later?")
    if ctx.phase.id in ability.not_on:
        return Verdict(rule=f"{name} may not be used on {ctx.phase.id}")
    only = ability.effect_params.get("only_on")
    if only is not None and only != ctx.phase.id:
        return Verdict(rule=f"{name} is only used on {only}, not {ctx.phase.id}")
    if sit.uses_left.get(order.ability, 1) <= 0:
        return Verdict(rule=f"{ctx.actor} has no uses of {name} left")
    if sit.recipients is not None and _other_players(sit, ctx):
        policy = _option(ctx, "multi_recipient_orders")
        if policy == "ignore":
            return Verdict(rule="orders in a PM sent to other players too do not count")
        if policy is not None:
            return Verdict(doubt="a PM sent to other players too: the GM decides")
    found = _target_rules(order, ability, ctx, sit)
    if found.rule or found.doubt:
        return found
    own = _own_version(ctx, ability)
    given = order.ability in sit.uses_left
    rules = check_rules(order, own, ctx, sit.roster, sit.history, given)
    return Verdict(rule=rules.rule, doubt=rules.doubt)


def _alive_then(name: str, ctx: Context, history: History | None) -> bool:
    """The roster shows ``name`` dead, but the history shows the death came after the PM's
    phase (a day-1 vote on the player that day's vote lynched, or one killed on a later
    night): the player was alive when the order was given."""
    if history is None:
        return False
    lynched = history.lynched_on(name)
    if lynched is not None and _not_before(parse_phase(lynched), ctx.phase, ctx.night_first):
        return True
    for past in history.orders:
        ability = ctx.lexicon.ruleset.abilities.get(past.ability)
        if ability is None or str(ability.effect) != "attack" or failed(past.result):
            continue
        if past.targets[:1] == (name,) and past.phase != ctx.phase.id:
            return _not_before(parse_phase(past.phase), ctx.phase, ctx.night_first)
    return False


def _dead(roster: Roster, name: str) -> Verdict:
    """A dead target is refused, unless a living player's name is one letter from it
    ("guard ivo" with Ivo dead and Ivor alive): the sender may have meant the living one."""
    key = fold(name)
    near = [s.name for s in roster.slots if s.alive and s.name != name
            and len(key) >= 3 and OSA.distance(key, fold(s.name)) <= 1]  # fmt: skip
    if near:
        return Verdict(doubt=f"{name} is dead, and {near[0]} (alive) is one letter away: "
                       "the GM decides")  # fmt: skip
    return Verdict(rule=f"{name} is dead")


def _own_version(ctx: Context, ability: Ability) -> Ability:
    """The sender's role's version of an ability (a role may add limits to it)."""
    role = ctx.lexicon.ruleset.roles.get(ctx.role or "")
    return role.abilities.get(ability.id, ability) if role is not None else ability


def _target_rules(order: Order, ability: Ability, ctx: Context, sit: Situation) -> Verdict:
    verb = ctx.lexicon.name("ability", order.ability).casefold()
    player_specs = [s for s in ability.targets if s.kind == TargetKind.PLAYER]
    players = [s for s in order.targets if s.kind == TargetKind.PLAYER]
    twins = look_alikes(sit.roster)
    for spec, slot in zip(player_specs, players, strict=False):
        for name in (slot.value, *slot.alternatives):
            target = _slot(sit.roster, str(name))
            if target is None:
                return Verdict(doubt=f"'{name}' is not in the roster")
            if str(name) in twins:
                return Verdict(doubt=f"'{name}' may be any of {', '.join(twins[str(name)])}")
            if spec.alive is True and not target.alive and holds_ability_for(ctx, target.statuses):
                # the Jailer's "проверяю Богдану" on today's prisoner: a check for sin, or the
                # check of the prisoner?
                return Verdict(doubt=f"{name} is out of the game: {verb}, or the order meant "
                               "for them? the GM checks")  # fmt: skip
            if (
                spec.alive is True
                and not target.alive
                and not _alive_then(str(name), ctx, sit.history)
            ):
                return _dead(sit.roster, str(name))
            if spec.alive is False and target.alive:
                return Verdict(rule=f"{name} is alive ({verb} needs a dead player)")
            if name == ctx.actor and not spec.self:
                return Verdict(rule=f"{ctx.actor} may not {verb} themselves")
            if name != ctx.actor and not spec.others:
                return Verdict(rule=f"{ctx.actor} may only {verb} themselves")
    values = [s.value for s in order.targets] + [v for _, v in order.params]
    for value in values:
        if isinstance(value, Crime):
            return _crime_rules(value, ctx, sit)
    return Verdict()


def _crime_rules(crime: Crime, ctx: Context, sit: Situation) -> Verdict:
    if crime.crime not in ctx.lexicon.crimes:
        return Verdict(rule=f"{ctx.lexicon.name('ability', crime.crime)} is not a crime")
    victim = _slot(sit.roster, crime.victim) if crime.victim else None
    if victim is not None and victim.alive and _kill_failed(crime, ctx, sit.history):
        # the history shows the kill stopped (a protection): whether the attempt is the
        # crime "Killing" the ruleset does not say, and a false charge costs the officer
        return Verdict(doubt=f"{victim.name} did not die: whether an attempted kill is the "
                       "crime named is the GM's call")  # fmt: skip
    if crime.phase is None:
        return Verdict()
    try:
        when = parse_phase(crime.phase)
    except ValueError:
        return Verdict(doubt=f"crime phase '{crime.phase}' not understood")
    if when.kind != "prep" and _not_before(when, ctx.phase, ctx.night_first):
        return Verdict(rule=f"the crime must be from a past phase, not {crime.phase}")
    return Verdict()


def _kill_failed(crime: Crime, ctx: Context, history: History | None) -> bool:
    """The history records a killing of the crime's victim, in the crime's phase when it
    names one, that failed or was blocked."""
    if history is None or not _a_killing(ctx, crime.crime):
        return False
    return any(
        _victim(ctx, o.ability, o.targets) == crime.victim
        for o in history.orders
        if failed(o.result) and (crime.phase is None or o.phase == crime.phase)
    )


def _victim(ctx: Context, ability_id: str, targets: tuple[str, ...]) -> str | None:
    """The victim of a past killing order: the slot its ``target_rules`` call the victim
    (the leader's ``order_kill``: killer, victim), or the first target of a killing."""
    ability = ctx.lexicon.ruleset.abilities.get(ability_id)
    rules = dict(ability.effect_params.get("target_rules") or {}) if ability else {}
    for slot, rule in rules.items():
        index = int(str(slot).removeprefix("slot") or 0)
        if isinstance(rule, Mapping) and rule.get("role") == "victim" and index < len(targets):
            return targets[index]
    return targets[0] if targets and _a_killing(ctx, ability_id) else None


def _a_killing(ctx: Context, crime: str) -> bool:
    """Whether a crime is one of those the ruleset counts as a killing (the abilities the
    kill's ``crime_covers`` lists under its ``crime_id: killing``)."""
    for ability in ctx.lexicon.ruleset.abilities.values():
        params = ability.effect_params
        covers = params.get("crime_covers") or ()
        if params.get("crime_id") == "killing" and (crime == ability.id or crime in covers):
            return True
    return False


def _not_before(when: Phase, now: Phase, night_first: bool) -> bool:
    order = {"night": 0, "day": 1} if night_first else {"day": 0, "night": 1}
    return (when.number, order.get(when.kind, 0)) >= (now.number, order.get(now.kind, 0))


def _vote(order: Order, ctx: Context, sit: Situation) -> Verdict:
    settings = ctx.lexicon.ruleset.vote
    if settings.channel != "pm":
        return Verdict(rule="votes are cast in the game thread, not by PM")
    if ctx.phase.kind != "day":
        return Verdict(rule=f"no vote during {ctx.phase.id}")
    if sit.recipients is not None and _other_players(sit, ctx):
        if settings.multi_recipient_pm == "ignore":
            return Verdict(rule="a vote in a PM sent to other players too does not count")
        return Verdict(doubt="a vote in a PM sent to other players too: the GM decides")
    for slot in order.targets:
        if slot.value == "nobody":
            continue
        target = _slot(sit.roster, str(slot.value))
        if target is None:
            return Verdict(doubt=f"'{slot.value}' is not in the roster")
        if not target.alive and not _alive_then(target.name, ctx, sit.history):
            return _dead(sit.roster, str(slot.value))
        if slot.value == ctx.actor and not settings.self_vote:
            return Verdict(rule=f"{ctx.actor} may not vote for themselves")
        if str(slot.value) in look_alikes(sit.roster):
            return Verdict(doubt=f"'{slot.value}' has a look-alike name in the roster")
        lovers = _lovers_vote(ctx, sit, target)
        if lovers.rule or lovers.doubt:
            return lovers
    return Verdict()


def _lovers_vote(ctx: Context, sit: Situation, target: RosterSlot) -> Verdict:
    """A vote against the voter's lover, by the ruleset's option ``lovers_vote_against``:
    ``gm`` (Durarara's default: seed 003 forbids it and takes the voter's next vote, a
    penalty the resolver gives on the cast vote, so the GM decides), ``refuse``, ``count``
    (DCTP's default: its seed is silent, the vote counts as any). No option: the GM's."""
    voter = _slot(sit.roster, ctx.actor)
    paired = voter is not None and "lover" in voter.statuses and "lover" in target.statuses
    paired = paired or _paired_in_history(ctx, sit.history, target.name)
    policy = _option(ctx, "lovers_vote_against")
    if not paired or policy == "count":
        return Verdict()
    if policy == "refuse":
        return Verdict(rule=f"lovers may not vote against each other ({target.name})")
    return Verdict(doubt=f"{ctx.actor} votes against a lover: the GM checks the pair")


def _paired_in_history(ctx: Context, history: History | None, target: str) -> bool:
    """The history holds an order that made the voter and the target lovers (an ability
    giving the ``lover`` status to its two targets, durarara's Cupid), though the roster's
    statuses do not show the pair."""
    abilities = ctx.lexicon.ruleset.abilities
    return history is not None and any(
        (found := abilities.get(o.ability)) is not None
        and found.effect_params.get("status") == "lover"
        and {ctx.actor, target} <= set(o.targets)
        for o in history.orders
    )


def _handoff(order: Order, ctx: Context, sit: Situation) -> Verdict:
    delegate = str(order.targets[0].value) if order.targets else None
    if delegate is None:
        return Verdict()
    if delegate == ctx.actor:
        return Verdict(rule="a player cannot hand their actions to themselves")
    needs_cc = _option(ctx, "handoff_requires_cc")
    if needs_cc is None:
        return Verdict(doubt="this ruleset has no hand-off rule: the GM decides")
    if not needs_cc:
        return Verdict()
    if sit.recipients is None:
        return Verdict(doubt=f"cannot check that the PM was also sent to {delegate}")
    if delegate not in {_canonical(sit.roster, r) for r in sit.recipients}:
        return Verdict(rule=f"a hand-off counts only in a PM also sent to {delegate}")
    return Verdict()


def _nothing(order: Order, ctx: Context, sit: Situation) -> Verdict:
    return Verdict()


_CHECKS = {Kind.VOTE: _vote, Kind.HANDOFF: _handoff, Kind.WILL: _nothing, Kind.CANCEL: _nothing}


def _option(ctx: Context, name: str) -> object:
    option = ctx.lexicon.ruleset.options.get(name)
    return option.value if option is not None else None


def _slot(roster: Roster, name: str) -> RosterSlot | None:
    return next((s for s in roster.slots if s.name == name), None)


def _canonical(roster: Roster, name: str) -> str:
    slot = roster.by_author(name)
    return slot.name if slot is not None else name


def _other_players(sit: Situation, ctx: Context) -> bool:
    names = {_canonical(sit.roster, r) for r in sit.recipients or ()}
    players = {s.name for s in sit.roster.slots}
    return bool((names & players) - {ctx.actor})
