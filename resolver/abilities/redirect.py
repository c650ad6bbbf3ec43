"""Redirect: control a player: his action goes to a new target, or he takes no action (Witch).

The victim is not told. With ``cancel_is_block`` (and ``redirect_is_block``) the control
counts as a role-block, so a Serial Killer's block reaction hits the controller.
"""

from __future__ import annotations

from resolver.abilities.block import mark_blocked
from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Set the victim's new target (first target slot) or cancel his action."""
    victim = action.targets[0]
    if len(action.targets) > 1:
        work.redirects[victim] = (action.targets[1], work.step)
        if action.params.get("redirect_is_block"):
            mark_blocked(work, victim, action.performer, notify=None)
    else:
        work.cancelled[victim] = (action.performer, work.step)
        if action.params.get("cancel_is_block"):
            mark_blocked(work, victim, action.performer, notify=None)
