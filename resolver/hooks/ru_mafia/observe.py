"""Moves that learn: blood test, interrogation, confession, the Journalist, the Jailer, the
Executioner's and the Villager's watches, and the Reanimator (who knows the night's corpses)."""

from __future__ import annotations

from resolver.hooks.ru_mafia.kernel import (
    FAIL,
    SUCCESS,
    add_item,
    answer,
    faction,
    give_status,
    history,
    hostile,
    is_undead,
    night,
    player_target,
    unreachable,
)
from resolver.model.events import EventKind
from resolver.work import Action, Work


def blood_test(action: Action, work: Work) -> None:
    """The Nurse's blood test tells whether the player is undead."""
    target = player_target(work, action)
    if target is None or unreachable(work, target, "test"):
        answer(work, action, FAIL)
        return
    night(work).watches.append((action.actor, target, "visit"))
    found = is_undead(work, target)
    answer(work, action, SUCCESS if found else FAIL, undead=found)


def interrogate(action: Action, work: Work) -> None:
    """Did the player make a hostile move tonight? He is told he was questioned."""
    target = player_target(work, action)
    if target is None or unreachable(work, target, "visit"):
        answer(work, action, FAIL)
        return
    if (
        action.params.get("not_on_roles")
        and work.players[target].role in action.params["not_on_roles"]
    ):
        answer(work, action, FAIL, why="may not question the Sheriff")
        return
    night(work).watches.append((action.actor, target, "visit"))
    found = any(a == target for a, _, _ in night(work).hostile)
    work.tell(target, EventKind.NOTE, message="interrogated")
    if found and "finds" in action.params:
        work.players[action.actor].flags.add(f"found:{work.phase.id}")
    answer(work, action, SUCCESS if found else FAIL, hostile=found)


def confess(action: Action, work: Work) -> None:
    """The Priest's confession: sinful or not; a cross as a gift (poison for the undead);
    the confessed is out of everyone's reach tonight and told of it."""
    target = player_target(work, action)
    if target is None or unreachable(work, target, "visit"):
        answer(work, action, FAIL)
        return
    if history(work, action.actor, ("confess",), target):
        answer(work, action, FAIL, why="once per player")
        return
    give_status(work, target, "confessed", action.actor)
    add_item(work, target, "cross")
    work.tell(target, EventKind.NOTE, message="confessed")
    if is_undead(work, target):  # исповедь Нечисти - враждебное действие
        give_status(work, target, "poisoned", f"cross:{action.actor}")
        night(work).hostile.append((action.actor, target, "cross"))
    night(work).reports.append((action.actor, target))
    sinful = "sinful" in work.players[target].flags
    answer(work, action, SUCCESS, sinful=sinful)


def settle_confessions(work: Work) -> None:
    """A Maniac confessed on the night of his bloody murder kills the Priest (heart)."""
    for priest, target in night(work).reports:
        if work.players[target].role != "maniac":
            continue
        if any(a == target and m == "stab" for a, _, m in night(work).hostile):
            from resolver.hooks.ru_mafia.kernel import die

            die(work, priest, "heart", target, "confession")


def shadow(action: Action, work: Work) -> None:
    """The Journalist follows a player; the article is written at the end of the night."""
    target = player_target(work, action)
    if target is None or unreachable(work, target, "watch"):
        answer(work, action, FAIL)
        return
    if history(work, action.actor, ("shadow",), target):
        answer(work, action, FAIL, why="once per player")
        return
    night(work).watches.append((action.actor, target, "shadow"))
    answer(work, action, SUCCESS)


def article(work: Work, journalist: str, target: str) -> list[str]:
    """What the Journalist saw (п.ru Журналист, answers 1-5)."""
    notes = night(work)
    seen: list[str] = []
    if any(a == target or t == target for a, t, _ in notes.hostile):
        seen.append("hostile")
    if any(
        (a == target or t == target) and k in ("search", "shadow", "watch") and a != journalist
        for a, t, k in notes.watches
    ):
        seen.append("watched")
    if any(t == target for _, t in notes.reports):
        seen.append("confessed")
    did = [e for e in work.visits_this_phase() if e.actor == target]
    if not did or all(
        e.ability in ("stay_home", "make_poison", "make_explosive", "use_item")
        or e.outcome == "blocked"
        for e in did
    ):
        seen.append("sat_at_home")
    if not seen:
        seen.append("visit")
    return seen


def executioner(action: Action, work: Work) -> None:
    """The Executioner watches; the axe falls at the end of the night if he saw a successful
    hostile move by his target."""
    target = player_target(work, action)
    if target is None or unreachable(work, target, "visit"):
        answer(work, action, FAIL)
        return
    night(work).watches.append((action.actor, target, "watch"))
    answer(work, action, FAIL, seen=False)


