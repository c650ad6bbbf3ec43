"""Exactly-once publishing: a crash after sending, a retried request, a forum outage."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from forum_adapters.errors import ForumNotSupported, ForumUnavailable
from forumbot.db.enums import DeliveryState, OutboundKind, ReviewKind
from forumbot.db.models import Outbound, ReviewItem
from forumbot.db.repo import draft_outbound, move_outbound
from forumbot.localforum import LocalForum
from forumbot.services import publish
from tests.runtime.conftest import make_runtime


def _approved(rt, game_id, key, kind=OutboundKind.POST, to=()):
    with rt.sessions.begin() as session:
        row, _ = draft_outbound(session, game_id=game_id, key=key, kind=kind,
                                body=f"[b]{key}[/b] results", recipients=list(to),
                                subject="Night 1")  # fmt: skip
        move_outbound(session, row, DeliveryState.APPROVED, by="gm")
        return row.id


class CrashInjected(BaseException):
    """Stands for a killed process between "sent" and "confirmed" (nothing may catch it)."""


def _crash(stage, row_id):
    raise CrashInjected(stage)


@pytest.mark.parametrize("kind,to", [(OutboundKind.POST, ()), (OutboundKind.PM, ("Ann",))])
def test_crash_between_sent_and_confirmed_never_sends_twice(world, clock, kind, to):
    rt, game_id = world["rt"], world["game_id"]
    row_id = _approved(rt, game_id, "game1:night1:post", kind, to)
    rt.fault = _crash
    with pytest.raises(CrashInjected):
        publish.publish_approved(rt, game_id)
    with rt.sessions() as session:
        assert session.get(Outbound, row_id).state is DeliveryState.SENDING
    # A new process on the same database and forum: it looks before sending again.
    rt2 = make_runtime(world["url"], world["forum_dir"], clock)
    report = publish.publish_approved(rt2, game_id)
    assert report.found == 1 and report.sent == 0
    forum = LocalForum(world["forum_dir"], "ModBot")
    sent = forum.state.posts if kind is OutboundKind.POST else forum.state.sent
    assert len(sent) == 1
    with rt2.sessions() as session:
        row = session.get(Outbound, row_id)
        assert row.state is DeliveryState.SENT and row.forum_message_id
    assert publish.publish_approved(rt2, game_id).sent == 0  # and never again


class _Down:
    """A forum that is down for its first ``n`` writes."""

    def __init__(self, inner, n):
        self.inner, self.n = inner, n

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def reply(self, thread, body, **kwargs):
        if self.n > 0:
            self.n -= 1
            raise ForumUnavailable("http://127.0.0.1:9/", "HTTP 503")
        return self.inner.reply(thread, body, **kwargs)


def test_outage_delays_and_alerts_never_drops(world, clock):
    rt, game_id = world["rt"], world["game_id"]
    down = _Down(LocalForum(world["forum_dir"], "ModBot", clock=clock), 1)
    rt.adapter_factory = lambda access: down
    row_id = _approved(rt, game_id, "game1:night1:post")
    assert publish.publish_approved(rt, game_id).failed == 1
    with rt.sessions() as session:
        assert session.get(Outbound, row_id).state is DeliveryState.FAILED
        alerts = session.scalars(select(ReviewItem).where(ReviewItem.kind == ReviewKind.ALERT))
        assert "could not publish yet" in next(iter(alerts)).reason
        gm_pm = session.scalars(select(Outbound).where(Outbound.recipients != [])).all()
        assert [r.recipients for r in gm_pm] == [["Steph"]]
    report = publish.publish_approved(rt, game_id)  # the forum is back
    assert report.sent == 2  # the post, then the alert PM to the GM
    posts = LocalForum(world["forum_dir"], "ModBot").state.posts
    assert len(posts) == 1 and "results" in posts[0]["body_html"]


class _NoSentBox:
    """A forum adapter that cannot read its sent box."""

    def __init__(self, inner):
        self.inner = inner

    def iter_posts(self, thread, *, after=None):
        return self.inner.iter_posts(thread, after=after)

    def iter_pms(self, *, after=None):
        return self.inner.iter_pms(after=after)

    def reply(self, thread, body, **kwargs):
        return self.inner.reply(thread, body, **kwargs)

    def send_pm(self, to, subject, body, **kwargs):
        return self.inner.send_pm(to, subject, body, **kwargs)

    def find_post(self, thread, body, *, after=None):
        return self.inner.find_post(thread, body, after=after)

    def find_sent_pm(self, to, subject, body, *, since=None):
        raise ForumNotSupported("reading the sent box")


def test_a_pm_that_may_be_sent_waits_for_the_gm(world, clock):
    from forumbot.services import review

    rt, game_id = world["rt"], world["game_id"]
    rt.adapter_factory = lambda access: _NoSentBox(LocalForum(world["forum_dir"], "ModBot"))
    row_id = _approved(rt, game_id, "game1:night1:pm:Ann", OutboundKind.PM, ("Ann",))
    rt.fault = _crash
    with pytest.raises(CrashInjected):
        publish.publish_approved(rt, game_id)
    rt.fault = None
    assert publish.publish_approved(rt, game_id).held == 1  # never resent blind
    assert publish.publish_approved(rt, game_id).held == 1
    with rt.sessions.begin() as session:
        item = session.scalars(select(ReviewItem).where(ReviewItem.kind == ReviewKind.ALERT)).one()
        assert "may already have been sent" in item.reason
        review.reject(session, item.id, gm="Steph", note="it is in my sent box")
    publish.publish_approved(rt, game_id)
    with rt.sessions() as session:
        assert session.get(Outbound, row_id).state is DeliveryState.SENT
    sent = [pm for pm in LocalForum(world["forum_dir"], "ModBot").state.sent if pm["to"] == ["Ann"]]
    assert len(sent) == 1
