"""Shared adapter pieces: time parsing, engine detection, the polite HTTP session, errors."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
import requests
import responses
from hypothesis import given
from hypothesis import strategies as st

from forum_adapters import ADAPTERS, PhpBBAdapter, SMFAdapter, detect_engine, locate
from forum_adapters.errors import (
    ALL_ERRORS,
    CaptchaRequired,
    ForumError,
    ForumNotSupported,
    ForumUnavailable,
    LayoutChanged,
    LoginFailed,
    RateLimited,
)
from forum_adapters.http import DEFAULT_USER_AGENT, PoliteSession
from forum_adapters.markup import fingerprint, html_fingerprint
from forum_adapters.timeparse import parse_forum_time
from tests.adapters.conftest import FakeClock, page

NOW = datetime(2026, 11, 29, 13, 38, tzinfo=UTC)
UTC_ZONE = ZoneInfo("UTC")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("November 27, 2026, 06:06:15 pm", datetime(2026, 11, 27, 18, 6, 15)),
        ("« Reply #31 on: November 28, 2026, 01:18:43 pm »", datetime(2026, 11, 28, 13, 18, 43)),
        ("Nov 27, 2026, 06:06 PM", datetime(2026, 11, 27, 18, 6)),
        ("Nov 27, 2026, 12:06 AM", datetime(2026, 11, 27, 0, 6)),
        ("Today at 09:09:45 am", datetime(2026, 11, 29, 9, 9, 45)),
        ("Today at 09:09 AM", datetime(2026, 11, 29, 9, 9)),
        ("Yesterday at 11:59 PM", datetime(2026, 11, 28, 23, 59)),
        ("Sun Nov 29, 2026 1:05 pm", datetime(2026, 11, 29, 13, 5)),
        ("Today, 1:05 pm", datetime(2026, 11, 29, 13, 5)),
        ("5 minutes ago", datetime(2026, 11, 29, 13, 33)),
        ("29 ноября 2026, 13:05", datetime(2026, 11, 29, 13, 5)),
        ("Сегодня в 09:09", datetime(2026, 11, 29, 9, 9)),
        ("Aujourd’hui à 13h05", datetime(2026, 11, 29, 13, 5)),
        ("27 novembre 2026 à 18:06", datetime(2026, 11, 27, 18, 6)),
        ("27.11.2026, 18:06", datetime(2026, 11, 27, 18, 6)),
        ("2026-11-27 18:06", datetime(2026, 11, 27, 18, 6)),
    ],
)
def test_forum_time_formats(text: str, expected: datetime) -> None:
    assert parse_forum_time(text, now=NOW, tz=UTC_ZONE) == expected.replace(tzinfo=UTC)


def test_time_zone_and_today_follow_the_forum_zone() -> None:
    tokyo = ZoneInfo("Asia/Tokyo")  # 13:38 UTC is 22:38 on Nov 29 in Tokyo
    assert parse_forum_time("Today at 09:00", now=NOW, tz=tokyo) == datetime(
        2026, 11, 29, 0, 0, tzinfo=UTC
    )
    late = datetime(2026, 11, 29, 23, 30, tzinfo=UTC)  # already Nov 30 in Tokyo
    assert parse_forum_time("Today at 08:00", now=late, tz=tokyo).day == 29
    summer = parse_forum_time("Jul 1, 2026, 12:00 PM", now=NOW, tz=ZoneInfo("Europe/Paris"))
    assert summer == datetime(2026, 7, 1, 10, 0, tzinfo=UTC)  # CEST, not CET


@given(st.text(max_size=60))
def test_time_parser_never_raises_anything_but_value_error(text: str) -> None:
    try:
        result = parse_forum_time(text, now=NOW, tz=UTC_ZONE)
    except ValueError:
        return
    assert result.tzinfo is not None


@pytest.mark.parametrize(
    ("url", "engine", "base", "topic", "post"),
    [
        ("http://f.example/index.php?topic=2.15", "smf", "http://f.example/index.php", 2, None),
        (
            "http://f.example/forum/index.php/topic,2.0.html",
            "smf",
            "http://f.example/forum/index.php",
            2,
            None,
        ),
        (
            "http://f.example/index.php?PHPSESSID=ab&topic=2.msg33#msg33",
            "smf",
            "http://f.example/index.php",
            2,
            33,
        ),
        (
            "https://b.example/forum/viewtopic.php?f=3&t=2&start=20&sid=abc",
            "phpbb",
            "https://b.example/forum/",
            2,
            None,
        ),
        ("https://b.example/viewtopic.php?p=36#p36", "phpbb", "https://b.example/", None, 36),
    ],
)
def test_urls_are_normalised(
    url: str, engine: str, base: str, topic: int | None, post: int | None
) -> None:
    location = locate(url)
    assert (location.engine, location.base_url, location.topic_id, location.post_id) == (
        engine,
        base,
        topic,
        post,
    )
    if topic is not None:
        assert "sid" not in location.topic_url and "PHPSESSID" not in location.topic_url


def test_engine_from_pages_and_unknown_urls() -> None:
    assert detect_engine(html=page("smf20", "board_index").decode()) == "smf"
    assert detect_engine(html=page("smf21", "guest_board_index").decode()) == "smf"
    assert detect_engine(html=page("phpbb33", "index").decode()) == "phpbb"
    with pytest.raises(ForumNotSupported):
        detect_engine("https://example.org/", "<html><body>hello</body></html>")


def test_registry_names_both_engines() -> None:
    assert {"smf": SMFAdapter, "phpbb": PhpBBAdapter} == ADAPTERS


def test_fingerprint_matches_bbcode_with_its_rendering() -> None:
    body = "[b]Vote count[/b] :P\n[quote author=Zoé]x[/quote] Маша (2): bob"
    assert fingerprint(body) in html_fingerprint(
        "<b>Vote count</b> <img alt=':P'> <blockquote>x</blockquote> Маша (2): bob"
    )


def test_every_error_is_a_forum_error_with_a_readable_message() -> None:
    assert all(issubclass(cls, ForumError) for cls in ALL_ERRORS)
    assert issubclass(LayoutChanged, ValueError) and issubclass(CaptchaRequired, LoginFailed)
    assert "secret" not in str(LoginFailed("ModBot", "Password incorrect"))
    assert "CAPTCHA" in str(CaptchaRequired("ModBot", "login form"))


class TestPoliteSession:
    def session(self, clock: FakeClock) -> PoliteSession:
        return PoliteSession(clock=clock.time, sleep=clock.sleep)

    @responses.activate
    def test_user_agent_and_budget(self, clock: FakeClock) -> None:
        responses.add("GET", "http://127.0.0.1:9/a", body="ok")
        http = self.session(clock)
        for _ in range(3):
            http.get("http://127.0.0.1:9/a")
        assert responses.calls[0].request.headers["User-Agent"] == DEFAULT_USER_AGENT
        assert clock.sleeps == [1.0, 1.0]

    @responses.activate
    def test_4xx_is_never_retried(self, clock: FakeClock) -> None:
        responses.add("GET", "http://127.0.0.1:9/a", status=404, body="nope")
        assert self.session(clock).get("http://127.0.0.1:9/a").status_code == 404
        assert len(responses.calls) == 1

    @responses.activate
    def test_429_is_rate_limited(self, clock: FakeClock) -> None:
        responses.add("GET", "http://127.0.0.1:9/a", status=429, headers={"Retry-After": "30"})
        with pytest.raises(RateLimited) as info:
            self.session(clock).get("http://127.0.0.1:9/a")
        assert info.value.retry_after == 30 and len(responses.calls) == 1

    @responses.activate
    def test_5xx_retried_with_growing_waits_then_given_up(self, clock: FakeClock) -> None:
        responses.add("GET", "http://127.0.0.1:9/a", status=500, body="boom")
        with pytest.raises(ForumUnavailable) as info:
            self.session(clock).get("http://127.0.0.1:9/a")
        assert len(responses.calls) == 4 and info.value.status == 500
        backoffs = [s for s in clock.sleeps if s != 1.0]
        assert backoffs == sorted(backoffs) and len(backoffs) >= 2

    @responses.activate
    def test_posts_are_not_retried(self, clock: FakeClock) -> None:
        responses.add("POST", "http://127.0.0.1:9/a", body=requests.ConnectionError("reset"))
        with pytest.raises(ForumUnavailable):
            self.session(clock).post("http://127.0.0.1:9/a", {"message": "x"})
        assert len(responses.calls) == 1


def test_every_error_is_documented() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "errors-adapters.md").read_text()
    for cls in ALL_ERRORS:
        assert f"| `{cls.__name__}` |" in text, cls.__name__


@responses.activate
def test_redirects_are_followed_within_the_budget() -> None:
    clock = FakeClock()
    responses.add("POST", "http://127.0.0.1:9/post", status=302, headers={"Location": "/topic#new"})
    responses.add("GET", "http://127.0.0.1:9/topic", body="page")
    http = PoliteSession(clock=clock.time, sleep=clock.sleep)
    answer = http.post("http://127.0.0.1:9/post", {"message": "x"})
    assert answer.text == "page" and [r.status_code for r in answer.history] == [302]
    assert http.request_count == 2 and clock.sleeps == [1.0]
