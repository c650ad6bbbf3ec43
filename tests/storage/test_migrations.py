"""The schema is created by Alembic from an empty database, on SQLite and on PostgreSQL."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from forumbot.db import current_revision, make_engine, upgrade
from forumbot.db.migrate import alembic_config, downgrade
from forumbot.db.models import ALL_MODELS, Base


def test_upgrade_from_empty_creates_every_table_at_head(empty_db_url: str) -> None:
    engine = make_engine(empty_db_url)
    assert current_revision(engine) is None

    upgrade(empty_db_url)

    head = ScriptDirectory.from_config(alembic_config(empty_db_url)).get_current_head()
    assert current_revision(engine) == head
    tables = set(inspect(engine).get_table_names())
    assert {model.__tablename__ for model in ALL_MODELS} <= tables
    engine.dispose()


def test_migrations_match_the_models(empty_db_url: str) -> None:
    """A model changed without a migration would make a real database differ from the code."""
    upgrade(empty_db_url)
    engine = make_engine(empty_db_url)
    with engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    engine.dispose()
    assert diff == []


def test_upgrade_is_repeatable_and_downgrade_empties(empty_db_url: str) -> None:
    upgrade(empty_db_url)
    upgrade(empty_db_url)  # a second upgrade at head changes nothing
    downgrade(empty_db_url, "base")
    engine = make_engine(empty_db_url)
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    engine.dispose()
