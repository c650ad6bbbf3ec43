"""The ruleset's own limits on one order, checked from the game state and its history.

Each limit is an ability's ``requires``/``effect_params`` key of the ruleset files. A limit
the state settles gives a rule (the order is refused) or nothing; a limit that needs what
the parser does not know (the history when none was given, the night's results) is a doubt:
the GM decides, the order is never accepted on a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime

from parsers.orders.context import Context
from parsers.orders.history import History, previous_of_kind
from parsers.orders.model import Claim, Order
from parsers.phases import parse_phase
from parsers.roster import Roster
from parsers.roster import Slot as RosterSlot
from resolver.model import Ability, Ruleset

# Statuses of a player taken out of the game for now (a clan head jailed is not "free").
OUT_STATUSES = frozenset({"arrested", "jailed", "detained", "held", "abroad", "on_plane"})
# Limits that compare with the same actor's orders of the previous phase of the same kind.
_IN_A_ROW = frozenset(
    {
        "not_consecutive",
        "not_same_two_nights",
        "not_same_player_two_nights",
        "not_same_twice_in_a_row",
        "not_same_player_twice_in_a_row",
        "not_same_two_days",
    }
)
# Limits on the same target over the whole game.
_ONCE_PER_TARGET = frozenset({"once_per_target", "once_per_player_per_game"})
# Limits that need the night's results or records the parser is never given: the GM decides.
_UNCHECKABLE = {
    "once_per_role": "not the same member twice",
    "every_other_phase_pair": "every other night/day pair",
    "each_costume_once": "each costume once",
    "cooldown_same_target_after_success_days": "a cooldown after a success",
    "requires_prior_check": "a check of the target first",
    "not_two_days_in_a_row_unless_only_db": "not two days in a row",
    "vermouth_bo_cooldown_days": "a cooldown on BO targets",
}
_UNCHECKABLE_REQUIRES = frozenset({"friend_dead", "target_cross_examined_before"})
# ``target_rules`` keys that name what a slot is for ("role: killer"), not a limit on it.
_SLOT_NAMES = frozenset({"role", "victim"})


@dataclass(frozen=True, slots=True)
class Check:
    """What one order is checked against: the order, its ability and the game."""

    order: Order
    ability: Ability
    ctx: Context
    roster: Roster
    history: History | None
    uses_given: bool = False

    @property
    def ruleset(self) -> Ruleset:
        """The game's ruleset."""
        return self.ctx.lexicon.ruleset

    @property
    def name(self) -> str:
        """The ability's display name."""
        return self.ctx.lexicon.name("ability", self.ability.id)

    def players(self) -> list[str]:
        """The order's player targets (first choices and ranked alternatives)."""
        out: list[str] = []
        for slot in self.order.targets:
            if slot.kind == "player":
                out += [str(v) for v in (slot.value, *slot.alternatives)]
        return out

    def slot(self, name: str) -> RosterSlot | None:
        """A roster slot by its name."""
        return next((s for s in self.roster.slots if s.name == name), None)

    def faction(self, slot: RosterSlot | None) -> str | None:
        """The faction of a slot's role, when the roster names a role of the ruleset."""
        role = self.ruleset.roles.get(slot.role or "") if slot is not None else None
        return role.faction if role is not None else None


@dataclass(frozen=True, slots=True)
class Finding:
    """A broken rule (``rule``) or a reason the GM must decide (``doubt``)."""

    rule: str | None = None
    doubt: str | None = None


def check_rules(
    order: Order,
    ability: Ability,
    ctx: Context,
    roster: Roster,
    history: History | None,
    uses_given: bool = False,
) -> Finding:
    """Every limit of the ruleset on ``order`` that the state can settle, first failure wins.

    Args:
        order: the order as read (a player's own ability order).
        ability: its ability, as the sender's role declares it.
        ctx: the parse context (actor, phase).
        roster: the players, their roles, statuses and who is alive.
        history: the game's history, None when unknown.
        uses_given: the caller gave the sender's uses left (else they are counted from
            the history).

    Returns:
        An empty finding when every limit holds.
    """
    check = Check(order, ability, ctx, roster, history, uses_given)
    doubt: str | None = None
    for rule in _RULES:
        found = rule(check)
        if found is not None and found.rule and rule in _STATE_RULES and history is None:
            # statuses are game state: without the game's history they may be stale
            found = Finding(doubt=f"{found.rule} (as far as the roster shows): the GM checks")
        if found is not None and found.rule:
            return found
        if found is not None and doubt is None:
            doubt = found.doubt
    return Finding(doubt=doubt)


def look_alikes(roster: Roster) -> dict[str, tuple[str, ...]]:
    """Players whose names fold to the same letters ("Мара" and the Latin "Mapa")."""
    groups = {slot.name: roster.look_alikes(slot.name) for slot in roster.slots}
    return {name: group for name, group in groups.items() if len(group) > 1}


def _requires(c: Check) -> Finding | None:
    for key, value in c.ability.requires.items():
        if (
            key == "status_exists"
            and not any(s.alive and value in s.statuses for s in c.roster.slots)
            and not _given_in_history(c, str(value))
        ):
            return Finding(rule=f"nobody alive is {value}: {c.name} has nothing to act on")
        if key == "dead_exists" and all(s.alive for s in c.roster.slots):
            return Finding(rule=f"nobody is dead yet: {c.name} has no target")
    needs = c.ability.effect_params.get("requires")
    if needs == "target_cross_examined_before" and _cross_examined(c):
        return None
    if needs in _UNCHECKABLE_REQUIRES:
        return Finding(doubt=f"{c.name} needs {str(needs).replace('_', ' ')}: the GM checks")
    return None


def failed(result: str | None) -> bool:
    """A past order's result says it failed or was blocked."""
    return any(w in (result or "").casefold() for w in ("fail", "block"))


def _cross_examined(c: Check) -> bool:
    """The history shows the sender cross-examining every target in an earlier phase (DCTP's
    Voice of Accusation: "on a player they have cross examined before")."""
    if c.history is None or not c.players():
        return False
    past = c.history.by(c.ctx.actor, "cross_examine")
    done = {t for o in past if not failed(o.result) for t in o.targets}
    return set(c.players()) <= done


