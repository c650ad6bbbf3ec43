"""A reply the forum holds for a moderator's approval, on pages recorded from the live boards
(SMF 2.1.4 and 2.0.19 with the bot's warning level past "moderate", phpBB 3.3.10 with the
bot denied ``f_noapprove``): the adapters raise ``PendingApproval`` (posted: never send it
again), and the publisher marks it sent and alerts the GM once."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest
import requests
from sqlalchemy import select

from forum_adapters import PhpBBAdapter, SMFAdapter, ThreadRef
from forum_adapters.base import PostId, PostRef
from forum_adapters.errors import PendingApproval
from forum_adapters.markup import parse_html
from forum_adapters.phpbb import parse as phpbb_parse
from forum_adapters.smf import parse as smf_parse
from forumbot.clock import FakeClock
from forumbot.db.enums import DeliveryState, OutboundKind, ReviewKind, ReviewState
from forumbot.db.models import Outbound, ReviewItem
from forumbot.db.repo import draft_outbound, move_outbound
from forumbot.localforum import LocalForum
from forumbot.services import publish
from tests.adapters.conftest import PHPBB, SMF20, SMF21, Capture, Replay, edited, page
from tests.adapters.test_phpbb_flow import route_login
from tests.runtime.conftest import START, _world

BODY = "[b]Vote count (unofficial, ModBot)[/b]\nKleene (2): Conia, Маша"
THREAD = ThreadRef(2)
NOTICE = {"smf21": "This message is awaiting approval by a moderator.",
          "smf20": "Note: This message is awaiting approval by a moderator."}  # fmt: skip


def _smf(folder: str, http: Any) -> SMFAdapter:
    base = SMF21 if folder == "smf21" else SMF20
    return SMFAdapter(base, "ModBot", "not-the-real-password", http=http)


@pytest.fixture(params=["smf21", "smf20"])
def smf(request: pytest.FixtureRequest) -> Replay:
    """Each SMF version's recorded pages in turn."""
    replay: Replay = request.getfixturevalue(request.param)
    return replay


def test_smf_topic_marks_the_authors_held_post(smf: Replay) -> None:
    root = parse_html(page(smf.folder, "held_reply_post_response__hop1"))
    base = SMF21 if smf.folder == "smf21" else SMF20
    topic = smf_parse.parse_topic_page(root, f"{base}?topic=2.new", now=START, tz=UTC,
                                       base_url=base)  # fmt: skip
    held = {post.post_id: post.awaiting_approval for post in topic.posts}
    assert held == {2: False, 3: False, 4: True}  # ModBot's msg 4 waits (approved=0 on the board)
    assert smf_parse.approval_notice(root, 4) == NOTICE[smf.folder]
    assert smf_parse.approval_notice(root, 3) == ""


def test_smf_reply_held_for_approval_is_pending_not_sent(smf: Replay, http: Any) -> None:
    smf.on("GET", r"action=post;topic=2\.0", "held_reply_form")
    smf.on("POST", r"action=post2", "held_reply_post_response")
    smf.on("GET", r"topic=2\.new$", "held_reply_post_response__hop1")
    with pytest.raises(PendingApproval, match="do not send it again") as held:
        _smf(smf.folder, http).reply(THREAD, BODY)
    assert held.value.post_id == 4 and NOTICE[smf.folder] in held.value.message
    assert len(smf.posts()) == 1


def test_smf_form_that_said_approval_and_a_topic_without_the_post_is_pending(
    smf21: Replay, http: Any
) -> None:
    # The reply form said "not_approved"; the topic after the redirect does not show the post
    # (a theme that hides held posts from their author): the recorded topic page with the
    # held msg 4's body no longer marked as a post (the capture run's theme shows it).
    shown = edited("smf21", "held_reply_post_response__hop1", 'id="msg_4"', 'id="gone_4"')
    notice = b'<div class="noticebox">'
    hidden = Capture(shown.status, shown.headers, shown.body.replace(notice, b"<div>", 1))
    smf21.on("GET", r"action=post;topic=2\.0", "held_reply_form")
    smf21.on("POST", r"action=post2", "held_reply_post_response")
    smf21.on("GET", r"topic=2\.(new|msg3)$", hidden)
    with pytest.raises(PendingApproval, match="reply form said") as held:
        _smf("smf21", http).reply(THREAD, BODY)
    assert held.value.post_id is None
    assert len(smf21.posts()) == 1


