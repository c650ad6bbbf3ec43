"""Phase clock arithmetic, pure: phase names, starts, deadlines and inner deadlines.

Times are computed on the wall clock of the game's time zone, so a 48 h day that starts at
22:00 ends at 22:00 two days later even across a summer-time change (seed 003: days 48 h
from 22:00; nights 24 h with a 19:00 inner deadline for the night kill).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta

from forumbot.gamefile import PhaseLength, Schedule

_NAME = re.compile(r"^(day|night)(\d+)$")
ORDERS_DEADLINE = "orders"
"""The inner deadline after which orders are late (when a phase kind declares one)."""
ABILITY_DEADLINE = "ability:"
"""Prefix of an inner deadline for one ability's orders (``ability:wolf_kill``); it may fall
after the phase's deadline (the mayor's tie-break: the day resolves once it passed)."""
DEAD_DEADLINE = "dead:"
"""Prefix of an inner deadline for a dead player's orders of one ability (a dead mayor names
his successor within ``dead_window_hours`` of the phase's start)."""
ABILITY_OPENS = "opens:"
"""Prefix of the moment one ability's orders start counting (seed 003: Shinra and Celty
decide from 19:00); an order sent before it is refused, or queued, as the ruleset says."""


@dataclass(frozen=True, slots=True)
class PhasePlan:
    """One phase as the schedule lays it out."""

    name: str
    kind: str
    number: int
    starts_at: datetime
    deadline: datetime
    inner_deadlines: dict[str, datetime] = field(default_factory=dict)

    def orders_deadline(self) -> datetime:
        """When orders stop counting: the ``orders`` inner deadline, else the deadline."""
        return self.inner_deadlines.get(ORDERS_DEADLINE, self.deadline)


def split_name(name: str) -> tuple[str, int]:
    """``night2`` -> (``night``, 2)."""
    match = _NAME.match(name)
    if not match:
        raise ValueError(f"not a phase name: {name!r}")
    return match.group(1), int(match.group(2))


def night_first(schedule: Schedule) -> bool:
    """Whether night N comes before day N (night-first games, and games opening on day 0)."""
    return schedule.first_phase.startswith("night") or schedule.first_phase == "day0"


def next_name(name: str, *, nights_first: bool) -> str:
    """The phase after ``name``: night1 -> day1 -> night2 (night first) or day1 -> night1."""
    kind, number = split_name(name)
    if kind == "day":
        return f"night{number + 1}" if nights_first else f"night{number}"
    return f"day{number}" if nights_first else f"day{number + 1}"


def _length(schedule: Schedule, kind: str) -> PhaseLength:
    return schedule.day if kind == "day" else schedule.night


def aligned_start(schedule: Schedule, kind: str, now: datetime) -> datetime:
    """Where a phase starts when the schedule gives no start: the next ``starts`` clock time."""
    clock = _length(schedule, kind).starts
    if clock is None:
        return now
    return _next_clock(now.astimezone(schedule.timezone), clock).astimezone(UTC)


def plan(schedule: Schedule, name: str, starts_at: datetime) -> PhasePlan:
    """Lay out phase ``name`` starting at ``starts_at`` (aware)."""
    kind, number = split_name(name)
    length = _length(schedule, kind)
    local_start = starts_at.astimezone(schedule.timezone)
    # Aware datetime + timedelta is wall-clock arithmetic in Python: what a GM means by 48 h.
    local_deadline = (local_start.replace(tzinfo=None) + length.length).replace(
        tzinfo=schedule.timezone
    )
    inner = {}
    for label, clock in length.inner_deadlines:
        moment = _next_clock(local_start, clock)
        if moment <= local_deadline:
            inner[label] = moment.astimezone(UTC)
    return PhasePlan(
        name=name,
        kind=kind,
        number=number,
        starts_at=local_start.astimezone(UTC),
        deadline=local_deadline.astimezone(UTC),
        inner_deadlines=inner,
    )


def clock_deadlines(
    schedule: Schedule, plan: PhasePlan, clocks: dict[str, time]
) -> dict[str, datetime]:
    """Inner deadlines at wall-clock times of the game's zone (label -> the first such moment
    after the phase starts), those falling inside the phase."""
    local_start = plan.starts_at.astimezone(schedule.timezone)
    out = {}
    for label, clock in clocks.items():
        moment = _next_clock(local_start, clock)
        if moment <= plan.deadline:
            out[label] = moment.astimezone(UTC)
    return out


def first_plan(schedule: Schedule, now: datetime) -> PhasePlan:
    """The first phase: at the schedule's start, or the next aligned start after ``now``."""
    name = "day0" if schedule.first_phase == "day0" else schedule.first_phase
    kind = "day" if name.startswith("day") else "night"
    start = schedule.start or aligned_start(schedule, kind, now)
    return plan(schedule, name, start)


def following_plan(schedule: Schedule, name: str, previous_deadline: datetime) -> PhasePlan:
    """The phase after ``name``, starting when it ended."""
    return plan(schedule, next_name(name, nights_first=night_first(schedule)), previous_deadline)


def _next_clock(local_start: datetime, clock: time) -> datetime:
    """The first moment strictly after ``local_start`` at wall-clock time ``clock``."""
    candidate = local_start.replace(hour=clock.hour, minute=clock.minute, second=0, microsecond=0)
    if candidate <= local_start:
        candidate = (candidate.replace(tzinfo=None) + timedelta(days=1)).replace(
            tzinfo=local_start.tzinfo
        )
    return candidate
