"""Swap: two players change places for every later action (the Cab Driver's switch).

Any later action aimed at one of them lands on the other; several switches compose in
resolution order.
"""

from __future__ import annotations

from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Record the switch of the two (routed) targets."""
    a, b = action.targets[0], action.targets[1]
    if a != b:
        work.swaps.append((a, b, work.step))
