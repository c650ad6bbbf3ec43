"""The night's shared notes and the one hostile-action rule of the Russian forum mafia.

Every hostile move (п.23, п.25) goes through ``hostile``: unreachable targets (vodka, tour,
the Domovoi's block, confession), immunities from the ruleset's roles, then the protections
in the order of п.05 (blessing, Bodyguard, cross, siren, vest), the Doctor's heal, and only
then the effect (death at dawn, poisoning, a bite). Each move's answer to its actor
(«удачно» / «неудачно», п.17) is noted here and sent at the end of the night.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from resolver.combat import immune
from resolver.model.events import EventKind
from resolver.model.state import Status
from resolver.phases import last_phase_covered
from resolver.work import Action, Dying, Work

SUCCESS = "success"
FAIL = "fail"
UNDEAD = "undead"
SHOTS = frozenset({"shot"})
UNREACHABLE = ("drunk", "on_tour", "domovoi_blocked", "confessed")
MAFIA_FACTIONS = ("mafia", "mafia2")


@dataclass(slots=True)
class Night:
    """What this night's moves leave for later moves and for the morning."""

    answers: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    siren: dict[str, str] = field(default_factory=dict)
    vest: dict[str, str] = field(default_factory=dict)
    heals: dict[str, str] = field(default_factory=dict)
    pumped: set[str] = field(default_factory=set)
    guards: dict[str, str] = field(default_factory=dict)
    blessed: dict[str, str] = field(default_factory=dict)
    hostile: list[tuple[str, str, str]] = field(default_factory=list)
    watches: list[tuple[str, str, str]] = field(default_factory=list)
    stakes: dict[str, list[Action]] = field(default_factory=dict)
    offers: dict[str, list[tuple[str, str, Action]]] = field(default_factory=dict)
    consent: dict[str, str] = field(default_factory=dict)
    bitten: set[str] = field(default_factory=set)
    forget: set[str] = field(default_factory=set)
    gifts: list[tuple[str, str]] = field(default_factory=list)
    deferred: dict[str, list[Action]] = field(default_factory=dict)
    joins: list[tuple[str, str]] = field(default_factory=list)
    reports: list[tuple[str, str]] = field(default_factory=list)
    blockers: dict[str, list[str]] = field(default_factory=dict)
    public: list[dict[str, Any]] = field(default_factory=list)
    clan_moves: dict[tuple[str, str], str] = field(default_factory=dict)


def night(work: Work) -> Night:
    """This phase's notes (made on first use)."""
    found = work.scratch.get("ru_mafia")
    if not isinstance(found, Night):
        found = Night()
        work.scratch["ru_mafia"] = found
    return found


def answer(work: Work, action: Action, result: str, **extra: Any) -> None:
    """Note the answer the actor gets for this move (the last word wins)."""
    action.outcome = "done" if result == SUCCESS else "failed"
    action.reason = str(extra.get("why", action.reason))
    key = (action.actor, action.ability.id)
    ordered = [t for t in action.ordered if t in work.players]  # a redirected actor never knows
    target = ordered[0] if ordered else player_target(work, action)
    night(work).answers[key] = {"result": result, "target": target, **extra}


def player_target(work: Work, action: Action) -> str | None:
    """The first target naming a player (role slots such as «Ищу Шерифа» are skipped)."""
    return next((t for t in action.targets if t in work.players), None)


def role_target(work: Work, action: Action) -> str | None:
    """The role a move names («Ищу Телепата - Ганс», «Поглощаю Телепата - Ганс»)."""
    for t in action.targets:
        if t not in work.players:
            return work.ruleset.role_of(t).id if _is_role(work, t) else t
    return None


def _is_role(work: Work, text: str) -> bool:
    try:
        work.ruleset.role_of(text)
    except (KeyError, ValueError):
        return False
    return True


def faction(work: Work, who: str) -> str:
    """A player's faction now."""
    return work.players[who].faction


def is_undead(work: Work, who: str) -> bool:
    """True for the Vampire, Ghoul, Domovoi, Headless Horseman and Banshee."""
    return faction(work, who) == UNDEAD


def has(work: Work, who: str, status: str) -> bool:
    """True if the player carries the status."""
    return work.players[who].status(status) is not None


def give_status(work: Work, who: str, sid: str, source: str | None) -> None:
    """Give a status for the time its definition says."""
    sdef = work.ruleset.statuses[sid]
    until = last_phase_covered(sdef.lasts, work.phase, work.ruleset)
    work.add_status(who, Status(sid, until, source, work.phase.id))
    work.gm(EventKind.STATUS, player=who, status=sid, source=source, until=until)


