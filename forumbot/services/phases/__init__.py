"""Phases: what a phase row says now (which is current, its deadlines, who still plays).

The phase's life is split by concern: ``clock`` opens, freezes and advances phases,
``resolution`` resolves a frozen phase, ``drafting`` drafts its messages (results, vote
counts, reminders) and ``controls`` are the GM's commands (extend, end, pause, redo).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from forumbot.db.enums import PhaseStatus, PlayerStatus
from forumbot.db.models import Game, Phase, Player
from forumbot.services import games, schedule


def current(game: Game) -> Phase | None:
    """The phase being played or settled (the latest not merely pending)."""
    started = [p for p in game.phases if p.status is not PhaseStatus.PENDING]
    return started[-1] if started else None


def order_phases(game: Game) -> list[Phase]:
    """Phases an order PM may be for now: a frozen phase still waiting for an ability's own
    later deadline (a tie-break; only orders of such abilities go there), the open phase,
    then the one planned after it."""
    live = [p for p in game.phases if p.status in (PhaseStatus.OPEN, PhaseStatus.PENDING)]
    frozen = [p for p in game.phases if p.status is PhaseStatus.FROZEN and _extended(p)]
    return frozen + live


def _extended(phase: Phase) -> bool:
    prefix = schedule.ABILITY_DEADLINE
    return any(k.startswith(prefix) and extends_past(phase, k[len(prefix) :])
               for k in phase.inner_deadlines)  # fmt: skip


def orders_deadline(phase: Phase) -> datetime | None:
    """When orders for this phase stop counting (the ``orders`` inner deadline, if any)."""
    inner = phase.inner_deadlines.get(schedule.ORDERS_DEADLINE)
    return datetime.fromisoformat(inner) if inner else phase.deadline


def order_deadline(phase: Phase, ability: str | None, *, dead: bool = False) -> datetime | None:
    """When orders of ``ability`` stop counting: a dead sender's own window, the ability's own
    inner deadline (a ruleset's ``effect_params.deadline``, the wolves' 19:00; the mayor's
    tie-break after the day), else the phase's orders deadline."""
    inner = phase.inner_deadlines
    found = inner.get(f"{schedule.DEAD_DEADLINE}{ability}") if ability and dead else None
    found = found or (inner.get(f"{schedule.ABILITY_DEADLINE}{ability}") if ability else None)
    return datetime.fromisoformat(found) if found else orders_deadline(phase)


def is_late(
    phase: Phase, sent_at: datetime, abilities: Iterable[str | None] = (), *, dead: bool = False
) -> bool:
    """Whether an order (of ``abilities``) sent at ``sent_at`` missed this phase (a frozen
    phase takes only orders of an ability whose own deadline comes after the phase's)."""
    wanted = list(abilities) or [None]
    if phase.status is PhaseStatus.FROZEN:
        if not all(a and extends_past(phase, a) for a in wanted):
            return True
    elif phase.status not in (PhaseStatus.OPEN, PhaseStatus.PENDING):
        return True
    deadlines = [order_deadline(phase, a, dead=dead) for a in wanted]
    return any(d is not None and sent_at > d for d in deadlines)


def extends_past(phase: Phase, ability: str) -> bool:
    """Whether orders of ``ability`` still count after the phase's deadline."""
    own = phase.inner_deadlines.get(f"{schedule.ABILITY_DEADLINE}{ability}")
    return bool(own and phase.deadline and datetime.fromisoformat(own) > phase.deadline)


def is_alive(player: Player) -> bool:
    """Whether a player still plays (not dead, replaced or modkilled)."""
    return player.status is PlayerStatus.ALIVE


def schedule_of(game: Game) -> schedule.Schedule:
    """The game's schedule, from its game file."""
    return games.config_of(game).schedule
