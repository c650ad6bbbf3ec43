"""Link: bind two players for the rest of the game (a Rival and his target, lovers)."""

from __future__ import annotations

from resolver.model.events import EventKind
from resolver.model.state import Link
from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Link the actor (or the first target) to the last target under ``kind``."""
    kind = str(action.params.get("kind", "link"))
    a = action.targets[0] if len(action.targets) > 1 else action.actor
    b = action.targets[-1]
    work.links.append(Link(kind, a, b))
    work.tell(a, EventKind.LINKED, link=kind, target=b)
