"""SMF HTTP sequences replayed from recorded pages: login, reading, re-login, posting, PMs."""

from __future__ import annotations

import os
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest
import requests

from forum_adapters import ForumAdapter, SMFAdapter, ThreadRef
from forum_adapters.base import PMId, PostId
from forum_adapters.errors import (
    Banned,
    CaptchaRequired,
    FloodControl,
    ForumUnavailable,
    LoginFailed,
    Maintenance,
    NotFound,
    NotPermitted,
    ReplyRefusedNewerPost,
    SessionExpired,
)
from forum_adapters.http import HttpSettings, PoliteSession
from tests.adapters.conftest import SMF20, SMF21, Capture, FakeClock, Replay, edited

THREAD = ThreadRef(2)
VOTE_COUNT = (
    "[b]Vote count after page 5 (unofficial, ModBot)[/b]\n"
    "Akonyl (5): xX_DarkKnight_7_Xx, Shinichi, Zoé, McGonagall, Маша"
)
# SMF's maintenance page, as SMF 2.1 serves it with HTTP 503 (no capture: the test forum
# was never put in maintenance mode); only its heading and text matter to the adapter.
MAINTENANCE = Capture(
    503,
    [("Content-Type", "text/html; charset=UTF-8"), ("Retry-After", "3600")],
    b"<html><body><div id='fatal_error'><h3>Maintenance Mode</h3><div class='padding'>"
    b"Okay faithful users...we're attempting to restore an older backup of the database..."
    b"</div></div></body></html>",
)


def adapter(http: PoliteSession, base: str = SMF21, **kwargs: object) -> SMFAdapter:
    return SMFAdapter(base, "ModBot", "not-the-real-password", http=http, **kwargs)  # type: ignore[arg-type]


def route_login(replay: Replay, base: str = SMF21) -> None:
    port = base.split(":")[2][:4]
    replay.on("GET", r"action=login$", "login_page")
    replay.on("POST", r"action=login2", "login_post_response")
    replay.on("GET", r"action=login2;sa=check", "login_post_response__hop1")
    replay.on("GET", rf":{port}/index\.php$", "login_post_response__hop2")


def route_topic(replay: Replay) -> None:
    for number, start in enumerate((0, 15, 30, 45, 60), start=1):
        replay.on("GET", rf"topic=2\.{start}$", f"topic_p{number}")


def test_adapter_satisfies_the_protocol(http: PoliteSession) -> None:
    assert isinstance(adapter(http), ForumAdapter)
    assert "not-the-real-password" not in repr(adapter(http))


def test_login_sends_the_form_with_its_tokens(smf21: Replay, http: PoliteSession) -> None:
    route_login(smf21)
    bot = adapter(http)
    bot.login()
    ((_, url, body),) = smf21.posts()
    assert "action=login2" in url
    assert "user=ModBot" in body and "passwrd=not-the-real-password" in body
    assert "a968aa90d9a9=45bccdc8431b54aebdebecc5dd367261" in body  # session field
    assert "f77eaee16=8c6a5a6ffeca9b1e824f781fba3dbb20" in body  # 2.1's one-use login token
    assert bot.user_id == 2


def test_wrong_password_is_a_clear_error(smf21: Replay, http: PoliteSession) -> None:
    route_login(smf21)
    smf21.on("POST", r"action=login2", "login_wrong_password")
    with pytest.raises(LoginFailed, match="Password incorrect") as info:
        adapter(http).login()
    assert "not-the-real-password" not in str(info.value)


def test_smf20_wrong_password(smf20: Replay, http: PoliteSession) -> None:
    route_login(smf20, SMF20)
    smf20.on("POST", r"action=login2", "login_wrong_password")
    with pytest.raises(LoginFailed, match="Password incorrect"):
        adapter(http, SMF20).login()


def test_reading_the_whole_thread_costs_one_request_per_page(
    smf21: Replay, http: PoliteSession
) -> None:
    route_topic(smf21)
    posts = list(adapter(http).iter_posts(THREAD))
    assert [p.post_id for p in posts] == list(range(2, 66))
    assert [p.page for p in posts][::15] == [1, 2, 3, 4, 5]
    assert http.request_count == 5


