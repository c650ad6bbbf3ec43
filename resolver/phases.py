"""Phase arithmetic: the cycle of phase kinds, next phase, and status expiry windows."""

from __future__ import annotations

from resolver.model.catalogue import Ruleset
from resolver.model.state import Phase


def parse_phase(text: str, ruleset: Ruleset) -> Phase:
    """Parse a phase id (``night2``) against the ruleset's phase kinds.

    Raises:
        ValueError: not a phase of this ruleset.
    """
    return Phase.parse(text, ruleset.phases.kinds)


def index_of(phase: Phase, ruleset: Ruleset) -> int:
    """A running index: phases later in the game have larger indexes."""
    return phase.number * len(ruleset.phases.kinds) + phase.rank


def from_index(index: int, ruleset: Ruleset) -> Phase:
    """The phase with this running index."""
    kinds = ruleset.phases.kinds
    number, rank = divmod(index, len(kinds))
    return Phase(number, rank, kinds[rank])


def next_phase(phase: str | None, ruleset: Ruleset) -> Phase:
    """The phase after ``phase`` (the ruleset's first phase when ``phase`` is None)."""
    if phase is None:
        return parse_phase(ruleset.phases.first, ruleset)
    return from_index(index_of(parse_phase(phase, ruleset), ruleset) + 1, ruleset)


def last_phase_covered(lasts: str | int, phase: Phase, ruleset: Ruleset) -> str | None:
    """The last phase a status applied in ``phase`` still covers (None: the whole game).

    ``lasts`` is ``phase``, ``night``/``day`` (until the end of the current or next phase of
    that kind), ``game``, or a number of phases counting the current one.
    """
    if lasts == "game":
        return None
    start = index_of(phase, ruleset)
    if isinstance(lasts, int):
        return from_index(start + max(lasts, 1) - 1, ruleset).id
    if lasts == "phase" or lasts not in ruleset.phases.kinds:
        return phase.id
    index = start
    while from_index(index, ruleset).kind != lasts:
        index += 1
    return from_index(index, ruleset).id
