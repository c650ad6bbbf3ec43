"""phpBB HTTP sequences replayed from recorded pages: login, reading, re-login, posting, PMs."""

from __future__ import annotations

from itertools import islice

import pytest
import requests

from forum_adapters import ForumAdapter, PhpBBAdapter, ThreadRef
from forum_adapters.base import PMId, PostId
from forum_adapters.errors import (
    ActionRefused,
    CaptchaRequired,
    FloodControl,
    LoginFailed,
    NotFound,
    PendingApproval,
    ReplyRefusedNewerPost,
)
from forum_adapters.http import PoliteSession
from tests.adapters.conftest import PHPBB, Capture, FakeClock, Replay, edited

THREAD = ThreadRef(2)
VOTE_COUNT = (
    "[b]Vote count at end of Day 1 (ModBot)[/b]\n"
    "Akonyl (5): Маша, CTU, bob, Mr Fox, Conia\nMr Fox (2): LaRa2000, Akonyl"
)


def adapter(http: PoliteSession) -> PhpBBAdapter:
    return PhpBBAdapter(PHPBB, "ModBot", "not-the-real-password", http=http)


def route_login(replay: Replay) -> None:
    replay.on("GET", r"ucp\.php\?mode=login$", "login_page")
    replay.on("POST", r"ucp\.php\?mode=login&sid=", "login_post_response")
    replay.on("GET", r"index\.php\?sid=", "login_redirect_target_index")


def route_topic(replay: Replay) -> None:
    replay.on("GET", r"viewtopic\.php\?t=2$", "topic_page_1")
    for number in range(2, 8):
        replay.on("GET", rf"viewtopic\.php\?t=2&start={(number - 1) * 10}$", f"topic_page_{number}")


def route_reply(replay: Replay) -> None:
    replay.on("GET", r"posting\.php\?mode=reply&t=2$", "reply_form")
    replay.on("POST", r"posting\.php\?mode=reply&t=2$", "reply_post_response")
    replay.on("GET", r"viewtopic\.php\?p=63$", "reply_post_redirect_target")


def test_adapter_satisfies_the_protocol(http: PoliteSession) -> None:
    assert isinstance(adapter(http), ForumAdapter)


def test_login_waits_for_the_form_and_remembers_the_user(
    phpbb: Replay, http: PoliteSession, clock: FakeClock
) -> None:
    route_login(phpbb)
    bot = adapter(http)
    bot.login()
    ((_, _url, body),) = phpbb.posts()
    assert (
        "username=ModBot" in body and "form_token=8bd6d61cfd8210084abf6b52dceee8a97fcc13e7" in body
    )
    assert "autologin=on" in body and body.count("redirect=") == 2
    assert sum(clock.sleeps) >= 2.1  # never in the same second as the form
    assert bot.user_id == 58


def test_wrong_password(phpbb: Replay, http: PoliteSession) -> None:
    route_login(phpbb)
    phpbb.on("POST", r"ucp\.php\?mode=login", "login_post_wrong_password")
    with pytest.raises(LoginFailed, match="incorrect password"):
        adapter(http).login()


def test_captcha_after_failed_logins(phpbb: Replay, http: PoliteSession) -> None:
    route_login(phpbb)
    # phpBB's answer to a 4th failed login: the wrong-password page plus its CAPTCHA block
    # (the harness kept the bot's account away from that state; see QUIRKS.md).
    captcha = edited(
        "phpbb33",
        "login_post_wrong_password",
        '<div class="error">',
        '<div id="captcha"><input name="confirm_code" /></div><div class="error">',
    )
    phpbb.on("POST", r"ucp\.php\?mode=login", captcha)
    with pytest.raises(CaptchaRequired, match="CAPTCHA"):
        adapter(http).login()


def test_reading_the_whole_thread(phpbb: Replay, http: PoliteSession) -> None:
    route_topic(phpbb)
    posts = list(adapter(http).iter_posts(THREAD))
    assert [p.post_id for p in posts] == list(range(2, 63))
    assert http.request_count == 7


def test_idle_poll_costs_one_request(phpbb: Replay, http: PoliteSession) -> None:
    phpbb.on("GET", r"viewtopic\.php\?p=62$", "topic_page_7")
    assert list(adapter(http).iter_posts(THREAD, after=PostId(62))) == []
    assert http.request_count == 1


def test_incremental_read_from_the_page_of_the_last_post(
    phpbb: Replay, http: PoliteSession
) -> None:
    route_topic(phpbb)
    phpbb.on("GET", r"viewtopic\.php\?p=36$", "topic_by_post_id")
    posts = list(adapter(http).iter_posts(THREAD, after=PostId(36)))
    assert posts[0].post_id == 37 and posts[-1].post_id == 62
    assert http.request_count == 4  # pages 4, 5, 6, 7


