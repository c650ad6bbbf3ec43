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


def test_upgrading_an_older_database_keeps_its_rows(empty_db_url: str) -> None:
    """A GM's database made by the first release upgrades in place, drafts intact."""
    from sqlalchemy import text

    upgrade(empty_db_url, "0001")
    engine = make_engine(empty_db_url)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO forums (engine, base_url, name, created_at) "
                "VALUES ('smf', 'https://f.example/', 'f', '2026-01-01 00:00:00')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO games (name, forum_id, topic_id, topic_url, ruleset, seed, status,"
                " settings, created_at) VALUES ('g', 1, '1', 'u', 'failheap', 1, 'running',"
                " '{}', '2026-01-01 00:00:00')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO outbound (game_id, kind, idempotency_key, recipients, subject, body,"
                " state, attempts, created_at) VALUES (1, 'pm', 'k', '[]', '', 'Night 1 result',"
                " 'draft', 0, '2026-01-01 00:00:00')"
            )
        )
    upgrade(empty_db_url)
    with engine.connect() as connection:
        row = connection.execute(text("SELECT body, edited_by FROM outbound")).one()
    engine.dispose()
    assert tuple(row) == ("Night 1 result", None)