def _given_in_history(c: Check, status: str) -> bool:
    """An applied order of the history gave ``status`` to a player still alive ("douse
    Anna" on night 2), though the roster does not show it: the status may exist."""
    if c.history is None:
        return False
    alive = {s.name for s in c.roster.slots if s.alive}
    for order in c.history.orders:
        ability = c.ruleset.abilities.get(order.ability)
        gives = ability is not None and ability.effect_params.get("status") == status
        if gives and not failed(order.result) and set(order.targets) & alive:
            return True
    return False


def _actor_status(c: Check) -> Finding | None:
    absent = c.ability.effect_params.get("requires_status_absent")
    actor = c.slot(c.ctx.actor)
    if absent and actor is not None and absent in actor.statuses:
        return Finding(rule=f"{c.ctx.actor} is {absent} and may not use {c.name}")
    needed = c.ability.effect_params.get("requires_status")
    if isinstance(needed, str) and actor is not None and needed not in actor.statuses:
        return _lacks_status(c, actor, needed)
    source = c.ability.effect_params.get("grant_source")
    if isinstance(source, str) and source.startswith("status.") and actor is not None:
        status = source.removeprefix("status.")
        if not _holds_status(c, actor, status):  # the BO leader's orders (seed 000)
            return Finding(doubt=f"{c.name} is the {status}'s; {c.ctx.actor} is not known as it")
    return None


def _holds_status(c: Check, actor: RosterSlot, status: str) -> bool:
    """The sender holds ``status``: the roster shows it, or the sender's role starts with it
    (Anokata is the BO leader) while no other player shows it and no order of the history
    could have handed it on (a leader vote)."""
    if status in actor.statuses:
        return True
    role = c.ruleset.roles.get(actor.role or "")
    if role is None or status not in role.start_statuses:
        return False
    if any(status in s.statuses for s in c.roster.slots):
        return False
    past = c.history.orders if c.history is not None else ()
    return not any(_gives_status(c, o.ability, status) for o in past)


def _gives_status(c: Check, ability_id: str, status: str) -> bool:
    """An ability of the ruleset that gives or moves ``status`` (the leader vote)."""
    ability = c.ruleset.abilities.get(ability_id)
    return ability is not None and ability.effect_params.get("status") == status


def _after_death(c: Check) -> Finding | None:
    """A power its holder uses once dead (``trigger: own_death``, Tom's parting shot) has a
    window after the death ("in the phase after his death, or the same one"); the roster
    shows that the sender is dead, not when he died: the GM checks the window."""
    actor = c.slot(c.ctx.actor)
    if c.ability.effect_params.get("trigger") != "own_death" or actor is None:
        return None
    if actor.alive:
        return _before_death(c)
    return Finding(doubt=f"{c.name} is used soon after {c.ctx.actor}'s death, and when he died "
                   "is not known here: the GM checks the window")  # fmt: skip


# "si je meurs", "if I'm killed", "если меня убьют": the sender prepares the choice for
# his death (the power's own trigger), it is not used now
_ON_MY_DEATH = re.compile(
    r"\b(?:si (?:jamais )?je (?:meurs|tombe|pars|saute|"
    r"suis (?:tué|tuée|lynché|lynchée|éliminé|éliminée))"
    r"|si (?:jamais )?(?:on|ils|le village) me (?:tue|lynche|pend|élimine)|"
    r"au cas où je (?:meurs|mourrais|tombe|ne (?:passe|survis|survivrais))|"
    r"si je venais à|quand je (?:mourrai|tomberai|partirai)|à ma mort|en mourant|"
    r"if (?:i|they) (?:die|get killed|am killed|'m killed|get lynched|lynch me|kill me)|"
    r"in case i (?:die|get killed|am killed|'m killed|get lynched)|"
    r"when i die|upon my death|on my death|"
    r"если (?:я умру|меня убьют|меня казнят|меня повесят)|в случае (?:моей )?смерти)",
    re.IGNORECASE,
)


def _before_death(c: Check) -> Finding | None:
    """ "Je tire sur Abélard cette nuit" from a living Tom: his shot is taken when he dies
    (a prepared "si je meurs" choice is the GM's, kept for his death). By night it is
    refused; by day the lynch may be his death in the same phase: the GM checks."""
    if _ON_MY_DEATH.search(c.order.source.replace("’", "'")):
        return None
    if c.ctx.phase.kind == "night":
        return Finding(rule=f"{c.name} is used when {c.ctx.actor} dies, and he is alive")
    return Finding(doubt=f"{c.name} is used when {c.ctx.actor} dies, and he is alive: "
                   "is it for today's lynch? the GM checks")  # fmt: skip


# the time a PM says it is sent at: "je te le dis maintenant (14h)", "il est 19h20",
# "it's 2pm now", "сейчас 14:00"
_SENT_NOW = re.compile(
    r"\b(?:il est|maintenant|it'?s|it is|now|сейчас)\s*\(?\s*"
    r"(\d{1,2})(?:\s*h\s*(\d{2})?|[:.](\d{2}))\s*(am|pm)?(?!\w)|"
    r"\b(?:it'?s|it is)\s+(\d{1,2})\s*(am|pm)\b",
    re.IGNORECASE,
)


def _sent_time(c: Check) -> tuple[int, int] | None:
    """The PM's send time (hour, minute) in the game's time: the history's ``sent_at``,
    else the time the PM itself says it is written at; None when neither says."""
    if c.history is not None and c.history.sent_at:
        try:
            at = datetime.fromisoformat(c.history.sent_at)
        except ValueError:
            return None
        return at.hour, at.minute
    found = _SENT_NOW.search(c.order.source.replace("’", "'"))
    if found is None:
        return None
    hour = int(found.group(1) or found.group(5))
    minute = int(found.group(2) or found.group(3) or 0)
    half = (found.group(4) or found.group(6) or "").casefold()
    hour += 12 if half == "pm" and hour < 12 else 0
    return (hour, minute) if hour < 24 and minute < 60 else None


