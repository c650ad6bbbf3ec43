"""Notify: send a message not implied by other events (``note`` events, templated by key)."""

from __future__ import annotations

from resolver.model.events import EventKind, Visibility
from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Tell the targets (everyone with ``public: true``, the GM with ``gm: true``) the
    ``message`` key."""
    data = dict(action.params)
    if data.pop("gm", False):
        work.gm(EventKind.NOTE, **data)
        return
    if data.pop("public", False):
        work.emit(EventKind.NOTE, Visibility.PUBLIC, **data)
        return
    for who in action.targets:
        work.tell(who, EventKind.NOTE, **data)
