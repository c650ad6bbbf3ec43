"""Non-hostile night moves: searches, blocks, protections, vote moves, trips, the priest."""

from __future__ import annotations

from resolver.hooks.ru_mafia.attacks import attack_move, same_type_taken, shoot_silver
from resolver.hooks.ru_mafia.kernel import (
    FAIL,
    SUCCESS,
    add_item,
    answer,
    base_role,
    faction,
    give_status,
    history,
    hostile,
    is_undead,
    last_night_target,
    night,
    player_target,
    role_target,
    unreachable,
)
from resolver.model.events import EventKind
from resolver.work import Action, Work


def mark_blocked(work: Work, target: str, blocker: str) -> None:
    """The engine's block (later steps of the target fail), without a notice to him."""
    from resolver.abilities.block import mark_blocked as block_now  # local: import cycle

    block_now(work, target, blocker, notify=None)


COPS = ("sheriff", "investigator", "recruit_cop")


NOT_TWICE_RUNNING = (
    "not_same_player_two_nights",
    "not_same_two_nights",
    "not_same_player_twice_in_a_row",
    "not_same_twice_in_a_row",
    "not_consecutive",
)


def _limits(work: Work, action: Action, target: str) -> str:
    """The per-target limits the seed sets (two nights running, once per game...)."""
    p = action.params
    ids = (action.ability.id,)
    running = any(p.get(k) for k in NOT_TWICE_RUNNING)
    if running and last_night_target(work, action.actor, _family(action), target):
        return "same player two nights running"
    once = p.get("once_per_player_per_game") or p.get("once_per_target")
    if once and history(work, action.actor, ids, target):
        return "once per player"
    limit = p.get("max_per_target")
    if limit and len(history(work, action.actor, ids, target)) >= int(limit):
        return "too many times on this player"
    return ""


def _family(action: Action) -> tuple[str, ...]:
    """Moves that count together for 'not the same player two nights running'."""
    return tuple(action.params.get("family", (action.ability.id,)))


def _target(work: Work, action: Action) -> str | None:
    target = player_target(work, action)
    if target is None:
        answer(work, action, FAIL, why="no target")
        return None
    why = _limits(work, action, target)
    if why or same_type_taken(work, action):
        answer(work, action, FAIL, why=why or "same_type_move")
        return None
    return target


def search(action: Action, work: Work) -> None:
    """«Ищу %роль - %имя»: yes if the player holds that role now; some searches shoot."""
    target = _target(work, action)
    if target is None:
        return
    allowed = list(action.params.get("allowed_roles", ()))
    role = role_target(work, action) or (allowed[0] if len(allowed) == 1 else None)
    if role is None or not _allowed(work, role, allowed):
        answer(work, action, FAIL, why="role not searchable")
        return
    night(work).watches.append((action.actor, target, "search"))
    if unreachable(work, target, "search"):
        answer(work, action, FAIL, role=role)
        return
    found = _matches(work, target, role)
    if found and "finds" in action.params:
        work.players[action.actor].flags.add(f"found:{work.phase.id}")
    then = action.params.get("then")
    if "shoots_on" in action.params and role not in action.params["shoots_on"]:
        then = None  # «поиск Нечисти»: a shot only by a later move
    if not found or not then:
        answer(work, action, SUCCESS if found else FAIL, role=role, found=found)
        return
    if then == "silver_shot":
        answer(work, action, shoot_silver(work, action, target), role=role, found=True)
        return
    shot = work.ruleset.abilities[str(then)]
    method = str(shot.effect_params.get("method", "shot"))
    shooter = Action(
        None, action.actor, shot, [target], shot.effect_params, work.step, action.performer
    )
    result = hostile(work, shooter, target, method)
    answer(work, action, result, role=role, found=True)
    town = faction(work, target) == "town"
    if result == SUCCESS and town and target in work.dying and shot.effect_params.get("kills_town"):
        give_status(work, action.actor, "depressed", action.actor)


def _allowed(work: Work, role: str, allowed: list[str]) -> bool:
    if role in allowed:
        return True
    found = work.ruleset.roles.get(role)
    return found is not None and found.faction in allowed