def _window(c: Check) -> Finding | None:
    """ "Shinra et Celty ont de 19h00 à 22:00 pour décider" (``window``): an order sent
    outside it. Before it (the phase ends when the window closes) the option
    ``window_early`` says: refused, or the GM's; any other time outside is the GM's."""
    if c.history is not None and c.history.sent_at:
        return None  # a known send time: the runtime's deadlines place the order (11be30d)
    window = c.ability.effect_params.get("window")
    sent = _sent_time(c) if isinstance(window, tuple | list) and len(window) == 2 else None
    if sent is None or window is None:
        return None
    opens, closes = (tuple(int(x) for x in str(w).split(":")) for w in window)
    if opens <= sent < closes:
        return None
    at = f"{sent[0]:02d}:{sent[1]:02d}"
    start = c.ruleset.options.get("phase_start")
    early = start is None or tuple(int(x) for x in str(start.value).split(":")) == closes
    if early and c.ability.effect_params.get("window_early") == "refused":
        return Finding(rule=f"{c.name} is decided from {window[0]} to {window[1]}; "
                       f"this PM was sent at {at}")  # fmt: skip
    return Finding(doubt=f"{c.name} is decided from {window[0]} to {window[1]}; this PM was "
                   f"sent at {at}: the GM checks")  # fmt: skip


def _lacks_status(c: Check, actor: RosterSlot, needed: str) -> Finding:
    """ "Analyze: just available when Kogoro is sober": refused when the roster tracks the
    sender's statuses (it shows one the role starts with, "drunk"); else the GM checks."""
    role = c.ruleset.roles.get(actor.role or "")
    starts = set(role.start_statuses) if role else set()
    if starts & actor.statuses:
        return Finding(rule=f"{c.ctx.actor} is not {needed}: {c.name} needs it")
    return Finding(doubt=f"{c.name} needs {c.ctx.actor} to be {needed}, which the roster "
                   "does not show: the GM checks")  # fmt: skip


def _phase_limits(c: Check) -> Finding | None:
    params, now = c.ability.effect_params, c.ctx.phase
    first = parse_phase(c.ruleset.phases.first)
    first_night = f"night{max(first.number, 1)}" if first.kind != "night" else first.id
    if params.get("first_night_only") and now.kind == "night" and now.id != first_night:
        return Finding(rule=f"{c.name} is used on the first night only, not {now.id}")
    only = params.get("only_phase")
    if only == "prep" and now.kind != "prep" and now.id != first_night:
        # the rulesets file preparation actions as the first night's (they resolve first)
        return Finding(rule=f"{c.name} is used in the preparation phase only")
    where = params.get("where")
    if isinstance(where, str) and where != "pm":
        # "les Carrés Bleus désignent leur victime directement dans l'Antre": forumbot does
        # not read the den, so a member's PM is not the team's choice; the GM reads the den
        how = " by the team's vote" if params.get("team_vote") else ""
        return Finding(doubt=f"{c.name} is decided in the {where}{how}, not by PM: the GM decides")
    return None


def _counts(c: Check) -> Finding | None:
    params = c.ability.effect_params
    least = params.get("min_players")
    alive = sum(1 for s in c.roster.slots if s.alive)
    if isinstance(least, int) and alive < least:
        return Finding(rule=f"{c.name} needs {least} players alive; {alive} are")
    most_bo = params.get("max_bo_targets")
    if isinstance(most_bo, int):
        bo = [p for p in c.players() if c.faction(c.slot(p)) == "bo"]
        if len(bo) > most_bo:
            return Finding(rule=f"{c.name} may take at most {most_bo} BO member: {', '.join(bo)}")
    return None


def _target_rules(c: Check) -> Finding | None:
    rules = c.ability.effect_params.get("target_rules") or {}
    players = [s for s in c.order.targets if s.kind == "player"]
    for key, wants in rules.items():
        index = int(str(key).removeprefix("slot")) if str(key).startswith("slot") else -1
        if not 0 <= index < len(c.order.targets):
            continue
        value = str(c.order.targets[index].value)
        target = c.slot(value) if c.order.targets[index] in players else None
        for what, expected in dict(wants).items():
            found = _target_rule(c, target, value, str(what), expected)
            if found is not None:
                return found
    return None


def _target_rule(
    c: Check, target: RosterSlot | None, value: str, what: str, expected: object
) -> Finding | None:
    if what == "must_be" and target is not None and str(expected) not in target.statuses:
        return Finding(rule=f"{c.name} needs a target who is {expected}; {value} is not")
    held = target is not None and bool(target.statuses & {"arrested", "detained", "held"})
    if what == "arrested" and expected is True and target is not None and not held:
        return Finding(rule=f"{c.name} needs an arrested target; {value} is not")
    if what == "killed_this_night" and target is not None and _killed_before(c, target):
        return Finding(rule=f"{c.name} needs a target killed this night; {value} died earlier")
    if what == "jailed_today" and expected is True:
        return _jailed_today(c, target, value)
    if what in _SLOT_NAMES or what in ("must_be", "arrested"):
        return None
    # a limit the state does not settle ("killed_this_night", "detained_by_actor", one the
    # parser does not know): never passed on a guess
    return Finding(doubt=f"{c.name} needs a target {what.replace('_', ' ')}: the GM checks")


def _jailed_today(c: Check, target: RosterSlot | None, value: str) -> Finding | None:
    """Seed 004's Jailer checks or releases «посаженного в текущий день» only: the player
    the day vote just before this night jailed (the resolver's ``jailed_today``), as the
    history's day results say. Unknown or silent history: the GM checks."""
    day = _vote_day(c)
    result = c.history.day_result(day) if c.history is not None else None
    if result is not None and result.player == value:
        return None
    if result is not None:
        return Finding(rule=f"{c.name} takes only the player the {day} vote jailed "
                       f"({result.player or 'nobody'}), not {value}")  # fmt: skip
    earlier = c.history.lynched_on(value) if c.history is not None else None
    if earlier is not None:
        return Finding(rule=f"{value} was jailed on {earlier}, not by the {day} vote: "
                       f"{c.name} takes only that day's prisoner")  # fmt: skip
    if target is not None and target.alive and "jailed" not in target.statuses:
        # (a jailed player is out of the game: dead, or marked jailed)
        return Finding(rule=f"{value} is not jailed: {c.name} takes only the {day} prisoner")
    return Finding(doubt=f"{c.name} takes only the player the {day} vote jailed, and the "
                   "history does not say who that is: the GM checks")  # fmt: skip


