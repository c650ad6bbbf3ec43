"""Investigate: learn something about the target, privately (Sheriff, Consigliere, Sleuth).

``reveals``: ``appearance`` (what the role shows to the ``query``, e.g. ``check``:
Suspicious/Innocent, with status overrides such as a frame), ``role`` (the exact role), or
``visitors`` (who visited the target this phase, computed once every action has resolved).
The result names the target as ordered: a switched or controlled investigator does not
learn that his target changed.
"""

from __future__ import annotations

from collections.abc import Callable

from resolver.model.events import EventKind
from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Produce the private result (now, or at the end of the phase for visitors)."""
    reveals = str(action.params.get("reveals", "appearance"))
    REVEALS[reveals](action, work)


def appearance_of(work: Work, target: str, query: str, default: str, overrides: bool) -> str:
    """What ``target`` shows to an investigation of type ``query``."""
    if (target, query) in work.appearances:
        return work.appearances[(target, query)]
    role = work.role_of(target)
    from_status = [a[query] for a in work.status_effect(target, "appears") if query in a]
    if from_status and (overrides or query not in role.appears):
        return str(from_status[-1])
    return str(role.appears.get(query, default))


def _appearance(action: Action, work: Work) -> None:
    target = action.targets[0]
    params = action.params
    overrides = bool(params.get("status_overrides_explicit", True))
    result = appearance_of(
        work,
        target,
        str(params.get("query", "check")),
        str(params.get("default", "innocent")),
        overrides,
    )
    _result(work, action, target, result)


def _role(action: Action, work: Work) -> None:
    target = action.targets[0]
    _result(work, action, target, work.players[target].role)


def _visitors(action: Action, work: Work) -> None:
    target = action.targets[0]

    def later(w: Work) -> None:
        _result(w, action, target, w.visitors_of(target, exclude=action.performer))

    work.late.append(later)


def _result(work: Work, action: Action, actual: str, result: object) -> None:
    shown = action.ordered[0] if action.ordered else actual
    work.tell(
        action.actor, EventKind.RESULT, ability=action.ability.id, target=shown, result=result
    )
    work.gm(
        EventKind.RESULT,
        actor=action.actor,
        ability=action.ability.id,
        target=actual,
        result=result,
    )


REVEALS: dict[str, Callable[[Action, Work], None]] = {
    "appearance": _appearance,
    "role": _role,
    "visitors": _visitors,
}
