"""The police: Arrest, Hold, Detention, Release, House Search, Lawsuit, Cross-examine.

Seed 000 'User arrests target': "Needs to accuse a player for a specific crime during a
specific past phase"; "If a police officer arrests somebody for a false charge, they will be
suspended"; "If successful, then there will be info that an unidentified police officer
Arrested Player XYZ successfully (identity won't get revealed)".
"""

from __future__ import annotations

from resolver.hooks.dctp.common import (
    AWAY,
    JAILED,
    Crime,
    done,
    fail,
    has,
    is_player,
    note,
    parse_crime,
    phase_index,
    phase_of,
    public,
    result,
    status,
    unstatus,
)
from resolver.hooks.dctp.ledger import crime_matches, crimes_of
from resolver.hookspecs import ActionView, Handled, HookView
from resolver.model.state import Primitive

SUSPENSION = 3  # the phase of the attempt and the two after it


def _charge(view: HookView, action: ActionView) -> tuple[str, Crime] | str:
    """The accused and the charge, or why the order cannot be read."""
    if len(action.targets) < 2 or not is_player(view, action.targets[0]):
        return "needs a player and a crime"
    charge = parse_crime(action.targets[1])
    if charge is None:
        return f"not a crime: {action.targets[1]!r}"
    when = phase_of(charge.phase or action.order_params.get("phase"))
    if when is None:  # 'If no time is given ... the arrest attempt will fail' (no suspension)
        return "the crime's phase is missing"
    at = phase_index(view, when)
    if at is None:
        return f"not a phase: {when!r}"
    if at >= view.index():
        return "the crime must be from a past phase, not this one"
    return action.targets[0], Crime(charge.crime, charge.victim, when)


def charge_holds(view: HookView, officer: str, accused: str, charge: Crime) -> bool:
    """True if the accused committed the charged crime (blamed crimes too, except for the BO
    and BO lovers: 'The BO can't arrest someone for a blamed action in any way')."""
    for crime in crimes_of(view, accused, view.index()):
        if not crime_matches(view, charge, crime):
            continue
        if crime.blamed and _bo_side(view, officer):
            continue
        return True
    return False


def _bo_side(view: HookView, officer: str) -> bool:
    from resolver.hooks.dctp.common import bo, lover_of

    lover = lover_of(view, officer)
    variant = view.option("variant_frame")
    return bo(view, officer) or (
        variant == "seed001_suitcase" and lover is not None and bo(view, lover)
    )


def _longshot_tonight(view: HookView, name: str) -> bool:
    """'If the sniper would have been arrested on a Night where he/she used Longshot, even if
    the accusation is wrong, the sniper will still get arrested'."""
    if view.kind() != "night":
        return False
    for _, actor, aid, targets in view.accepted():
        if actor == name and aid == "longshot":
            return True
        if (
            aid == "order_kill"
            and targets[:1] == (name,)
            and "longshot" in view.role(name).abilities
        ):
            return True
    return False


def arrest(view: HookView, action: ActionView) -> Handled:
    """Arrest for a named crime of a past phase; a false charge suspends the officer."""
    read = _charge(view, action)
    if isinstance(read, str):
        return fail(read)
    accused, charge = read
    if has(view, accused, *JAILED, *AWAY) or not view.alive(accused):
        return fail("the accused cannot be reached")
    if charge_holds(view, action.actor, accused, charge) or _longshot_tonight(view, accused):
        return done(*jail(view, action.actor, accused, "arrested"))
    if "never_suspended" in view.role(action.actor).tags:
        return done(note([action.actor], "arrest_failed", target=accused))
    return done(
        status(action.actor, action.actor, "suspended", SUSPENSION),
        note([action.actor], "arrest_failed", target=accused),
    )


def jail(view: HookView, officer: str, accused: str, sid: str) -> list[Primitive]:
    """Put the accused in jail: public notice without the officer; a sniper's Revenge."""
    out = [
        status(officer, accused, sid),
        public("arrested", player=accused),
        note([officer], "arrest_done", target=accused),
    ]
    if "revenge" in view.role(accused).abilities:  # 'the officer(s) arresting them will become
        # "Temporary Injured"(same length as a suspension)'
        out.append(status(accused, officer, "temporarily_injured", SUSPENSION))
    return out


