"""From the standing votes to wagons (weights and modifiers) and the lynch rule's decision.

Order of modifiers, from the seeds' Sabotage examples (001, "Sabotage"): the tie is judged
on the plain tally (weights only: a revealed Mayor's 3, a diploma's double); then the tie
bonus (Sabotage +1, only for a slot tied for the lead), the votes a slot receives (Accompany
-1) and extra votes (Voice of Accusation +1) are applied, and the lynch rule reads the result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Protocol

from parsers.roster import Roster, Slot
from parsers.votes.config import DeadlineRule, LynchRule, NoLynchVotes, TieRule, VoteRules
from parsers.votes.model import (
    NO_LYNCH,
    CountResult,
    Decision,
    EditFlag,
    QueueItem,
    Snapshot,
    VoteEvent,
    Voter,
    Wagon,
)
from parsers.votes.setup import DaySetup
from resolver.votes import LynchPick, combine_weight, lynch_majority, pick_lynch

__all__ = [
    "Cast",
    "Hammer",
    "Standing",
    "decide",
    "standing",
    "tally",
    "vote_refusal",
    "vote_weight",
]


@dataclass(frozen=True, slots=True)
class Cast:
    """A standing vote: on ``target``, from post ``post_id``, the ``seq``-th vote of the day."""

    target: str
    post_id: str
    number: int | None
    seq: int
    time: datetime | None = None


@dataclass(frozen=True, slots=True)
class Hammer:
    """The post where a wagon reached the votes that end the Day.

    Attributes:
        post: the post's number (else its id).
        target: the slot (or ``No Lynch``) that reached them.
        total: its votes then.
        threshold: the votes it needed.
        doubts: why doubtful votes (queued names, outsiders) could have changed it.
    """

    post: int | str
    target: str
    total: int
    threshold: int
    doubts: tuple[str, ...] = ()


class TallyInput(Protocol):
    """What :func:`tally` reads from the counter."""

    roster: Roster
    rules: VoteRules
    current: dict[str, Cast]
    pending: dict[str, QueueItem]
    withdrawn: dict[str, list[Voter]]
    participated: set[str]
    events: list[VoteEvent]
    queue: list[QueueItem]
    edits: list[EditFlag]
    notes: list[str]
    outsiders: set[str]
    deadline_passed: bool
    missed: tuple[str, ...]  # wagons doubtful votes could have brought to a majority
    timeline: list[Snapshot]

    @property
    def day(self) -> DaySetup: ...

    @property
    def hammer(self) -> Hammer | None: ...


def vote_refusal(slot: Slot, rules: VoteRules) -> str | None:
    """Why ``slot`` may not vote now, or None when he may.

    Args:
        slot: the voter's slot.
        rules: the vote rules (which statuses take the vote away).

    Returns:
        The reason, or None.
    """
    if not slot.alive:
        return f"{slot.name} is dead"
    blocked = sorted(slot.statuses & rules.voteless_statuses)
    if blocked:
        return f"{slot.name} cannot vote ({', '.join(blocked)})"
    if vote_weight(slot, rules) == 0:
        return f"{slot.name} has lost his vote"
    return None


def vote_weight(slot: Slot, rules: VoteRules) -> int:
    """What ``slot``'s vote counts for: the setup's weight, else its statuses' weights.

    The same function as the resolver's (:func:`resolver.votes.combine_weight`).

    Args:
        slot: the voter's slot.
        rules: the vote rules (status weights).

    Returns:
        The weight (0 = the vote is lost).
    """
    if slot.vote.weight is not None:
        return slot.vote.weight
    ops = [(op.value, n) for status, op, n in rules.status_weights if status in slot.statuses]
    return combine_weight(ops, bool(slot.statuses & rules.voteless_statuses))


@dataclass(frozen=True, slots=True)
class Standing:
    """The votes standing now: who may vote, the wagons, and what ends the Day.

    Attributes:
        eligible: the living slots that may vote.
        casts: the votes that count, by voter.
        wagons: the wagons, biggest first.
        majority: votes needed to lynch.
        no_lynch_majority: votes a No Lynch wagon needs.
        doubtful: the weight of the votes that wait for the GM (queued names, outsiders).
        outsiders: how many accounts off the roster voted (each may be an unlisted
            replacement, whose vote would also leave the slot's old wagon).
        waiting: the players and accounts whose votes wait for the GM.
        limited: the doubtful votes that can only be on some wagons (ambiguous names):
            their weight and their candidates.
    """

    eligible: list[Slot]
    casts: dict[str, Cast]
    wagons: list[Wagon]
    majority: int
    no_lynch_majority: int
    doubtful: int
    outsiders: int
    waiting: tuple[str, ...] = ()
    limited: tuple[tuple[int, frozenset[str]], ...] = ()

    def threshold(self, target: str) -> int:
        """The votes ``target``'s wagon needs to end the Day."""
        return self.no_lynch_majority if target == NO_LYNCH else self.majority

    def doubt_for(self, target: str | None) -> int:
        """The doubtful votes that could be on ``target`` (None: a wagon not on the board).

        A vote queued as ambiguous can only be on one of its candidates; any other doubtful
        vote (an unknown name, an edit, an outsider's) could be on any wagon.
        """
        return self.doubtful - sum(w for w, names in self.limited if target not in names)


def standing(state: TallyInput, notes: list[str] | None = None) -> Standing:
    """The standing votes of the counter, as they would be read now.

    Args:
        state: the counter.
        notes: where to explain votes that do not count (participation, self-votes); None
            while the Day is replayed post by post (a missing vote is not yet a self-vote).

    Returns:
        The standing.
    """
    roster, rules = state.roster, state.rules
    eligible = [s for s in roster.slots if vote_refusal(s, rules) is None]
    names = {s.name for s in eligible}
    casts = {v: c for v, c in state.current.items() if v in names}
    if rules.requires_participation:
        for voter in [v for v in casts if v not in state.participated]:
            if notes is not None:
                notes.append(f"{voter} did not post today: his vote does not count")
            del casts[voter]
    if rules.no_vote_counts_as_self and notes is not None:
        for slot in eligible:
            if slot.name not in casts and slot.name not in state.pending:
                casts[slot.name] = Cast(slot.name, "", None, 10**9)
                notes.append(f"{slot.name} did not vote: counts as a vote against himself")
    wagons = _wagons(casts, state.withdrawn, eligible, rules)
    wagons = _with_added(wagons, state.day.added_votes, {s.name for s in roster.slots if s.alive})
    majority = state.day.majority or lynch_majority(vote_weight(s, rules) for s in eligible)
    doubtful = sum(vote_weight(s, rules) for s in eligible if s.name in state.pending)
    limited = tuple(
        (vote_weight(s, rules), frozenset(state.pending[s.name].candidates))
        for s in eligible
        if s.name in state.pending and state.pending[s.name].kind == "ambiguous_name"
    )
    return Standing(
        eligible,
        casts,
        wagons,
        majority,
        _no_lynch_majority(rules, majority, len(eligible)),
        doubtful + len(state.outsiders),
        len(state.outsiders),
        tuple(s.name for s in eligible if s.name in state.pending) + tuple(sorted(state.outsiders)),
        limited,
    )


def _no_lynch_majority(rules: VoteRules, majority: int, alive: int) -> int:
    if rules.no_lynch_votes is NoLynchVotes.HALF:
        return max((alive + 1) // 2, 1)
    if rules.no_lynch_votes is NoLynchVotes.MAJORITY_MINUS_ONE:
        return max(majority - 1, 1)
    return majority


def tally(state: TallyInput, last_post: int | None) -> CountResult:
    """Build the wagons, the not-voting list and the decision from the counter's state.

    Args:
        state: the counter after the replay.
        last_post: the number of the last post read.

    Returns:
        The full count.
    """
    notes = list(state.notes)
    now = standing(state, notes)
    decision = _day_decision(state, now)
    queue = list(state.queue)
    if decision.pending and state.rules.tie is TieRule.MAYOR_DECIDES and decision.tied:
        mayor = next((s.name for s in now.eligible if s.vote.mayor or "mayor" in s.statuses), None)
        queue.append(QueueItem("tie_break", None, mayor, "", decision.tied, decision.reason))
    voting = set(now.casts) | set(state.pending)
    names = {s.name for s in now.eligible}
    return CountResult(
        wagons=tuple(now.wagons),
        not_voting=tuple(s.name for s in now.eligible if s.name not in voting),
        pending=tuple(v for v in state.pending if v in names),
        events=tuple(state.events),
        queue=tuple(queue),
        edits=tuple(state.edits),
        decision=decision,
        alive=tuple(s.name for s in now.eligible),
        last_post=last_post,
        notes=tuple(notes),
        timeline=tuple(state.timeline),
    )


def _day_decision(state: TallyInput, now: Standing) -> Decision:
    """The hammer if one fell; else the deadline rule once the Day is over; else open."""
    if state.hammer is not None:
        return _hammer_decision(state.hammer, now.majority)
    ended = state.day.ended or state.deadline_passed
    if not ended:
        preview = _deadline_decision(state, now)
        text = (
            f"The Day is open: no wagon has reached the {now.majority} votes that end it."
            if state.rules.majority_ends_day
            else "The Day is open until its deadline."
        )
        reason = f"{text} If it ended now: {preview.reason}"
        return Decision(None, False, (), True, now.majority, reason, waits_for="deadline")
    return replace(_deadline_decision(state, now), ended="deadline")


def _hammer_decision(hammer: Hammer, majority: int) -> Decision:
    text = (
        f"{hammer.target} reached {hammer.total} of the {hammer.threshold} votes needed at "
        f"post {hammer.post}: the Day ended there; later votes do not count."
    )
    if hammer.doubts:
        why = "; ".join(hammer.doubts)
        text = f"{text} But {why}: the GM decides."
        return Decision(
            None, False, (), True, majority, text, "hammer", hammer.post, waits_for="gm"
        )
    if hammer.target == NO_LYNCH:
        return Decision(
            None, True, (), False, majority, f"{text} Nobody is lynched.", "hammer", hammer.post
        )
    return Decision(
        hammer.target, False, (), False, majority, f"{text} {hammer.target} is lynched.",
        "hammer", hammer.post,
    )  # fmt: skip


def _deadline_decision(state: TallyInput, now: Standing) -> Decision:
    """What the deadline rule decides from the standing votes (modifiers applied)."""
    rules, majority = state.rules, now.majority
    rule = rules.deadline_rule
    summary = _summary(now.wagons, majority)
    if state.missed and rules.majority_ends_day:
        text = (
            f"{summary} The votes waiting for the GM could have ended the Day on "
            f"{', '.join(state.missed)} before the deadline: the GM decides."
        )
        return Decision(None, False, (), True, majority, text, waits_for="gm")
    if rule is DeadlineRule.UNKNOWN:
        text = f"{summary} No majority at the deadline and the game's deadline rule is not known."
        return Decision(None, False, (), True, majority, f"{text} The GM decides.", waits_for="gm")
    if rule is DeadlineRule.NO_LYNCH and rules.rule is LynchRule.PLURALITY:
        rule = DeadlineRule.PLURALITY  # plurality games: the deadline is the lynch
    if rule is DeadlineRule.MODERATOR:
        choice = state.day.gm_choice
        if choice is None:
            text = f"{summary} No majority at the deadline: the moderator chooses."
            return Decision(None, False, (), True, majority, text, waits_for="gm")
        return _lynch(choice, majority, f"{summary} The moderator chose {choice}.")
    if rule in (DeadlineRule.PLURALITY, DeadlineRule.RANDOM):
        rules = replace(rules, rule=LynchRule.PLURALITY)
    decision = decide(now.wagons, rules, majority, now.eligible, state.day.mayor_choice)
    if rule is DeadlineRule.RANDOM and decision.tied and not decision.pending:
        text = f"{decision.reason.rsplit('.', 2)[0]}. One of them is drawn at random."
        decision = Decision(None, False, decision.tied, True, majority, text, waits_for="draw")
    return _unless_doubtful(decision, now, rules)


def _wagons(
    casts: Mapping[str, Cast],
    withdrawn: Mapping[str, list[Voter]],
    eligible: list[Slot],
    rules: VoteRules,
) -> list[Wagon]:
    slots = {s.name: s for s in eligible}
    by_target: dict[str, list[tuple[Cast, str]]] = {}
    for voter, cast in sorted(casts.items(), key=lambda item: item[1].seq):
        by_target.setdefault(cast.target, []).append((cast, voter))
    raw = {
        target: sum(vote_weight(slots[v], rules) for _, v in members)
        for target, members in by_target.items()
    }
    top = max(raw.values(), default=0)
    tied = {t for t, n in raw.items() if n == top} if list(raw.values()).count(top) > 1 else set()
    wagons = []
    for target, members in by_target.items():
        total, notes = raw[target], []
        slot = slots.get(target)
        if slot and target in tied and slot.vote.tie_bonus:
            total += slot.vote.tie_bonus
            notes.append(f"{slot.vote.tie_bonus:+d} on a tie (Sabotage)")
        if slot and slot.vote.received and total > 0:
            total = max(total + slot.vote.received, 0)
            notes.append(f"{slot.vote.received:+d} received (Accompany)")
        for _, voter in members:
            if slots[voter].vote.extra:
                total += slots[voter].vote.extra
                notes.append(f"{slots[voter].vote.extra:+d} extra vote of {voter}")
        current = {v for _, v in members}
        gone = [w for w in withdrawn.get(target, []) if w.name not in current]
        wagons.append(
            Wagon(
                target=target,
                voters=tuple(
                    Voter(v, c.post_id, c.number, vote_weight(slots[v], rules)) for c, v in members
                ),
                withdrawn=tuple(_unique(gone)),
                raw=raw[target],
                total=total,
                notes=tuple(notes),
                reached_at=max((c.seq for c, _ in members), default=None),
            )
        )
    wagons.sort(key=lambda w: (-w.total, w.reached_at or 0))
    return wagons


def _with_added(
    wagons: list[Wagon], added: tuple[tuple[str, int], ...], living: set[str]
) -> list[Wagon]:
    """The wagons with the votes the ruleset adds without a voter (a penalty «+1 в лог»):
    a living slot's wagon gets them, or is opened with them; sorted again biggest first."""
    if not added:
        return wagons
    out = {w.target: w for w in wagons}
    for target, votes in added:
        if target not in living or not votes:
            continue
        wagon = out.get(target, Wagon(target=target, voters=()))
        note = f"{votes:+d} in the log (penalties)"
        out[target] = replace(wagon, total=wagon.total + votes, notes=(*wagon.notes, note))
    return sorted(out.values(), key=lambda w: (-w.total, w.reached_at or 0))


def _unless_doubtful(decision: Decision, now: Standing, rules: VoteRules) -> Decision:
    """Hold a decision that the votes waiting for the GM could still change.

    Conservative: the waiting votes (queued names, and each outsider's, who may be an
    unlisted replacement: his vote may also leave a wagon) could all go to any one wagon,
    including one not yet on the board, so a lead smaller than or equal to them is not safe.
    """
    if not now.doubtful or decision.pending:
        return decision
    totals = [w.total for w in now.wagons] + [0, 0]
    top, second = totals[0], totals[1]
    safe = top - second > now.doubtful + now.outsiders
    if rules.rule is LynchRule.MAJORITY and decision.lynched is None:
        safe = max(totals) + now.doubtful < majority_of(now)
    if safe:
        return decision
    reason = (
        f"{decision.reason} But {now.doubtful} vote(s) wait for the GM "
        f"({', '.join(now.waiting)}) and could change the result: decide them first."
    )
    return Decision(None, False, decision.tied, True, now.majority, reason, waits_for="gm")


def majority_of(now: Standing) -> int:
    """The fewest votes that end the Day (a lynch or a No Lynch)."""
    return min(now.majority, now.no_lynch_majority)


def _unique(voters: list[Voter]) -> list[Voter]:
    seen: set[str] = set()
    out = []
    for voter in voters:
        if voter.name not in seen:
            seen.add(voter.name)
            out.append(voter)
    return out


def decide(
    wagons: list[Wagon],
    rules: VoteRules,
    majority: int,
    eligible: list[Slot],
    mayor_choice: str | None = None,
) -> Decision:
    """Apply the lynch rule to the wagons (sorted biggest first, then first to reach).

    The rule itself is the resolver's (:func:`resolver.votes.pick_lynch`); this adds the
    reason a GM reads.

    Args:
        wagons: the wagons after modifiers.
        rules: the lynch rule and tie rule.
        majority: votes needed for a majority.
        eligible: the living voters.
        mayor_choice: the mayor's tie-break, when made.

    Returns:
        The decision with the decisive tally explained.
    """
    pick = pick_lynch(
        [(w.target, w.total) for w in wagons],
        rule=rules.rule.value,
        tie=rules.tie.value,
        majority=majority,
        mayor_choice=mayor_choice,
    )
    if not wagons or wagons[0].total <= 0:
        return Decision(None, True, (), False, majority, "No votes: nobody is lynched.")
    summary = _summary(wagons, majority)
    if pick.short_of_majority:
        text = f"{summary} Nobody reached the majority of {majority}: no lynch."
        return Decision(None, True, (), False, majority, text)
    if not pick.tied:
        return _lynch(pick.chosen[0], majority, f"{summary} {_lead_text(wagons[0], majority)}")
    text = f"{summary} {' and '.join(pick.tied)} are tied at {wagons[0].total}."
    return _tie_text(pick, majority, text, rules.tie is TieRule.MAYOR_DECIDES)


def _tie_text(pick: LynchPick, majority: int, text: str, mayor: bool) -> Decision:
    tied = pick.tied
    if pick.waits_for == "mayor":
        text = f"{text} The mayor must decide."
        return Decision(None, False, tied, True, majority, text, waits_for="mayor")
    if pick.waits_for == "draw":
        text = f"{text} One of them is drawn at random."
        return Decision(None, False, tied, True, majority, text, waits_for="draw")
    if len(pick.chosen) > 1:
        return Decision(None, False, tied, False, majority, f"{text} All of them are lynched.")
    if pick.chosen and mayor:
        return _lynch(pick.chosen[0], majority, f"{text} The mayor chose {pick.chosen[0]}.")
    if pick.chosen:
        first = pick.chosen[0]
        return _lynch(first, majority, f"{text} {first} reached it first.")
    return Decision(None, True, tied, False, majority, f"{text} A tie lynches nobody.")


def _lead_text(wagon: Wagon, majority: int) -> str:
    reached = "reaches the majority" if wagon.total >= majority else "has the most votes"
    return f"{wagon.target} {reached} with {wagon.total}."


def _lynch(target: str, majority: int, reason: str) -> Decision:
    if target == NO_LYNCH:
        return Decision(None, True, (), False, majority, f"{reason} Nobody is lynched.")
    return Decision(target, False, (), False, majority, f"{reason} {target} is lynched.")


def _summary(wagons: list[Wagon], majority: int) -> str:
    parts = []
    for wagon in wagons:
        text = f"{wagon.target} {wagon.total}"
        if wagon.notes:
            text += f" ({wagon.raw} {', '.join(wagon.notes)})"
        parts.append(text)
    return f"Tally: {'; '.join(parts)}. Majority: {majority}."
