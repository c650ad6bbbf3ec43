"""DCTP shared reading: claims and crimes as order values, conditions, the ledger, primitives.

Order values of non-player slots arrive as the order parser renders them:

- a claim ``Subject>verb>Object@phase`` (``Conia>kill>CTU@night1``; object and phase optional;
  the verb an ability id);
- a crime ``crime:victim_or_role:phase`` (``kill:Conia:night1``, ``disguise:ran:night3``);
- a role, an item, a phase: their ids.

A value that does not read as what its slot expects makes the action fail with a reason,
never a crash.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from resolver.hookspecs import ActionView, Handled, HookView
from resolver.model.catalogue import Ability, Effect
from resolver.model.state import LedgerEntry, Primitive

JAILED = ("arrested", "detained", "held")
AWAY = ("abroad", "on_plane")
INJURED = ("injured", "temporarily_injured")
DONE = "done"
FAILED = "failed"
KILL_CRIME = "killing"
WILL = "testament"  # a will PM (the order parser's ``will``, aliased): not an action


@dataclass(frozen=True, slots=True)
class Claim:
    """An investigation claim: who did what to whom, and when (if said)."""

    subject: str
    verb: str
    object: str | None
    phase: str | None


@dataclass(frozen=True, slots=True)
class Crime:
    """A crime as an arrest names it, or as the ledger records it."""

    crime: str
    victim: str | None
    phase: str | None
    blamed: bool = False


def parse_claim(text: str) -> Claim | None:
    """``Conia>kill>CTU@night1`` → Claim; None if the text is not a claim."""
    core, _, phase = text.partition("@")
    parts = core.split(">")
    if len(parts) < 2 or not parts[0] or not parts[1] or "?" in parts[:2]:
        return None
    obj = parts[2] if len(parts) > 2 and parts[2] else None
    return Claim(parts[0], parts[1], obj, phase.strip().lower() or None)


def parse_crime(text: str) -> Crime | None:
    """``kill:Conia:night1`` → Crime; None if the text is not a crime."""
    parts = text.split(":")
    if not parts[0] or len(parts) > 3:
        return None
    victim = parts[1] if len(parts) > 1 and parts[1] else None
    phase = parts[2].strip().lower() if len(parts) > 2 and parts[2] else None
    return Crime(parts[0], victim, phase)


def done(*prims: Primitive, late: Any = None) -> Handled:
    """The action happened."""
    return Handled(DONE, "", tuple(prims), late)


def fail(reason: str, *prims: Primitive) -> Handled:
    """The action did not happen (it is not a crime and investigates as false)."""
    return Handled(FAILED, reason, tuple(prims))


def result(to: str, ability: str, target: str, value: object, **extra: Any) -> Primitive:
    """A private result for ``to`` (with a GM copy)."""
    params = {"event": "result", "ability": ability, "target": target, "result": value, **extra}
    return Primitive(Effect.NOTIFY, None, (to,), params, f"{ability}_result")


def note(to: Sequence[str], message: str, **data: Any) -> Primitive:
    """A private note (templated by ``message``)."""
    return Primitive(Effect.NOTIFY, None, tuple(to), {"message": message, **data}, message)


def gm_note(message: str, **data: Any) -> Primitive:
    """A note for the GM only (something the GM decides)."""
    return Primitive(Effect.NOTIFY, None, (), {"message": message, "gm": True, **data}, message)


def public(message: str, **data: Any) -> Primitive:
    """A note in the phase post."""
    return Primitive(Effect.NOTIFY, None, (), {"message": message, "public": True, **data}, message)


def status(actor: str | None, target: str, sid: str, lasts: Any = None) -> Primitive:
    """Give ``target`` a status (``lasts`` overrides its definition)."""
    params: dict[str, Any] = {"status": sid}
    if lasts is not None:
        params["lasts"] = lasts
    return Primitive(Effect.STATUS, actor, (target,), params, sid)


def unstatus(target: str, sid: str) -> Primitive:
    """Take a status away."""
    return Primitive(Effect.STATUS, None, (target,), {"status": sid, "remove": True}, sid)


def attack(attacker: str | None, victim: str, kind: str, pierces: Iterable[str]) -> Primitive:
    """An attack through the combat rules (immunities always; protections unless pierced)."""
    params = {"kind": kind, "pierces": tuple(pierces)}
    return Primitive(Effect.ATTACK, attacker, (victim,), params, kind)


def item(target: str, iid: str, delta: int) -> Primitive:
    """Give or take item charges."""
    return Primitive(Effect.ITEM, None, (target,), {"item": iid, "delta": delta}, iid)


def link(a: str, b: str, kind: str, *, remove: bool = False, silent: bool = True) -> Primitive:
    """Link ``a`` to ``b`` (or undo it)."""
    params = {"kind": kind, "remove": remove, "silent": silent}
    return Primitive(Effect.LINK, None, (a, b), params, kind)


def unlink_all(a: str, kind: str) -> Primitive:
    """Undo every link of ``kind`` from ``a``."""
    return Primitive(Effect.LINK, a, (a,), {"kind": kind, "remove": True}, kind)


def block(actor: str, target: str) -> Primitive:
    """Discombobulate: the target's later actions this phase fail (no engine notice)."""
    return Primitive(Effect.BLOCK, actor, (target,), {"notify": "none"}, "discombobulate")


