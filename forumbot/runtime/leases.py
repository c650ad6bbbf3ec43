"""Which worker runs which game: leases on the ``games`` row, kept by PostgreSQL itself.

A worker claims games whose lease is free or expired with ``SELECT ... FOR UPDATE SKIP
LOCKED`` and stamps ``lease_owner``/``lease_until``; it renews them on every sync. Every
job then runs inside ``guard()``: a second connection that re-checks the lease and keeps the
game's row locked (``FOR UPDATE NOWAIT``) until the job ends, so even a worker whose lease
ran out while it was busy cannot overlap with the next owner. A dead worker's connections
close, its row locks vanish, and its games move to another worker once the lease expires:
within one lease period. SQLite has no row locks: it is the single-worker default, and the
same code simply checks the lease.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from sqlalchemy import Engine, or_, select, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from forumbot.db.enums import GameStatus
from forumbot.db.models import Game
from forumbot.errors import ForumbotError

DEFAULT_LEASE = timedelta(seconds=90)
ACTIVE = (GameStatus.RUNNING, GameStatus.PAUSED)


class LeaseLost(ForumbotError):
    """This worker no longer owns the game (its lease expired and another worker took it)."""

    def __init__(self, game_id: int, worker: str) -> None:
        self.game_id = game_id
        self.worker = worker
        super().__init__(f"worker {worker!r} does not hold the lease of game {game_id}")


def acquire(
    sessions: sessionmaker[Session],
    worker: str,
    now: datetime,
    period: timedelta = DEFAULT_LEASE,
    *,
    limit: int | None = None,
) -> list[int]:
    """Claim free or expired games and renew this worker's own; return the ids it holds.

    Rows locked by another worker's running job are skipped, never waited for.
    """
    with sessions.begin() as session:
        query = (
            select(Game)
            .where(
                Game.status.in_(ACTIVE),
                or_(
                    Game.lease_owner.is_(None),
                    Game.lease_owner == worker,
                    Game.lease_until.is_(None),
                    Game.lease_until < now,
                ),
            )
            .order_by(Game.id)
            .with_for_update(skip_locked=True)
        )
        if limit is not None:
            query = query.limit(limit)
        games = session.scalars(query).all()
        for game in games:
            game.lease_owner, game.lease_until = worker, now + period
        return [game.id for game in games]


def owned(sessions: sessionmaker[Session], worker: str, now: datetime) -> list[int]:
    """The games whose lease this worker holds right now (running jobs included)."""
    with sessions() as session:
        return list(
            session.scalars(
                select(Game.id).where(Game.lease_owner == worker, Game.lease_until >= now)
            )
        )


def release(sessions: sessionmaker[Session], worker: str) -> int:
    """Give up every lease of this worker (clean shutdown); returns how many."""
    with sessions.begin() as session:
        result = session.execute(
            update(Game)
            .where(Game.lease_owner == worker)
            .values(lease_owner=None, lease_until=None)
        )
        return int(result.rowcount or 0)  # type: ignore[attr-defined]


@contextmanager
def guard(
    engine: Engine,
    game_id: int,
    worker: str,
    now: datetime,
    period: timedelta = DEFAULT_LEASE,
) -> Iterator[None]:
    """Run a job for ``game_id`` only while holding its lease, and keep it held meanwhile.

    On PostgreSQL the lease is renewed and the row stays locked until the block ends.

    Raises:
        LeaseLost: another worker owns the game (or its row is locked by one).
    """
    postgres = engine.dialect.name == "postgresql"
    with engine.connect() as connection:
        if postgres:
            try:  # the row stays locked by this connection until the job ends
                connection.execute(
                    select(Game.id).where(Game.id == game_id).with_for_update(nowait=True)
                )
            except OperationalError:
                connection.rollback()
                raise LeaseLost(game_id, worker) from None
        renewed = connection.execute(
            update(Game)
            .where(Game.id == game_id, Game.lease_owner == worker, Game.lease_until >= now)
            .values(lease_until=now + period)
            .returning(Game.id)
        ).first()
        if renewed is None:
            connection.rollback()
            raise LeaseLost(game_id, worker)
        if not postgres:
            # SQLite: never keep a write transaction open while the job writes elsewhere.
            connection.commit()
        try:
            yield
        finally:
            if postgres:
                connection.commit()
