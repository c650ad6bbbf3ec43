"""Failheap Village hooks: the Rival's random target and conversion, the Lunatic's curse, and
the Mafia kill when no Godfather is left. Everything else is data in ``failheap.yaml``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from resolver.hookspecs import HookView
from resolver.model.catalogue import Effect
from resolver.model.state import Primitive

RIVAL_TAG = "rival"
LUNATIC_TAG = "lunatic"
FACTION_KILL_TAG = "faction_kill"


def on_game_start(view: HookView) -> Sequence[Primitive]:
    """Each Rival is given a random target (unless the game fixed one)."""
    out = []
    fixed = {link.a for link in view.links("rival")}
    for name in view.names():
        if RIVAL_TAG not in view.role(name).tags or name in fixed:
            continue
        pool = [n for n in view.names() if n != name and _eligible(view, n)]
        if pool:
            target = view.draw(f"rival_target:{name}", pool)
            out.append(Primitive(Effect.LINK, name, (target,), {"kind": "rival"}, "rival_target"))
    return out


def _eligible(view: HookView, name: str) -> bool:
    if view.option("rival_target_pool") == "anyone":
        return True
    return view.ruleset.factions[view.faction(name)].win != "independent"


def grants(view: HookView) -> Mapping[str, tuple[str, ...]]:
    """With no living holder of a faction kill, the first living member may order it."""
    if view.option("mafia_kill_fallback") != "first_member":
        return {}
    kills = _faction_kills(view)
    first: dict[str, str] = {}
    held: set[str] = set()
    for name in view.names():
        faction = view.faction(name)
        if faction not in kills:
            continue
        first.setdefault(faction, name)
        if kills[faction] in view.role(name).abilities:
            held.add(faction)
    return {member: (kills[f],) for f, member in first.items() if f not in held}


def _faction_kills(view: HookView) -> dict[str, str]:
    kills: dict[str, str] = {}
    ruleset = view.ruleset
    for ability in ruleset.abilities.values():
        if FACTION_KILL_TAG in ability.tags:
            for role in ruleset.holders.get(ability.id, ()):
                kills.setdefault(ruleset.roles[role].faction, ability.id)
    return kills


def on_lynch(view: HookView, lynched: str, voters: tuple[str, ...]) -> Sequence[Primitive]:
    """A lynched Lunatic curses one of his accusers, drawn at random, to die the next day."""
    if LUNATIC_TAG not in view.role(lynched).tags:
        return ()
    tickets: list[str] = []
    mayor_tickets = int(view.option("lunatic_mayor_tickets"))
    for voter in voters:
        if voter != lynched and view.alive(voter):
            tickets += [voter] * (mayor_tickets if view.vote_weight(voter) > 1 else 1)
    if not tickets:
        return ()
    victim = view.draw(f"lunatic_accuser:{lynched}", tickets)
    step = None if view.option("lunatic_curse_when") == "start" else "vote"
    curse = Primitive(
        Effect.ATTACK,
        lynched,
        (victim,),
        {"kind": "curse", "pierces": tuple(view.option("lunatic_curse_pierces"))},
        "lunatic_curse",
        step,
    )
    when = view.next_phase(2)
    return (
        Primitive(
            Effect.SCHEDULE, lynched, (victim,), {"at": when, "primitive": curse}, "lunatic_curse"
        ),
    )


def after_deaths(view: HookView, deaths: Mapping[str, str]) -> Sequence[Primitive]:
    """A Rival whose target died other than by lynching becomes a Lunatic."""
    out = []
    becomes = str(view.ruleset.win["rival_becomes"])
    for link in view.links("rival"):
        kind = deaths.get(link.b)
        if kind is None or kind == "lynch" or not view.alive(link.a):
            continue
        if RIVAL_TAG in view.role(link.a).tags:
            notify = bool(view.option("rival_told_of_conversion"))
            out.append(
                Primitive(
                    Effect.CONVERT,
                    None,
                    (link.a,),
                    {"to": becomes, "silent": not notify},
                    "rival_target_died",
                )
            )
    return out
