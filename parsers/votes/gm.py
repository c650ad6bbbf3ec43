"""The GM's part of the count: mid-day events, checkpoints and host vote-count posts.

A mixin of the counter in :mod:`parsers.votes.count` (kept apart to keep both modules
short): deaths, mod-kills and day-kills remove the votes by and on a player, statuses can
take a vote away, and a checkpoint (a SETUP event, or with ``vote.host_counts`` a host's
own vote-count post) replaces the standing votes.
"""

from __future__ import annotations

from dataclasses import replace

from parsers.names import NameIndex, Resolution, Resolved
from parsers.roster import Roster, Slot
from parsers.votes.checkpoint import read_host_count
from parsers.votes.config import VoteRules
from parsers.votes.lynch import Cast
from parsers.votes.model import NO_LYNCH, DayEvent, DayEventKind, PostInput, QueueItem
from parsers.votes.setup import DaySetup

__all__ = ["GmEvents", "names_post"]


class GmEvents:
    """GM events for the counter (which provides the attributes and name lookups below)."""

    roster: Roster
    rules: VoteRules
    day: DaySetup
    current: dict[str, Cast]
    pending: dict[str, QueueItem]
    notes: list[str]
    applied: set[int]
    last: PostInput | None
    seq: int

    def resolve(self, text: str) -> tuple[Resolution, str]:
        """Resolve a target name (the counter's name index)."""
        raise NotImplementedError

    def can_vote(self, slot: Slot) -> str | None:
        """None when ``slot`` may vote now, else why not."""
        raise NotImplementedError

    def living_index(self) -> NameIndex:
        """The names of the living slots (and No Lynch)."""
        raise NotImplementedError

    def apply_events_before(self, post: PostInput | None) -> None:
        """Apply the SETUP events that come before ``post`` (None: the end of the window)."""
        for i, event in enumerate(self.day.events):
            if i in self.applied or event.kind in (DayEventKind.IGNORE, DayEventKind.CORRECT):
                continue
            if _is_before(event, post, self.last):
                self.applied.add(i)
                self._apply_event(event)

    def _apply_event(self, event: DayEvent) -> None:
        if event.kind is DayEventKind.CHECKPOINT:
            self._checkpoint(event)
            return
        slot = self.roster.by_author(event.player or "")
        if slot is None:
            self.notes.append(f"event at post {event.post}: '{event.player}' is not a player")
            return
        if event.kind is DayEventKind.DEATH:
            slot = replace(slot, alive=False)
        elif event.kind is DayEventKind.REVIVE:
            slot = replace(slot, alive=True)
        elif event.kind is DayEventKind.STATUS and event.status:
            statuses = (
                slot.statuses - {event.status} if event.remove else slot.statuses | {event.status}
            )
            slot = replace(slot, statuses=frozenset(statuses))
        self.roster = self.roster.with_slot(slot)
        self._drop_invalid(f"{event.kind.value} of {slot.name} after post {event.post}")

    def _drop_invalid(self, why: str) -> None:
        """Remove the votes by players who can no longer vote, and on players now dead."""
        for voter, cast in list(self.current.items()):
            voter_slot = self.roster.slot(voter)
            target_ok = cast.target == NO_LYNCH or self.roster.slot(cast.target).alive
            if self.can_vote(voter_slot) or not target_ok:
                del self.current[voter]
                self.notes.append(f"{voter}'s vote on {cast.target} removed: {why}")

    def _checkpoint(self, event: DayEvent, post_id: str | None = None) -> None:
        self.current.clear()
        self.pending.clear()
        for voter_name, target_name in event.votes:
            voter = self.roster.by_author(voter_name)
            if voter is None:
                self.notes.append(
                    f"checkpoint at post {event.post}: '{voter_name}' is not a player"
                )
                continue
            if target_name is None:
                continue
            found, _ = self.resolve(target_name)
            if isinstance(found, Resolved):
                self.seq += 1
                number = event.post if isinstance(event.post, int) else None
                cast = Cast(found.slot, post_id or str(event.post), number, self.seq)
                self.current[voter.name] = cast
            else:
                self.notes.append(f"checkpoint at post {event.post}: '{target_name}' unresolved")
        self.notes.append(f"GM checkpoint after post {event.post}")

    def _host_count(self, post: PostInput) -> None:
        """A host's vote-count post replaces the standing votes (``vote.host_counts``)."""
        votes, why = read_host_count(post.html, self.living_index())
        if votes is None:
            if why:
                self.notes.append(f"post {post.id}: {why}; the count goes on from the votes")
            return
        where: int | str = post.number if post.number is not None else post.id
        event = DayEvent(DayEventKind.CHECKPOINT, where, votes=tuple(votes.items()))
        self._checkpoint(event, post.id)


def names_post(event: DayEvent, post: PostInput) -> bool:
    if isinstance(event.post, int) and not isinstance(event.post, bool):
        return post.number == event.post or (post.number is None and post.id == str(event.post))
    return post.id == str(event.post)


def _is_before(event: DayEvent, post: PostInput | None, last: PostInput | None) -> bool:
    """True when ``event`` (after post N) must be applied before reading ``post``."""
    if post is None:  # end of the window: everything up to the last post read
        if last is None:
            return isinstance(event.post, int)
        return _is_before(event, PostInput("", "", "", number=(last.number or 0) + 1), last) or (
            names_post(event, last)
        )
    if isinstance(event.post, int) and post.number is not None:
        return event.post < post.number
    return last is not None and names_post(event, last)
