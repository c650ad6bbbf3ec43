"""What happened, read from the ledger: the facts investigations see and the crimes arrests name.

A fact is an action that went through (outcome ``done``): blocked (discombobulated) and failed
actions did not happen. Black Suitcase fakes show as the faked action; a Frame shows the framed
player doing the crime (a blamed crime); a kill order shows the killer killing; Heavy Handed
shows Vodka attacking the target he discombobulated; a watch lent by day shows Agasa
protecting its holder the next night.
"""

from __future__ import annotations

from dataclasses import dataclass

from resolver.hooks.dctp.common import (
    DONE,
    Claim,
    Crime,
    crime_group,
    is_crime,
    keyword,
    parse_claim,
    parse_crime,
    phase_after,
    phase_of,
)
from resolver.hookspecs import HookView
from resolver.model.state import LedgerEntry

NOT_ACTIONS = ("order_kill_noted",)


BORROWED = ("covered", "made_real")
"""Links of abilities used as someone's own: Calvados's Cover/Backup, Anokata's Chameleon."""


@dataclass(frozen=True, slots=True)
class Fact:
    """One action that happened, as investigations read it."""

    phase: str
    actor: str
    ability: str
    targets: tuple[str, ...]
    blamed: bool = False
    fake: bool = False


_CACHE: dict[tuple[str, tuple[LedgerEntry, ...], tuple[str, ...]], list[Fact]] = {}


def facts(view: HookView) -> list[Fact]:
    """Every action of the game that went through, expanded (fakes, frames, kill orders).

    One resolution asks many times: the expansion of the last ledger seen is kept (keyed by
    the whole ledger, so another game's or phase's ledger never reads it).
    """
    ledger = view.ledger()
    covered = tuple(lk.b for kind in BORROWED for lk in view.links(kind))
    key = (view.ruleset.path or view.ruleset.id, ledger, covered)
    found = _CACHE.get(key)
    if found is not None:
        return found
    out: list[Fact] = []
    for e in ledger:
        if e.outcome == DONE:
            out += _expand(view, e, ledger)
    for lk in (lk for kind in BORROWED for lk in view.links(kind)):
        action, _, phase = lk.b.partition("@")
        aid, _, target = action.partition(">")
        out.append(Fact(phase, lk.a, aid, (target,) if target else ()))
    _CACHE.clear()
    _CACHE[key] = out
    return out


def _expand(view: HookView, e: LedgerEntry, ledger: tuple[LedgerEntry, ...]) -> list[Fact]:
    if e.ability == "fake_action" and len(e.targets) >= 2:
        return [Fact(e.phase, e.actor, e.targets[0], e.targets[1:], fake=True)]
    if e.ability == "frame" and len(e.targets) >= 2:
        crime = parse_crime(e.targets[1])
        victims = (crime.victim,) if crime and crime.victim else ()
        base = Fact(e.phase, e.actor, "frame", e.targets[:1])
        if crime is None:
            return [base]
        return [base, Fact(e.phase, e.targets[0], crime.crime, victims, blamed=True)]
    if e.ability == "order_kill" and len(e.targets) >= 2:
        return [Fact(e.phase, e.targets[0], "kill", e.targets[1:2])]
    if e.ability == "heavy_handed":
        hit = [
            x.targets[0]
            for x in ledger
            if x.phase == e.phase
            and x.actor == e.actor
            and x.ability == "discombobulate"
            and x.outcome == DONE
            and x.targets
        ]
        return [Fact(e.phase, e.actor, "heavy_handed", tuple(hit))]
    if e.ability == "tranquilizer_watch" and e.targets:
        return [
            Fact(e.phase, e.actor, e.ability, e.targets),
            Fact(phase_after(view, e.phase), e.actor, "protect", e.targets[:1]),
        ]
    return [Fact(e.phase, e.actor, e.ability, tuple(_visited(t) for t in e.targets))]


def _visited(value: str) -> str:
    """An investigation's claim visits its subject ('xpon investigates Conia')."""
    claim = parse_claim(value)
    return claim.subject if claim is not None else value


def claim_holds(view: HookView, claim: Claim, phase: str) -> bool:
    """True if the claimed action happened in ``phase`` (same keyword, same object)."""
    verb_kw = keyword(view, claim.verb)
    for fact in facts(view):
        if fact.phase != phase or fact.actor != claim.subject:
            continue
        if fact.ability == "frame":  # 'The action Frame cannot be investigated'
            continue
        if keyword(view, fact.ability) != verb_kw and fact.ability != claim.verb:
            continue
        if claim.object is None or claim.object in fact.targets:
            return True
    return False


def crimes_of(view: HookView, name: str, before: int) -> list[Crime]:
    """The crimes a player committed in phases before index ``before`` with evidence left.

    Evidence is gone for crimes erased by Erase Evidence (one named, else the latest) and for
    everything before a Lawsuit released him.
    """
    found: list[tuple[int, Crime]] = []
    for fact in facts(view):
        if fact.actor != name or view.index(fact.phase) >= before:
            continue
        if fact.fake or not is_crime(view, fact.ability):
            continue
        victim = fact.targets[0] if fact.targets else None
        crime = Crime(crime_group(view, fact.ability), victim, fact.phase, fact.blamed)
        found.append((view.index(fact.phase), crime))
    for lk in view.links("disguise_crime"):
        if lk.a == name:
            role, _, when = lk.b.partition("@")
            if view.index(when) < before:
                found.append((view.index(when), Crime("disguise", role, when)))
    return [c for i, c in found if not _erased(view, name, i, c, before)]


def _erased(view: HookView, name: str, at: int, crime: Crime, before: int) -> bool:
    for e in view.ledger():
        if e.outcome != DONE or not e.targets or e.targets[0] != name:
            continue
        when = view.index(e.phase)
        if when >= before:
            continue
        if e.ability == "lawsuit" and at < when:
            return True
        if e.ability == "erase_evidence" and at < when:
            named = parse_crime(e.targets[1]) if len(e.targets) > 1 else None
            if named is None or crime_matches(view, named, crime):
                return True
    return False


def crime_matches(view: HookView, charge: Crime, crime: Crime) -> bool:
    """True if the charge names this crime: same crime, victim (if named) and phase (if named)."""
    if crime_group(view, charge.crime) != crime.crime:
        return False
    if charge.victim and (crime.victim or "").lower() != charge.victim.lower():
        return False
    return not charge.phase or phase_of(charge.phase) == crime.phase