def _vote_day(c: Check) -> str:
    """The day whose vote comes just before the order's phase (that day itself by day)."""
    now = c.ctx.phase
    return now.id if now.kind != "night" else now.previous("day", night_first=c.ctx.night_first).id


def _killed_before(c: Check, target: RosterSlot) -> bool:
    """The roster shows the target dead and the history an attack on them that worked in an
    earlier phase (seed 004's Reanimator takes "трупы за прошедшую ночь" only): not a body
    of this night. A death the history does not show stays with the GM."""
    if target.alive or c.history is None:
        return False
    for order in c.history.orders:
        ability = c.ruleset.abilities.get(order.ability)
        if ability is None or str(ability.effect) != "attack" or failed(order.result):
            continue
        if order.phase != c.ctx.phase.id and order.targets[:1] == (target.name,):
            return parse_phase(order.phase).number <= c.ctx.phase.number
    return False


def _shielded(c: Check) -> Finding | None:
    """A protection a target's status refuses (a revealed Mayor cannot be healed or guarded:
    the status's ``unprotectable`` kinds)."""
    kind = c.ability.effect_params.get("kind")
    if str(c.ability.effect) != "protect" or not kind:
        return None
    for name in c.players():
        target = c.slot(name)
        for status in sorted(target.statuses) if target is not None else ():
            found = c.ruleset.statuses.get(status)
            if found is not None and kind in (found.effects.get("unprotectable") or ()):
                shown = found.name.get("en") or status.replace("_", " ")
                return Finding(rule=f"{c.name} cannot reach {name}, who is {shown}")
    return None


def _jailed(c: Check) -> Finding | None:
    """Seed 000: an arrested player: "Any actions, except those that release them from
    prison, on them will fail" (a status with ``targets_fail``; an ability whose ``removes``
    lists that status releases)."""
    removes = c.ability.effect_params.get("removes") or ()
    frees = {*([removes] if isinstance(removes, str) else removes), *_meant_for(c.ability)}
    for name in _acted_on(c):
        target = c.slot(name)
        for status in sorted(target.statuses) if target is not None else ():
            found = c.ruleset.statuses.get(status)
            if found is None or not found.effects.get("targets_fail") or status in frees:
                continue
            shown = found.name.get("en") or status.replace("_", " ")
            if _holds_one_meant_for(c, status):  # the Jailer's "проверяю Лукерью"
                return Finding(doubt=f"{name} is {shown}: {c.name}, or the order meant for them?")
            return Finding(rule=f"{name} is {shown}: actions on them fail, {c.name} included")
    return None


def _holds_one_meant_for(c: Check, status: str) -> bool:
    """The sender holds another ability meant for targets with ``status``."""
    return any(status in _meant_for(found) for a in c.ctx.abilities or ()
               if (found := c.ruleset.abilities.get(a)) is not None)  # fmt: skip


def holds_ability_for(ctx: Context, statuses: Iterable[str]) -> bool:
    """The sender holds an ability meant for targets with one of ``statuses`` (seed 004's
    Jailer: the check and the release of today's prisoner, ``jailed_today``)."""
    wanted = set(statuses)
    return any(_meant_for(found) & wanted for a in ctx.abilities or ()
               if (found := ctx.lexicon.ruleset.abilities.get(a)) is not None)  # fmt: skip


_STEM = 5  # letters an order word shares with a word of the ability meant for the prisoner


def meant_for_reading(order: Order, trigger: str, ctx: Context, roster: Roster) -> Order | None:
    """ "Проверяю Богдану" from the Jailer, Богдана jailed: a check for sin on a player out
    of the game fails, so the order word, when each of its words shares its stem with the
    vocabulary of the sender's one ability meant for that status ("проверяю посаженного";
    not "проверяю на грешность"), is that ability's order (checked as such by the caller);
    else None."""
    rules = ctx.lexicon.ruleset
    players = [s for s in order.targets if s.kind == "player"]
    name = str(players[0].value) if len(players) == 1 == len(order.targets) else None
    target = next((s for s in roster.slots if s.name == name), None)
    statuses = set(target.statuses) if target is not None else set()
    stems = [w[:_STEM] for w in trigger.casefold().split() if len(w) > 2]
    meant = [a for a in sorted(ctx.abilities or ()) if a != order.ability and a in rules.abilities
             and _meant_for(rules.abilities[a]) & statuses
             and len(rules.abilities[a].targets) == 1
             and all(_shares_stem(rules.abilities[a], stem) for stem in stems)]  # fmt: skip
    if not stems or len(stems[0]) < _STEM or len(meant) != 1:
        return None
    return replace(order, ability=meant[0])


def _shares_stem(ability: Ability, stem: str) -> bool:
    """A word of the ability's vocabulary starts with ``stem``."""
    return any(w.startswith(stem) for phrases in ability.vocabulary.values()
               for phrase in phrases for w in phrase.casefold().split())  # fmt: skip


def _meant_for(ability: Ability) -> set[str]:
    """Statuses an ability's targets must hold (``target_rules: {slot0: {jailed_today:
    true}}``, seed 004's Jailer on today's prisoner): its orders on them do not fail."""
    rules = ability.effect_params.get("target_rules") or {}
    keys = {str(k) for slot in rules.values() if isinstance(slot, Mapping) for k in slot}
    return {k.removesuffix("_today") for k in keys}


