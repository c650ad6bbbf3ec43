"""Team votes: a faction's orders of one ability become one action against the chosen target.

An ability with ``effect_params.team_vote: relative_majority`` (the Loup-Garou wolves'
victim) is ordered by each member; the target named most often is attacked once, by the
first member who named it. ``team_vote_tie`` decides a tie: ``none`` (no action),
``random`` (a logged draw) or ``first`` (the target named first). The other orders are
answered ``done`` with the reason naming the team's choice, never run.
"""

from __future__ import annotations

from collections.abc import Sequence

from resolver.model.events import EventKind, Visibility
from resolver.work import Action, Work

RELATIVE_MAJORITY = "relative_majority"


def merge_team_votes(work: Work, actions: Sequence[Action]) -> list[Action]:
    """The step's actions with every team vote reduced to at most one action per team."""
    groups: dict[tuple[str, str], list[Action]] = {}
    out: list[Action] = []
    for action in actions:
        if action.index is None or action.params.get("team_vote") != RELATIVE_MAJORITY:
            out.append(action)
            continue
        key = (action.ability.id, work.players[action.actor].faction)
        if key not in groups:
            out.append(action)  # placeholder: replaced by the group's choice below
        groups.setdefault(key, []).append(action)
    for key, votes in groups.items():
        first = votes[0]
        chosen = _choose(work, key, votes)
        slot = out.index(first)
        if chosen is None:
            out.pop(slot)
        else:
            out[slot] = chosen
        for action in votes:
            if action is not chosen:
                _answer(work, action, chosen)
    return out


def _choose(work: Work, key: tuple[str, str], votes: list[Action]) -> Action | None:
    by_order = sorted(votes, key=lambda a: a.index or 0)
    counts: dict[str, int] = {}
    for action in by_order:
        if action.targets:
            counts[action.targets[0]] = counts.get(action.targets[0], 0) + 1
    if not counts:
        return None
    top = max(counts.values())
    leaders = [t for t, n in counts.items() if n == top]
    work.gm(EventKind.NOTE, message="team_vote", ability=key[0], faction=key[1], counts=counts)
    if len(leaders) > 1:
        tie = str(by_order[0].params.get("team_vote_tie", "none"))
        if tie == "random":
            leaders = [work.draw(f"team_vote:{key[0]}:{key[1]}", leaders)]
        elif tie != "first":
            work.emit(
                EventKind.NOTE,
                Visibility.PRIVATE,
                tuple(a.actor for a in votes),
                message="team_vote_tie",
                ability=key[0],
                leaders=leaders,
            )
            return None
    return next(a for a in by_order if a.targets and a.targets[0] == leaders[0])


def _answer(work: Work, action: Action, chosen: Action | None) -> None:
    target = chosen.targets[0] if chosen is not None else None
    work.emit(
        EventKind.OUTCOME,
        Visibility.GM,
        order=action.index,
        actor=action.actor,
        ability=action.ability.id,
        targets=list(action.ordered),
        final_targets=[target] if target else [],
        performer=action.actor,
        outcome="done" if target else "failed",
        reason=f"team vote: {target}" if target else "team vote tied: no target",
    )
