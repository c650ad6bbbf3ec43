"""The day: votes changed by night moves (п.28 order), anonymous lost votes, penalties
«+1 в лог» (п.09, п.10), the Psycho's last voter, the Rebel's heir, and the wins (п.14)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from resolver.hookspecs import HookView
from resolver.model.catalogue import Effect
from resolver.model.events import EventKind
from resolver.model.state import Primitive, Winner
from resolver.work import Work

MAFIA_FACTIONS = ("mafia", "mafia2")
PLAN_ORDER = ("suggest", "dispose", "mirror", "change", "ghouls")


def _plans(view: HookView, kind: str) -> list[tuple[str, str, list[str]]]:
    """This day's vote plans of one kind: (actor, target, rest)."""
    prefix = f"vote:{view.phase}:{kind}:"
    out = []
    for name in view.names():
        for flag in sorted(view.flags(name)):
            if flag.startswith(prefix):
                target, *rest = flag[len(prefix) :].split(":")
                out.append((name, target, [r for r in rest if r]))
    return out


def adjust_votes(view: HookView, votes: dict[str, str | None]) -> Mapping[str, str | None]:
    """Telepath, Rebel, Swindler and Vampire vote moves, then silent voters drop out."""
    votes = dict(votes)
    for _, voter, rest in _plans(view, "suggest"):
        if voter in votes and rest:
            votes[voter] = rest[0]  # отданный голос меняется на указанный телепатом
    for _, target, _ in _plans(view, "dispose"):
        for name in view.names():
            if name not in votes and not _silent(view, name):
                votes[name] = target  # неиспользованные голоса
    for swindler, target, _ in _plans(view, "mirror"):
        if swindler in votes and target in votes:
            votes[target] = votes[swindler]
    for _, first, rest in _plans(view, "change"):
        _change(view, votes, [first, *rest[:-1]], rest[-1] if rest else None)
    for _, target, _ in _plans(view, "ghouls"):
        for name in view.names():
            if view.role(name).id == "ghoul" and name in votes:
                votes[name] = target
    return {v: t for v, t in votes.items() if not _silent(view, v)}


def _change(
    view: HookView, votes: dict[str, str | None], voters: list[str], new: str | None
) -> None:
    """Two of the last five voters (one of the last three with ≤ N players alive)."""
    small = len(view.names()) <= int(view.option("swindler_small_game"))
    last, count = (3, 1) if small else (5, 2)
    recent = list(votes)[-last:]
    for voter in [v for v in voters if v in recent][:count]:
        votes[voter] = new


def _silent(view: HookView, name: str) -> bool:
    """Votes nobody learns were lost: the Mayor's/Godfather's silence, torture, quarantine,
    vodka, the Domovoi, depression, the Jailer's prison."""
    return view.vote_weight(name) == 0 or any(w == 0 for w in _weights(view, name))


def _weights(view: HookView, name: str) -> list[int]:
    defs = view.ruleset.statuses
    return [
        int(defs[s.id].effects["vote_weight"])
        for s in view.statuses(name)
        if s.id in defs and "vote_weight" in defs[s.id].effects
    ]


def vote_extras(view: HookView) -> Mapping[str, int]:
    """Penalties «+1 в лог» (п.09, п.09а, п.10, п.15, п.18): one vote each in today's log,
    the permanent ones every day."""
    extra: dict[str, int] = {}
    today = (f"log:{view.phase}:", "log:perm:")
    for name in view.names():
        n = sum(1 for f in view.flags(name) if f.startswith(today))
        if n:
            extra[name] = n
    return extra


def hidden_weights(work: Work) -> None:
    """Weights the log shows only in the totals: the Prosecutor's double vote against the
    accused (he tells the host), the Banshee's +1 per absorption (п.ru Банши)."""
    prefix = f"vote:{work.phase.id}:accuse:"
    for p in work.living():
        accused = {f[len(prefix) :].split(":")[0] for f in p.flags if f.startswith(prefix)}
        if work.votes.get(p.name) in accused:
            work.vote_mods[p.name] = 2
        absorbed = sum(1 for f in p.flags if f.startswith("absorbed:"))
        if absorbed:
            work.vote_mods[p.name] = 1 + absorbed


def _add(extra: dict[str, int], target: str | None, n: int) -> None:
    if target:
        extra[target] = extra.get(target, 0) + n


def day_start(work: Work) -> None:
    """Before the jailing: the skipped votes' penalties and the hidden weights."""
    record_skips(work)
    hidden_weights(work)


def record_skips(work: Work) -> None:
    """п.09: not voting, or voting for oneself, costs +1 in the log for the next two days
    (an empty red vote costs nothing; nor does a vote that cannot count, vodka's or the
    Mayor's silence: the counter never hands it over, and nobody may learn of it)."""
    days = int(work.ruleset.option("log_penalty_days"))
    view = HookView(work)
    for p in work.living():
        if p.status("jailed_by_jailer") or _silent(view, p.name):
            continue
        if p.name in work.votes and work.votes[p.name] != p.name:
            continue
        for k in range(1, days + 1):
            p.flags.add(f"log:day{work.phase.number + k}:skip:{work.phase.id}")
        work.gm(EventKind.NOTE, message="log_penalty", player=p.name, days=days, why="no vote")