def _acted_on(c: Check) -> list[str]:
    """The players the order acts on: not a slot its ``target_rules`` name the ``killer``
    (the leader's kill order names who kills, then whom)."""
    rules = c.ability.effect_params.get("target_rules") or {}
    out: list[str] = []
    for index, slot in enumerate(c.order.targets):
        if slot.kind == "player" and dict(rules.get(f"slot{index}") or {}).get("role") != "killer":
            out += [str(v) for v in (slot.value, *slot.alternatives)]
    return out


def _lovers(c: Check) -> Finding | None:
    """An order on one's lover: refused for an ability tagged ``harms`` (lovers may not
    harm each other); for one with ``own_lover`` (durarara's ``charm_own_lover``) as the
    option says: ``allowed`` stands, ``refused`` refuses, ``gm`` queues."""
    harms = "harms" in c.ability.tags
    policy = c.ability.effect_params.get("own_lover")
    if not harms and policy in (None, "allowed"):
        return None
    sender = c.slot(c.ctx.actor)
    if sender is None or "lover" not in sender.statuses:
        return None
    lovers = [s.name for s in c.roster.slots if "lover" in s.statuses and s.name != sender.name]
    for name in c.players():
        if name not in lovers:
            continue
        if len(lovers) > 1:  # more than one pair: which is the sender's, the GM knows
            return Finding(doubt=f"{name} is a lover, maybe {c.ctx.actor}'s: the GM checks")
        if harms or policy == "refused":
            return Finding(rule=f"{c.ctx.actor} may not use {c.name} on their lover {name}")
        return Finding(doubt=f"{c.name} on {c.ctx.actor}'s lover {name}: the GM decides")
    return None


def _target_classes(c: Check) -> Finding | None:
    """A target its ability cannot take: a role guess outside the roles allowed, a target of
    a faction or role the ability is not for (the GM decides what happens then)."""
    params = c.ability.effect_params
    allowed = params.get("allowed_roles") or params.get("only_roles")
    if allowed:
        roles = _expand_roles(
            c.ruleset, allowed if isinstance(allowed, tuple | list) else [allowed]
        )
        for slot in c.order.targets:
            if slot.kind == "role" and roles is not None and str(slot.value) not in roles:
                return Finding(rule=f"{c.name} may name only {', '.join(sorted(roles))}")
            if slot.kind == "role" and roles is None:
                return Finding(doubt=f"{c.name} may name only {allowed}: the GM checks")
    actor = c.slot(c.ctx.actor)
    barred = params.get("not_for_factions")
    if barred and c.faction(actor) in (barred if isinstance(barred, tuple | list) else [barred]):
        return Finding(rule=f"{c.name} is not for the {c.faction(actor)} faction")
    for key in ("not_on_roles",):  # only_against/not_against say what the effect touches
        limit = params.get(key)
        if limit is None:
            continue
        names = limit if isinstance(limit, tuple | list) else [limit]
        for player in c.players():
            found = _target_class(c, player, key, [str(n) for n in names])
            if found is not None:
                return found
    return None


def _target_class(c: Check, player: str, key: str, names: list[str]) -> Finding | None:
    slot = c.slot(player)
    if slot is None or slot.role is None:
        return None
    classes = {slot.role, c.faction(slot) or ""}
    if classes & set(names):
        why = key.replace("_", " ")
        return Finding(doubt=f"{c.name} is {why} {', '.join(names)}; {player} is {slot.role}")
    return None


def _expand_roles(ruleset: Ruleset, names: Iterable[object]) -> set[str] | None:
    roles: set[str] = set()
    for name in map(str, names):
        if name in ruleset.roles:
            roles.add(name)
        elif name in ruleset.factions:
            roles |= {r for r, d in ruleset.roles.items() if d.faction == name}
        elif name.startswith("special_"):
            # "spé villageois": the roles of the villager's faction other than the villager
            word = name.removeprefix("special_")
            plain = next((w for w in (word, word.removesuffix("s")) if w in ruleset.roles), None)
            if plain is None:
                return None
            faction = ruleset.roles[plain].faction
            roles |= {r for r, d in ruleset.roles.items() if d.faction == faction} - {plain}
        else:
            return None  # a group the ruleset does not list ("special_villagers")
    return roles


def _param_lists(c: Check) -> Finding | None:
    """A parameter the ruleset limits to a list (``param_rules: {item: {from: gift_list}}``:
    the Fairy gives only the items of her gift list) must be on it."""
    params = c.ability.effect_params
    for key, rule in dict(params.get("param_rules") or {}).items():
        listed = params.get(str(rule.get("from"))) if isinstance(rule, Mapping) else None
        value = c.order.param(str(key))
        if not isinstance(listed, list | tuple) or value is None:
            continue
        if str(value) not in map(str, listed):
            shown = c.ctx.lexicon.name("item", str(value))
            return Finding(rule=f"{shown} is not on the list {c.name} may give")
    return None


def _claims(c: Check) -> Finding | None:
    """The phase an investigation may ask about (seed 000: Investigate is about the current
    night, Special Investigate about a past night or the preparation phase)."""
    params = c.ability.effect_params
    claims = [s.value for s in c.order.targets if isinstance(s.value, Claim)]
    now = c.ctx.phase
    for claim in claims:
        if claim.phase is None and params.get("phase") == "past_night_or_prep":
            return Finding(doubt=f"{c.name}: which past night? The GM checks")
        if claim.phase is None:
            continue
        try:
            when = parse_phase(claim.phase)
        except ValueError:
            return Finding(doubt=f"the claim's phase '{claim.phase}' is not understood")
        past = when.kind == "prep" or (when.kind, when.number) != (now.kind, now.number)
        past = past and when.number <= now.number
        if params.get("phase") == "past_night_or_prep" and not past:
            return Finding(rule=f"{c.name} asks about a past night, not {claim.phase}")
        current = params.get("claim_phase") == "current" or params.get("phase") == "current_night"
        if current and when.id != now.id:
            return Finding(rule=f"{c.name} asks about the current night, not {claim.phase}")
    if params.get("target_dead_or_arrested") == "invalid":
        for claim in claims:  # the suspect; the victim of a past kill is dead, of course
            slot = c.slot(claim.subject) if claim.subject else None
            if slot is not None and (not slot.alive or slot.statuses & {"arrested"}):
                return Finding(rule=f"{c.name} on {claim.subject}, dead or arrested, is invalid")
    return None