def test_idle_poll_costs_one_request(smf21: Replay, http: PoliteSession) -> None:
    smf21.on("GET", r"topic=2\.msg65$", "topic_p5")
    assert list(adapter(http).iter_posts(THREAD, after=PostId(65))) == []
    assert http.request_count == 1


def test_incremental_read_starts_on_the_page_of_the_last_known_post(
    smf20: Replay, http: PoliteSession
) -> None:
    route_topic(smf20)
    smf20.on("GET", r"topic=2\.msg33$", "topic_p3")
    posts = list(adapter(http, SMF20).iter_posts(THREAD, after=PostId(33)))
    assert [p.post_id for p in posts] == list(range(34, 66))
    assert http.request_count == 3


def test_requests_are_spaced_by_the_budget(
    smf21: Replay, http: PoliteSession, clock: FakeClock
) -> None:
    route_topic(smf21)
    list(adapter(http).iter_posts(THREAD))
    assert sum(clock.sleeps) >= 4.0  # five requests at one a second


def test_session_expiry_mid_run_logs_in_once_and_continues(
    smf21: Replay, http: PoliteSession
) -> None:
    route_topic(smf21)
    route_login(smf21)
    # Page 2 first comes back as a guest page (the forum forgot us), then as a member page.
    smf21.on("GET", r"topic=2\.15$", "guest_topic_p1", "topic_p2")
    posts = list(adapter(http).iter_posts(THREAD))
    assert [p.post_id for p in posts] == list(range(2, 66))
    assert len(smf21.posts()) == 1  # one login


def test_still_a_guest_after_login_is_session_expired(smf21: Replay, http: PoliteSession) -> None:
    route_login(smf21)
    smf21.on("GET", r"action=pm;f=inbox", "guest_pm_not_logged_in")
    with pytest.raises(SessionExpired):
        list(adapter(http).iter_pms())


def test_missing_topic_for_a_member_is_not_found(smf21: Replay, http: PoliteSession) -> None:
    smf21.on("GET", r"topic=9999\.0$", "error_topic_missing_logged_in")
    with pytest.raises(NotFound, match="missing or off limits"):
        list(adapter(http).iter_posts(ThreadRef(9999)))
    assert http.request_count == 1  # a 403 is never retried


def test_maintenance_page_is_reported_without_hammering(smf21: Replay, http: PoliteSession) -> None:
    smf21.on("GET", r"topic=2\.0$", MAINTENANCE)
    with pytest.raises(Maintenance, match="maintenance mode"):
        list(adapter(http).iter_posts(THREAD))
    assert http.request_count == 1


def test_server_errors_are_retried_with_backoff(
    smf21: Replay, http: PoliteSession, clock: FakeClock
) -> None:
    smf21.on("GET", r"topic=2\.60$", Capture(502, [], b"Bad gateway"), "topic_p5")
    posts = [p.post_id for p in adapter(http).topic_page(f"{SMF21}?topic=2.60", 2).posts]
    assert posts == [62, 63, 64, 65]
    assert http.request_count == 2 and max(clock.sleeps) >= 0.5


def test_timeouts_give_up_as_forum_unavailable(smf21: Replay, http: PoliteSession) -> None:
    smf21.on("GET", r"topic=2\.0$", requests.ConnectTimeout("slow"))
    with pytest.raises(ForumUnavailable):
        list(adapter(http).iter_posts(THREAD))
    assert http.request_count == 3  # attempts=3 in the test settings


def test_reply_is_confirmed_from_the_topic(smf21: Replay, http: PoliteSession) -> None:
    smf21.on("GET", r"action=post;topic=2\.0", "reply_form")
    smf21.on("POST", r"action=post2", "reply_post_response")
    smf21.on("GET", r"topic=2\.new", "reply_post_response__hop1")
    ref = adapter(http).reply(THREAD, VOTE_COUNT)
    assert (ref.topic_id, ref.post_id) == (2, 66)
    ((_, _, body),) = smf21.posts()
    assert "seqnum=4044144" in body and "last_msg=65" in body and "goback=1" in body


