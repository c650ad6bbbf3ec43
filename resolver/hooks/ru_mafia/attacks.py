"""Hostile moves (п.23-25): shots, poison, the knife, the bomb, the bite, the axe, fire,
absorption, the stake hunt, clonidine. Each answers its actor «удачно» / «неудачно»."""

from __future__ import annotations

from resolver.hooks.ru_mafia.kernel import (
    FAIL,
    MAFIA_FACTIONS,
    SUCCESS,
    add_item,
    answer,
    base_role,
    clan_members,
    die,
    faction,
    give_status,
    has,
    history,
    hostile,
    is_undead,
    item_count,
    night,
    player_target,
    role_target,
    take_item,
    unreachable,
)
from resolver.model.events import EventKind
from resolver.work import Action, Work

ONLY_IF = {
    "no_free_mafioso_or_recruiter_in_clan": ("mafioso", "mafia_recruiter"),
    "no_free_mafioso_in_clan": ("mafioso",),
}


def same_type_taken(work: Work, action: Action) -> bool:
    """п.20: clan players cannot make moves of one type (except the stake hunt, cops' search)."""
    clan = faction(work, action.actor)
    if "cops_clan" in work.role_of(action.actor).tags and clan == "town":
        clan = "cops"  # Клан Копов: the Sheriff, the Investigator, the Rookie
    kind = str(action.params.get("move_type", action.ability.id))
    free = (
        "stake_hunt",
        "stay_home",
        "use_item",
        "cop_search",
    )  # «за исключением поиска в клане полицейских»
    if clan not in (*MAFIA_FACTIONS, "cops") or kind in free:
        return False
    notes = night(work)
    first = notes.clan_moves.setdefault((clan, kind), action.actor)
    return first != action.actor


def _blocked_by_clan_rule(work: Work, action: Action) -> str:
    if same_type_taken(work, action):
        return "same_type_move"
    needed = ONLY_IF.get(str(action.params.get("only_if", "")))
    if needed:
        clan = faction(work, action.actor)
        if any(base_role(work, m) in needed for m in clan_members(work, clan)):
            return "clan_has_" + "_or_".join(needed)
    return ""


def team_item_holder(work: Work, action: Action, item: str) -> str | None:
    """Who holds the clan's (or the actor's own) charge of ``item``."""
    if item_count(work, action.actor, item) > 0:
        return action.actor
    clan = faction(work, action.actor)
    return next((m for m in clan_members(work, clan) if item_count(work, m, item) > 0), None)


def attack_move(action: Action, work: Work) -> None:
    """A hostile move with one method (shot, poison, stab, explode, bite, burn, zip gun)."""
    target = player_target(work, action)
    method = str(action.params["method"])
    why = _blocked_by_clan_rule(work, action)
    if target is None or why:
        answer(work, action, FAIL, why=why or "no target")
        return
    item = action.params.get("uses_team_item") or action.params.get("uses_item")
    holder = team_item_holder(work, action, str(item)) if item else None
    if item and holder is None:
        answer(work, action, FAIL, why=f"no {item}")
        return
    if action.params.get("requires_status") and not has(
        work, action.actor, str(action.params["requires_status"])
    ):
        answer(work, action, FAIL, why="not charged")
        return
    result = hostile(work, action, target, method)
    if holder and (result == SUCCESS or action.params.get("uses_item")):
        take_item(work, holder, str(item))  # яд списывается, если «отравление» - «удачно»
    if method == "burn":
        work.players[action.actor].statuses = [
            s for s in work.players[action.actor].statuses if s.id != "charged"
        ]
    _after_shot(work, action, target, result)
    _blockers_die_too(work, action, target, result)
    answer(work, action, result)


def _blockers_die_too(work: Work, action: Action, target: str, result: str) -> None:
    """п.ru Маньяк: при убийстве жертвы, которую посетил в эту же ночь блокировщик,
    погибают и жертва, и блокировщик."""
    if (
        result != SUCCESS
        or target not in work.dying
        or not action.params.get("blocker_visitor_dies_too")
    ):
        return
    for blocker in night(work).blockers.get(target, ()):
        die(work, blocker, "stab", action.performer, "maniac_blocker")


def _after_shot(work: Work, action: Action, target: str, result: str) -> None:
    """A cop who kills a town player falls into depression (п.ru Шериф, Следователь)."""
    if result != SUCCESS or target not in work.dying:
        return
    if action.params.get("kills_town") == "depressed" and faction(work, target) == "town":
        give_status(work, action.actor, "depressed", action.actor)