def _only_if(c: Check) -> Finding | None:
    """ "shoot only when the clan has no free Mafioso" (``only_if: no_free_X_or_Y_in_clan``)."""
    cond = c.ability.effect_params.get("only_if")
    if not isinstance(cond, str):
        return None
    if cond.startswith("no_") and cond.removeprefix("no_") in c.ruleset.roles:
        role = cond.removeprefix("no_")
        there = [s.name for s in c.roster.slots if s.role == role and s.alive]
        return (
            Finding(rule=f"{c.name} only when there is no {role} ({there[0]} is)")
            if there
            else None
        )
    if not (cond.startswith("no_free_") and cond.endswith("_in_clan")):
        return Finding(doubt=f"{c.name} only if {cond.replace('_', ' ')}: the GM checks")
    roles = cond.removeprefix("no_free_").removesuffix("_in_clan").split("_or_")
    roles = [r if r in c.ruleset.roles else f"mafia_{r}" for r in roles]
    free = [s.name for s in c.roster.slots if s.role in roles and s.alive
            and not s.statuses & OUT_STATUSES and s.name != c.ctx.actor]  # fmt: skip
    if free:
        return Finding(rule=f"{c.name} only when the clan has no free {roles[0]} ({free[0]} is)")
    return None


def _uses(c: Check) -> Finding | None:
    """Uses of a limited ability counted from the history when no uses left were given."""
    if c.ability.uses is None or c.history is None or c.uses_given:
        return None
    used = [o for o in c.history.by(c.ctx.actor, c.ability.id) if o.phase != c.ctx.phase.id]
    if len(used) >= c.ability.uses:
        return Finding(
            rule=f"{c.ctx.actor} has used {c.name} {len(used)} time(s) of {c.ability.uses}"
        )
    return None


def _team_uses(c: Check) -> Finding | None:
    """ "One use for the whole team, used by a single Blue Square" (``team_uses``,
    ``one_user``): a teammate's use of an earlier phase spends it (refused); one sent this
    phase by another member leaves the GM to say which stands."""
    limit = c.ability.effect_params.get("team_uses")
    if not isinstance(limit, int) or c.history is None:
        return None
    faction = c.faction(c.slot(c.ctx.actor))
    if faction is None:
        return None
    now = c.ctx.phase.id
    team = [o for o in c.history.orders if o.ability == c.ability.id
            and c.faction(c.slot(o.actor)) == faction]  # fmt: skip
    spent = [o for o in team if o.phase != now]
    if len(spent) >= limit:
        return Finding(rule=f"the team's {c.name} is spent ({spent[0].actor}, {spent[0].phase})")
    others = [o for o in team if o.phase == now and o.actor != c.ctx.actor]
    if others and (c.ability.effect_params.get("one_user") or len(spent) + len(others) >= limit):
        return Finding(doubt=f"{others[0].actor} sent {c.name} this {c.ctx.phase.kind} too: "
                       "one member uses it, the GM decides which stands")  # fmt: skip
    return None


def _history(c: Check) -> Finding | None:
    params = c.ability.effect_params
    keys = [k for k in params if params.get(k) and (k in _IN_A_ROW or k in _ONCE_PER_TARGET)]
    keys += [k for k in ("per_target_uses", "self_uses", "not_twice_in_a_row") if k in params]
    if not keys:
        return None
    if c.history is None:
        if previous_of_kind(c.ctx.phase) is None or c.ctx.phase.number <= 1:
            return None  # nothing earlier to compare with
        return Finding(doubt=f"{c.name}: the rules look at earlier phases and no history was given")
    return _against_history(c, c.history, keys)


def _against_history(c: Check, history: History, keys: list[str]) -> Finding | None:
    earlier = [o for o in history.by(c.ctx.actor, c.ability.id) if o.phase != c.ctx.phase.id]
    previous = previous_of_kind(c.ctx.phase)
    last = [o for o in earlier if o.phase == previous]
    for player in c.players():
        if any(k in _IN_A_ROW for k in keys) and any(player in o.targets for o in last):
            return Finding(rule=f"{c.name} may not take {player} two {c.ctx.phase.kind}s in a row")
        if any(k in _ONCE_PER_TARGET for k in keys) and any(player in o.targets for o in earlier):
            return Finding(rule=f"{c.name} takes {player} once a game; already used on them")
        limit = c.ability.effect_params.get("per_target_uses")
        used = sum(1 for o in earlier if player in o.targets)
        if isinstance(limit, int) and used >= limit:
            return Finding(rule=f"{c.name} takes {player} at most {limit} times a game")
        own = c.ability.effect_params.get("self_uses")
        if isinstance(own, int) and player == c.ctx.actor and used >= own:
            return Finding(rule=f"{c.ctx.actor} may use {c.name} on themselves {own} time(s)")
    if "not_twice_in_a_row" in keys and last:
        return Finding(rule=f"{c.name} may not be used two {c.ctx.phase.kind}s in a row")
    return None


def _same_phase(c: Check) -> Finding | None:
    """Limits on what others did this phase or what the sender did before, read from the
    history: one Detective Boy a day, one detainee at a time, a release of one's own
    detainee."""
    params = c.ability.effect_params
    keys = [k for k in ("db_one_per_day", "one_at_a_time", "own_detainee_only")
            if params.get(k)]  # fmt: skip
    if not keys:
        return None
    if c.history is None:
        return Finding(doubt=f"{c.name}: the rules look at other orders and no history was given")
    now = c.ctx.phase.id
    if "db_one_per_day" in keys:
        others = [o for o in c.history.in_phase(now)
                  if o.actor != c.ctx.actor and _one_db_a_day(c.ruleset, o.ability)]  # fmt: skip
        if others:
            return Finding(rule=f"only one Detective Boy acts a day: {others[0].actor} did")
    held = [t for o in c.history.by(c.ctx.actor, "detention") for t in o.targets]
    held = [t for t in held if (s := c.slot(t)) is not None and "detained" in s.statuses]
    if "one_at_a_time" in keys and held:
        return Finding(rule=f"{c.ctx.actor} already holds {held[0]} in detention")
    if "own_detainee_only" in keys:
        for player in c.players():
            if player not in held:
                return Finding(rule=f"{c.name} only frees the sender's own detainee, not {player}")
    return None