def hold(view: HookView, action: ActionView) -> Handled:
    """Hold for a named crime: held 3 phases; a false charge loses Hold for the game."""
    read = _charge(view, action)
    if isinstance(read, str):
        return fail(read)
    accused, charge = read
    if has(view, accused, *JAILED, *AWAY) or not view.alive(accused):
        return fail("the accused cannot be reached")
    if _held_before(view, action.actor, accused):
        return fail("a player may not be held twice in a row")
    if charge_holds(view, action.actor, accused, charge):
        return done(*jail(view, action.actor, accused, "held"))
    return done(
        status(action.actor, action.actor, "hold_lost"), note([action.actor], "hold_failed")
    )


def _held_before(view: HookView, officer: str, accused: str) -> bool:
    mine = [e for e in view.ledger() if e.actor == officer and e.ability == "hold" and e.targets]
    return bool(mine) and mine[-1].targets[0] == accused and mine[-1].outcome == "done"


def detention(view: HookView, action: ActionView) -> Handled:
    """Detain without a charge: 3 phases, one at a time, never the same player twice in a row."""
    target = action.targets[0]
    if any(
        s.id == "detained" and s.source == action.actor
        for n in view.names()
        for s in view.statuses(n)
    ):
        return fail("only one player at a time can be in detention")
    if has(view, target, *JAILED, *AWAY):
        return fail("the target cannot be reached")
    last = [
        e
        for e in view.ledger()
        if e.actor == action.actor and e.ability == "detention" and e.outcome == "done"
    ]
    if last and last[-1].targets[:1] == (target,):
        return fail("can not be used on the same person twice in a row")
    paperwork = "paperwork_night" if view.kind() == "day" else "paperwork"
    return done(
        status(action.actor, target, "detained"),
        public("arrested", player=target),
        status(action.actor, action.actor, paperwork),
    )


def release(view: HookView, action: ActionView) -> Handled:
    """The detainer releases her own detainee early."""
    target = action.targets[0]
    own = any(s.id == "detained" and s.source == action.actor for s in view.statuses(target))
    if not own:
        return fail("not her detainee")
    return done(unstatus(target, "detained"), public("released"))


def lawsuit(view: HookView, action: ActionView) -> Handled:
    """Once a game, release one prisoner; his crimes until then are erased."""
    target = action.targets[0]
    held = [s for s in JAILED if view.has_status(target, s)]
    if not held:
        return fail("the target is not in prison")
    return done(*(unstatus(target, s) for s in held), public("released"))


def house_search(view: HookView, action: ActionView) -> Handled:
    """Crimes before this night: the target is auto-arrested and the officer learns them;
    none: the officer is suspended two phases and loses House Search."""
    target = action.targets[0]
    if has(view, target, *JAILED, *AWAY):
        return fail("the target cannot be reached")
    crimes = crimes_of(view, target, view.index())
    if crimes:
        listed = [f"{c.crime} {c.phase}" for c in crimes]
        return done(
            status(action.actor, target, "arrested"),
            public("arrested", player=target),
            result(action.actor, action.ability.id, target, listed),
        )
    return done(
        status(action.actor, action.actor, "suspended", SUSPENSION),
        status(action.actor, action.actor, "house_search_lost"),
        public("officer_suspended"),
        result(action.actor, action.ability.id, target, "no_crime"),
    )


def cross_examine(view: HookView, action: ActionView) -> Handled:
    """Guilty if the target committed any crime before this phase (prep included)."""
    target = action.targets[0]
    guilty = bool(crimes_of(view, target, view.index())) and not _mod_only_disguise(view, target)
    return done(
        result(action.actor, action.ability.id, target, "guilty" if guilty else "not_guilty")
    )


def _mod_only_disguise(view: HookView, name: str) -> bool:
    """'Cross-Examine will return false if disguising is her only crime' (Master of Disguise)."""
    if not view.has_status(name, "master_of_disguise"):
        return False
    crimes = crimes_of(view, name, view.index())
    return bool(crimes) and all(c.crime == "disguise" for c in crimes)
