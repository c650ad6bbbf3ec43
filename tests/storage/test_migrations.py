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


RUNTIME_BAG = {
    "pm_row": 7,
    "paused_at": "2026-12-02T10:00:00+00:00",
    "outage_since": "2026-12-02T11:30:00+00:00",
    "winner": {"factions": ["town"], "players": ["Ann"]},
    "reread:day1": True,
    "reminded:night1": True,
    "revision:day1": 2,
    "alerts": {"day1:queue": 1},
    "vote_items": {"11:Ann:$Xavier": 12},
    "sending": {"k1": {"after_post": "40", "since": "2026-12-02T09:55:00+00:00"}},
    "held": {"k1": 1},
}


def _database_of_release_0002(url: str) -> None:
    """A game as 0002's code left it: its runtime marks in ``settings["runtime"]``, and two
    votes the GM decided, linked to review items 1 and 12 only by their reasons."""
    import json

    from sqlalchemy import text

    upgrade(url, "0002")
    engine = make_engine(url)
    settings = json.dumps({"game_yaml": "name: g", "receipts": True, "runtime": RUNTIME_BAG})
    statements = [
        "INSERT INTO forums (id, engine, base_url, name, created_at) "
        "VALUES (1, 'smf', 'https://f.example/', 'f', '2026-01-01 00:00:00')",
        "INSERT INTO games (id, name, forum_id, topic_id, topic_url, ruleset, seed, status,"
        " settings, created_at) VALUES (1, 'g', 1, '1', 'u', 'failheap', 1, 'running',"
        f" '{settings}', '2026-01-01 00:00:00')",
        "INSERT INTO players (id, game_id, slot, display_name, aliases, statuses, status) VALUES"
        " (1, 1, 1, 'Ann', '[]', '[]', 'alive'), (2, 1, 2, 'Bob', '[]', '[]', 'alive')",
        "INSERT INTO phases (id, game_id, sequence, name, kind, number, status,"
        " inner_deadlines) VALUES (1, 1, 1, 'night1', 'night', 1, 'published', '{}'),"
        " (2, 1, 2, 'day1', 'day', 1, 'open', '{}')",
        "INSERT INTO review_items (id, game_id, phase_id, kind, reason, candidates, state,"
        " note, created_at) VALUES (1, 1, 2, 'alert', 'waits', '[]', 'open', '',"
        " '2026-01-01 00:00:00'), (12, 1, 2, 'vote', 'Xavier?', '[]', 'edited', '',"
        " '2026-01-01 00:00:00')",
        "INSERT INTO outbound (id, game_id, kind, idempotency_key, recipients, subject, body,"
        " state, attempts, created_at) VALUES (1, 1, 'pm', 'k1', '[]', '', 'Night 1 result',"
        " 'sending', 1, '2026-01-01 00:00:00')",
        "INSERT INTO vote_events (id, game_id, phase_id, voter_id, target_id, kind, cast_at,"
        " counted, reason) VALUES"
        " (1, 1, 2, 2, 1, 'vote', '2026-01-01 00:00:00', true, 'gm:Steph decided review item 12'),"
        " (2, 1, 2, 1, 2, 'vote', '2026-01-01 00:00:00', true, 'gm:Steph decided review item 1')",
    ]
    with engine.begin() as connection:
        for statement in statements:
            connection.execute(text(statement))
    engine.dispose()


def test_upgrading_0002_moves_the_runtime_marks_into_columns(empty_db_url: str) -> None:
    """0003 upgrades a database in place: every mark of the JSON bag lands in its column, the
    bag is gone, and each decided vote points at its own review item (1 is not 12)."""
    from datetime import UTC, datetime

    from sqlalchemy import select

    from forumbot.db import make_session_factory
    from forumbot.db.models import Game, Outbound, Phase, ReviewItem, VoteEvent

    _database_of_release_0002(empty_db_url)
    upgrade(empty_db_url)
    engine = make_engine(empty_db_url)
    with make_session_factory(engine)() as session:
        game = session.get_one(Game, 1)
        assert "runtime" not in game.settings and game.settings["game_yaml"] == "name: g"
        assert (game.pm_row, game.paused_at, game.outage_since, game.winner) == (
            7,
            datetime(2026, 12, 2, 10, 0, tzinfo=UTC),
            datetime(2026, 12, 2, 11, 30, tzinfo=UTC),
            {"factions": ["town"], "players": ["Ann"]},
        )
        marks = {p.name: (p.reread, p.reminded, p.revision) for p in session.scalars(select(Phase))}
        assert marks == {"night1": (False, True, 0), "day1": (True, False, 2)}
        keys = {i.id: i.problem_key for i in session.scalars(select(ReviewItem))}
        assert keys == {1: "day1:queue", 12: "11:Ann:$Xavier"}
        row = session.get_one(Outbound, 1)
        assert (row.look_after_post, row.look_since, row.held_item_id) == (
            "40",
            datetime(2026, 12, 2, 9, 55, tzinfo=UTC),
            1,
        )
        links = {v.id: v.review_item_id for v in session.scalars(select(VoteEvent))}
        assert links == {1: 12, 2: 1}  # every row kept, each vote on its own item
    engine.dispose()


def test_downgrading_0003_puts_the_marks_back_in_the_bag(empty_db_url: str) -> None:
    """What 0002's code reads is there again after a downgrade (a GM can go back a release)."""
    from sqlalchemy import text

    _database_of_release_0002(empty_db_url)
    upgrade(empty_db_url)
    downgrade(empty_db_url, "0002")
    engine = make_engine(empty_db_url)
    with engine.connect() as connection:
        settings = connection.execute(text("SELECT settings FROM games")).scalar_one()
        kept = [connection.execute(text(f"SELECT count(*) FROM {t}")).scalar_one()
                for t in ("review_items", "vote_events", "outbound")]  # fmt: skip
    engine.dispose()
    assert kept == [2, 2, 1]  # nothing lost on the way down
    if isinstance(settings, str):  # SQLite returns the JSON text
        import json

        settings = json.loads(settings)
    assert settings["runtime"] == RUNTIME_BAG
