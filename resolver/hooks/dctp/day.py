"""Day effects: APTX4869, the Health Charm, Safeguard, and the vote modifiers of the lynch.

Seed 000 APTX: "Succseful APTX: The target was that role (success). The BO will keep the APTX
... Failed APTX: The APTX will be used up ... Discombobulated APTX: In the case of a completely
failed APTXing (such that the target was invalid in some way, or the poisoner was frightened,
etc), the target doesn't die and the capsule isn't used up."
"""

from __future__ import annotations

from collections.abc import Mapping

from resolver.hooks.dctp.common import (
    AWAY,
    JAILED,
    attack,
    bo,
    done,
    entries,
    fail,
    has,
    is_player,
    item,
    note,
    public,
    rank,
    status,
    unstatus,
)
from resolver.hookspecs import ActionView, Handled, HookView
from resolver.model.state import Primitive

CAPSULE = "aptx4869"


def capsules(view: HookView) -> int:
    """Capsules the BO has left (every member carries the shared count)."""
    return max(
        (view.items(n).get(CAPSULE, 0) for n in view.names(alive=None) if bo(view, n)), default=0
    )


def spend_capsule(view: HookView) -> list[Primitive]:
    """One capsule fewer for the whole BO."""
    return [item(n, CAPSULE, -1) for n in view.names(alive=None) if bo(view, n)]


def _attempts_before(view: HookView, action: ActionView) -> int:
    """Higher-ranked poisoning attempts of today (they take the capsules first)."""
    mine = rank(view, action.actor)
    return sum(
        1
        for index, actor, aid, _ in view.accepted()
        if aid == "aptx"
        and actor != action.actor
        and (rank(view, actor), index or 0) < (mine, action.index or 0)
    )


def aptx(view: HookView, action: ActionView) -> Handled:
    """'APTX: Kleene = Shinichi': dies if that is his true role; a wrong guess loses a capsule."""
    target, role = action.targets[0], action.targets[1] if len(action.targets) > 1 else ""
    if not bo(view, action.actor):
        return fail("only the BO has APTX4869")
    if capsules(view) - _attempts_before(view, action) <= 0:
        return fail("no capsule left for this attempt")
    if (
        not is_player(view, target)
        or has(view, target, *JAILED, *AWAY)
        or role not in view.ruleset.roles
    ):
        return fail("invalid target: the capsule is kept")
    if view.role(target).id != role:
        left = capsules(view) - 1
        return done(*spend_capsule(view), note([action.actor], "aptx_failed", left=left))
    shield = _shield(view, target)
    if shield is not None:
        return done(*shield, note([action.actor], "aptx_failed", left=capsules(view)))
    return done(
        attack(action.actor, target, "aptx", ("protection",)),
        status(action.actor, target, "aptxed"),
        note([action.actor], "aptx_succeeded", target=target),
    )


def _shield(view: HookView, target: str) -> list[Primitive] | None:
    """A Health Charm, a correct Safeguard or a Lovey-Dovey of today saves him from APTX."""
    if view.has_status(target, "health_charm"):
        return [unstatus(target, "health_charm"), note([target], "charm_used")]
    if view.has_status(target, "safeguarded"):
        return safeguard_saved(view, target)
    for _, actor, aid, targets in view.accepted():
        if aid == "lovey_dovey" and targets[:1] == (target,) and not has(view, actor, "frightened"):
            return [status(None, n, "lovey_cooldown", 3) for n in (actor, target)]
    return None


def safeguard_saved(view: HookView, target: str) -> list[Primitive]:
    """'Uehara will then be notified that she saved that player with this role'; 'Can't use
    the ability on someone in a row in case it was successful ... at least one day delay';
    Vermouth who saved a BO 'needs to wait 2 days to be able to use it on any other BO'."""
    out: list[Primitive] = []
    for s in view.statuses(target):
        if s.id != "safeguarded" or not s.source:
            continue
        out += [note([s.source], "safeguard_saved", target=target),
                status(s.source, target, "safeguard_cooldown")]  # fmt: skip
        if bo(view, s.source) and bo(view, target):
            out.append(status(s.source, s.source, "safeguard_bo_cooldown"))
    return out


def lynch_safeguards(view: HookView) -> list[Primitive]:
    """At the end of a day: a safeguarded player who would have been lynched was saved."""
    if any(e.ability == "voice_of_reason" and e.outcome == "done" for e in entries(view)):
        return []
    totals: dict[str, int] = {}
    for voter, target in view.votes().items():
        if target and is_player(view, voter) and view.alive(voter):
            totals[target] = totals.get(target, 0) + view.vote_weight(voter)
    top = _unique_top(modified(view, totals))
    if top is None or not is_player(view, top) or not view.has_status(top, "safeguarded"):
        return []
    return safeguard_saved(view, top)


def protection_charm(view: HookView, action: ActionView) -> Handled:
    """Protected from APTX today and tomorrow; Kazuha may give it to herself once."""
    target = action.targets[0]
    if target == action.actor and any(
        e.ability == "protection_charm" and e.actor == target and e.targets[:1] == (target,)
        for e in view.ledger()
        if e.phase != view.phase
    ):
        return fail("can only give the charm to herself once")
    return done(status(action.actor, target, "health_charm"), note([target], "got_charm"))


