"""The job wrapper: a failing game alerts the GM and never stops the worker."""

from __future__ import annotations

from sqlalchemy import select

from forum_adapters.errors import LayoutChanged, LoginFailed
from forumbot import jobs
from forumbot.db.enums import GameStatus, ReviewKind
from forumbot.db.models import Game, Outbound, ReviewItem
from forumbot.services import leases
from resolver.errors import InvariantViolation


def _alerts(rt):
    with rt.sessions() as session:
        return [i.reason for i in session.scalars(
            select(ReviewItem).where(ReviewItem.kind == ReviewKind.ALERT))]  # fmt: skip


def _raise(exc):
    def work():
        raise exc

    return work


def test_forum_refusals_and_layout_changes_alert_the_gm(world, clock, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    rt, game_id = world["rt"], world["game_id"]
    leases.acquire(rt.sessions, rt.worker, clock.now(), rt.lease_period)
    jobs.run_guarded(rt, game_id, _raise(LoginFailed("ModBot", "Password incorrect")))
    jobs.run_guarded(rt, game_id, _raise(LayoutChanged("http://x/", "div.inner", "<html/>")))
    jobs.run_guarded(rt, game_id, _raise(LoginFailed("ModBot", "Password incorrect")))
    reasons = _alerts(rt)
    assert len(reasons) == 2  # one open alert per problem
    assert "Password incorrect" in reasons[0] and "page saved to" in reasons[1]
    assert list((tmp_path / "data" / "forumbot" / "quarantine").glob("*.html"))
    with rt.sessions() as session:
        to_gm = session.scalars(select(Outbound).where(Outbound.recipients == ["Steph"])).all()
        assert len(to_gm) == 2


def test_a_resolver_error_parks_the_game(world, clock):
    rt, game_id = world["rt"], world["game_id"]
    leases.acquire(rt.sessions, rt.worker, clock.now(), rt.lease_period)
    jobs.run_guarded(rt, game_id, _raise(InvariantViolation("state is inconsistent")))
    with rt.sessions() as session:
        assert session.get(Game, game_id).status is GameStatus.PAUSED
    assert "the game is paused" in _alerts(rt)[0]


def test_a_job_without_the_lease_does_nothing(world, clock):
    rt, game_id = world["rt"], world["game_id"]
    ran = []
    jobs.run_guarded(rt, game_id, lambda: ran.append(1))  # no lease taken
    assert ran == []


def test_an_auto_engine_is_detected_and_a_missing_password_alerts(tmp_path, clock, monkeypatch):
    from forumbot.db import upgrade
    from forumbot.db.models import Forum
    from forumbot.runtime.app import make_adapter
    from forumbot.services import cycle, games
    from tests.runtime.conftest import GAME, make_runtime

    monkeypatch.delenv("UNUSED", raising=False)
    url = f"sqlite:///{tmp_path / 'fb.sqlite3'}"
    upgrade(url)
    path = tmp_path / "game.yaml"
    path.write_text(GAME.replace("MODE", "auto").replace("engine: file", "engine: auto"))
    rt = make_runtime(url, tmp_path / "forum", clock)
    rt.adapter_factory = make_adapter  # the real one: reads the password, finds none
    game_id = games.register(rt, path)
    games.start(rt, game_id)
    with rt.sessions() as session:
        assert session.get(Game, game_id).forum.engine == "smf"
        assert session.scalars(select(Forum)).one().base_url == "http://127.0.0.1:9/index.php"
    leases.acquire(rt.sessions, rt.worker, clock.now(), rt.lease_period)
    jobs.run_guarded(rt, game_id, lambda: cycle(rt, game_id))
    assert "UNUSED is not set" in _alerts(rt)[0]


def test_a_long_outage_alerts_once(world, clock):
    from datetime import timedelta

    from forum_adapters.errors import ForumUnavailable

    rt, game_id = world["rt"], world["game_id"]
    down = _raise(ForumUnavailable("http://127.0.0.1:9/", "HTTP 503"))
    for _ in range(20):  # ten minutes of failing polls: no alert yet
        leases.acquire(rt.sessions, rt.worker, clock.now(), rt.lease_period)
        jobs.run_guarded(rt, game_id, down)
        clock.advance(timedelta(seconds=30))
    assert _alerts(rt) == []
    for _ in range(50):
        leases.acquire(rt.sessions, rt.worker, clock.now(), rt.lease_period)
        jobs.run_guarded(rt, game_id, down)
        clock.advance(timedelta(seconds=30))
    assert len(_alerts(rt)) == 1 and "has not answered since" in _alerts(rt)[0]