def _one_db_a_day(ruleset: Ruleset, ability_id: str) -> bool:
    ability = ruleset.abilities.get(ability_id)
    return ability is not None and bool(ability.effect_params.get("db_one_per_day"))


def _unknowable(c: Check) -> Finding | None:
    """Limits on repeated use the parser cannot weigh: none applies to a first use (read
    from the history); otherwise the GM decides."""
    for key, what in _UNCHECKABLE.items():
        if not c.ability.effect_params.get(key):
            continue
        if key == "requires_prior_check" and c.history is not None:
            earlier = [o for o in c.history.orders if o.actor == c.ctx.actor]
            if all(any(p in o.targets for o in earlier) for p in c.players()):
                return None
            return Finding(doubt=f"{c.name} needs a check of the target first: none on record")
        if c.history is not None and not c.history.by(c.ctx.actor, c.ability.id):
            return None  # a first use breaks no limit on repeating it
        return Finding(doubt=f"{c.name} allows {what}: the GM checks")
    return None


def _orders_by(c: Check) -> Finding | None:
    """ "Ходы отправляет Босс": a clan member's own moves while the clan head is free."""
    actor = c.slot(c.ctx.actor)
    if c.order.performer:
        return None  # sent for the performer: the sender's right is ``performer_finding``'s
    own_move = "common" in c.ability.tags and (not c.players() or c.ability.effect == "item")
    if actor is None or actor.role is None or own_move:
        return None  # staying home, one's own items: every player's own
    head = clan_head(c.ruleset, actor.role)
    if head is None or head == actor.role:
        return None
    heads = _free(c.roster, head)
    if not heads:
        return _successor_doubt(c, actor.role)
    why = f"the clan's moves are sent by its head ({heads[0]}), not {c.ctx.actor}"
    if c.history is None:
        return Finding(doubt=f"{why}, unless {heads[0]} handed them over (no history given)")
    if any(c.history.delegates_to(h, c.ctx.actor, c.ctx.phase.id) for h in heads):
        return None
    return Finding(rule=why)


def _team_holder(c: Check) -> Finding | None:
    """ "The Godfather gets the final say on who the Mafia kills": a faction's kill that the
    sender's role does not hold is the holder's to order while a holder is alive and free."""
    actor = c.slot(c.ctx.actor)
    if "faction_kill" not in c.ability.tags or actor is None or actor.role is None:
        return None
    role = c.ruleset.roles.get(actor.role)
    granted = {str(g) for st in actor.statuses if (d := c.ruleset.statuses.get(st))
               for g in d.effects.get("grants") or ()}  # fmt: skip
    if role is None or c.ability.id in role.abilities or c.ability.id in granted:
        return None
    holders = [s for s in c.roster.slots if s.alive and s.name != c.ctx.actor
               and not s.statuses & OUT_STATUSES
               and _holds(c.ruleset, s.role, c.ability.id)]  # fmt: skip
    if not holders:
        return None  # the holder is dead or out: the member's own order (succession)
    head = holders[0]
    return Finding(doubt=f"{c.name} is ordered by {head.name} ({head.role}) while alive, "
                   f"not by {c.ctx.actor}: the GM decides")  # fmt: skip


def _holds(ruleset: Ruleset, role_id: str | None, ability_id: str) -> bool:
    role = ruleset.roles.get(role_id) if role_id else None
    return role is not None and ability_id in role.abilities


def _rotation(c: Check) -> Finding | None:
    """Seed 000: each BO member attempts a night murder before any member gets a second
    turn (option ``night_kill_required: rotation``); the performer is read from the order."""
    option = c.ruleset.options.get("night_kill_required")
    if option is None or option.value != "rotation" or c.ability.id not in ("kill", "order_kill"):
        return None
    performer = c.players()[0] if c.ability.id == "order_kill" and c.players() else c.ctx.actor
    faction = c.faction(c.slot(c.ctx.actor))
    members = [s.name for s in c.roster.slots if s.alive and c.faction(s) == faction]
    if c.history is None:
        if c.ctx.phase.number <= 1:
            return None
        return Finding(doubt="the BO kills in turn and no history was given: the GM checks")
    kills = {m: 0 for m in members}
    for order in c.history.orders:
        if order.ability not in ("kill", "order_kill") or order.phase == c.ctx.phase.id:
            continue
        who = order.performer or (order.targets[0] if order.ability == "order_kill" and
                                  order.targets else order.actor)  # fmt: skip
        if who in kills:
            kills[who] += 1
    if performer in kills and kills[performer] > min(kills.values()):
        waiting = [m for m, n in kills.items() if n < kills[performer]]
        return Finding(doubt=f"{performer} killed before while {waiting[0]} has not: the GM checks")
    return None