def drop_status(work: Work, who: str, sid: str) -> None:
    """Remove a status."""
    p = work.players[who]
    p.statuses = [s for s in p.statuses if s.id != sid]


def item_count(work: Work, who: str, item: str) -> int:
    """Charges of an item a player holds."""
    return work.players[who].items.get(item, 0)


def take_item(work: Work, who: str, item: str, n: int = 1) -> None:
    """Spend or remove charges of an item."""
    items = work.players[who].items
    items[item] = max(0, items.get(item, 0) - n)


def add_item(work: Work, who: str, item: str, n: int = 1) -> None:
    """Give charges of an item."""
    items = work.players[who].items
    items[item] = items.get(item, 0) + n
    work.gm(EventKind.STATUS, player=who, item=item, delta=n)


def history(
    work: Work, actor: str | None, abilities: Iterable[str], target: str | None = None
) -> list[str]:
    """Phases of earlier (not this phase's) performed moves matching actor/ability/target."""
    wanted = set(abilities)
    return [
        e.phase
        for e in work.ledger[: work.new_ledger_from]
        if e.ability in wanted
        and (actor is None or e.actor == actor)
        and (target is None or target in e.targets)
        and e.outcome in ("done", "failed")
    ]


def previous_night(work: Work) -> str:
    """The id of the night before this one."""
    return f"night{work.phase.number - 1}"


def last_night_target(work: Work, actor: str, abilities: Iterable[str], target: str) -> bool:
    """True if the actor used one of these moves on the target the night before."""
    return previous_night(work) in history(work, actor, abilities, target)


def clan_members(work: Work, clan: str) -> list[str]:
    """Living members of a clan (mafia clans; the cops are town players tagged cops_clan)."""
    return [p.name for p in work.living() if p.faction == clan and "joined_out" not in p.flags]


def base_role(work: Work, who: str) -> str:
    """A player's role, the second clan's roles read as the first clan's (``mafioso_2`` →
    ``mafioso``)."""
    rid = work.players[who].role
    return rid.removesuffix("_2") if "clan2" in work.ruleset.roles[rid].tags else rid


def clan_role(base: str, clan: str) -> str:
    """The role id of a mafia role in a clan (``mafioso`` in mafia2 is ``mafioso_2``)."""
    return f"{base}_2" if clan == "mafia2" else base


def living_role(work: Work, role: str) -> list[str]:
    """Living holders of a role (in either mafia clan)."""
    return [p.name for p in work.living() if base_role(work, p.name) == role]


def die(work: Work, victim: str, kind: str, attacker: str | None, cause: str) -> None:
    """Mark a player to die at dawn (first cause wins)."""
    if victim not in work.dying and work.players[victim].alive:
        work.dying[victim] = Dying(kind, attacker, cause)
        if attacker in work.players and not _righteous(work, attacker, victim):
            work.players[attacker].flags.add("sinful")  # п.26: грешный игрок
        work.gm(
            EventKind.ATTACKED,
            victim=victim,
            attacker=attacker,
            attack=kind,
            cause=cause,
            outcome="killed",
        )


RIGHTEOUS = {
    "sheriff": ("mafia", "mafia2", "godfather", "maniac", "rebel"),
    "investigator": ("mafia", "mafia2", "godfather", "maniac", "rebel"),
    "priest": ("undead",),
    "van_helsing": ("undead",),
}


def _righteous(work: Work, killer: str, victim: str) -> bool:
    """п.26 exceptions: Sheriff and Investigator killing a Mafioso, the Maniac or the Rebel;
    Priest and Van Helsing killing the undead."""
    kinds = RIGHTEOUS.get(work.players[killer].role, ())
    victim_role = work.players[victim].role
    return faction(work, victim) in kinds or victim_role in kinds


def unreachable(work: Work, target: str, method: str) -> bool:
    """Vodka, a tour, the Domovoi's block and confession keep every move away (absorption:
    only vodka, п.ru Банши)."""
    if method == "absorb":
        return has(work, target, "drunk")
    if method == "watch":  # the Journalist sees a confession (answer 3)
        return any(has(work, target, s) for s in UNREACHABLE if s != "confessed")
    return any(has(work, target, s) for s in UNREACHABLE)


def hostile(work: Work, action: Action, target: str, method: str) -> str:
    """Resolve one hostile move on ``target``; returns the actor's answer (SUCCESS/FAIL)."""
    actor = action.performer
    notes = night(work)
    if not work.players[target].alive:
        return FAIL
    if is_undead(work, actor) and is_undead(work, target):
        return FAIL  # НЕЧИСТЬ: не могут причинить вред друг другу
    if unreachable(work, target, method):
        return FAIL  # п.17: любое враждебное действие в блок - неудачно
    if immune(work, target, method, ()):
        return FAIL
    if method == "bite" and target in notes.pumped:
        return FAIL  # п.ru Медсестра: недоступен для Вампира в эту ночь
    pierce = set(action.params.get("ignores", ()))
    if method != "absorb":
        shielded = _protections(work, action, target, method, pierce)
        if shielded is not None:
            return shielded
    return _land(work, action, target, method)