def settle_watches(work: Work) -> None:
    """Executioner's axe, the Journalist's article and the Villager's sight, once every
    hostile move of the night is known."""
    notes = night(work)
    for actor, target, kind in list(notes.watches):
        if not work.players[actor].alive:
            continue
        if kind == "watch" and work.players[actor].role == "executioner":
            _axe(work, actor, target)
        elif kind == "shadow":
            work.tell(
                actor,
                EventKind.RESULT,
                ability="shadow",
                target=target,
                result=article(work, actor, target),
            )
    settle_confessions(work)


def _axe(work: Work, actor: str, target: str) -> None:
    key = (actor, "behead_watch")
    if not any(a == target for a, _, _ in night(work).hostile):
        return
    if is_undead(work, target):
        night(work).answers[key] = {"result": FAIL, "target": target, "seen": True}
        return  # не рубит голову Нечисти (ответ «неудачно»)
    axe = work.ruleset.abilities["behead_watch"]
    act = Action(None, actor, axe, [target], {"ignores": ["protection"]}, work.step, actor)
    result = hostile(work, act, target, "behead")
    night(work).answers[key] = {"result": result, "target": target, "seen": True}
    if result == SUCCESS and faction(work, target) == "town":
        night(work).joins.append((actor, "psycho"))  # становится Психом (с 1 шт. взрывчатки)


def villager_watch(action: Action, work: Work) -> None:
    """A Villager watches a player; seeing a successful hostile move on him lets him take
    a free role (decided at the end of the night)."""
    target = player_target(work, action)
    if target is None or unreachable(work, target, "visit"):
        answer(work, action, FAIL)
        return
    night(work).watches.append((action.actor, target, "villager"))
    answer(work, action, FAIL, saw=False, role=action.order_params.get("role"))


def check_sin(action: Action, work: Work) -> None:
    """The Jailer: a sinful player goes straight to jail (may talk, may not vote)."""
    target = player_target(work, action)
    if target is None or unreachable(work, target, "visit"):
        answer(work, action, FAIL)
        return
    sinful = "sinful" in work.players[target].flags
    if sinful:
        give_status(work, target, "jailed_by_jailer", action.actor)
        work.tell(target, EventKind.NOTE, message="jailed_by_jailer")
    answer(work, action, SUCCESS if sinful else FAIL, sinful=sinful)


def jailed_today(work: Work) -> str | None:
    """The player jailed by the day vote before this night."""
    day = f"day{work.phase.number}"
    for name in reversed(work.lynched):
        if work.players[name].died == day:
            return name
    return None


def check_jailed(action: Action, work: Work) -> None:
    """The Jailer checks today's jailed player: his faction is shown in the morning."""
    target = player_target(work, action)
    if target is None or target != jailed_today(work):
        answer(work, action, FAIL, why="not jailed today")
        return
    work.players[target].statuses = [
        s for s in work.players[target].statuses if s.id != "faction_hidden"
    ]
    night(work).public.append({"message": "jailed_faction", "faction": shown_faction(work, target)})
    answer(work, action, SUCCESS, faction=faction(work, target))


def release_jailed(action: Action, work: Work) -> None:
    """The Jailer lets today's jailed player out without a check."""
    target = player_target(work, action)
    if target is None or target != jailed_today(work):
        answer(work, action, FAIL, why="not jailed today")
        return
    p = work.players[target]
    p.alive, p.died, p.cause = True, None, None
    work.tell(target, EventKind.NOTE, message="released")
    work.gm(EventKind.STATUS, player=target, status="released")
    answer(work, action, SUCCESS)


def reanimate(action: Action, work: Work) -> None:
    """One of tonight's corpses lives again (not himself, not an absorbed one, not the same
    player two days running)."""
    target = next((t for t in action.targets if t in work.players), None)
    dying = work.dying.get(target or "")
    if target is None or dying is None or target == action.actor or dying.kind == "absorb":
        answer(work, action, FAIL)
        return
    if f"night{work.phase.number - 1}" in history(work, action.actor, ("reanimate",), target):
        answer(work, action, FAIL, why="same player two days running")
        return
    del work.dying[target]
    work.gm(EventKind.SAVED, player=target, by="reanimate")
    answer(work, action, SUCCESS)


def shown_faction(work: Work, who: str) -> str:
    """The faction a departed player shows (an unjoined Godfather shows as a loner, п.ru)."""
    f = faction(work, who)
    return "loners" if f == "godfather" else f
