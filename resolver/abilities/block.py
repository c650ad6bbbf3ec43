"""Block: the target's own actions in later steps do not happen (a Courtesan's visit).

A blocked player learns it after the night when the ability's ``notify`` parameter is
``after_night``. ``day_status`` also gives the target a status (``blocks_actions``) that
keeps blocking his actions for as long as it lasts. If the target's role has a
``reactions.blocked`` entry (the Serial Killer), that reaction runs against the blocker in
the step it names.
"""

from __future__ import annotations

from resolver.model.catalogue import Ability, Effect
from resolver.model.events import EventKind
from resolver.model.state import Status
from resolver.phases import last_phase_covered
from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Block the (routed) target; ``day_status`` (a status id, or ``none``) extends the block."""
    target = action.targets[0]
    mark_blocked(work, target, action.performer, notify=action.params.get("notify", "after_night"))
    status = action.params.get("day_status")
    if status and status != "none":
        sdef = work.ruleset.statuses[str(status)]
        until = last_phase_covered(sdef.lasts, work.phase, work.ruleset)
        work.add_status(target, Status(sdef.id, until, action.performer, work.phase.id))


def mark_blocked(work: Work, target: str, blocker: str, *, notify: object = "after_night") -> None:
    """Record that ``blocker`` blocks ``target`` and trigger the target's block reaction."""
    work.blocked.setdefault(target, []).append((blocker, work.step))
    if notify == "after_night":
        work.late.append(lambda w: _notice(w, target))
    reaction = work.role_of(target).reactions.get("blocked")
    if reaction is None:
        return
    if reaction.get("requires_order") and target not in work.acted:
        return
    ability = Ability(
        id=f"{work.players[target].role}_reaction",
        effect=Effect(reaction["effect"]),
        effect_params=reaction.get("params", {}),
        visits=False,
        priority=reaction.get("step", "kill"),
    )
    work.queue(
        Action(
            None,
            target,
            ability,
            [blocker],
            ability.effect_params,
            ability.priority,
            target,
            (blocker,),
            cause="block_reaction",
        )
    )


def _notice(work: Work, target: str) -> None:
    if not any(e.kind is EventKind.BLOCKED_NOTICE and target in e.to for e in work.events):
        work.tell(target, EventKind.BLOCKED_NOTICE)
