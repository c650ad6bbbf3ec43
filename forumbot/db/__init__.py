"""Storage: SQLite file by default, PostgreSQL by URL; schema managed by Alembic."""

from forumbot.db.engine import database_url, make_engine, make_session_factory
from forumbot.db.migrate import current_revision, upgrade

__all__ = [
    "current_revision",
    "database_url",
    "make_engine",
    "make_session_factory",
    "upgrade",
]
