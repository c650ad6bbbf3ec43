"""Fixtures for the GM page: a migrated SQLite file with a seeded game, and the Flask app."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.orm import Session, sessionmaker

from forumbot.db import make_engine, make_session_factory, upgrade
from forumbot.web import create_app
from tests.web.seed import NOW, Seeded, seed_game

TOKEN = "test-token-0123456789"


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    upgrade(url)
    return url


@pytest.fixture
def factory(db_url: str) -> Iterator[sessionmaker[Session]]:
    engine = make_engine(db_url)
    yield make_session_factory(engine)
    engine.dispose()


@pytest.fixture
def seeded(factory: sessionmaker[Session]) -> Seeded:
    with factory() as session:
        ids = seed_game(session)
        session.commit()
    return ids


@pytest.fixture
def session(factory: sessionmaker[Session], seeded: Seeded) -> Iterator[Session]:
    with factory() as session:
        yield session


@pytest.fixture
def app(factory: sessionmaker[Session], seeded: Seeded) -> Flask:
    app = create_app(factory, token=TOKEN, now=lambda: NOW)
    app.config["TESTING"] = True
    return app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def csrf_of(client: FlaskClient) -> str:
    """The session's CSRF token (the login page creates one)."""
    with client.session_transaction() as sess:
        if "csrf" not in sess:
            client.get("/login")
    with client.session_transaction() as sess:
        return str(sess["csrf"])


@pytest.fixture
def gm(client: FlaskClient) -> FlaskClient:
    """A client logged in as GM Steph."""
    client.get("/login")
    response = client.post(
        "/login", data={"token": TOKEN, "name": "Steph", "csrf_token": csrf_of(client)}
    )
    assert response.status_code == 302, response.data
    return client
