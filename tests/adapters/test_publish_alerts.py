"""The publisher and the GM's alerts with a forum's limits (issue 16 items 1, 3 and 6), on
the local forum with the real runtime and database: a PM limit pauses PMs and sends the most
urgent first, a send that failed before its POST is retried, alerts are one per problem, name
their queue item, and are never sent once the GM dealt with them."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from forum_adapters.errors import ForumUnavailable, PMLimitReached
from forumbot.clock import FakeClock
from forumbot.db.enums import DeliveryState, OutboundKind, ReviewKind
from forumbot.db.models import Game, Outbound, ReviewItem
from forumbot.db.repo import draft_outbound, move_outbound
from forumbot.localforum import LocalForum
from forumbot.services import alerts, publish, review
from tests.runtime.conftest import GAME, START, _world


@pytest.fixture
def world(tmp_path: Path) -> Iterator[dict[str, Any]]:
    yield from _world(tmp_path, FakeClock(START), "approve")


class _Limited:
    """The local forum behind a PM cap: ``room`` more PMs, then ``PMLimitReached``."""

    def __init__(self, inner: LocalForum, room: int) -> None:
        self.inner, self.room = inner, room

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def send_pm(self, to: Any, subject: str, body: str, **kwargs: Any) -> Any:
        if self.room <= 0:
            raise PMLimitReached("send a PM", "You have exceeded the limit of 2 personal "
                                 "messages per hour.", 2, "give the bot send_mail")  # fmt: skip
        self.room -= 1
        return self.inner.send_pm(to, subject, body, **kwargs)


def _approve(rt: Any, game_id: int, key: str, kind: OutboundKind, to: tuple[str, ...]) -> int:
    with rt.sessions.begin() as session:
        row, _ = draft_outbound(session, game_id=game_id, key=key, kind=kind, body=f"{key} text",
                                recipients=list(to), subject=key)  # fmt: skip
        move_outbound(session, row, DeliveryState.APPROVED, by="gm")
        return int(row.id)


def test_a_pm_limit_sends_results_first_and_pauses_the_rest(world: dict[str, Any]) -> None:
    rt, game_id = world["rt"], world["game_id"]
    forum = _Limited(LocalForum(world["forum_dir"], "ModBot"), room=1)
    rt.adapter_factory = lambda access: forum
    receipt = _approve(rt, game_id, "game1:receipt:pm7", OutboundKind.PM, ("Ann",))
    result = _approve(rt, game_id, "game1:night1:pm:Bob", OutboundKind.PM, ("Bob",))
    post = _approve(rt, game_id, "game1:night1:post", OutboundKind.POST, ())
    report = publish.publish_approved(rt, game_id)
    assert report.sent == 2 and report.failed == 0  # the post and the result went out
    with rt.sessions() as session:
        state = {r.id: r.state for r in session.scalars(select(Outbound))}
        assert state[post] is state[result] is DeliveryState.SENT
        assert state[receipt] is DeliveryState.FAILED  # waits for the hour, nothing lost
        reasons = [i.reason for i in session.scalars(select(ReviewItem))]
        assert len(reasons) == 1 and "give the bot send_mail" in reasons[0]
    assert publish.publish_approved(rt, game_id).held >= 1  # still paused: not even tried
    assert [pm["to"] for pm in forum.inner.sent_bodies()] == [["Bob"]]


def test_a_send_that_failed_before_its_post_is_simply_retried(world: dict[str, Any]) -> None:
    rt, game_id = world["rt"], world["game_id"]
    inner = LocalForum(world["forum_dir"], "ModBot")

    class Down:
        def __getattr__(self, name: str) -> Any:
            return getattr(inner, name)

        def send_pm(self, *args: Any, **kwargs: Any) -> Any:
            raise ForumUnavailable("http://127.0.0.1:9/", "connection refused")  # before POST

    rt.adapter_factory = lambda access: Down()
    row = _approve(rt, game_id, "game1:night1:pm:Ann", OutboundKind.PM, ("Ann",))
    assert publish.publish_approved(rt, game_id).failed == 1
    rt.adapter_factory = lambda access: inner
    rt._adapters.clear()
    assert publish.publish_approved(rt, game_id).sent >= 1  # no "may already be sent" hold
    with rt.sessions() as session:
        assert session.get_one(Outbound, row).state is DeliveryState.SENT
        held = [i for i in session.scalars(select(ReviewItem)) if "may already" in i.reason]
        assert held == []


def test_alerts_are_one_per_problem_named_and_never_sent_once_decided(
    world: dict[str, Any],
) -> None:
    rt, game_id = world["rt"], world["game_id"]
    with rt.sessions.begin() as session:
        game = session.get_one(Game, game_id)
        first = alerts.raise_alert(session, game, "publish:outage", "the forum is down")
        again = alerts.raise_alert(session, game, "publish:ForumUnavailable", "the forum is down")
        assert again == first  # identical alerts are one
        pms = session.scalars(select(Outbound).where(Outbound.recipients == ["Steph"])).all()
        assert len(pms) == 1 and f"queue item #{first}" in pms[0].body
    with rt.sessions.begin() as session:
        item = session.get_one(ReviewItem, first)
        assert item.kind is ReviewKind.ALERT
        review.reject(session, first, gm="Steph", note="seen it, the forum is back")
    rt.adapter_factory = lambda access: LocalForum(world["forum_dir"], "ModBot")
    publish.publish_approved(rt, game_id)
    assert LocalForum(world["forum_dir"], "ModBot").sent_bodies() == []  # never sent


@pytest.fixture
def capped(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A game whose forum takes 2 PMs an hour from the bot (``forum.pms_per_hour: 2``)."""
    with pytest.MonkeyPatch.context() as patch:
        capped_game = GAME.replace("engine: file}", "engine: file, pms_per_hour: 2}")
        patch.setattr("tests.runtime.conftest.GAME", capped_game)
        yield from _world(tmp_path, FakeClock(START), "approve")


