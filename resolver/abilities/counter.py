"""Counter: change a player's remaining uses of an ability by ``delta`` (or ``set`` them)."""

from __future__ import annotations

from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Adjust ``ability`` uses on each target."""
    ability = str(action.params["ability"])
    for who in action.targets or [action.actor]:
        uses = work.players[who].uses
        if "set" in action.params:
            uses[ability] = int(action.params["set"])
        else:
            uses[ability] = max(0, uses.get(ability, 0) + int(action.params.get("delta", -1)))
