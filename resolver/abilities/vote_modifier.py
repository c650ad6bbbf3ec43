"""Vote modifier: set the targets' vote weight for this phase's lynch (``weight``)."""

from __future__ import annotations

from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Record the weight; the lynch step reads it."""
    for who in action.targets or [action.actor]:
        work.vote_mods[who] = int(action.params.get("weight", 1))