def performer_finding(
    ruleset: Ruleset,
    roster: Roster,
    sender: str,
    performer: str,
    history: History | None,
    phase: str,
) -> str | None:
    """Why ``sender`` may not send ``performer``'s move now (None when they may).

    Seed 004: "Ходы отправляет Босс", "Ходы отправляются Шерифом": the clan's head (the
    role its faction's or clan's ``orders_by`` names) sends the moves of the clan's members.
    The sender must hold that role, alive and free, with no hand-off of their actions for
    this phase on record; the performer must be alive, free and of the same clan. Who sends
    after the head is out (seed 004: "самый ранний по времени Рядовой") is not checked: the GM.
    """
    by_name = {s.name: s for s in roster.slots}
    doer, head = by_name.get(performer), by_name.get(sender)
    if doer is None or head is None or not doer.role or not head.role:
        return f"who {performer} is in the game is not known: the GM checks"
    if not doer.alive:
        return f"{performer} is dead: who carries out the move?"
    out = sorted(doer.statuses & (OUT_STATUSES | _PERFORMER_BLOCKS))
    if out:
        return f"{performer} is {out[0]}: the GM decides whether the move stands"
    if head.statuses & (OUT_STATUSES | _PERFORMER_BLOCKS):
        return f"{sender} is {sorted(head.statuses)[0]}: may they send the clan's moves?"
    clan = clan_head(ruleset, doer.role)
    if clan is None:
        return f"the ruleset does not say who sends {performer}'s moves: the GM checks"
    roles = ruleset.roles
    same_side = head.role in roles and roles[head.role].faction == roles[doer.role].faction
    successor = next_sender(ruleset, doer.role) if not _free(roster, clan) else None
    entitled = head.role == clan or (
        successor == head.role and _free(roster, successor) == [sender]
    )
    if not entitled or not same_side:
        return f"{performer}'s moves are sent by the clan's head, not by {sender}: the GM checks"
    if history is not None and any(h.sender == sender and h.covers(phase)
                                   for h in history.handoffs):  # fmt: skip
        return f"{sender} handed over their actions for {phase}: the GM checks"
    return None


# Statuses besides ``OUT_STATUSES`` under which a performer is not free to act.
_PERFORMER_BLOCKS = frozenset({"injured", "temporarily_injured", "suspended"})


def _free(roster: Roster, role_id: str) -> list[str]:
    """The living players of a role who are free (not jailed, arrested, abroad...)."""
    return [s.name for s in roster.slots
            if s.role == role_id and s.alive and not s.statuses & OUT_STATUSES]  # fmt: skip


def _successor_doubt(c: Check, role_id: str) -> Finding | None:
    """No clan head is free: "Ходы отправляет самый ранний по времени Рядовой" (the faction's
    ``orders_by_next``). The only free such member sends; with several, which is the
    earliest is the GM's; another member's own move goes to the GM."""
    successor = next_sender(c.ruleset, role_id)
    senders = _free(c.roster, successor) if successor else []
    if not senders or senders == [c.ctx.actor]:
        return None
    return Finding(doubt=f"with no free clan head the clan's moves are sent by the earliest "
                   f"{successor} ({', '.join(senders)}): the GM checks")  # fmt: skip


def next_sender(ruleset: Ruleset, role_id: str) -> str | None:
    """The role that sends the clan's moves once no head is free (``orders_by_next``)."""
    role = ruleset.roles.get(role_id)
    faction = ruleset.factions.get(role.faction) if role is not None else None
    found = faction.win_params.get("orders_by_next") if faction is not None else None
    return str(found) if found else None


def clan_head(ruleset: Ruleset, role_id: str) -> str | None:
    """The role that sends the moves of ``role_id``'s clan (``orders_by``), if any."""
    role = ruleset.roles.get(role_id)
    if role is None or role.faction not in ruleset.factions:
        return None
    params = ruleset.factions[role.faction].win_params
    head = params.get("orders_by")
    if isinstance(head, str):
        return head
    for clan in dict(params.get("clans") or {}).values():
        succession = dict(clan.get("succession") or {})
        members = {str(clan.get("orders_by"))}
        for roles in succession.values():
            if isinstance(roles, tuple | list):
                members |= set(map(str, roles))
        if role_id in members:
            return str(clan.get("orders_by"))
    return None


_RULES: tuple[Callable[[Check], Finding | None], ...] = (
    _orders_by,
    _team_holder,
    _rotation,
    _requires,
    _actor_status,
    _after_death,
    _phase_limits,
    _window,
    _counts,
    _target_rules,
    _shielded,
    _jailed,
    _lovers,
    _target_classes,
    _param_lists,
    _claims,
    _only_if,
    _uses,
    _team_uses,
    _history,
    _same_phase,
    _unknowable,
)
# Rules read from players' statuses: refusals only when the caller gives the game's state
# (a history); otherwise the statuses may be missing and the GM decides.
_STATE_RULES = frozenset({_requires, _actor_status, _target_rules, _shielded, _jailed, _lovers})


def killing_action_doubt(
    order: Order, ctx: Context, pm_orders: Iterable[Order], history: History | None
) -> str | None:
    """Seed 000: a killing action ("An ability a BO member can only use on a night they're
    assigned to kill": Heavy Handed, Bourbon's Investigate 2) depends on who kills tonight,
    which the kill orders of the night settle (the leader's order, the rotation). Unless the
    same PM or an earlier order of the night gives the sender the kill, the GM checks."""
    if ctx.phase.kind != "night" or not _killing_action(ctx, order.ability):
        return None
    earlier = [_kill_by(o.ability, o.actor, o.performer, tuple(o.targets))
               for o in (history.in_phase(ctx.phase.id) if history else ())]  # fmt: skip
    same_pm = [_kill_by(o.ability, ctx.actor, None, tuple(str(s.value) for s in o.targets))
               for o in pm_orders]  # fmt: skip
    if ctx.actor in earlier + same_pm:
        return None
    name = ctx.lexicon.name("ability", order.ability)
    return f"{name} is used only on a night the sender is assigned the kill: the GM checks"


def _killing_action(ctx: Context, ability_id: str) -> bool:
    ability = ctx.lexicon.ruleset.abilities.get(ability_id)
    role = ctx.lexicon.ruleset.roles.get(ctx.role or "")
    own = role.abilities.get(ability_id, ability) if role is not None else ability
    return any(a is not None and ("killing_action" in a.tags
                                  or bool(a.effect_params.get("killing_action")))
               for a in (ability, own))  # fmt: skip


def _kill_by(ability: str, actor: str, performer: str | None, targets: tuple[str, ...]) -> str:
    """Who carries out a kill order: the performer, the first target of the leader's
    ``order_kill``, the sender of a ``kill``; "" for any other order."""
    if ability == "order_kill":
        return performer or (targets[0] if targets else "")
    return (performer or actor) if ability == "kill" else ""
