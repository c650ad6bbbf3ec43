"""Link: bind two players for the rest of the game (a Rival and his target, lovers).

``remove: true`` undoes links of that kind from the first target: to the second target if
one is given, else to anyone.
"""

from __future__ import annotations

from resolver.model.events import EventKind
from resolver.model.state import Link
from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Link the actor (or the first target) to the last target under ``kind``."""
    kind = str(action.params.get("kind", "link"))
    if action.params.get("remove"):
        who = action.targets[0]
        to = action.targets[1] if len(action.targets) > 1 else None
        work.links = [
            lk
            for lk in work.links
            if not (lk.kind == kind and lk.a == who and (to is None or lk.b == to))
        ]
        return
    a = action.targets[0] if len(action.targets) > 1 else action.actor
    b = action.targets[-1]
    work.links.append(Link(kind, a, b))
    if not action.params.get("silent"):
        work.tell(a, EventKind.LINKED, link=kind, target=b)
