"""None: an ability with no mechanical effect (its order is still recorded and answered)."""

from __future__ import annotations

from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Do nothing."""
    del action, work
