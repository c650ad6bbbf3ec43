"""The lynch: count the day's votes under the ruleset's rule and tie policy."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from resolver.hookspecs import HookView
from resolver.model.events import EventKind, Visibility
from resolver.model.state import Primitive
from resolver.votes import (
    VOTE_DEFAULTS,
    LynchPick,
    combine_weight,
    lynch_majority,
    pick_lynch,
    status_weights,
    voteless_statuses,
)
from resolver.work import Dying, Work

NO_LYNCH = "no_lynch"


def vote_weight(work: Work, voter: str) -> int:
    """A voter's weight: a vote modifier this phase, else what his statuses make of it
    (:func:`resolver.votes.combine_weight`, the vote counter's own function)."""
    if voter in work.vote_mods:
        return work.vote_mods[voter]
    section = work.ruleset.vote.section or VOTE_DEFAULTS
    effects = {
        sid: int(status.effects["vote_weight"])
        for sid, status in work.ruleset.statuses.items()
        if "vote_weight" in status.effects
    }
    held = {s.id for s in work.players[voter].statuses}
    ops = [(op, n) for status, op, n in status_weights(section, effects) if status in held]
    return combine_weight(ops, bool(held & voteless_statuses(section, effects)))


def lynch_step(work: Work, hooks: ModuleType | None) -> Sequence[Primitive]:
    """Tally the votes, decide the lynch, and return the hook's follow-up primitives."""
    cast = set(work.votes)  # who voted, before any vote-changing rule
    change = getattr(hooks, "adjust_votes", None)
    if change is not None:
        work.votes = dict(change(HookView(work), dict(work.votes)))
    tally = _tally(work, hooks)
    totals = {target: sum(vote_weight(work, v) for v in voters) for target, voters in tally.items()}
    extras = getattr(hooks, "vote_extras", None)
    added = dict(extras(HookView(work))) if extras is not None else {}
    for target, extra in added.items():
        tally.setdefault(target, [])
        totals[target] = totals.get(target, 0) + extra
    adjust = getattr(hooks, "adjust_tally", None)
    adjusted = adjust(HookView(work), totals) if adjust is not None else totals
    not_voting = [p.name for p in work.living() if p.name not in cast]
    work.emit(
        EventKind.VOTE_TALLY,
        Visibility.PUBLIC if adjusted is not None else Visibility.GM,
        tally=[
            {
                "target": t,
                "voters": v,
                "total": totals[t],
                **({"extra": added[t]} if t in added else {}),
            }
            for t, v in tally.items()
        ],
        not_voting=not_voting,
    )
    if adjusted is None:  # the ruleset stopped the lynch before the votes were known
        work.emit(EventKind.NO_LYNCH, Visibility.PUBLIC)
        return ()
    chosen = [c for c in _decide(work, dict(adjusted), hooks) if c != NO_LYNCH]
    for name in [c for c in chosen if any(work.status_effect(c, "lynch_immune"))]:
        work.gm(EventKind.NO_LYNCH, player=name, reason="lynch_immune")
        chosen.remove(name)
    if not chosen:
        work.emit(EventKind.NO_LYNCH, Visibility.PUBLIC)
        return ()
    follow: list[Primitive] = []
    for name in chosen:
        follow += _lynch(work, hooks, name, tuple(tally[name]))
    return follow


def _tally(work: Work, hooks: ModuleType | None) -> dict[str, list[str]]:
    tally: dict[str, list[str]] = {}
    allow_self = work.ruleset.vote.self_vote
    ruleset_problem = getattr(hooks, "vote_problem", None)
    for voter, target in work.votes.items():
        problem = _vote_problem(work, voter, target, allow_self)
        if not problem and ruleset_problem is not None:
            problem = ruleset_problem(HookView(work), voter, target)
        if problem:
            work.gm(EventKind.VOTE_REJECTED, voter=voter, target=target, reason=problem)
            continue
        tally.setdefault(target or NO_LYNCH, []).append(voter)
    if work.ruleset.vote.no_vote_counts_as_self:
        for p in work.living():
            if p.name not in work.votes:
                tally.setdefault(p.name, []).append(p.name)
    return tally


def _vote_problem(work: Work, voter: str, target: str | None, allow_self: bool) -> str:
    player = work.players.get(voter)
    if player is None or not player.alive:
        return "voter is not a living player"
    if target is None or target == NO_LYNCH:
        return ""
    found = work.players.get(target)
    if found is None or not found.alive:
        return "target is not a living player"
    if target == voter and not allow_self:
        return "self votes are not allowed"
    return ""


def _decide(work: Work, totals: dict[str, int], hooks: ModuleType | None) -> list[str]:
    """The lynched player(s): one, several (tie policy ``all_tied``) or none.

    The rule is the vote counter's (:func:`resolver.votes.pick_lynch`); the totals are in
    the order the votes came, so ``first_to_reach`` reads the wagon begun first."""
    if not totals:
        return []
    options = work.ruleset.options
    rule = options["lynch_rule"].value if "lynch_rule" in options else work.ruleset.vote.rule
    electorate = [vote_weight(work, p.name) for p in work.living()]
    majority = lynch_majority(electorate)
    pick = pick_lynch(
        list(totals.items()), rule=str(rule), tie=work.ruleset.vote.tie, majority=majority
    )
    if pick.short_of_majority:
        top = max(totals.values())
        work.gm(EventKind.NO_LYNCH, reason="no_majority", top=top, electorate=sum(electorate))
        return []
    if not pick.tied:
        return list(pick.chosen)
    return _tie(work, pick, hooks)


def _tie(work: Work, pick: LynchPick, hooks: ModuleType | None) -> list[str]:
    """``no_lynch`` lynches nobody; ``mayor_decides`` lynches the ruleset hook's
    ``break_tie`` choice (nobody without such a hook: the GM or Mayor decides outside);
    ``random`` draws one; ``all_tied`` lynches them all; ``first_to_reach`` the first."""
    seats = work.players
    leaders = sorted(pick.tied, key=lambda n: seats[n].seat if n in seats else -1)
    policy = work.ruleset.vote.tie
    work.gm(EventKind.NO_LYNCH, reason="tie", leaders=leaders, policy=policy)
    if pick.waits_for == "draw":
        return [work.draw("lynch_tie", leaders)]
    breaker = getattr(hooks, "break_tie", None)
    if policy == "mayor_decides" and breaker is not None:
        chosen = breaker(HookView(work), tuple(leaders))
        return [chosen] if chosen in leaders else []
    return list(pick.chosen)


def _lynch(
    work: Work, hooks: ModuleType | None, chosen: str, voters: tuple[str, ...]
) -> Sequence[Primitive]:
    work.dying[chosen] = Dying("lynch", None, "lynch")
    work.lynched.append(chosen)
    work.emit(EventKind.LYNCH, Visibility.PUBLIC, player=chosen, voters=list(voters))
    _independent_wins(work, chosen)
    hook = getattr(hooks, "on_lynch", None)
    return tuple(hook(HookView(work), chosen, voters)) if hook else ()


def _independent_wins(work: Work, lynched: str) -> None:
    """Roles that win by being lynched, or by their linked target being lynched."""
    if work.role_of(lynched).win == "lynched":
        work.players[lynched].flags.add("won")
        work.gm(EventKind.WIN, player=lynched, reason="lynched")
    for link in work.links:
        if link.b == lynched and work.role_of(link.a).win == "target_lynched":
            work.players[link.a].flags.add("won")
            work.gm(EventKind.WIN, player=link.a, reason="target_lynched")