def safeguard(view: HookView, action: ActionView) -> Handled:
    """A correct role saves the target from APTX and the lynch today (the disguised must be
    named as 1412/Vermouth, or as the disguise under Master of Disguise)."""
    target, role = action.targets[0], action.targets[1] if len(action.targets) > 1 else ""
    true_role = view.role(target).id
    from resolver.hooks.dctp.common import current_disguise

    mod = view.has_status(target, "master_of_disguise") and current_disguise(view, target) == role
    if any(
        x.id == "safeguard_cooldown" and x.source == action.actor for x in view.statuses(target)
    ):
        return fail("not on the same player in a row after a success")
    if bo(view, target) and view.has_status(action.actor, "safeguard_bo_cooldown"):
        return fail("she needs to wait 2 days to use it on a BO again")
    if role != true_role and not mod:
        return done()  # 'If the role was wrong, nothing will happen'
    return done(
        status(action.actor, target, "safeguarded"), status(action.actor, target, "lynch_shield")
    )


def accompany(view: HookView, action: ActionView) -> Handled:
    """The target's lynch votes are reduced by 1 today; he learns he was followed."""
    return done(note([action.targets[0]], "followed"))


def voice_of_reason(view: HookView, action: ActionView) -> Handled:
    """Stops today's lynch (once a game); the votes are not shown."""
    return done()


def voice_of_accusation(view: HookView, action: ActionView) -> Handled:
    """Kujou's vote counts twice, if she votes for someone she cross-examined before."""
    target = action.targets[0]
    if view.votes().get(action.actor) != target:
        return fail("she must vote for the accused")
    examined = any(
        e.actor == action.actor and e.ability == "cross_examine" and e.targets[:1] == (target,)
        for e in view.ledger()
        if e.phase != view.phase
    )
    if not examined:
        return fail("she has not cross-examined him before")
    if view.has_status(action.actor, "accusation_used"):
        return fail("Voice of Accusation already decided a lynch")
    return done()


def adjust_tally(view: HookView, totals: Mapping[str, int]) -> Mapping[str, int] | None:
    """Sabotage (ties only), then Accompany (−1) and Voice of Accusation (+1); Voice of Reason
    and a protected leader stop the lynch with the votes hidden."""
    today = [e for e in entries(view) if e.outcome == "done"]
    if any(e.ability == "voice_of_reason" for e in today):
        return None
    out = modified(view, totals)
    leaders = [t for t in out if out[t] == max(out.values(), default=0) and t != "no_lynch"]
    if len(leaders) == 1 and view.has_status(leaders[0], "lynch_shield"):
        return None  # 'he will jump in and stop the lynching. The lynching votes will not be shown'
    return out


def modified(
    view: HookView, totals: Mapping[str, int], without: str | None = None
) -> dict[str, int]:
    """The totals after Sabotage, Accompany and Voice of Accusation (``without`` one of them);
    votes that weigh nothing lynch nobody."""
    today = [e for e in entries(view) if e.outcome == "done"]
    out = dict(totals)
    top = max(out.values(), default=0)
    tied = [t for t in out if t != "no_lynch" and out[t] == top]
    if len(tied) > 1 and without != "sabotage":  # 'If the lynch vote does not tie prior ...
        for t in tied:  # Sabotage will fail'
            if view.has_status(t, "sabotaged"):
                out[t] += 1
    for e in today:
        if not e.targets or e.targets[0] not in out or e.ability == without:
            continue
        if e.ability == "accompany":
            out[e.targets[0]] -= 1
        if e.ability == "voice_of_accusation":
            out[e.targets[0]] += 1
    return {t: n for t, n in out.items() if n > 0}


def lynch_notices(view: HookView, lynched: str) -> list[Primitive]:
    """'If Voice of Accusation causes a player to be lynched, there will be a notice that one
    vote was increased by 1' (and Kujou may not use it again); 'If Pisco/Tequila causes a change
    in the lynch results with his action, there will be a notice that someone tampered with the
    votes.'"""
    totals: dict[str, int] = {}
    for voter, target in view.votes().items():
        if target and is_player(view, voter) and view.alive(voter):
            totals[target] = totals.get(target, 0) + view.vote_weight(voter)
    out: list[Primitive] = []
    for cause, message in (
        ("voice_of_accusation", "vote_increased"),
        ("sabotage", "votes_tampered"),
    ):
        if _unique_top(modified(view, totals, without=cause)) != lynched:
            out.append(public(message))
            if cause == "voice_of_accusation":
                out += [
                    status(None, e.actor, "accusation_used")
                    for e in entries(view)
                    if e.ability == cause and e.outcome == "done" and e.targets[:1] == (lynched,)
                ]
    return out


def _unique_top(totals: Mapping[str, int]) -> str | None:
    top = max(totals.values(), default=0)
    leaders = [t for t, n in totals.items() if n == top and t != "no_lynch"]
    return leaders[0] if len(leaders) == 1 else None
