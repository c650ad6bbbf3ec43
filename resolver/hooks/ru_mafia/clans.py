"""Recruitment (п.08, п.19, п.21), the Godfather joining a clan, role changes at dawn."""

from __future__ import annotations

from resolver.hooks.ru_mafia.kernel import (
    FAIL,
    MAFIA_FACTIONS,
    SUCCESS,
    answer,
    clan_members,
    clan_role,
    faction,
    history,
    living_role,
    night,
    player_target,
)
from resolver.model.events import EventKind
from resolver.work import Action, Work

PRIORITY = {"cop_recruit": 0, "mafia_recruit": 1, "rebel_recruit": 1}
CLAN_MAX = 5


def recruit(action: Action, work: Work) -> None:
    """An invitation; the target is told of the first one even if he cannot be recruited."""
    target = player_target(work, action)
    if target is None:
        answer(work, action, FAIL)
        return
    offers = night(work).offers.setdefault(target, [])
    offers.append((action.ability.id, action.actor, action))
    if action.ability.id != "cop_recruit" and not _offered_before(work, action, target):
        work.tell(target, EventKind.NOTE, message="recruit_offer", number=len(offers))
    answer(work, action, FAIL, why="pending")


def _offered_before(work: Work, action: Action, target: str) -> bool:
    return bool(history(work, None, (action.ability.id,), target))


def answer_recruitment(action: Action, work: Work) -> None:
    """The invited player's answer: accept (the first, or «вербовка N») or refuse."""
    choice = str(action.order_params.get("answer", "refuse"))
    night(work).consent[action.actor] = choice
    answer(work, action, SUCCESS)


def recruitable(work: Work, target: str, kind: str) -> bool:
    """п.08: town roles and role-less villagers; never «Роль невербуема»; the Sheriff
    takes only role-less villagers."""
    role = work.ruleset.roles[work.players[target].role]
    if faction(work, target) != "town":
        return False
    if kind == "cop_recruit":
        return role.id == "villager"
    return "unrecruitable" not in role.tags


def settle_recruitment(work: Work) -> None:
    """At dawn (п.19): the Sheriff's recruitment first, then clans and the Rebel (п.21)."""
    notes = night(work)
    for target, offers in notes.offers.items():
        offers.sort(key=lambda o: PRIORITY[o[0]])
        taken = False
        for number, (kind, actor, action) in enumerate(offers, start=1):
            if taken or not work.players[target].alive or target in work.dying:
                answer(work, action, FAIL, why="taken")
                continue
            taken = _one_offer(work, target, kind, actor, action, number, len(offers))


def _one_offer(
    work: Work, target: str, kind: str, actor: str, action: Action, number: int, count: int
) -> bool:
    if not recruitable(work, target, kind):
        answer(work, action, FAIL, reply="unrecruitable")
        return False
    if kind == "cop_recruit":
        if living_role(work, "recruit_cop"):
            answer(work, action, FAIL, why="a Rookie is in play")
            return False
        _become(work, target, "recruit_cop", "town")
        answer(work, action, SUCCESS)
        return True
    clan = faction(work, actor)
    if clan in MAFIA_FACTIONS and len(clan_members(work, clan)) >= CLAN_MAX:
        answer(work, action, FAIL, why="clan is full")
        return False
    if not _consents(work, target, kind, action, number, count):
        answer(work, action, FAIL, reply="refused")
        return False
    if kind == "rebel_recruit":
        make_follower(work, target)
    else:
        keeps = work.players[target].role in action.params.get("keeps_role", ())
        role = work.players[target].role if keeps else clan_role("mafioso", clan)
        _become(work, target, role, clan)
    answer(work, action, SUCCESS, reply="accepted")
    return True