def record_ties(work: Work) -> None:
    """п.10: tied players escape jail but get +1 in the log for the next day only."""
    if not int(work.ruleset.option("tie_penalty")):
        return
    for e in work.events:
        if e.kind is EventKind.NO_LYNCH and e.data.get("reason") == "tie":
            for name in [n for n in e.data.get("leaders", ()) if n in work.players]:
                work.players[name].flags.add(f"log:day{work.phase.number + 1}:tie:{work.phase.id}")


def on_lynch(view: HookView, lynched: str, voters: tuple[str, ...]) -> Sequence[Primitive]:
    """A jailed Psycho kills his last voter (п.ru Псих); with a Jailer in play the jailed
    player's faction stays hidden unless the Jailer checks him (п.16)."""
    out: list[Primitive] = []
    if view.role(lynched).id == "psycho" and voters:
        last = [v for v in voters if v != lynched]
        if last:
            out.append(
                Primitive(
                    Effect.ATTACK,
                    lynched,
                    (last[-1],),
                    {"kind": "explode", "pierces": ("protection", "immunity")},
                    "psycho_jailed",
                )
            )
    if any(view.role(n).id == "jailer" for n in view.names() if n != lynched):
        out.append(
            Primitive(
                Effect.STATUS, None, (lynched,), {"status": "faction_hidden"}, "jailer_in_play"
            )
        )
    return out


CLAN_ITEMS = ("poison", "diploma", "zip_gun")


def after_deaths(view: HookView, deaths: Mapping[str, str]) -> Sequence[Primitive]:
    """The clan's things pass on (п.20); the earliest Follower becomes the Rebel."""
    return (*_clan_things(view, deaths), *_rebel_heir(view, deaths))


def _clan_things(view: HookView, deaths: Mapping[str, str]) -> list[Primitive]:
    """п.20: «В случае смерти или посадки клановыми вещами распоряжается персонаж,
    выбранный большинством голосов членов клана» — the earliest living member, unless the
    GM records the clan's choice."""
    out: list[Primitive] = []
    for dead in deaths:
        clan = view.faction(dead)
        if clan not in (*MAFIA_FACTIONS, "loners"):
            continue
        heirs = [n for n in view.names() if n not in deaths and view.faction(n) == clan]
        if clan == "loners":
            heirs = [n for n in heirs if view.role(n).id == "rebel" or _follows(view, n)]
        things = {i: n for i, n in view.items(dead).items() if i in CLAN_ITEMS and n > 0}
        if not heirs or not things:
            continue
        for item, n in things.items():
            out.append(
                Primitive(Effect.ITEM, None, (dead,), {"item": item, "delta": -n}, "clan_things")
            )
            out.append(
                Primitive(Effect.ITEM, None, (heirs[0],), {"item": item, "delta": n}, "clan_things")
            )
    return out


def _follows(view: HookView, name: str) -> bool:
    return any(f.startswith("follower:") for f in view.flags(name))


def _rebel_heir(view: HookView, deaths: Mapping[str, str]) -> list[Primitive]:
    """The earliest Follower becomes the Rebel when the Rebel is killed or jailed."""
    if not any(view.role(n).id == "rebel" for n in deaths):
        return []
    if any(view.role(n).id == "rebel" for n in view.names() if n not in deaths):
        return []
    followers = sorted(
        (f, n)
        for n in view.names()
        if n not in deaths
        for f in view.flags(n)
        if f.startswith("follower:")
    )
    if not followers:
        return []
    return [Primitive(Effect.CONVERT, None, (followers[0][1],), {"to": "rebel"}, "rebel_heir")]


def _in_jail(view: HookView, name: str) -> bool:
    return any(s.id == "jailed_by_jailer" for s in view.statuses(name))


def check_win(view: HookView) -> Winner | None:
    """п.14: a side wins when no other side is left (the other mafia clan counts as
    another side); an unjoined Godfather wins with any one clan; the Jailer's prisoners
    count or not (option jailer_prisoners)."""
    out = view.option("jailer_prisoners") == "out"  # the Jailer's prisoners, for the wins
    living = [n for n in view.names() if not (out and _in_jail(view, n))]
    everyone = view.names(alive=None)
    if not living:
        return Winner((), (), "everyone_died", True)
    sides = {view.faction(n) for n in living if view.faction(n) != "godfather"}
    godfather = any(view.faction(n) == "godfather" for n in living)
    if len(sides) > 1 or (godfather and sides and not sides <= set(MAFIA_FACTIONS)):
        return None
    side = next(iter(sides), "mafia")
    players = [
        n
        for n in everyone
        if view.faction(n) == side or (side in MAFIA_FACTIONS and view.faction(n) == "godfather")
    ]
    return Winner((side,), tuple(players), "last_faction_standing")