def _protections(
    work: Work, action: Action, target: str, method: str, pierce: set[str]
) -> str | None:
    if "protection" in pierce:
        return None
    notes = night(work)
    actor = action.performer
    if target in notes.blessed and "reflected" not in action.params:
        reflect = Action(
            None,
            actor,
            action.ability,
            [actor],
            {**action.params, "reflected": True},
            work.step,
            actor,
        )
        hostile(work, reflect, actor, method)  # п.ru Священник: возвращается ответным действием
        return SUCCESS if work.ruleset.option("blessing_answer") == "success" else FAIL
    if target in notes.guards and not is_undead(work, actor) and "guard" not in pierce:
        _bodyguard(work, notes.guards[target], actor)
        return FAIL
    if method == "bite" and item_count(work, target, "cross") > 0:
        take_item(work, target, "cross")
        return FAIL  # п.17: укус в крестик – неудачно
    if "siren" not in pierce and _siren(work, target):
        return FAIL  # п.17: любое враждебное действие в сирену - неудачно
    if method in SHOTS and "vest" not in pierce and _vest(work, target):
        return SUCCESS  # п.17: любое враждебное действие в бронежилет - удачно
    return None


def _siren(work: Work, target: str) -> bool:
    """The first hostile visitor of the night (both, if two act in the same step)."""
    notes = night(work)
    fired = notes.siren.get(target)
    if fired is not None:
        return fired == work.step
    if item_count(work, target, "siren") <= 0:
        return False
    take_item(work, target, "siren")
    notes.siren[target] = work.step
    return True


def _vest(work: Work, target: str) -> bool:
    notes = night(work)
    fired = notes.vest.get(target)
    if fired is not None:
        return fired == work.step
    if item_count(work, target, "vest") <= 0:
        return False
    take_item(work, target, "vest")
    notes.vest[target] = work.step
    return True


def _bodyguard(work: Work, guard: str, attacker: str) -> None:
    """п.ru Телохранитель: стреляет в нападающего (бронежилет не игнорирует, сирена не
    срабатывает)."""
    if not work.players[guard].alive or attacker == guard:
        return
    counter = Action(
        None,
        guard,
        _shot_ability(work),
        [attacker],
        {"ignores": ["siren", "guard"]},
        work.step,
        guard,
    )
    result = hostile(work, counter, attacker, "shot")
    if result == SUCCESS and attacker in work.dying and faction(work, attacker) == "town":
        night(work).joins.append((guard, "maniac"))  # в момент убийства становится Маньяком


def _shot_ability(work: Work) -> Any:
    return work.ruleset.abilities["shoot"]


def _land(work: Work, action: Action, target: str, method: str) -> str:
    """The move reached its target: heal, then the effect of its method."""
    notes = night(work)
    notes.hostile.append((action.performer, target, method))
    healer = notes.heals.get(target)
    cured = tuple(work.ruleset.abilities["heal"].effect_params.get("not", ()))
    if healer is not None and method not in cured and not is_undead(work, target):
        work.tell(target, EventKind.SAVED, protection="heal")
        return SUCCESS if work.ruleset.option("healed_answer") == "success" else FAIL
    if method in ("poison", "clonidine"):
        give_status(work, target, "poisoned", action.performer)
        work.tell(target, EventKind.NOTE, message="poisoned")  # игрок получает сообщение «отравлен»
        return SUCCESS
    if method == "bite":
        return _bite(work, action, target)
    die(work, target, method, action.performer, action.ability.id)
    _psycho_shot(work, action, target, method)
    return SUCCESS


def _bite(work: Work, action: Action, target: str) -> str:
    notes = night(work)
    notes.bitten.add(target)
    if has(work, target, "bitten"):
        from resolver.abilities.convert import convert

        drop_status(work, target, "bitten")
        convert(work, target, "ghoul", cause="second_bite")  # п.19: с момента повторного укуса
        return SUCCESS
    give_status(work, target, "bitten", action.performer)
    work.tell(target, EventKind.NOTE, message="poisoned")
    return SUCCESS


def _psycho_shot(work: Work, action: Action, target: str, method: str) -> None:
    """п.ru Псих: если психа убивают из пистолета - убийца так же становится убитым."""
    if method != "shot" or work.players[target].role != "psycho":
        return
    if item_count(work, target, "explosive") > 0:
        die(work, action.performer, "explode", target, "psycho_revenge")