def test_flood_control_waits_and_sends_again(
    smf21: Replay, http: PoliteSession, clock: FakeClock
) -> None:
    smf21.on("GET", r"action=post;topic=2\.0", "reply_form")
    smf21.on("POST", r"action=post2", "error_flood_control", "reply_post_response")
    smf21.on("GET", r"topic=2\.new", "reply_post_response__hop1")
    ref = adapter(http).reply(THREAD, VOTE_COUNT)
    assert ref.post_id == 66
    assert len(smf21.posts()) == 2
    assert 6.0 in clock.sleeps  # "less than 5 seconds ago": wait 5 + 1


def test_reply_refused_before_posting_when_the_form_shows_a_newer_post(
    smf21: Replay, http: PoliteSession
) -> None:
    smf21.on("GET", r"action=post;topic=2\.0;last_msg=60", "reply_form")  # its last_msg: 65
    with pytest.raises(ReplyRefusedNewerPost):
        adapter(http).reply(THREAD, VOTE_COUNT, last_seen=PostId(60))
    assert smf21.posts() == []  # SMF's form already named msg 65: nothing was submitted


def test_reply_refused_because_of_a_newer_post(smf21: Replay, http: PoliteSession) -> None:
    smf21.on("GET", r"action=post;topic=2\.0;last_msg=65", "reply_form")
    # The form re-shown with SMF's "new replies" warning, made from the real re-shown form
    # of reply_post_session_expired (the capture run did not record this case).
    refused = edited(
        "smf21",
        "reply_post_session_expired",
        'name="last_msg" value="65"',
        'name="last_msg" value="66"',  # the topic's newest post, as SMF re-shows the form
    )
    smf21.on("POST", r"action=post2", refused)
    with pytest.raises(ReplyRefusedNewerPost):
        adapter(http).reply(THREAD, VOTE_COUNT, last_seen=PostId(65))
    assert len(smf21.posts()) == 1
    assert "last_msg=65" in smf21.posts()[0][2]  # SMF re-checks it on submit


def test_retried_reply_finds_the_first_one_and_does_not_duplicate(
    smf21: Replay, http: PoliteSession
) -> None:
    smf21.on("GET", r"action=post;topic=2\.0", "reply_form")
    smf21.on("POST", r"action=post2", requests.ConnectionError("reset by peer"))
    # The forum did save it: the page after msg 65 shows ModBot's msg 66.
    smf21.on("GET", r"topic=2\.msg65$", "reply_post_response__hop1")
    ref = adapter(http).reply(THREAD, VOTE_COUNT, last_seen=PostId(65))
    assert ref.post_id == 66
    assert len(smf21.posts()) == 1


def test_retried_reply_sends_again_when_the_first_was_lost(
    smf21: Replay, http: PoliteSession
) -> None:
    smf21.on("GET", r"action=post;topic=2\.0", "reply_form")
    smf21.on("POST", r"action=post2", requests.ConnectionError("reset"), "reply_post_response")
    smf21.on("GET", r"topic=2\.msg65$", "topic_p5")  # not saved
    smf21.on("GET", r"topic=2\.new", "reply_post_response__hop1")
    ref = adapter(http).reply(THREAD, VOTE_COUNT, last_seen=PostId(65))
    assert ref.post_id == 66
    assert len(smf21.posts()) == 2


def test_inbox_reads_new_pms_oldest_first(smf21: Replay, http: PoliteSession) -> None:
    smf21.on("GET", r"action=pm;f=inbox;sort=date;desc;start=0$", "pm_inbox_desc_p1")
    pms = list(adapter(http).iter_pms(after=PMId(25)))
    assert [pm.pm_id for pm in pms] == list(range(26, 34))
    assert pms[-1].sender.name == "Zoé" and pms[-1].recipients[0].name == "ModBot"
    assert http.request_count == 1


