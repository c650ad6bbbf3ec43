"""The runtime's clock: the real one in production, a hand-driven one in tests and the demo."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """Anything that can tell the time (aware UTC)."""

    def now(self) -> datetime:
        """The current time, aware UTC."""
        ...


class SystemClock:
    """The wall clock."""

    def now(self) -> datetime:
        """The current time, aware UTC."""
        return datetime.now(UTC)


class FakeClock:
    """A clock that only moves when told to (tests, the demo, benchmarks)."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError("FakeClock needs an aware start time")
        self._now = start.astimezone(UTC)

    def now(self) -> datetime:
        """The clock's current time."""
        return self._now

    def advance(self, delta: timedelta) -> datetime:
        """Move forward by ``delta`` and return the new time."""
        self._now += delta
        return self._now

    def set(self, moment: datetime) -> None:
        """Jump to ``moment`` (never backwards: phases only move forward)."""
        moment = moment.astimezone(UTC)
        if moment < self._now:
            raise ValueError("a FakeClock never goes back in time")
        self._now = moment