def test_the_hours_pm_cap_is_tracked_ahead_results_first(capped: dict[str, Any]) -> None:
    rt, game_id = capped["rt"], capped["game_id"]
    forum = _Limited(LocalForum(capped["forum_dir"], "ModBot"), room=2)  # as the board would
    rt.adapter_factory = lambda access: forum
    receipt = _approve(rt, game_id, "game1:receipt:pm7", OutboundKind.PM, ("Ann",))
    results = [_approve(rt, game_id, f"game1:night1:pm:{name}", OutboundKind.PM, (name,))
               for name in ("Bob", "Carl")]  # fmt: skip
    post = _approve(rt, game_id, "game1:night1:post", OutboundKind.POST, ())
    report = publish.publish_approved(rt, game_id)
    assert report.sent == 3 and report.held >= 1 and report.failed == 0
    with rt.sessions() as session:
        state = {r.id: r.state for r in session.scalars(select(Outbound))}
        assert state[post] is state[results[0]] is state[results[1]] is DeliveryState.SENT
        assert state[receipt] is DeliveryState.APPROVED  # held back, never tried
        keys = [i.problem_key for i in session.scalars(select(ReviewItem))]
        assert keys == [publish.PM_BUDGET_KEY]  # the board never had to refuse
        reason = session.scalars(select(ReviewItem)).one().reason
        assert "forum.pms_per_hour" in reason and "results first" in reason
    assert [pm["to"] for pm in forum.inner.sent_bodies()] == [["Bob"], ["Carl"]]
    rt.clock.advance(timedelta(minutes=61))  # the hour's window moved on
    forum.room = 2
    publish.publish_approved(rt, game_id)
    sent = [pm["to"] for pm in forum.inner.sent_bodies()]
    assert sent == [["Bob"], ["Carl"], ["Steph"], ["Ann"]]  # the GM's alert, then the receipt
