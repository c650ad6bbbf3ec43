"""Status: give the target (or the actor, ``apply_to: self``) a status from the ruleset.

How long it lasts comes from the status definition (or a ``lasts`` parameter); a status with
the ``public`` effect is announced (a Mayor's reveal). ``remove: true`` takes the status away.
"""

from __future__ import annotations

from resolver.model.events import EventKind, Visibility
from resolver.model.state import Status
from resolver.phases import last_phase_covered
from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Apply the status named by ``status``."""
    sid = str(action.params["status"])
    target = action.actor if action.params.get("apply_to") == "self" else action.targets[0]
    sdef = work.ruleset.statuses[sid]
    if action.params.get("remove"):
        player = work.players[target]
        if player.status(sid) is not None:
            player.statuses = [s for s in player.statuses if s.id != sid]
            work.gm(EventKind.STATUS, player=target, status=sid, source=action.actor, removed=True)
        return
    until = last_phase_covered(action.params.get("lasts", sdef.lasts), work.phase, work.ruleset)
    work.add_status(target, Status(sid, until, action.actor, work.phase.id))
    work.gm(EventKind.STATUS, player=target, status=sid, source=action.actor, until=until)
    if sdef.effects.get("public"):
        role = work.players[target].role
        work.emit(EventKind.REVEALED, Visibility.PUBLIC, player=target, status=sid, role=role)
