"""Value types of the vote counter: posts in; events, queue items, tally and decision out."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

__all__ = [
    "NO_LYNCH",
    "Action",
    "CountResult",
    "DayEvent",
    "DayEventKind",
    "Decision",
    "EditFlag",
    "EventStatus",
    "PostInput",
    "QueueItem",
    "Snapshot",
    "Source",
    "VoteEvent",
    "Voter",
    "Wagon",
]

NO_LYNCH = "No Lynch"
"""The pseudo-target of a no-lynch (no elimination, sleep) vote."""


class Source(StrEnum):
    """Where a message comes from."""

    THREAD = "thread"
    PM = "pm"


@dataclass(frozen=True, slots=True)
class PostInput:
    """One thread post or PM to the GM, as stored (the shell maps forum DTOs to this).

    Attributes:
        id: the forum's post or PM id.
        author: the forum user name.
        html: the rendered body (HTML or plain text).
        number: position in the thread (0 = opening post); None for PMs.
        time: when it was posted (timezone-aware), when known.
        source: thread post or PM.
        recipients: for PMs, every recipient (a multi-recipient PM may not count).
        previous_html: the body before the last edit, when the store kept it.
        edited: True when the forum shows the post was edited after posting.
        edited_at: when it was last edited, when known.
        author_id: the forum account id of the author, when known (it identifies the
            voter; the name is only shown).
    """

    id: str
    author: str
    html: str
    number: int | None = None
    time: datetime | None = None
    source: Source = Source.THREAD
    recipients: tuple[str, ...] = ()
    previous_html: str | None = None
    edited: bool = False
    edited_at: datetime | None = None
    author_id: str | None = None


class Action(StrEnum):
    """What a vote event does."""

    VOTE = "vote"
    UNVOTE = "unvote"  # clears the voter's vote, whatever it was
    WITHDRAW = "withdraw"  # withdraws the vote on one named target (struck $Name)


class EventStatus(StrEnum):
    """What the counter made of a vote event."""

    COUNTED = "counted"
    IGNORED = "ignored"  # never counts (after the deadline, vote-less voter, bad target...)
    QUEUED = "queued"  # doubtful: sent to the GM queue, not counted
    NO_CHANGE = "no_change"  # valid but changed nothing (already voting that target)


@dataclass(frozen=True, slots=True)
class VoteEvent:
    """One vote, unvote or withdrawal found in a post, and its fate.

    Attributes:
        post_id: the post (or PM) id.
        post_number: its thread position, when known.
        voter: the voter's slot (or the author's name when he has no slot).
        action: vote, unvote or withdraw.
        target: the resolved target slot (or ``No Lynch``), None when unresolved or none.
        raw: the text as written ("Vote: Akonly").
        syntax: the syntax it was written in.
        status: counted, ignored, queued or no_change.
        reason: why, for anything but a plain counted vote.
        match: how the target name was matched (exact, typo...).
        time: when it was posted.
    """

    post_id: str
    post_number: int | None
    voter: str
    action: Action
    target: str | None
    raw: str
    syntax: str
    status: EventStatus
    reason: str = ""
    match: str | None = None
    time: datetime | None = None

    def as_json(self) -> dict[str, Any]:
        """JSON form for ``count-votes``."""
        return {
            "post_id": self.post_id,
            "post_number": self.post_number,
            "time": self.time.isoformat() if self.time else None,
            "voter": self.voter,
            "action": self.action.value,
            "target": self.target,
            "raw": self.raw,
            "syntax": self.syntax,
            "status": self.status.value,
            "reason": self.reason,
            "match": self.match,
        }


@dataclass(frozen=True, slots=True)
class QueueItem:
    """Something the GM must decide: a doubtful vote, an edited vote, a mayor's tie-break.

    Attributes:
        kind: ``unresolved_name``, ``ambiguous_name``, ``edited_vote``, ``tie_break``...
        post_id: the post concerned (None for day-level items).
        voter: the voter (or the mayor for a tie-break).
        raw: the text as written.
        candidates: the possible targets.
        reason: a sentence for the GM.
        versions: for edits, the vote text before and after.
        written: for a name it could not resolve, the name as written ("CP"): what the
            GM decides it means is remembered for the game.
    """

    kind: str
    post_id: str | None
    voter: str | None
    raw: str
    candidates: tuple[str, ...]
    reason: str
    versions: tuple[str, ...] = ()
    written: str = ""

    def as_json(self) -> dict[str, Any]:
        """JSON form for ``count-votes``."""
        data: dict[str, Any] = {
            "kind": self.kind,
            "post_id": self.post_id,
            "voter": self.voter,
            "raw": self.raw,
            "candidates": list(self.candidates),
            "reason": self.reason,
        }
        if self.versions:
            data["versions"] = list(self.versions)
        if self.written:
            data["written"] = self.written
        return data


@dataclass(frozen=True, slots=True)
class EditFlag:
    """A post whose edit changed a vote, with both versions.

    Attributes:
        post_id: the post.
        voter: its author's slot.
        before: the votes before the edit, as written ("" when unknown).
        after: the votes as the post reads now.
    """

    post_id: str
    voter: str
    before: str
    after: str


class DayEventKind(StrEnum):
    """Things the GM records that change the count mid-day (SETUP ``events:``)."""

    DEATH = "death"  # killed, mod-killed, day-killed: votes by and on the slot go
    REVIVE = "revive"
    CHECKPOINT = "checkpoint"  # the GM's own count: the state from this post on
    STATUS = "status"  # a status gained (lost with ``remove: true``)
    IGNORE = "ignore"  # a correction: the votes of this post do not count
    CORRECT = "correct"  # a correction: this post's vote means ``target``


@dataclass(frozen=True, slots=True)
class DayEvent:
    """One GM-recorded event, applied just after post ``post`` (by number or id).

    Attributes:
        kind: what happens.
        post: the thread post number (or post id) it follows.
        player: the slot concerned.
        target: for corrections, the meant target (None = unvote).
        votes: for checkpoints, voter -> target (None = not voting).
        status: for status events, the status name.
        remove: for status events, True to remove the status.
    """

    kind: DayEventKind
    post: int | str
    player: str | None = None
    target: str | None = None
    votes: tuple[tuple[str, str | None], ...] = ()
    status: str | None = None
    remove: bool = False


@dataclass(frozen=True, slots=True)
class Voter:
    """A voter on a wagon.

    Attributes:
        name: the voter's slot.
        post_id: the post of the vote.
        post_number: its thread position.
        weight: what the vote counts for.
    """

    name: str
    post_id: str
    post_number: int | None
    weight: int = 1


@dataclass(frozen=True, slots=True)
class Wagon:
    """The votes on one target.

    Attributes:
        target: the slot (or ``No Lynch``).
        voters: the current voters, in the order they voted.
        withdrawn: voters who voted this target today and withdrew (shown struck).
        raw: the sum of the voters' weights.
        total: after the ruleset's modifiers (tie bonus, received, extra votes).
        notes: what changed ``raw`` into ``total``.
        reached_at: the post number where the wagon reached its current votes.
    """

    target: str
    voters: tuple[Voter, ...]
    withdrawn: tuple[Voter, ...] = ()
    raw: int = 0
    total: int = 0
    notes: tuple[str, ...] = ()
    reached_at: int | None = None


@dataclass(frozen=True, slots=True)
class Decision:
    """What the lynch rule decides from the tally.

    Attributes:
        lynched: the slot lynched, or None.
        no_lynch: True when the day ends with nobody lynched.
        tied: the slots tied for the lead, when there is a tie.
        pending: True when the GM (or the mayor) must still decide.
        majority: votes needed for a majority.
        reason: the decisive tally, explained.
        ended: how the Day ended: ``hammer`` (a majority was reached), ``deadline``, or
            None while it is open.
        hammer_post: the post that reached the majority (its number, else its id).
        waits_for: who decides an undecided Day: ``gm`` (doubtful votes, an unknown or
            moderator's deadline rule), ``mayor`` or ``draw`` (a tie the resolver breaks),
            ``deadline`` (the Day is still open).
    """

    lynched: str | None
    no_lynch: bool
    tied: tuple[str, ...]
    pending: bool
    majority: int
    reason: str
    ended: str | None = None
    hammer_post: int | str | None = None
    waits_for: str | None = None

    @property
    def outcome(self) -> str:
        """``lynch``, ``no_lynch`` or ``undecided`` (the GM, the mayor or the deadline must
        still decide: the reason says which)."""
        if self.pending:
            return "undecided"
        if self.lynched is not None or (self.tied and not self.no_lynch):
            return "lynch"
        return "no_lynch" if self.no_lynch else "undecided"


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The wagons just after a post that changed them (the Day's wagons over time).

    Attributes:
        post: the post's number (else its id).
        time: when it was posted, when known.
        wagons: (target, votes, voters) of every wagon then, biggest first.
    """

    post: int | str
    time: datetime | None
    wagons: tuple[tuple[str, int, tuple[str, ...]], ...]


@dataclass(frozen=True, slots=True)
class CountResult:
    """Everything ``count-votes`` reports.

    Attributes:
        wagons: the wagons, biggest total first (ties: first to reach first).
        not_voting: living slots with a vote and no current vote.
        pending: voters whose latest vote waits in the GM queue.
        events: every vote event in order.
        queue: the GM queue.
        edits: edited posts whose votes changed.
        decision: what the lynch rule decides.
        alive: the living slots with a vote.
        last_post: the number (or id) of the last post counted.
        notes: what GM events did, and other remarks.
        timeline: the wagons after each post that changed them, in order.
    """

    wagons: tuple[Wagon, ...]
    not_voting: tuple[str, ...]
    pending: tuple[str, ...]
    events: tuple[VoteEvent, ...]
    queue: tuple[QueueItem, ...]
    edits: tuple[EditFlag, ...]
    decision: Decision
    alive: tuple[str, ...]
    last_post: int | str | None = None
    notes: tuple[str, ...] = field(default=())
    timeline: tuple[Snapshot, ...] = ()
