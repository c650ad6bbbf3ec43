"""Appearance: make the target show ``value`` to investigations of type ``query`` this phase."""

from __future__ import annotations

from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Override the appearance for the rest of the phase."""
    for who in action.targets:
        work.appearances[(who, str(action.params["query"]))] = str(action.params["value"])
