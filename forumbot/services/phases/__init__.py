"""Phases: what a phase row says now (which is current, its deadlines, who still plays).

The phase's life is split by concern: ``clock`` opens, freezes and advances phases,
``resolution`` resolves a frozen phase, ``drafting`` drafts its messages (results, vote
counts, reminders) and ``controls`` are the GM's commands (extend, end, pause, redo).
"""

from __future__ import annotations

from datetime import datetime

from forumbot.db.enums import PhaseStatus, PlayerStatus
from forumbot.db.models import Game, Phase, Player
from forumbot.services import games, schedule


def current(game: Game) -> Phase | None:
    """The phase being played or settled (the latest not merely pending)."""
    started = [p for p in game.phases if p.status is not PhaseStatus.PENDING]
    return started[-1] if started else None


def order_phases(game: Game) -> list[Phase]:
    """Phases an order PM may be for now: the open phase, then the one planned after it."""
    return [p for p in game.phases if p.status in (PhaseStatus.OPEN, PhaseStatus.PENDING)]


def orders_deadline(phase: Phase) -> datetime | None:
    """When orders for this phase stop counting (the ``orders`` inner deadline, if any)."""
    inner = phase.inner_deadlines.get(schedule.ORDERS_DEADLINE)
    return datetime.fromisoformat(inner) if inner else phase.deadline


def is_late(phase: Phase, sent_at: datetime) -> bool:
    """Whether an order sent at ``sent_at`` missed this phase."""
    if phase.status not in (PhaseStatus.OPEN, PhaseStatus.PENDING):
        return True
    deadline = orders_deadline(phase)
    return deadline is not None and sent_at > deadline


def is_alive(player: Player) -> bool:
    """Whether a player still plays (not dead, replaced or modkilled)."""
    return player.status is PlayerStatus.ALIVE


def schedule_of(game: Game) -> schedule.Schedule:
    """The game's schedule, from its game file."""
    return games.config_of(game).schedule
