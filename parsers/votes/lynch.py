"""From the standing votes to wagons (weights and modifiers) and the lynch rule's decision.

Order of modifiers, from the seeds' Sabotage examples (001, "Sabotage"): the tie is judged
on the plain tally (weights only: a revealed Mayor's 3, a diploma's double); then the tie
bonus (Sabotage +1, only for a slot tied for the lead), the votes a slot receives (Accompany
-1) and extra votes (Voice of Accusation +1) are applied, and the lynch rule reads the result.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from parsers.roster import Roster, Slot
from parsers.votes.config import LynchRule, TieRule, VoteRules, WeightOp
from parsers.votes.model import (
    NO_LYNCH,
    CountResult,
    Decision,
    EditFlag,
    QueueItem,
    VoteEvent,
    Voter,
    Wagon,
)

__all__ = ["Cast", "decide", "tally", "vote_refusal", "vote_weight"]


@dataclass(frozen=True, slots=True)
class Cast:
    """A standing vote: on ``target``, from post ``post_id``, the ``seq``-th vote of the day."""

    target: str
    post_id: str
    number: int | None
    seq: int
    time: datetime | None = None


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

    @property
    def day(self) -> object: ...  # DaySetup (majority, mayor_choice)


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

    Args:
        slot: the voter's slot.
        rules: the vote rules (status weights).

    Returns:
        The weight (0 = the vote is lost).
    """
    if slot.vote.weight is not None:
        return slot.vote.weight
    weight = 1
    ops = [(op, n) for status, op, n in rules.status_weights if status in slot.statuses]
    for op, number in sorted(ops, key=lambda item: list(WeightOp).index(item[0])):
        weight = _OPS[op](weight, number)
    return max(weight, 0)


_OPS: dict[WeightOp, Callable[[int, int], int]] = {
    WeightOp.SET: lambda _, n: n,
    WeightOp.MULTIPLY: lambda w, n: w * n,
    WeightOp.ADD: lambda w, n: w + n,
}


def tally(state: TallyInput, last_post: int | None) -> CountResult:
    """Build the wagons, the not-voting list and the decision from the counter's state.

    Args:
        state: the counter after the replay.
        last_post: the number of the last post read.

    Returns:
        The full count.
    """
    roster, rules = state.roster, state.rules
    eligible = [s for s in roster.slots if vote_refusal(s, rules) is None]
    casts = {v: c for v, c in state.current.items() if any(s.name == v for s in eligible)}
    notes = list(state.notes)
    if rules.requires_participation:
        for voter in [v for v in casts if v not in state.participated]:
            notes.append(f"{voter} did not post today: his vote does not count")
            del casts[voter]
    if rules.no_vote_counts_as_self:
        for slot in eligible:
            if slot.name not in casts and slot.name not in state.pending:
                casts[slot.name] = Cast(slot.name, "", None, 10**9)
                notes.append(f"{slot.name} did not vote: counts as a vote against himself")
    wagons = _wagons(casts, state.withdrawn, eligible, rules)
    majority = getattr(state.day, "majority", None) or len(eligible) // 2 + 1
    decision = decide(wagons, rules, majority, eligible, getattr(state.day, "mayor_choice", None))
    waiting = [s for s in eligible if s.name in state.pending]
    decision = _unless_pending(decision, wagons, waiting, rules, majority)
    queue = list(state.queue)
    if decision.pending and rules.tie is TieRule.MAYOR_DECIDES:
        mayor = next((s.name for s in eligible if s.vote.mayor or "mayor" in s.statuses), None)
        queue.append(QueueItem("tie_break", None, mayor, "", decision.tied, decision.reason))
    voting = set(casts) | set(state.pending)
    return CountResult(
        wagons=tuple(wagons),
        not_voting=tuple(s.name for s in eligible if s.name not in voting),
        pending=tuple(v for v in state.pending if any(s.name == v for s in eligible)),
        events=tuple(state.events),
        queue=tuple(queue),
        edits=tuple(state.edits),
        decision=decision,
        alive=tuple(s.name for s in eligible),
        last_post=last_post,
        notes=tuple(notes),
    )


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