def protection(actor: str, target: str, kind: str) -> Primitive:
    """Place a protection record (the kill handlers read it)."""
    return Primitive(Effect.PROTECT, actor, (target,), {"kind": kind}, kind)


def has(view: HookView, name: str, *sids: str) -> bool:
    """True if the player carries any of these statuses."""
    return any(view.has_status(name, s) for s in sids)


def is_player(view: HookView, name: str) -> bool:
    """True if ``name`` is a player of the game."""
    return name in view.names(alive=None)


def free(view: HookView, name: str) -> bool:
    """Alive, in Japan and not in jail."""
    return view.alive(name) and not has(view, name, *JAILED, *AWAY)


def entries(view: HookView, phase: str | None = None) -> list[LedgerEntry]:
    """Ledger entries of one phase (this one by default)."""
    phase = phase or view.phase
    return [e for e in view.ledger() if e.phase == phase]


def ability(view: HookView, aid: str) -> Ability | None:
    """A catalogue ability by id."""
    return view.ruleset.abilities.get(aid)


def keyword(view: HookView, aid: str) -> str:
    """The investigation keyword of an ability (``kill``, ``protect``...), else its id."""
    found = ability(view, aid)
    if found is None:
        return aid
    return str(found.effect_params.get("keyword", found.id))


def crime_group(view: HookView, aid: str) -> str:
    """The crime an ability's use is (every killing is ``killing``)."""
    if aid in (KILL_CRIME, "kill", "killed", "murder"):
        return KILL_CRIME
    found = ability(view, aid)
    if found is None:
        return aid
    return str(found.effect_params.get("crime_id", found.id))


def is_crime(view: HookView, aid: str) -> bool:
    """True if using the ability is a crime."""
    found = ability(view, aid)
    return found is not None and "crime" in found.tags


def bo(view: HookView, name: str) -> bool:
    """True if the player is in the Black Organization."""
    return view.faction(name) == "bo"


def rank(view: HookView, name: str) -> int:
    """A BO or DB member's rank (1 is the highest; 99 without a rank tag)."""
    for tag in view.role(name).tags:
        if tag.startswith(("bo_rank_", "db_rank_")):
            return int(tag.rsplit("_", 1)[1])
    return 99


def current_disguise(view: HookView, name: str) -> str | None:
    """The role a player is disguised as now (the latest ``disguise`` link), if any."""
    found = [lk.b for lk in view.links("disguise") if lk.a == name]
    return found[-1] if found else None


def lover_of(view: HookView, name: str) -> str | None:
    """A player's lover, if any."""
    for lk in view.links("lover"):
        if lk.a == name:
            return lk.b
    return None


def phase_of(text: str | None) -> str | None:
    """A phase id as written in a claim or crime (``prep`` is the preparation: night 1)."""
    if text is None:
        return None
    text = text.strip().lower().replace(" ", "")
    if text in ("prep", "preparation", "prepphase", "night0"):
        return "night1"
    return text


def phase_index(view: HookView, phase: str | None) -> int | None:
    """A phase id's running index, None if it is not a phase."""
    if phase is None:
        return None
    try:
        return view.index(phase)
    except ValueError:
        return None


def targets_of(action: ActionView, kind: str) -> list[str]:
    """The action's values in slots of one kind."""
    slots = action.ability.targets
    return [t for t, s in zip(action.targets, slots, strict=False) if s.kind == kind]


def phase_after(view: HookView, phase: str) -> str:
    """The id of the phase after ``phase``."""
    from resolver.phases import from_index

    return from_index(view.index(phase) + 1, view.ruleset).id


def will_of(view: HookView, name: str) -> str | None:
    """The latest will a player sent (None if he sent none)."""
    found = [e.targets[0] for e in view.ledger() if e.ability == WILL and e.actor == name
             and e.outcome == DONE and e.targets]  # fmt: skip
    return found[-1] if found else None