def test_smf_reply_form_says_when_posts_need_approval(smf: Replay) -> None:
    base = SMF21 if smf.folder == "smf21" else SMF20
    held = smf_parse.post_form(parse_html(page(smf.folder, "held_reply_form")), base)
    usual = smf_parse.post_form(parse_html(page(smf.folder, "reply_form")), base)
    assert held is not None and usual is not None
    assert smf_parse.form_needs_approval(held) and not smf_parse.form_needs_approval(usual)


def test_smf_held_reply_found_after_a_lost_answer_is_pending(smf21: Replay, http: Any) -> None:
    smf21.on("GET", r"action=post;topic=2\.0", "held_reply_form")
    smf21.on("POST", r"action=post2", requests.ConnectionError("reset by peer"))
    smf21.on("GET", r"topic=2\.msg3$", "held_reply_post_response__hop1")
    with pytest.raises(PendingApproval) as held:
        _smf("smf21", http).reply(THREAD, BODY, last_seen=PostId(3))
    assert held.value.post_id == 4
    assert len(smf21.posts()) == 1  # found held: not posted a second time


def test_phpbb_topic_marks_the_authors_held_post() -> None:
    root = parse_html(page("phpbb33", "held_topic_page"))
    topic = phpbb_parse.parse_topic_page(root, f"{PHPBB}viewtopic.php?t=2", now=START,
                                         tz=UTC, base_url=PHPBB)  # fmt: skip
    assert {p.post_id: p.awaiting_approval for p in topic.posts} == {2: False, 3: True}


def test_phpbb_reply_held_for_approval_on_the_real_page(phpbb: Replay, http: Any) -> None:
    phpbb.on("GET", r"posting\.php\?mode=reply&t=2$", "reply_form")
    phpbb.on("POST", r"posting\.php\?mode=reply&t=2$", "held_reply_post_response")
    bot = PhpBBAdapter(PHPBB, "ModBot", "not-the-real-password", http=http)
    with pytest.raises(PendingApproval, match="do not send it again"):
        bot.reply(THREAD, BODY)
    assert len(phpbb.posts()) == 1


def test_phpbb_held_reply_found_after_a_lost_answer_is_pending(phpbb: Replay, http: Any) -> None:
    # The recorded game's reply form, its newest post set to the held topic's (post 2).
    form = edited("phpbb33", "reply_form", 'name="topic_cur_post_id" value="62"',
                  'name="topic_cur_post_id" value="2"')  # fmt: skip
    phpbb.on("GET", r"posting\.php\?mode=reply&t=2$", form)
    phpbb.on("POST", r"posting\.php\?mode=reply&t=2$", requests.ConnectionError("reset"))
    phpbb.on("GET", r"viewtopic\.php\?t=2", "held_topic_page")
    phpbb.on("GET", r"viewtopic\.php\?p=\d+", "held_topic_page")
    bot = PhpBBAdapter(PHPBB, "ModBot", "not-the-real-password", http=http)
    with pytest.raises(PendingApproval) as held:
        bot.reply(THREAD, BODY, last_seen=PostId(2))
    assert held.value.post_id == 3
    assert len(phpbb.posts()) == 1


def test_phpbb_finds_a_held_post_past_a_full_page_newest_first(phpbb: Replay, http: Any) -> None:
    # Ten approved posts fill page 1; ModBot's held p12 is on no page (phpBB pages by the
    # approved posts), but first when the topic is read newest first.
    route_login(phpbb)
    phpbb.on("GET", r"viewtopic\.php\?p=11$", "held_full_page_by_post")
    phpbb.on("GET", r"viewtopic\.php\?t=2&sk=t&sd=d$", "held_full_page_newest_first")
    bot = PhpBBAdapter(PHPBB, "ModBot", "not-the-real-password", http=http)
    found = bot.find_post(THREAD, BODY, after=PostId(11))
    assert found is not None and (found.post_id, found.awaiting_approval) == (12, True)
    assert not bot.find_post(THREAD, "a post never made", after=PostId(11))