def test_idle_inbox_poll_costs_one_request(smf20: Replay, http: PoliteSession) -> None:
    smf20.on("GET", r"action=pm;f=inbox;sort=date;desc;start=0$", "pm_inbox_desc_p1")
    assert list(adapter(http, SMF20).iter_pms(after=PMId(34))) == []
    assert http.request_count == 1


def test_send_pm_is_confirmed(smf21: Replay, http: PoliteSession) -> None:
    smf21.on("GET", r"action=pm;sa=send$", "pm_compose_form")
    smf21.on("POST", r"action=pm;sa=send2", "pm_send_response")
    smf21.on("GET", r"done=sent", "pm_send_response__hop1")
    smf21.on("GET", r"action=pm;f=sent", "pm_sent")
    ref = adapter(http).send_pm(["Kleene", "Dr Watson"], "Night 1 result", "You found: town.")
    assert ref.recipients == ("Kleene", "Dr Watson")
    ((_, _, body),) = smf21.posts()
    assert "to=%22Kleene%22%2C+%22Dr+Watson%22" in body and "seqnum=4392572" in body


def test_pm_form_with_captcha_is_refused_clearly(smf21: Replay, http: PoliteSession) -> None:
    smf21.on("GET", r"action=pm;sa=send$", "pm_compose_form_with_captcha")
    with pytest.raises(CaptchaRequired, match="CAPTCHA"):
        adapter(http).send_pm(["Kleene"], "s", "b")
    assert smf21.posts() == []


def test_cookies_persist_owner_only(smf21: Replay, clock: FakeClock, tmp_path: Path) -> None:
    route_login(smf21)
    jar = tmp_path / "cookies.json"
    http = PoliteSession(
        settings=HttpSettings(), cookie_file=jar, clock=clock.time, sleep=clock.sleep
    )
    adapter(http).login()
    assert stat.S_IMODE(os.stat(jar).st_mode) == 0o600
    assert "SMFCookie574" in jar.read_text()
    again = PoliteSession(cookie_file=jar, clock=clock.time, sleep=clock.sleep)
    assert again.session.cookies.get("SMFCookie574")


def test_smf20_reply_returns_to_the_topic_and_finds_the_post(
    smf20: Replay, http: PoliteSession
) -> None:
    smf20.on("GET", r"action=post;topic=2\.0", "reply_form")
    smf20.on("POST", r"action=post2", "reply_post_goback_response")
    smf20.on("GET", r"topic=2\.new", "reply_post_goback_response__hop1")
    bot = adapter(http, SMF20)
    bot.user_id = 2
    ref = bot.reply(THREAD, VOTE_COUNT)
    assert ref.post_id == 66
    ((_, _url, body),) = smf20.posts()
    assert "fa8f20e179=6ddfba7f0270f0dcd0157c466e35685d" in body and "post=" not in body
    # The next reply is based on the bot's own post, so SMF will not call it "new".
    smf20.on("GET", r"action=post;topic=2\.0;last_msg=66$", "reply_form")
    smf20.on("POST", r"action=post2", "error_flood_control")
    with pytest.raises(FloodControl):
        bot.reply(THREAD, "again")


def test_banned_account_is_a_clear_error(smf21: Replay, http: PoliteSession) -> None:
    # SMF's own ban wording in its fatal-error page (the harness never banned the bot).
    banned = edited(
        "smf21",
        "error_topic_missing_logged_in",
        "The topic or board you are looking for appears to be either missing or off limits to you.",
        "Sorry ModBot, you are banned from using this forum!",
    )
    smf21.on("GET", r"topic=2\.0$", banned)
    with pytest.raises(Banned, match="banned"):
        list(adapter(http).iter_posts(THREAD))


def test_smf20_not_allowed_page_with_status_200_is_not_permitted(
    smf20: Replay, http: PoliteSession
) -> None:
    # SMF 2.0 answers a locked topic's reply form with its fatal-error page and HTTP 200.
    locked = edited(
        "smf20",
        "error_topic_missing_logged_in",
        "The topic or board you are looking for appears to be either missing or off limits to you.",
        "This topic is locked, you are not allowed to post or modify messages...",
    )
    smf20.on("GET", r"action=post;topic=2\.0", locked)
    with pytest.raises(NotPermitted, match="locked"):
        adapter(http, SMF20).reply(THREAD, "hello")


