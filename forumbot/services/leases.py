"""Which worker runs which game: leases on the ``games`` row, kept by PostgreSQL itself.

A worker claims games whose lease is free or expired with ``SELECT ... FOR UPDATE SKIP
LOCKED`` and stamps ``lease_owner``/``lease_until``; it renews them on every sync. Every
job then runs inside ``guard()``: it re-checks and renews the lease, then holds a
PostgreSQL advisory lock on the game until the job ends, so even a worker whose lease ran
out while it was busy cannot overlap with the next owner. A dead worker's connections
close, its locks vanish, and its games move to another worker once the lease expires:
within one lease period. SQLite has no row locks: it is the single-worker default, and the
same code simply checks the lease.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

from filelock import FileLock, Timeout
from sqlalchemy import Engine, func, or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from forumbot.db.enums import GameStatus
from forumbot.db.models import Game
from forumbot.errors import ForumbotError

DEFAULT_LEASE = timedelta(seconds=90)
ACTIVE = (GameStatus.RUNNING, GameStatus.PAUSED)


class WorkerRunning(ForumbotError):
    """Another worker holds the SQLite file's worker lock (one worker per SQLite file).

    Attributes:
        owner: what the running worker wrote next to the lock (pid, worker, since).
    """

    def __init__(self, database: str, owner: dict[str, str]) -> None:
        self.owner = owner
        who = f"pid {owner.get('pid', '?')}, worker {owner.get('worker', '?')!r}"
        super().__init__(
            f"another forumbot worker ({who}, since {owner.get('since', '?')}) is already "
            f"running the games of {database}; stop it first (one worker per SQLite file; "
            "use PostgreSQL for several workers)"
        )


@contextmanager
def one_worker(
    engine: Engine, sessions: sessionmaker[Session], worker: str, now: datetime, wait: float = 0
) -> Iterator[None]:
    """Hold the SQLite file's worker lock (``<file>.worker.lock``) while the block runs.

    SQLite has no row locks: two workers on one file would both hold every lease. The lock
    (an OS file lock, gone with its process even after a kill) lets one worker in; holding
    it proves no other worker lives, so leases left by a dead one are freed at once. On
    PostgreSQL (several workers, leases and advisory locks) it does nothing.

    Raises:
        WorkerRunning: another live worker holds the lock after ``wait`` seconds.
    """
    path = _sqlite_path(engine)
    if path is None:
        yield
        return
    lock = FileLock(f"{path}.worker.lock", timeout=wait)
    owner_file = Path(f"{path}.worker.json")
    try:
        lock.acquire()
    except Timeout:
        raise WorkerRunning(str(path), _read_owner(owner_file)) from None
    try:
        owner = {"pid": str(os.getpid()), "worker": worker, "since": now.isoformat()}
        owner_file.write_text(json.dumps(owner), encoding="utf-8")
        with sessions.begin() as session:  # their owner is dead: the games are free now
            session.execute(
                update(Game).where(Game.lease_owner.is_not(None))
                .values(lease_owner=None, lease_until=None)
            )  # fmt: skip
        yield
    finally:
        owner_file.unlink(missing_ok=True)
        lock.release()


def _sqlite_path(engine: Engine) -> Path | None:
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return None
    return Path(database.removeprefix("file:").split("?", 1)[0]).expanduser()


def _read_owner(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


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


LOCK_SPACE = 0x46424F54  # "FBOT": the advisory-lock namespace of game jobs


@contextmanager
def guard(
    engine: Engine,
    game_id: int,
    worker: str,
    now: datetime,
    period: timedelta = DEFAULT_LEASE,
) -> Iterator[None]:
    """Run a job for ``game_id`` only while holding its lease, and keep it held meanwhile.

    The lease is checked and renewed in a short transaction. On PostgreSQL a transaction
    advisory lock on the game is then held by a second connection until the block ends:
    the job itself can still write the game's row, while another worker that took over an
    expired lease cannot start a job on the game until this one has finished.

    Raises:
        LeaseLost: another worker owns the game, or is still running a job on it.
    """
    with engine.connect() as connection:
        with connection.begin():
            renewed = connection.execute(
                update(Game)
                .where(Game.id == game_id, Game.lease_owner == worker, Game.lease_until >= now)
                .values(lease_until=now + period)
                .returning(Game.id)
            ).first()
        if renewed is None:
            raise LeaseLost(game_id, worker)
        if engine.dialect.name != "postgresql":
            yield  # SQLite: one worker, nothing to lock
            return
        with connection.begin():
            locked = connection.execute(
                select(func.pg_try_advisory_xact_lock(LOCK_SPACE, game_id))
            ).scalar()
            if not locked:
                raise LeaseLost(game_id, worker)
            yield


class GameBusy(ForumbotError):
    """A worker is running a job on the game right now; try again in a moment."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(f"a worker is working on game {game_id} right now; try again shortly")


@contextmanager
def exclusive(engine: Engine, game_id: int) -> Iterator[None]:
    """Hold the game's job lock for a GM action outside the workers (the page's "resolve now").

    On PostgreSQL this is the advisory lock every worker's job holds (see ``guard``): while it
    is held no worker runs a job on the game, and if a worker is running one the GM is told
    to try again. SQLite has one worker and serialised writes: nothing to lock.

    Raises:
        GameBusy: a worker holds the game's lock.
    """
    if engine.dialect.name != "postgresql":
        yield
        return
    with engine.connect() as connection, connection.begin():
        locked = connection.execute(
            select(func.pg_try_advisory_xact_lock(LOCK_SPACE, game_id))
        ).scalar()
        if not locked:
            raise GameBusy(game_id)
        yield