def silver_shot(action: Action, work: Work) -> None:
    """Van Helsing shoots only after a check; the bullet harms only the undead."""
    target = player_target(work, action)
    if target is None or not history(work, action.actor, ("undead_search",), target):
        answer(work, action, FAIL, why="no check first")
        return
    answer(work, action, shoot_silver(work, action, target))


def shoot_silver(work: Work, action: Action, target: str) -> str:
    """п.17: выстрел ВХ в нечисть - удачно; выстрел ВХ в остальных - неудачно."""
    if not is_undead(work, target):
        return FAIL
    return hostile(work, action, target, "silver")


def absorb(action: Action, work: Work) -> None:
    """«Поглощаю %роль - %имя»: kills a holder of a listed role; only vodka saves him."""
    target = player_target(work, action)
    role = role_target(work, action)
    allowed = absorbable(work)
    if target is None or role is None or role not in allowed:
        answer(work, action, FAIL, why="role not absorbable")
        return
    if work.players[target].role != role or is_undead(work, target):
        answer(work, action, FAIL, why="wrong role")
        return
    result = hostile(work, action, target, "absorb")
    if result == SUCCESS:
        work.players[action.actor].flags.add(f"absorbed:{target}")
    answer(work, action, result)


def absorbable(work: Work) -> set[str]:
    """Roles the Banshee may absorb: the mafia roles listed, every town role but the
    Villager, every loner."""
    params = work.ruleset.abilities["absorb"].effect_params.get("absorbable", {})
    out = set(params.get("mafia", ())) | {f"{r}_2" for r in params.get("mafia", ())}
    for rid, role in work.ruleset.roles.items():
        if (role.faction == "town" and rid != "villager") or role.faction == "loners":
            out.add(rid)
    return out


def stake_hunt(action: Action, work: Work) -> None:
    """Every hunter who reaches the target joins its group; the step's end settles it."""
    target = player_target(work, action)
    if target is None or is_undead(work, action.actor):
        answer(work, action, FAIL)
        return
    night(work).stakes.setdefault(target, []).append(action)
    answer(work, action, FAIL)


def settle_stakes(work: Work) -> None:
    """п.22: three or more hunters at an undead target kill it (a hostile move a siren
    stops); fewer, or a living target, get «неудачно» and touch no protection."""
    least = int(work.ruleset.abilities["stake_hunt"].effect_params.get("group_min", 3))
    for target, group in night(work).stakes.items():
        result = FAIL
        if len(group) >= least and is_undead(work, target):
            result = hostile(work, group[0], target, "stake")
        for action in group:
            answer(work, action, result)


def clonidine(action: Action, work: Work) -> None:
    """The Clonidine woman's pill: the move is lost, the target is poisoned, an item taken."""
    target = player_target(work, action)
    if target is None or item_count(work, action.actor, "clonidine") <= 0:
        answer(work, action, FAIL, why="no clonidine")
        return
    if history(work, action.actor, ("clonidine_drug",), target):
        answer(work, action, FAIL, why="once per player")
        return
    take_item(work, action.actor, "clonidine")
    result = hostile(work, action, target, "clonidine")
    if result == SUCCESS:
        from resolver.abilities.block import mark_blocked

        mark_blocked(work, target, action.performer, notify=None)
        night(work).forget.add(target)
        _steal(work, action, target)
    answer(work, action, result)


def _steal(work: Work, action: Action, target: str) -> None:
    wanted = action.order_params.get("item")
    items = work.players[target].items
    if wanted and wanted not in ("pistol", "knife") and items.get(str(wanted), 0) > 0:
        take = str(wanted)
        items[take] -= 1
        add_item(work, action.actor, take)
    seen = sorted(i for i, n in items.items() if n > 0)
    work.tell(action.actor, EventKind.NOTE, message="items_seen", target=target, items=seen)


def horseman(action: Action, work: Work) -> None:
    """The Headless Horseman looks for Van Helsing: the checked player freezes (his move is
    «неудачно», not told why); Van Helsing found is beheaded through the vest."""
    target = player_target(work, action)
    if target is None or is_undead(work, target) or unreachable(work, target, "behead"):
        answer(work, action, FAIL)
        return
    night(work).forget.add(target)
    night(work).watches.append((action.actor, target, "search"))
    if work.players[target].role != "van_helsing":
        answer(work, action, FAIL, found=False)
        return
    answer(work, action, hostile(work, action, target, "behead"), found=True)
