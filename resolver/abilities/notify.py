"""Notify: send a message not implied by other events (``note`` events, templated by key).

``event: result`` sends it as a ``result`` event instead (a hook's investigation result,
with a GM copy naming the recipient); ``gm: true`` makes it a GM-only note.
"""

from __future__ import annotations

from resolver.model.events import EventKind, Visibility
from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Tell the targets (everyone with ``public: true``, the GM with ``gm: true``) the
    ``message`` key."""
    data = dict(action.params)
    if data.pop("event", "note") == "result":
        for who in action.targets:
            work.tell(who, EventKind.RESULT, **data)
            work.gm(EventKind.RESULT, actor=who, **data)
        return
    if data.pop("gm", False):
        work.gm(EventKind.NOTE, **data)
        return
    if data.pop("public", False):
        work.emit(EventKind.NOTE, Visibility.PUBLIC, **data)
        return
    for who in action.targets:
        work.tell(who, EventKind.NOTE, **data)