def _matches(work: Work, target: str, role: str) -> bool:
    if role in work.ruleset.factions:
        return faction(work, target) == role
    return base_role(work, target) == base_role_id(work, role)


def base_role_id(work: Work, role: str) -> str:
    """A role id with the second clan's suffix dropped."""
    tags = work.ruleset.roles[role].tags if role in work.ruleset.roles else frozenset()
    return role.removesuffix("_2") if "clan2" in tags else role


def block(action: Action, work: Work) -> None:
    """Mayor/Godfather 'лишить хода', sleeping pill, a night with the Clonidine woman, the
    Domovoi: the target's move fails («неудачно»); some also cost his next-day vote."""
    target = _target(work, action)
    if target is None:
        return
    if unreachable(work, target, "block"):
        answer(work, action, FAIL)
        return
    mark_blocked(work, target, action.performer)
    notes = night(work)
    notes.forget.add(target)
    notes.blockers.setdefault(target, []).append(action.performer)
    if action.params.get("status"):
        give_status(work, target, str(action.params["status"]), action.actor)
    if action.params.get("vote_counted") is False:
        give_status(work, target, "lost_vote", action.actor)
    answer(work, action, SUCCESS, **_learns(work, action, target))


def _learns(work: Work, action: Action, target: str) -> dict[str, object]:
    learns = action.params.get("learns") or {}
    if action.params.get("learns_if_cop"):
        return {"cop": work.players[target].role in COPS}
    if "undead" in learns and is_undead(work, target):
        return {"role": work.players[target].role}
    if "priest" in learns and work.players[target].role == "priest":
        return {"faction": faction(work, target)}
    return {}


def lose_vote(action: Action, work: Work) -> None:
    """A status that costs the target his next-day vote (silence, torture, quarantine)."""
    target = _target(work, action)
    if target is None:
        return
    if unreachable(work, target, "vote"):
        answer(work, action, FAIL)
        return
    give_status(work, target, str(action.params["status"]), action.actor)
    answer(work, action, SUCCESS, **_learns(work, action, target))


def vote_plan(action: Action, work: Work) -> None:
    """Night moves that change the next day's votes, noted for ``adjust_votes``."""
    target = _target(work, action)
    if target is None:
        return
    if unreachable(work, target, "vote"):
        answer(work, action, FAIL)
        return
    day = f"day{work.phase.number + 1}"
    rest = ":".join(t for t in action.targets[1:] if t in work.players)
    kind = str(action.params["plan"])
    work.players[action.actor].flags.add(f"vote:{day}:{kind}:{target}:{rest}")
    answer(work, action, SUCCESS)


def suggest_target(action: Action, work: Work) -> None:
    """The Telepath gives a player's move a new target (he is not told); not the same
    player twice running."""
    target = _target(work, action)
    new = next((t for t in action.targets[1:] if t in work.players), None)
    if target is None or new is None:
        return
    if unreachable(work, target, "visit"):
        answer(work, action, FAIL)
        return
    work.redirects[target] = (new, work.step)
    answer(work, action, SUCCESS)


def heal(action: Action, work: Work) -> None:
    """The Doctor: twice per player, not two nights running, himself once; not the undead."""
    target = _target(work, action)
    if target is None:
        return
    done = history(work, action.actor, ("heal",), target)
    if len(done) >= 2 or (target == action.actor and done):
        answer(work, action, FAIL, why="heal limit")
        return
    if is_undead(work, target) or unreachable(work, target, "heal"):
        answer(work, action, FAIL)  # не лечит Нечисть (ответ «неудачно»)
        return
    night(work).heals[target] = action.actor
    _cure(work, target, ("poisoned",), only_from=("poison", "clonidine"))
    answer(work, action, SUCCESS)


def stomach_pump(action: Action, work: Work) -> None:
    """The Nurse cures poison (the undead's too) and keeps the Vampire away tonight."""
    target = _target(work, action)
    if target is None:
        return
    done = history(work, action.actor, ("stomach_pump",), target)
    if len(done) >= 2 or (target == action.actor and done):
        answer(work, action, FAIL, why="pump limit")
        return
    if unreachable(work, target, "heal"):
        answer(work, action, FAIL)
        return
    night(work).pumped.add(target)
    _cure(work, target, ("poisoned", "bitten"))
    answer(work, action, SUCCESS)


