"""Grant: let a player use an extra ability this phase (a Mafia member ordering the kill)."""

from __future__ import annotations

from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Add ``ability`` to each target's grants."""
    ability = str(action.params["ability"])
    for who in action.targets or [action.actor]:
        work.grants[who] = (*work.grants.get(who, ()), ability)
