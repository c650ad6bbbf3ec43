"""Fixtures for the GM page: the game built through the runtime (``tests/web/seed.py``) once
per session, a copy of its SQLite file per test, and the Flask app.

A test sees night 2 open (``seeded``); one marked ``@pytest.mark.drafted`` sees the same game
after night 2 resolved, its drafts waiting for the GM.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.orm import Session, sessionmaker

from forumbot.db import make_engine, make_session_factory
from forumbot.web import create_app
from tests.web.seed import NOW, Built, Seeded, build

TOKEN = "test-token-0123456789"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "drafted: the web game after night 2 resolved (drafts)")


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The game played through the runtime, once per session."""
    return build(tmp_path_factory.mktemp("web-game"))


def copy_of(built: Built, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A private copy of the built game's file (night 2 open, or drafted): its URL."""
    source = built.drafted if request.node.get_closest_marker("drafted") else built.night
    target = tmp_path / "web.sqlite3"
    shutil.copyfile(source, target)
    target.chmod(0o600)
    return f"sqlite:///{target}"


@pytest.fixture
def db_url(built: Built, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return copy_of(built, request, tmp_path)


@pytest.fixture
def factory(db_url: str) -> Iterator[sessionmaker[Session]]:
    engine = make_engine(db_url)
    yield make_session_factory(engine)
    engine.dispose()


@pytest.fixture
def seeded(built: Built, factory: sessionmaker[Session]) -> Seeded:
    return built.ids


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
