"""The runtime's composition root: database, clock, worker id and forum adapters.

Services are modules of functions that take a ``Runtime`` and ids. ``Runtime`` holds no game
state: everything a game needs between two calls is in the database.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from forumbot.clock import Clock, SystemClock
from forumbot.logs import get_logger
from forumbot.services.leases import DEFAULT_LEASE


@dataclass(frozen=True, slots=True)
class ForumAccess:
    """How to reach one game's forum: engine, addresses, account (never the password)."""

    game_id: int
    engine: str
    base_url: str
    topic_id: str
    topic_url: str
    username: str
    password_env: str | None = None
    password_file: str | None = None
    requests_per_second: float = 1.0
    post_interval: float | None = None  # None: the engine's stock flood interval
    date_order: str | None = None  # how the forum writes numeric dates; None: guessed
    pms_per_hour: int | None = None  # the forum's PM cap for the bot; None: engine stock


AdapterFactory = Callable[[ForumAccess], Any]
Progress = Callable[[str, int], None]


@dataclass
class Runtime:
    """What every service call needs; built once per process (CLI, worker, test, demo)."""

    engine: Engine
    sessions: sessionmaker[Session]
    adapter_factory: AdapterFactory
    clock: Clock = field(default_factory=SystemClock)
    worker: str = "local"
    lease_period: timedelta = DEFAULT_LEASE
    log: logging.Logger = field(default_factory=get_logger)
    progress: Progress | None = None
    fault: Callable[[str, int], None] | None = None  # tests inject crashes here
    _adapters: dict[int, Any] = field(default_factory=dict, repr=False)

    def adapter(self, access: ForumAccess) -> Any:
        """The adapter of a game, created once per process (it keeps its forum session)."""
        if access.game_id not in self._adapters:
            self._adapters[access.game_id] = self.adapter_factory(access)
        return self._adapters[access.game_id]

    def forget_adapter(self, game_id: int) -> None:
        """Drop a game's adapter (its game moved to another worker)."""
        self._adapters.pop(game_id, None)
