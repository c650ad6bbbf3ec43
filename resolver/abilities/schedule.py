"""Schedule: run a primitive at the start of a later phase (a Lunatic's curse next day).

``at`` is the phase id; ``primitive`` the ``Primitive`` to run then.
"""

from __future__ import annotations

from resolver.model.events import EventKind
from resolver.model.state import Primitive, Scheduled
from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Store the primitive for its phase."""
    prim = action.params["primitive"]
    assert isinstance(prim, Primitive)
    work.scheduled.append(Scheduled(str(action.params["at"]), prim))
    work.gm(
        EventKind.SCHEDULED,
        at=action.params["at"],
        effect=str(prim.effect),
        targets=list(prim.targets),
        cause=prim.cause,
    )