def _consents(work: Work, target: str, kind: str, action: Action, number: int, count: int) -> bool:
    """Accept, «вербовка N» when several invite him, or a repeated invitation after a
    refusal (it happens if the role is recruitable)."""
    choice = night(work).consent.get(target)
    if choice is None:
        work.gm(EventKind.NOTE, message="recruit_no_answer", player=target, ability=kind)
        choice = "accept" if work.ruleset.option("recruit_no_answer") == "accept" else None
    if choice == "accept":
        return number == 1 or count == 1
    if choice == f"accept_{number}":
        return True
    retry = action.params.get("retry_if_refused") and history(
        work, action.actor, (action.ability.id,), target
    )
    always = work.ruleset.option("repeat_invitation") == "always"
    return bool(retry) and (choice != "refuse" or always)


def _become(work: Work, who: str, role: str, clan: str) -> None:
    from resolver.abilities.convert import convert  # local: abilities import the hook registry

    items = dict(work.players[who].items)
    convert(work, who, role, cause="recruited")
    player = work.players[who]
    player.faction = clan
    for item, n in items.items():  # в случае вербовки имеющиеся вещи не пропадают
        player.items[item] = max(player.items.get(item, 0), n)
    for item, n in work.ruleset.roles[role].start_items.items():  # вещи новой роли добавляются
        once = item == "vodka"  # «по 1 бутылке водки»: a character has one
        player.items[item] = (
            max(player.items.get(item, 0), n) if once else player.items.get(item, 0) + n
        )
    player.flags.add(f"recruited:{work.phase.id}")


def make_follower(work: Work, who: str) -> None:
    """A Follower keeps his role, wins with the loners and may build zip guns."""
    player = work.players[who]
    player.faction = "loners"
    player.flags.add(f"follower:{work.phase.number:03d}")
    for ability in ("make_zip_gun", "zip_gun_shot"):
        if ability not in player.granted:
            player.granted.append(ability)
    work.tell(who, EventKind.CONVERTED, role=player.role, cause="follower")
    work.gm(EventKind.CONVERTED, player=who, old=player.role, role="follower", cause="rebel")


def settle_role_changes(work: Work) -> None:
    """Role changes noted during the night (Bodyguard → Maniac, Executioner → Psycho,
    cards, the Rookie's promotion, a Villager's free role), then the Godfather."""
    notes = night(work)
    for who, change in notes.joins:
        if not work.players[who].alive:
            continue
        if change == "follower":
            make_follower(work, who)
        elif change.startswith("clan:"):
            _become(work, who, clan_role("mafioso", change[5:]), change[5:])
        else:
            follower = any(f.startswith("follower:") for f in work.players[who].flags)
            _become(work, who, change, "loners" if follower else _faction_of_role(work, change))
    _promote_rookie(work)
    godfather_joins(work)


def _faction_of_role(work: Work, role: str) -> str:
    return work.ruleset.roles[role].faction


def _promote_rookie(work: Work) -> None:
    """The Rookie who found the Maniac or Recruiter, or a hostile move, becomes the
    Investigator (if there is none)."""
    if living_role(work, "investigator"):
        return
    for name in living_role(work, "recruit_cop"):
        if f"found:{work.phase.id}" in work.players[name].flags:
            _become(work, name, "investigator", "town")
            return


def godfather_joins(work: Work) -> None:
    """At the end of a night with one mafia clan left, the Godfather joins it (option
    godfather_joins: in a one-clan game, at once or never)."""
    if work.ruleset.option("godfather_joins") == "two_clan_games" and (
        int(work.ruleset.option("mafia_clans")) == 1
    ):
        return
    clans = [c for c in MAFIA_FACTIONS if set(clan_members(work, c)) - set(work.dying)]
    if len(clans) != 1:
        return
    for p in work.living():
        if p.faction == "godfather":
            p.faction = clans[0]
            p.flags.add("joined")
            work.tell(
                p.name,
                EventKind.TEAMMATES,
                faction=clans[0],
                members=[m for m in clan_members(work, clans[0]) if m != p.name],
            )
            work.gm(
                EventKind.CONVERTED, player=p.name, old="godfather", role=p.role, cause="joined"
            )
