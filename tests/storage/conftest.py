"""Databases for storage tests: a SQLite file, and a fresh database on a real PostgreSQL server.

PostgreSQL tests run when ``FORUMBOT_TEST_POSTGRES_URL`` names a server (``.ci/run`` starts
one on loopback); each test gets its own database, dropped afterwards.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

PG_ENV = "FORUMBOT_TEST_POSTGRES_URL"


def _postgres_database(template: str = "") -> Iterator[str]:
    """A fresh database on the test server (dropped afterwards): empty, or a copy of the
    database at the URL ``template`` (PostgreSQL's own ``CREATE DATABASE ... TEMPLATE``)."""
    admin_url = os.environ.get(PG_ENV)
    if not admin_url:
        pytest.skip(f"{PG_ENV} is not set: no PostgreSQL server for this run")
    name = f"forumbot_test_{uuid.uuid4().hex[:12]}"
    copy = f' TEMPLATE "{make_url(template).database}"' if template else ""
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"{copy}'))
    try:
        yield make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty database, once on SQLite and once on PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'forumbot.sqlite3'}"
    else:
        yield from _postgres_database()
