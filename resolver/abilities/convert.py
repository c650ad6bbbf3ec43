"""Convert: a player takes a new role and its faction (Amnesiac remembers, Rival → Lunatic).

``to: target_role`` takes the (dead) target's role, faction and unspent uses (at least
``min_uses``); ``to: <role id>`` takes that role. ``allow_cleaned: false`` refuses a target
whose role was hidden by a cleaning.
"""

from __future__ import annotations

from resolver.model.events import EventKind
from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Convert the actor (``to: target_role``) or the targets (``to: <role>``)."""
    to = str(action.params.get("to", "target_role"))
    if to == "target_role":
        _remember(action, work)
        return
    silent = bool(action.params.get("silent", False))
    for who in action.targets or [action.actor]:
        convert(work, who, to, cause=action.ability.id, silent=silent)


def convert(
    work: Work,
    who: str,
    role: str,
    *,
    cause: str,
    uses: dict[str, int] | None = None,
    silent: bool = False,
) -> None:
    """Give ``who`` a new role, its faction and the role's uses."""
    player = work.players[who]
    new = work.ruleset.roles[role]
    old = player.role
    player.role, player.faction = role, new.faction
    player.uses = {a.id: a.uses for a in new.abilities.values() if a.uses is not None}
    player.uses.update(uses or {})
    player.flags.add("converted")
    if not silent:
        work.tell(who, EventKind.CONVERTED, role=role, cause=cause)
    work.gm(EventKind.CONVERTED, player=who, old=old, role=role, cause=cause)


def _remember(action: Action, work: Work) -> None:
    target = work.players[action.targets[0]]
    if target.role_hidden and not action.params.get("allow_cleaned", True):
        action.outcome, action.reason = "failed", "role_hidden"
        return
    floor = int(action.params.get("min_uses", 1))
    new = work.ruleset.roles[target.role]
    uses = {
        a.id: max(floor, target.uses.get(a.id, a.uses))
        for a in new.abilities.values()
        if a.uses is not None
    }
    convert(work, action.actor, target.role, cause=action.ability.id, uses=uses)
    work.players[action.actor].faction = target.faction
    work.players[action.actor].flags.add("remembered")
