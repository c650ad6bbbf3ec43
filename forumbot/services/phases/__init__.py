"""Phases: what a phase row says now (which is current, its deadlines, who still plays).

The phase's life is split by concern: ``clock`` opens, freezes and advances phases,
``resolution`` resolves a frozen phase, ``drafting`` drafts its messages (results, vote
counts, reminders) and ``controls`` are the GM's commands (extend, end, pause, redo).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from forumbot.db.enums import PhaseKind, PhaseStatus, PlayerStatus
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


def opens_at(phase: Phase, ability: str | None) -> datetime | None:
    """When orders of ``ability`` start counting in this phase (None: from its start)."""
    found = phase.inner_deadlines.get(f"{schedule.ABILITY_OPENS}{ability}") if ability else None
    return datetime.fromisoformat(found) if found else None


def too_early(
    phase: Phase, sent_at: datetime, abilities: Iterable[str | None]
) -> tuple[str, datetime] | None:
    """The first of ``abilities`` whose window had not opened at ``sent_at``, and when it
    opens (seed 003: Shinra's save sent before 19:00)."""
    when = _aware(sent_at)
    for ability in abilities:
        opens = opens_at(phase, ability)
        if ability and opens is not None and when < opens:
            return ability, opens
    return None


def day_ended_before(game: Game, sent_at: datetime) -> Phase | None:
    """The day whose deadline had passed at ``sent_at`` while no day was open: a vote PM
    sent then counts for no day (votes are cast during a day). None when a day was open,
    or none had ended."""
    when = _aware(sent_at)
    days = [
        (p, _aware(p.starts_at), _aware(p.deadline))
        for p in game.phases
        if p.kind is PhaseKind.DAY and p.starts_at and p.deadline
    ]
    if any(starts <= when <= ends for _, starts, ends in days):
        return None
    ended = [p for p, _, ends in days if ends < when]
    return max(ended, key=lambda p: p.sequence, default=None)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


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