def test_session_expiry_mid_run(phpbb: Replay, http: PoliteSession) -> None:
    route_topic(phpbb)
    route_login(phpbb)
    phpbb.on("GET", r"viewtopic\.php\?t=2&start=30$", "guest_topic_page_1", "topic_page_4")
    posts = list(adapter(http).iter_posts(THREAD))
    assert len(posts) == 61 and len(phpbb.posts()) == 1


def test_expired_session_on_the_inbox_logs_in_again(phpbb: Replay, http: PoliteSession) -> None:
    route_login(phpbb)
    phpbb.on("GET", r"folder=inbox$", "session_expired_pm_inbox", "pm_inbox")
    phpbb.on("GET", r"mode=view&f=0&p=9$", "pm_view")  # any PM page will do for the flow
    assert list(adapter(http).iter_pms(after=PMId(8)))
    assert len(phpbb.posts()) == 1


def test_unknown_topic_is_not_found_and_not_retried(phpbb: Replay, http: PoliteSession) -> None:
    phpbb.on("GET", r"viewtopic\.php\?t=99999$", "error_topic_not_found")
    with pytest.raises(NotFound, match="does not exist"):
        list(adapter(http).iter_posts(ThreadRef(99999)))
    assert http.request_count == 1


def test_inbox_reads_only_new_pms_and_keeps_recipients(phpbb: Replay, http: PoliteSession) -> None:
    phpbb.on("GET", r"folder=inbox$", "pm_inbox")
    for pm_id, name in (
        (6, "pm_view_cyrillic"),
        (7, "pm_view_bbcode"),
        (8, "pm_view_two_recipients"),
    ):
        phpbb.on("GET", rf"mode=view&f=0&p={pm_id}$", name)
    pms = list(islice(adapter(http).iter_pms(after=PMId(5)), 3))
    assert [pm.pm_id for pm in pms] == [6, 7, 8]
    assert pms[0].sender.name == "Маша" and pms[0].was_unread is True
    assert [r.name for r in pms[2].recipients] == ["GameMaster", "ModBot"]
    assert http.request_count == 4


def test_idle_inbox_poll_costs_one_request(phpbb: Replay, http: PoliteSession) -> None:
    phpbb.on("GET", r"folder=inbox$", "pm_inbox")
    assert list(adapter(http).iter_pms(after=PMId(9))) == []
    assert http.request_count == 1


def test_reply_returns_the_post_phpbb_redirects_to(
    phpbb: Replay, http: PoliteSession, clock: FakeClock
) -> None:
    route_reply(phpbb)
    ref = adapter(http).reply(THREAD, VOTE_COUNT)
    assert (ref.topic_id, ref.post_id) == (2, 63)
    ((_, _, body),) = phpbb.posts()
    assert (
        "topic_cur_post_id=62" in body
        and "form_token=b24b683421f1844aebc4c5f669f7ab037978c304" in body
    )
    assert "post=Submit" in body and "preview" not in body


def test_reply_refused_when_the_topic_moved_on(phpbb: Replay, http: PoliteSession) -> None:
    route_reply(phpbb)
    with pytest.raises(ReplyRefusedNewerPost) as info:
        adapter(http).reply(THREAD, VOTE_COUNT, last_seen=PostId(60))
    assert (info.value.last_seen, info.value.newest) == (60, 62)
    assert phpbb.posts() == []


def test_reply_silently_refused_by_post_review(phpbb: Replay, http: PoliteSession) -> None:
    route_reply(phpbb)
    # phpBB's post review: the same form back, no error, a newer topic_cur_post_id (made from
    # the real reply form; the capture run had no second writer at that moment).
    review = edited(
        "phpbb33",
        "reply_form",
        'name="topic_cur_post_id" value="62"',
        'name="topic_cur_post_id" value="64"',
    )
    phpbb.on("POST", r"posting\.php\?mode=reply&t=2$", review)
    with pytest.raises(ReplyRefusedNewerPost):
        adapter(http).reply(THREAD, VOTE_COUNT)
    assert len(phpbb.posts()) == 1


def test_flood_control_waits_the_shared_interval(
    phpbb: Replay, http: PoliteSession, clock: FakeClock
) -> None:
    route_reply(phpbb)
    phpbb.on(
        "POST", r"posting\.php\?mode=reply&t=2$", "reply_post_flood_error", "reply_post_response"
    )
    ref = adapter(http).reply(THREAD, VOTE_COUNT)
    assert ref.post_id == 63 and len(phpbb.posts()) == 2
    assert 16.0 in clock.sleeps


def test_a_refusal_that_outlasts_the_flood_interval_is_the_boards_answer(
    phpbb: Replay, http: PoliteSession
) -> None:
    # phpBB's error box names no cause in its markup: a refusal is waited out as flood
    # control (the interval, then twice it); the third is raised with the board's words.
    route_reply(phpbb)
    phpbb.on("POST", r"posting\.php\?mode=reply&t=2$", "reply_post_flood_error")
    with pytest.raises(ActionRefused, match="so soon after your last") as refused:
        adapter(http).reply(THREAD, VOTE_COUNT)
    assert not isinstance(refused.value, FloodControl)
    assert len(phpbb.posts()) == 3


