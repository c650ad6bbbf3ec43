"""``forumbot db ...``: the database (create or upgrade its schema)."""

from __future__ import annotations

import click
from sqlalchemy.engine import make_url

from forumbot.commands._common import clean_errors
from forumbot.db import current_revision, database_url, make_engine, upgrade


@click.group(name="db")
def db() -> None:
    """The database: SQLite file by default, PostgreSQL with --url or FORUMBOT_DATABASE_URL."""


@db.command(name="upgrade")
@click.option(
    "--url", default=None, help="Database URL (default: $FORUMBOT_DATABASE_URL, else SQLite)."
)
@clean_errors
def upgrade_command(url: str | None) -> None:
    """Create the schema, or bring it to the newest version. Safe to run again."""
    target = database_url(url)
    upgrade(target)
    engine = make_engine(target)
    click.echo(f"database at revision {current_revision(engine)}: {_safe(target)}")
    engine.dispose()


def _safe(url: str) -> str:
    """The URL with any password hidden."""
    return make_url(url).render_as_string(hide_password=True)


COMMANDS: tuple[click.Command, ...] = (db,)
