"""The states stored rows can be in. Values are stored as strings; never rename one."""

from __future__ import annotations

from enum import StrEnum

from forum_adapters import ENGINES

LOCAL_FORUM = "file"  # a local recorded forum (the demo, tests): forumbot's own, no adapter
FORUM_ENGINES = (*ENGINES, LOCAL_FORUM)
"""What ``forums.engine`` may hold: the adapters' registry, plus the local forum."""


class GameStatus(StrEnum):
    """Where a game is in its life."""

    SETUP = "setup"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"


class PlayerStatus(StrEnum):
    """A slot's condition as the vote counter and the scheduler need it."""

    ALIVE = "alive"
    DEAD = "dead"
    REPLACED = "replaced"
    MODKILLED = "modkilled"


class PhaseKind(StrEnum):
    """Kinds of phase; rulesets may have only some of them."""

    DAY = "day"
    NIGHT = "night"
    SIGNUP = "signup"


class PhaseStatus(StrEnum):
    """A phase moves forward through these, never back."""

    PENDING = "pending"
    OPEN = "open"
    FROZEN = "frozen"  # deadline passed, orders no longer change
    RESOLVED = "resolved"  # resolver ran, drafts exist
    PUBLISHED = "published"


class VoteKind(StrEnum):
    """What a vote event does to the tally."""

    VOTE = "vote"
    UNVOTE = "unvote"
    NO_LYNCH = "no_lynch"


class OrderStatus(StrEnum):
    """The parser's or the GM's verdict on an order."""

    ACCEPTED = "accepted"
    AMBIGUOUS = "ambiguous"
    REJECTED = "rejected"
    SUPERSEDED = "superseded"  # a later valid order replaced it
    CANCELLED = "cancelled"
    LATE = "late"  # arrived after the deadline: kept and shown, never applied


class ReviewKind(StrEnum):
    """Why something is in the GM's review queue."""

    ORDER = "order"
    VOTE = "vote"
    EDIT = "edit"  # an edited post changed a vote
    ALERT = "alert"  # something needs a person (forum down, layout changed)


class ReviewState(StrEnum):
    """A review item is open until the GM decides."""

    OPEN = "open"
    ACCEPTED = "accepted"
    EDITED = "edited"
    REJECTED = "rejected"


class OutboundKind(StrEnum):
    """A message forumbot may send through the forum."""

    POST = "post"
    PM = "pm"


class DeliveryState(StrEnum):
    """Exactly-once publishing: recorded before sending, confirmed after."""

    DRAFT = "draft"
    HELD = "held"
    APPROVED = "approved"
    SENDING = "sending"  # intent recorded; on restart, look on the forum before resending
    SENT = "sent"  # the forum confirmed it exists
    FAILED = "failed"


class Visibility(StrEnum):
    """Who may see an event of the phase log."""

    PUBLIC = "public"
    PRIVATE = "private"
    GM = "gm"