# -- the publisher ------------------------------------------------------------------------


class _Moderated:
    """The local forum with the bot's account moderated: a reply is stored, then the forum
    answers as SMF and phpBB do for a held post (``PendingApproval`` naming its id)."""

    def __init__(self, inner: LocalForum) -> None:
        self.inner = inner
        self.replies = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def reply(self, thread: ThreadRef, body: str, **kwargs: Any) -> PostRef:
        ref: PostRef = self.inner.reply(thread, body, **kwargs)
        self.replies += 1
        raise PendingApproval(f"reply to topic {thread.topic_id}", NOTICE["smf21"], ref.post_id)


@pytest.fixture
def world(tmp_path: Path) -> Iterator[dict[str, Any]]:
    yield from _world(tmp_path, FakeClock(START), "approve")


def _approved_post(rt: Any, game_id: int, key: str) -> int:
    with rt.sessions.begin() as session:
        row, _ = draft_outbound(session, game_id=game_id, key=key, kind=OutboundKind.POST,
                                body=f"{key} text", recipients=[], subject="")  # fmt: skip
        move_outbound(session, row, DeliveryState.APPROVED, by="gm")
        return int(row.id)


def test_publisher_marks_a_held_post_sent_alerts_once_and_never_resends(
    world: dict[str, Any],
) -> None:
    rt, game_id = world["rt"], world["game_id"]
    forum = _Moderated(LocalForum(world["forum_dir"], "ModBot"))
    rt.adapter_factory = lambda access: forum
    first = _approved_post(rt, game_id, "game1:day1:votecount")
    second = _approved_post(rt, game_id, "game1:day1:post")
    assert publish.publish_approved(rt, game_id).failed == 0  # both delivered, held
    publish.publish_approved(rt, game_id)  # the next run sends nothing again
    assert forum.replies == 2
    with rt.sessions() as session:
        rows = {r.id: r for r in session.scalars(select(Outbound))}
        for row_id in (first, second):
            assert rows[row_id].state is DeliveryState.SENT and rows[row_id].attempts == 1
            assert rows[row_id].forum_message_id and rows[row_id].last_error == publish.HELD_NOTE
        alerts = session.scalars(select(ReviewItem).where(ReviewItem.kind == ReviewKind.ALERT,
                                 ReviewItem.state == ReviewState.OPEN)).all()  # fmt: skip
        assert len(alerts) == 1 and "moderator's approval" in alerts[0].reason
        assert alerts[0].problem_key == publish.APPROVAL_KEY


class _Crash(BaseException):
    """A killed process right after the POST (nothing may catch it)."""


def _crash(stage: str, row_id: int) -> None:
    raise _Crash(stage)


class _ShowsHeld:
    """The local forum whose topic shows the bot's posts marked held, as SMF and phpBB show
    a held post to its author (``PostRef.awaiting_approval`` from ``find_post``)."""

    def __init__(self, inner: LocalForum) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def find_post(self, thread: ThreadRef, body: str, **kwargs: Any) -> PostRef | None:
        ref: PostRef | None = self.inner.find_post(thread, body, **kwargs)
        return None if ref is None else replace(ref, awaiting_approval=True)


def test_a_held_post_found_after_a_crash_is_sent_not_resent_and_alerted(
    world: dict[str, Any],
) -> None:
    rt, game_id = world["rt"], world["game_id"]
    forum = LocalForum(world["forum_dir"], "ModBot")
    rt.adapter_factory = lambda access: _ShowsHeld(forum)
    row_id = _approved_post(rt, game_id, "game1:day1:post")
    rt.fault = _crash
    with pytest.raises(_Crash):
        publish.publish_approved(rt, game_id)
    rt.fault = None
    assert publish.publish_approved(rt, game_id).found == 1  # looked for first: there, held
    publish.publish_approved(rt, game_id)
    assert len(LocalForum(world["forum_dir"], "ModBot").state.posts) == 1
    with rt.sessions() as session:
        row = session.get_one(Outbound, row_id)
        assert row.state is DeliveryState.SENT and row.last_error == publish.HELD_NOTE
        keys = [i.problem_key for i in session.scalars(select(ReviewItem))]
        assert keys == [publish.APPROVAL_KEY]
