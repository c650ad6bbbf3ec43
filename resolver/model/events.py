"""Events: what happened in a phase, each with a visibility; the only output of resolution."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from resolver.model.catalogue import _empty
from resolver.model.state import GameState


class Visibility(StrEnum):
    """Who may read an event."""

    PUBLIC = "public"
    PRIVATE = "private"
    GM = "gm"


class EventKind(StrEnum):
    """Every event type; the shell keys its templates by these."""

    OUTCOME = "outcome"
    DEATH = "death"
    LYNCH = "lynch"
    NO_LYNCH = "no_lynch"
    VOTE_TALLY = "vote_tally"
    VOTE_REJECTED = "vote_rejected"
    RESULT = "result"
    BLOCKED_NOTICE = "blocked_notice"
    ATTACKED = "attacked"
    SAVED = "saved"
    PROTECTED = "protected"
    STATUS = "status"
    CONVERTED = "converted"
    REVEALED = "revealed"
    DRAW = "draw"
    ROLE_ASSIGNED = "role_assigned"
    TEAMMATES = "teammates"
    LINKED = "linked"
    SCHEDULED = "scheduled"
    WIN = "win"
    GAME_OVER = "game_over"
    NOTE = "note"


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened.

    Attributes:
        kind: the event type.
        visibility: public, private (to ``to``) or GM only.
        to: the recipients of a private event.
        data: the event's details (player names, ids, results), JSON-friendly.
    """

    kind: EventKind
    visibility: Visibility
    data: Mapping[str, Any] = field(default_factory=_empty)
    to: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Resolution:
    """The result of resolving one phase: the new state and the phase's events, in order."""

    state: GameState
    events: tuple[Event, ...]

    def visible(self, visibility: Visibility) -> tuple[Event, ...]:
        """The events of one visibility, in order."""
        return tuple(e for e in self.events if e.visibility is visibility)