def _cure(
    work: Work, target: str, statuses: tuple[str, ...], only_from: tuple[str, ...] = ()
) -> None:
    p = work.players[target]
    keep = []
    for s in p.statuses:
        cause = "cross" if s.source and s.source.startswith("cross:") else "poison"
        if s.id in statuses and (not only_from or cause in only_from):
            work.gm(EventKind.STATUS, player=target, status=s.id, cured=True)
            continue
        keep.append(s)
    p.statuses = keep


def bless(action: Action, work: Work) -> None:
    """Every hostile move on the blessed player tonight returns to its author."""
    target = player_target(work, action)
    if target is None or unreachable(work, target, "bless"):
        answer(work, action, FAIL)
        return
    night(work).blessed[target] = action.actor
    answer(work, action, SUCCESS)


def guard(action: Action, work: Work) -> None:
    """The Bodyguard covers a player (not himself, not the same one two nights running)."""
    target = _target(work, action)
    if target is None:
        return
    if unreachable(work, target, "guard"):
        answer(work, action, FAIL)
        return
    night(work).guards[target] = action.actor
    answer(work, action, SUCCESS)


def trip(action: Action, work: Work) -> None:
    """Tour (no moves, nobody reaches him) or excursion (no moves, still reachable)."""
    target = _target(work, action)
    if target is None:
        return
    if unreachable(work, target, "trip"):
        answer(work, action, FAIL)
        return
    send_on_trip(work, action, target, str(action.params["status"]))
    answer(work, action, SUCCESS)


def send_on_trip(work: Work, action: Action, target: str, status: str) -> None:
    """The target learns of his trip; his name is never announced."""
    mark_blocked(work, target, action.performer)
    night(work).forget.add(target)
    give_status(work, target, status, action.actor)
    work.tell(target, EventKind.NOTE, message=status)


def charge(action: Action, work: Work) -> None:
    """The Domovoi skips a move to gather the energy that burns the Priest."""
    give_status(work, action.actor, "charged", action.actor)
    answer(work, action, SUCCESS)


def stay_home(action: Action, work: Work) -> None:
    """«Сижу дома»; for the Domovoi it also gathers energy."""
    if work.players[action.actor].role == "domovoi":
        give_status(work, action.actor, "charged", action.actor)
    night(work).watches.append((action.actor, action.actor, "home"))


def accuse(action: Action, work: Work) -> None:
    """The Prosecutor's double vote against the accused at the next day vote."""
    vote_plan(action, work)


def shoot_move(action: Action, work: Work) -> None:
    """A shot by whichever side: the common hostile move."""
    attack_move(action, work)


def make_item(action: Action, work: Work) -> None:
    """Poison (to the clan's things), explosive, a clonidine pill, a zip gun."""
    if same_type_taken(work, action):
        answer(work, action, FAIL, why="same_type_move")
        return
    item = str(action.params["adds_item"])
    add_item(work, _keeper(work, action), item, int(action.params.get("count", 1)))
    night(work).watches.append((action.actor, action.actor, "home"))
    answer(work, action, SUCCESS)


def _keeper(work: Work, action: Action) -> str:
    """Clan things are kept by the clan's head (п.20); a player's own by himself."""
    if not action.params.get("team"):
        return action.actor
    clan = faction(work, action.actor)
    for role in ("mafia_boss", "mafioso", "rebel"):
        for p in work.living():
            if p.faction == clan and base_role(work, p.name) == role:
                return p.name
    return action.actor


def share_result(action: Action, work: Work) -> None:
    """The Nurse tells Van Helsing, the Prosecutor the Sheriff, a result, through the host."""
    target = player_target(work, action)
    if target is None:
        answer(work, action, FAIL)
        return
    work.tell(
        target, EventKind.NOTE, message="shared_result", sender_role=work.players[action.actor].role
    )
    answer(work, action, SUCCESS)
