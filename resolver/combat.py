"""Attacks against immunities and protections: the one place a player is marked to die."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from resolver.model.events import EventKind
from resolver.work import Dying, Protection, Work

ALL_KINDS = "all"


def attack(
    work: Work,
    victim: str,
    attacker: str | None,
    kind: str,
    pierces: Collection[str] = (),
    *,
    cause: str,
) -> str:
    """Attack a player: immunities first, then protections in precedence order, then death.

    Args:
        work: the phase scratchpad.
        victim: who is attacked.
        attacker: who attacks (the visitor), None for the game itself.
        kind: the attack kind (``mafia``, ``immolation``...).
        pierces: what it ignores: ``immunity`` and/or ``protection``.
        cause: the ability or hook that attacked, for the GM log.

    Returns:
        The outcome: ``killed``, ``immune``, ``guarded``, ``healed``, ``vested`` (the
        protection kind + ``ed``), ``already_dying`` or ``already_dead``.
    """
    target = work.players[victim]
    if not target.alive:
        return _log(work, victim, attacker, kind, cause, "already_dead")
    if immune(work, victim, kind, pierces):
        return _log(work, victim, attacker, kind, cause, "immune")
    if "protection" not in pierces:
        saved = _protect(work, victim, attacker, kind, cause)
        if saved:
            return saved
    if victim in work.dying:
        return _log(work, victim, attacker, kind, cause, "already_dying")
    work.dying[victim] = Dying(kind, attacker, cause)
    return _log(work, victim, attacker, kind, cause, "killed")


def immune(work: Work, victim: str, kind: str, pierces: Collection[str]) -> bool:
    """True if an immunity of the victim's role or statuses stops this attack kind."""
    for imm in work.role_of(victim).immune:
        if kind not in imm.kinds and ALL_KINDS not in imm.kinds:
            continue
        if imm.pierceable and "immunity" in pierces:
            continue
        if imm.while_alive_tag and not any(
            p.name != victim for p in work.tagged_alive(imm.while_alive_tag)
        ):
            continue
        return True
    if "immunity" in pierces:
        return False
    return any(
        kind in kinds or ALL_KINDS in kinds for kinds in work.status_effect(victim, "immune_to")
    )


def unprotectable(work: Work, who: str) -> set[str]:
    """Protection kinds that cannot protect this player (a revealed Mayor: heal, guard)."""
    out: set[str] = set()
    for kinds in work.status_effect(who, "unprotectable"):
        out.update(kinds)
    return out


def add_protection(work: Work, who: str, protection: Protection) -> bool:
    """Place a protection; False if the player cannot be protected that way."""
    if protection.kind in unprotectable(work, who):
        return False
    work.protections.setdefault(who, []).append(protection)
    return True


def _protect(work: Work, victim: str, attacker: str | None, kind: str, cause: str) -> str | None:
    order = work.ruleset.protection_precedence
    found = work.protections.get(victim, [])
    ranked = sorted(found, key=lambda p: order.index(p.kind) if p.kind in order else len(order))
    for prot in ranked:
        if prot.kind == "guard":
            if prot.used and prot.params.get("intercepts", "first") == "first":
                continue
            prot.used = True
            _guard(work, victim, attacker, prot.by, prot.params)
        work.tell(victim, EventKind.SAVED, protection=prot.kind)
        if prot.by != victim:
            work.tell(prot.by, EventKind.PROTECTED, target=victim, protection=prot.kind)
        return _log(work, victim, attacker, kind, cause, f"{prot.kind}ed")
    return None


def _guard(
    work: Work, victim: str, attacker: str | None, guard: str, params: Mapping[str, Any]
) -> None:
    """The Bodyguard dies in the victim's place and takes the attacker with him."""
    if guard not in work.dying:
        work.dying[guard] = Dying("guard", attacker, "guard")
        _log(work, guard, attacker, "guard", "guard", "killed")
    counter = params.get("counter")
    if counter and attacker and attacker != guard:
        attack(
            work,
            attacker,
            guard,
            str(counter.get("kind", "guard")),
            tuple(counter.get("pierces", ())),
            cause="guard_counter",
        )


def _log(work: Work, victim: str, attacker: str | None, kind: str, cause: str, outcome: str) -> str:
    work.gm(
        EventKind.ATTACKED,
        victim=victim,
        attacker=attacker,
        attack=kind,
        cause=cause,
        outcome=outcome,
    )
    return outcome
