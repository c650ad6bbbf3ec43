"""Item: give (``delta`` > 0) or take (``delta`` < 0) charges of an item."""

from __future__ import annotations

from resolver.model.events import EventKind
from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Change the targets' charges of ``item``."""
    item = str(action.params["item"])
    delta = int(action.params.get("delta", 1))
    for who in action.targets or [action.actor]:
        items = work.players[who].items
        items[item] = max(0, items.get(item, 0) + delta)
        work.gm(EventKind.STATUS, player=who, item=item, delta=delta)
