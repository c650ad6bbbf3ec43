"""The "resolve now" button: end the open phase and let the phases service resolve it."""

from __future__ import annotations

from collections.abc import Callable

from forumbot.db.enums import PhaseStatus
from forumbot.db.models import Phase
from forumbot.errors import ForumbotError
from forumbot.runtime.app import build_runtime
from forumbot.services.context import Runtime
from forumbot.services.leases import exclusive
from forumbot.services.phases import clock, controls

ResolveNow = Callable[[int, int, str], str]


class CannotResolve(ForumbotError):
    """The phase shown is not the game's open (or frozen) phase."""

    def __init__(self, phase: str, status: str) -> None:
        super().__init__(f"{phase} is {status}: only the open phase can be resolved now")


def make_resolve_now(rt: Runtime) -> ResolveNow:
    """A ``resolve_now(game_id, phase_id, gm)`` over the runtime.

    It moves the open phase's deadline to now (``controls.end_now``) and runs one clock step
    (``clock.tick``): the phase freezes, late orders are marked, the resolver runs and the
    post and result PMs are drafted for the GM to approve. Nothing is sent by this.
    """

    def resolve_now(game_id: int, phase_id: int, gm: str) -> str:
        with rt.sessions() as session:
            phase = session.get(Phase, phase_id)
            if phase is None or phase.game_id != game_id:
                raise CannotResolve(str(phase_id), "not in this game")
            name, status = phase.name, phase.status
        if status not in (PhaseStatus.OPEN, PhaseStatus.FROZEN):
            raise CannotResolve(name, status.value)
        # Never next to a worker's job on the same game: the same lock the workers hold.
        with exclusive(rt.engine, game_id):
            if status is PhaseStatus.OPEN:
                controls.end_now(rt, game_id)
            clock.tick(rt, game_id)
        with rt.sessions() as session:
            after = session.get_one(Phase, phase_id).status
        if after is PhaseStatus.FROZEN:
            return f"{name} is frozen, but not resolved yet: see the queue for an alert."
        return f"{name} is {after.value} (asked by gm:{gm}): the drafts wait for approval."

    return resolve_now


def runtime_resolve_now(url: str) -> ResolveNow:
    """Build the runtime on ``url`` and the button's function."""
    return make_resolve_now(build_runtime(url, worker="gm-page"))