def test_retried_pm_is_found_in_sent_items_and_not_sent_twice(
    smf21: Replay, http: PoliteSession
) -> None:
    # Replayed as if it were Nov 27, 17:09 UTC, just after ModBot sent role PM 12 (the capture
    # run has no sent-items page recorded after its own test PM).
    form = Capture.load("smf21", "pm_compose_form")
    form.headers = [(k, v) for k, v in form.headers if k != "Date"]
    form.headers.append(("Date", "Fri, 27 Nov 2026 17:09:00 GMT"))
    smf21.on("GET", r"action=pm;sa=send$", form)
    smf21.on("POST", r"action=pm;sa=send2", requests.ReadTimeout("no answer"))
    smf21.on("GET", r"action=pm;f=sent;sort=date;desc", "pm_sent")
    body = (
        "Hello xX_DarkKnight_7_Xx,\n\nYour role: [b]Mafia Goon[/b]\nYou are mafia. Your partner "
        "is Akonyl. Send the night kill to me."
    )
    ref = adapter(http).send_pm(["xX_DarkKnight_7_Xx"], "Your role - Loopback Village", body)
    assert ref.pm_id == 12
    assert len(smf21.posts()) == 1


def test_stale_login_form_is_loaded_again_once(smf21: Replay, http: PoliteSession) -> None:
    route_login(smf21)
    # 2.1 answers a login POST with a stale session token with HTTP 403 "session timed out".
    smf21.on("POST", r"action=login2", "login_session_expired", "login_post_response")
    bot = adapter(http)
    bot.login()
    assert len(smf21.posts()) == 2 and bot.user_id == 2


def test_smf20_too_many_failed_logins(smf20: Replay, http: PoliteSession) -> None:
    route_login(smf20, SMF20)
    # After 3 failures SMF 2.0 sends the login POST to the password reminder.
    reminder = Capture(302, [("Location", f"{SMF20}?action=reminder")], b"")
    smf20.on("POST", r"action=login2", reminder)
    smf20.on("GET", r"action=reminder$", "login_page")
    with pytest.raises(LoginFailed, match="too many failed logins"):
        adapter(http, SMF20).login()


def test_smf20_pm_flood_control_waits_and_sends_again(
    smf20: Replay, http: PoliteSession, clock: FakeClock
) -> None:
    smf20.on("GET", r"action=pm;sa=send$", "pm_compose_form")
    smf20.on("POST", r"action=pm;sa=send2", "error_pm_flood_control", "pm_send_response")
    smf20.on("GET", r"done=sent", "pm_send_response__hop1")
    smf20.on("GET", r"action=pm;f=sent", "pm_sent")
    ref = adapter(http, SMF20).send_pm(["Kleene"], "Night 1 result", "You found: town.")
    assert ref.recipients == ("Kleene",)
    assert len(smf20.posts()) == 2 and 6.0 in clock.sleeps
    assert all("outbox=1" in body for _, _, body in smf20.posts())  # 2.0 keeps a copy


def test_without_a_zone_the_header_clock_decides(smf21: Replay, http: PoliteSession) -> None:
    # The same page as a member three hours east of UTC sees it (header clock and post times).
    shifted = edited(
        "smf21", "topic_p5", "Nov 29, 2026, 01:11 PM</time>", "Nov 29, 2026, 04:11 PM</time>"
    )
    shifted.body = shifted.body.replace(b"at 10:51 AM", b"at 01:51 PM")
    smf21.on("GET", r"topic=2\.60$", shifted)
    bot = adapter(http)
    page = bot.topic_page(f"{SMF21}?topic=2.60", 2)
    assert str(bot.tz) == "UTC+03:00"
    assert page.posts[0].posted_at == datetime(2026, 11, 29, 10, 51, tzinfo=UTC)