def _unless_pending(
    decision: Decision, wagons: list[Wagon], waiting: list[Slot], rules: VoteRules, majority: int
) -> Decision:
    """Hold a decision that the votes waiting in the GM queue could still change.

    Conservative: the waiting votes could all go to any one wagon, including one not yet on
    the board, so a lead smaller than or equal to their weight is not safe.
    """
    if not waiting or decision.pending:
        return decision
    weight = sum(vote_weight(s, rules) for s in waiting)
    totals = [w.total for w in wagons] + [0, 0]
    top, second = totals[0], totals[1]
    safe = top - second > weight
    if rules.rule is LynchRule.MAJORITY and decision.lynched is None:
        safe = max(totals) + weight < majority
    if safe:
        return decision
    names = ", ".join(s.name for s in waiting)
    reason = (
        f"{decision.reason} But {len(waiting)} vote(s) wait for the GM ({names}) and "
        "could change the result: decide them first."
    )
    return Decision(None, False, decision.tied, True, majority, reason)


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
    """Apply the lynch rule to the wagons (sorted biggest first).

    Args:
        wagons: the wagons after modifiers.
        rules: the lynch rule and tie rule.
        majority: votes needed for a majority.
        eligible: the living voters.
        mayor_choice: the mayor's tie-break, when made.

    Returns:
        The decision with the decisive tally explained.
    """
    if not wagons or wagons[0].total <= 0:
        return Decision(None, True, (), False, majority, "No votes: nobody is lynched.")
    top = wagons[0].total
    leaders = [w for w in wagons if w.total == top]
    summary = _summary(wagons, majority)
    if rules.rule is LynchRule.MAJORITY and top < majority:
        text = f"{summary} Nobody reached the majority of {majority}: no lynch."
        return Decision(None, True, (), False, majority, text)
    if len(leaders) == 1:
        return _lynch(leaders[0].target, majority, f"{summary} {_lead_text(leaders[0], majority)}")
    tied = tuple(w.target for w in leaders)
    names = " and ".join(tied)
    text = f"{summary} {names} are tied at {top}."
    return _TIE_RULES[rules.tie](leaders, majority, text, mayor_choice)


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


def _tie_no_lynch(leaders: list[Wagon], majority: int, text: str, choice: str | None) -> Decision:
    tied = tuple(w.target for w in leaders)
    return Decision(None, True, tied, False, majority, f"{text} A tie lynches nobody.")


def _tie_mayor(leaders: list[Wagon], majority: int, text: str, choice: str | None) -> Decision:
    tied = tuple(w.target for w in leaders)
    if choice in tied:
        return _lynch(str(choice), majority, f"{text} The mayor chose {choice}.")
    return Decision(None, False, tied, True, majority, f"{text} The mayor must decide.")


def _tie_random(leaders: list[Wagon], majority: int, text: str, choice: str | None) -> Decision:
    tied = tuple(w.target for w in leaders)
    return Decision(None, False, tied, True, majority, f"{text} One of them is drawn at random.")


def _tie_all(leaders: list[Wagon], majority: int, text: str, choice: str | None) -> Decision:
    tied = tuple(w.target for w in leaders)
    return Decision(None, False, tied, False, majority, f"{text} All of them are lynched.")


def _tie_first(leaders: list[Wagon], majority: int, text: str, choice: str | None) -> Decision:
    first = min(leaders, key=lambda w: w.reached_at or 0)
    return _lynch(first.target, majority, f"{text} {first.target} reached it first.")


_TIE_RULES: dict[TieRule, Callable[[list[Wagon], int, str, str | None], Decision]] = {
    TieRule.NO_LYNCH: _tie_no_lynch,
    TieRule.MAYOR_DECIDES: _tie_mayor,
    TieRule.RANDOM: _tie_random,
    TieRule.ALL_TIED: _tie_all,
    TieRule.FIRST_TO_REACH: _tie_first,
}
