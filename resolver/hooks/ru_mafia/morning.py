"""The end of the night: deaths from poison and bites, the Villagers' free roles, role
changes, gifts, every move's answer (п.11, п.17) and the morning's faction table (п.16-17)."""

from __future__ import annotations

from resolver.hooks.ru_mafia.clans import settle_recruitment, settle_role_changes
from resolver.hooks.ru_mafia.items import deliver_gifts
from resolver.hooks.ru_mafia.kernel import FAIL, SUCCESS, die, night
from resolver.hooks.ru_mafia.observe import jailed_today, shown_faction
from resolver.model.events import EventKind, Visibility
from resolver.work import Work

CLAN_ROLES = ("sheriff", "investigator", "recruit_cop")


def poison_deaths(work: Work) -> None:
    """(смерть от отравления): poisoned on an earlier night and not cured; bitten on the
    night before and not bitten again tonight."""
    notes = night(work)
    for p in work.living():
        poisoned = p.status("poisoned")
        if poisoned and poisoned.since != work.phase.id:
            die(work, p.name, "poison", poisoned.source, "poison")
        bitten = p.status("bitten")
        if bitten and bitten.since != work.phase.id and p.name not in notes.bitten:
            die(work, p.name, "poison", bitten.source, "bite")
            _vampire_follows_psycho(work, p.name, bitten.source)


def _vampire_follows_psycho(work: Work, psycho: str, vampire: str | None) -> None:
    """A Psycho dying of the bite's poison takes the Vampire with him."""
    if work.players[psycho].role == "psycho" and vampire and vampire in work.players:
        die(work, vampire, "explode", psycho, "psycho_bite")


def free_roles(work: Work, *, undead: bool) -> list[str]:
    """Roles nobody holds or held, not of those that never start, of the kind asked."""
    taken = {p.role for p in work.players.values()}
    out = []
    for rid, role in work.ruleset.roles.items():
        if rid in taken or "not_starts_in_game" in role.tags:
            continue
        if (role.faction == "undead") == undead:
            out.append(rid)
    return out


def villagers(work: Work) -> None:
    """A Villager who saw a successful hostile move may take a free role (a coin decides
    between Villagers asking for the same one); one dying tonight takes an undead one."""
    notes = night(work)
    wanted: dict[str, list[str]] = {}
    for actor, target, kind in notes.watches:
        if kind != "villager" or not any(t == target for _, t, _ in notes.hostile):
            continue
        action_answer = notes.answers.get((actor, "villager_watch"), {})
        notes.answers[(actor, "villager_watch")] = {**action_answer, "result": SUCCESS, "saw": True}
        role = _requested(work, actor)
        dying = actor in work.dying
        pool = free_roles(work, undead=dying)
        if any(f.startswith("follower:") for f in work.players[actor].flags):
            pool = _follower_pool(work, pool)
        if role in pool:
            wanted.setdefault(role, []).append(actor)
    for role, askers in wanted.items():
        winner = askers[0] if len(askers) == 1 else work.draw(f"free_role:{role}", askers)
        if winner in work.dying:
            del work.dying[winner]
        notes.joins.append((winner, role))


def _follower_pool(work: Work, pool: list[str]) -> list[str]:
    """A Follower Villager: no role at all, or only recruitable ones (option)."""
    if work.ruleset.option("follower_villager_roles") == "none":
        return []  # «Если уже был завербован Бунтарём, то не может выбрать никакую роль»
    return [r for r in pool if "unrecruitable" not in work.ruleset.roles[r].tags]


def _requested(work: Work, actor: str) -> str | None:
    role = night(work).answers.get((actor, "villager_watch"), {}).get("role")
    if not role:
        return None
    try:
        return work.ruleset.role_of(str(role)).id
    except (KeyError, ValueError):
        return None


def send_answers(work: Work) -> None:
    """Each move's answer to its actor; killed players get none (clan and recruited
    players do, п.11). A blocked, frozen or drugged player's move is «неудачно»."""
    notes = night(work)
    answers = dict(notes.answers)
    for e in work.events:
        if e.kind is EventKind.OUTCOME and e.data.get("outcome") == "blocked":
            answers[(str(e.data["actor"]), str(e.data["ability"]))] = {
                "result": FAIL,
                "target": (e.data.get("targets") or [None])[-1],
            }
    for (actor, ability), data in answers.items():
        if ability in ("stay_home", "answer_recruitment") or actor not in work.players:
            continue
        if actor in notes.forget:
            data = {"result": FAIL, "target": data.get("target")}
        if actor in work.dying and not _told_when_dead(work, actor):
            continue
        work.tell(actor, EventKind.RESULT, ability=ability, **data)


def _told_when_dead(work: Work, who: str) -> bool:
    p = work.players[who]
    clan = p.faction in ("mafia", "mafia2") or p.role in CLAN_ROLES
    return clan or any(f.startswith(("recruited:", "follower:")) for f in p.flags)


def faction_table(work: Work) -> None:
    """п.17: «Сел», «Убит» and the count per faction of everyone who left since the last
    morning (the day's jailed and killed, the night's dead), without saying who is which;
    with a Jailer in play a jailed player's faction may stay hidden (п.16)."""
    day = f"day{work.phase.number}"
    jailed = jailed_today(work)
    by_day = [p.name for p in work.players.values() if p.died == day and p.name != jailed]
    killed = [*by_day, *sorted(work.dying, key=lambda n: work.players[n].seat)]
    counts = {f: 0 for f in _shown_factions(work)}
    hidden = 0
    for name in [*killed, *([jailed] if jailed else [])]:
        if name == jailed and work.players[name].status("faction_hidden"):
            hidden += 1
            continue
        f = shown_faction(work, name)
        counts[f] = counts.get(f, 0) + 1
    rows = [{"faction": f, "count": n} for f, n in counts.items()]
    if jailed:
        work.emit(EventKind.NOTE, Visibility.PUBLIC, message="jailed", player=jailed)
    if not jailed and not killed:
        work.emit(EventKind.NOTE, Visibility.PUBLIC, message="quiet_night")
    work.emit(
        EventKind.NOTE,
        Visibility.PUBLIC,
        message="faction_table",
        jailed=jailed,
        killed=killed,
        rows=rows,
        hidden=hidden,
    )
    for extra in night(work).public:
        work.emit(EventKind.NOTE, Visibility.PUBLIC, **extra)


def _shown_factions(work: Work) -> list[str]:
    two = int(work.ruleset.option("mafia_clans")) == 2
    return [f for f in work.ruleset.factions if f != "godfather" and (two or f != "mafia2")]


def jailer_killed(work: Work) -> None:
    """п.ru Тюремщик: «Если Тюремщика убивают - все ранее посаженные игроки с невскрытыми
    фракциями выходят из тюрьмы»."""
    if not any(work.players[n].role == "jailer" for n in work.dying):
        return
    for p in work.players.values():
        if not p.alive and p.cause == "lynch" and p.status("faction_hidden"):
            p.alive, p.died, p.cause = True, None, None
            p.statuses = [s for s in p.statuses if s.id != "faction_hidden"]
            work.tell(p.name, EventKind.NOTE, message="released")
            work.gm(EventKind.STATUS, player=p.name, status="released", why="jailer_killed")


def morning(work: Work) -> None:
    """Everything that happens «с наступлением утра»."""
    jailer_killed(work)
    villagers(work)
    settle_recruitment(work)
    settle_role_changes(work)
    deliver_gifts(work)
    send_answers(work)
    faction_table(work)
