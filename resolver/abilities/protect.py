"""Protect: guard a player against attacks for the phase (heal, guard, vest).

``kind`` names the protection; ``protection_precedence`` orders several on one target. A
``guard`` dies in place of the first attacked and counter-attacks with ``counter``. Players
with an ``unprotectable`` status (a revealed Mayor) cannot receive the listed kinds.
"""

from __future__ import annotations

from resolver.combat import add_protection
from resolver.work import Action, Protection, Work


def apply(action: Action, work: Work) -> None:
    """Place the protection on the target (or on the actor with ``apply_to: self``)."""
    target = action.actor if action.params.get("apply_to") == "self" else action.targets[0]
    kind = str(action.params.get("kind", "heal"))
    if not add_protection(work, target, Protection(kind, action.performer, action.params)):
        action.outcome, action.reason = "failed", "unprotectable"
