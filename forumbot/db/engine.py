"""Database engines and sessions: one place that knows the URL rules."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import Engine, event
from sqlalchemy import create_engine as sa_create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import Session, sessionmaker

from forumbot.errors import ConfigError

DATABASE_ENV = "FORUMBOT_DATABASE_URL"


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
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
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