def test_invalid_form_token_is_retried_with_a_fresh_form(
    phpbb: Replay, http: PoliteSession
) -> None:
    route_reply(phpbb)
    phpbb.on(
        "POST",
        r"posting\.php\?mode=reply&t=2$",
        "reply_post_invalid_form_token",
        "reply_post_response",
    )
    assert adapter(http).reply(THREAD, VOTE_COUNT).post_id == 63


def test_retried_reply_does_not_duplicate(phpbb: Replay, http: PoliteSession) -> None:
    route_reply(phpbb)
    phpbb.on("POST", r"posting\.php\?mode=reply&t=2$", requests.ReadTimeout("no answer"))
    phpbb.on("GET", r"viewtopic\.php\?p=62$", "reply_post_redirect_target")  # it was saved
    ref = adapter(http).reply(THREAD, VOTE_COUNT, last_seen=PostId(62))
    assert ref.post_id == 63 and len(phpbb.posts()) == 1


def test_send_pm_adds_recipients_then_sends(
    phpbb: Replay, http: PoliteSession, clock: FakeClock
) -> None:
    phpbb.on("GET", r"ucp\.php\?i=pm&mode=compose$", "pm_compose_form")
    phpbb.on("POST", r"mode=compose&action=post", "pm_compose_form_to_user", "pm_send_response")
    ref = adapter(http).send_pm(["Kleene"], "Night 1 result", "Your investigation result: Conia.")
    assert ref.pm_id == 10
    add, send = phpbb.posts()
    assert "username_list=Kleene" in add[2] and "add_to=Add" in add[2]
    assert "address_list%5Bu%5D%5B62%5D=to" in send[2] and "subject=Night+1+result" in send[2]
    assert sum(clock.sleeps) >= 4.2  # two forms, each at least 2.1 s old


def test_unknown_recipient_is_refused(phpbb: Replay, http: PoliteSession) -> None:
    phpbb.on("GET", r"ucp\.php\?i=pm&mode=compose$", "pm_compose_form")
    phpbb.on("POST", r"mode=compose&action=post", "pm_compose_form")  # nobody was added
    with pytest.raises(ActionRefused, match="recipients"):
        adapter(http).send_pm(["Nobody"], "s", "b")


def test_retried_pm_is_found_in_the_outbox(phpbb: Replay, http: PoliteSession) -> None:
    phpbb.on("GET", r"ucp\.php\?i=pm&mode=compose$", "pm_compose_form")
    phpbb.on(
        "POST",
        r"mode=compose&action=post",
        "pm_compose_form_to_user",
        requests.ConnectionError("x"),
    )
    phpbb.on("GET", r"folder=outbox$", "pm_outbox")
    ref = adapter(http).send_pm(["Kleene"], "Night 1 result", "Your investigation result: Conia.")
    assert ref.pm_id == 10
    assert len(phpbb.posts()) == 2  # the add-recipient step and one send, never a second send


def test_post_held_for_approval_is_not_sent_again(phpbb: Replay, http: PoliteSession) -> None:
    route_reply(phpbb)
    # phpBB's answer when the account's posts need approval: its message page refreshing to
    # the topic instead of redirecting to the new post. Made from the real message page of
    # a sent PM, its refresh pointed at topic 2 and its words in French: the structure
    # tells, not the wording (the live test meets a real one, tests/live/test_language.py).
    queued = edited(
        "phpbb33",
        "pm_send_response",
        "ucp.php?i=pm&amp;mode=view&amp;p=10",
        "viewtopic.php?t=2",
    )
    queued = Capture(200, queued.headers, queued.body.replace(
        b"This message has been sent successfully.",
        "Ce message a été envoyé avec succès, mais il devra être approuvé par un "
        "modérateur avant d’être visible publiquement.".encode(),
    ))  # fmt: skip
    phpbb.on("POST", r"posting\.php\?mode=reply&t=2$", queued)
    with pytest.raises(PendingApproval, match="do not send it again"):
        adapter(http).reply(THREAD, VOTE_COUNT)
    assert len(phpbb.posts()) == 1


def test_session_lost_between_form_and_post_logs_in_and_posts_once(
    phpbb: Replay, http: PoliteSession
) -> None:
    route_login(phpbb)
    route_reply(phpbb)
    # The POST is answered as a guest (session gone); the form is then asked as a guest too.
    phpbb.on(
        "POST",
        r"posting\.php\?mode=reply&t=2$",
        "session_expired_reply_form",
        "reply_post_response",
    )
    phpbb.on(
        "GET",
        r"posting\.php\?mode=reply&t=2$",
        "reply_form",
        "session_expired_reply_form",
        "reply_form",
    )
    ref = adapter(http).reply(THREAD, VOTE_COUNT)
    assert ref.post_id == 63
    posts = [url for _, url, _ in phpbb.posts()]
    assert sum("mode=login" in url for url in posts) == 1
    assert sum("mode=reply" in url for url in posts) == 2
