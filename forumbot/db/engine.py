"""Database engines and sessions: one place that knows the URL rules."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from sqlalchemy import Engine, event
from sqlalchemy import create_engine as sa_create_engine
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import Session, sessionmaker

from forumbot.errors import ConfigError

DATABASE_ENV = "FORUMBOT_DATABASE_URL"
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")

log = logging.getLogger("forumbot.db")
_warned: set[Path] = set()


def default_data_dir() -> Path:
    """Where forumbot keeps its SQLite file: ``$XDG_DATA_HOME/forumbot`` (or ~/.local/share)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "forumbot"


def database_url(explicit: str | None = None) -> str:
    """The database URL: an explicit one, else ``$FORUMBOT_DATABASE_URL``, else a SQLite file.

    Args:
        explicit: a URL given on the command line or in the game file.

    Returns:
        A SQLAlchemy URL such as ``sqlite:////home/gm/.local/share/forumbot/forumbot.sqlite3``
        or ``postgresql+psycopg://forumbot@localhost/forumbot``.
    """
    url = explicit or os.environ.get(DATABASE_ENV)
    if url:
        return url
    return f"sqlite:///{default_data_dir() / 'forumbot.sqlite3'}"


def make_engine(url: str) -> Engine:
    """Create an engine; a SQLite file's folder is created and foreign keys are enforced.

    Raises:
        ConfigError: the URL cannot be understood or its driver is not installed.
    """
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise ConfigError("database", f"not a database URL: {exc}") from None
    if parsed.get_backend_name() == "sqlite":
        _prepare_sqlite(parsed)
    try:
        engine = sa_create_engine(parsed, future=True, pool_pre_ping=True)
    except ModuleNotFoundError as exc:
        hint = "pip install 'forumbot[postgres]'" if "psycopg" in str(exc) else str(exc)
        raise ConfigError(
            "database", f"driver not installed for {parsed.drivername}: {hint}"
        ) from None
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _prepare_sqlite(parsed: URL) -> None:
    """Create (or check) the SQLite file of ``parsed``, a plain path or a ``file:`` URI."""
    database = parsed.database or ""
    if database in ("", ":memory:"):
        return
    if str(parsed.query.get("uri", "")).lower() in ("true", "1"):
        uri = urlsplit(database)
        options = dict(parse_qsl(uri.query))
        if not uri.path or options.get("mode") in ("ro", "memory"):
            return  # read-only or in memory: nothing to create
        prepare_sqlite_file(Path(unquote(uri.path)).expanduser())
        return
    prepare_sqlite_file(Path(database).expanduser())


def prepare_sqlite_file(path: Path) -> None:
    """Create a missing SQLite file owner-only (0600); warn once if an existing one is not.

    SQLite gives its ``-wal`` and ``-shm`` files the database file's mode, so they are
    owner-only too. The folder is created (owner-only) when missing.

    Raises:
        ConfigError: the folder or the file cannot be created (read-only place, full disk).
    """
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not path.exists():
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    except OSError as exc:
        raise ConfigError("database", f"cannot create {path}: {exc.strerror}") from None
    if os.name == "posix":
        _warn_if_readable(path)


def _warn_if_readable(path: Path) -> None:
    for each in (path, *(path.with_name(path.name + side) for side in SQLITE_SIDE_FILES)):
        try:
            mode = stat.S_IMODE(each.stat().st_mode)
        except OSError:
            continue
        if mode & 0o077 and each not in _warned:
            _warned.add(each)
            log.warning(
                "Warning: the database file %s is readable by other users (mode %o): "
                "run: chmod 600 %s",
                each,
                mode,
                each,
            )


def _sqlite_pragmas(dbapi_connection: object, _record: object) -> None:
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    # WAL: the web page reads while the worker writes; NORMAL syncs at checkpoints, which
    # WAL keeps safe against corruption (a power cut can lose only the last commits).
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    """A session factory; one session per unit of work, opened by the service that needs it."""
    return sessionmaker(engine, expire_on_commit=False)
