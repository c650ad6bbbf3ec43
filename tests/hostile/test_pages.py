"""Hostile pages: what the forum (or something between) serves instead of the topic.

A wrong charset, a login page, an error page with status 200, garbage, a huge inbox. Each has
one clear result: read correctly, or the cycle fails with one alert to the GM, the page
quarantined when it could not be read, and ``last_post_id`` never past what was read whole.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from forumbot.db.enums import ReviewKind
from tests.hostile.conftest import DATA, Hostile, RawPM, RawPost, data


def _serve_topic(hostile: Hostile, make: Callable[[bool], str]) -> Callable[[bool], str]:
    whole = hostile.forum.topic_page
    hostile.forum.topic_page = make  # type: ignore[method-assign]
    return whole


def _stuck(hostile: Hostile, first: int, stored: int, words: str) -> None:
    """The cycle failed with one alert naming ``words``; nothing read past ``first``."""
    assert not hostile.cycle()
    assert hostile.last_post_id() == first and hostile.count(RawPost) == stored
    alerts = hostile.queue(ReviewKind.ALERT)
    assert len(alerts) == 1 and words in alerts[0].reason, [a.reason for a in alerts]
    assert not hostile.cycle() and len(hostile.queue(ReviewKind.ALERT)) == 1


def _first_read(hostile: Hostile) -> tuple[int, int]:
    first = hostile.forum.add_post("Ann", "<b>$Zed</b>")
    assert hostile.cycle()
    hostile.forum.add_post("Bob", "<b>$Carl</b>")
    return first, hostile.count(RawPost)


def test_a_page_in_windows_1251_declared_by_its_meta(hostile: Hostile) -> None:
    hostile.forum.data.body_encoding = "cp1251"  # the header still says UTF-8
    hostile.forum.add_post("Ann", data("post_cyrillic.html"))
    assert hostile.cycle()
    assert hostile.votes() == {"Zed": ("Ann",)}
    with hostile.rt.sessions() as session:
        from sqlalchemy import select

        bodies = [p.body_html for p in session.scalars(select(RawPost))]
    assert any("Голосую" in body for body in bodies), "Cyrillic stored as mojibake"


def test_a_login_page_served_once_is_logged_into_and_read(hostile: Hostile) -> None:
    _first_read(hostile)
    served = []

    def login_once(logged_in: bool) -> str:
        if not served:
            served.append(1)
            return hostile.forum.login_page()
        return whole(logged_in)

    whole = _serve_topic(hostile, login_once)
    assert hostile.cycle()
    assert hostile.votes() == {"Zed": ("Ann",), "Carl": ("Bob",)}


def test_a_login_page_served_always_alerts_and_reads_nothing(hostile: Hostile) -> None:
    first, stored = _first_read(hostile)
    _serve_topic(hostile, lambda logged_in: hostile.forum.login_page())
    _stuck(hostile, first, stored, "ModBot")


def test_an_error_page_with_status_200_alerts_and_reads_nothing(hostile: Hostile) -> None:
    first, stored = _first_read(hostile)
    _serve_topic(hostile, lambda logged_in: hostile.forum.page(data("page_error_200.html"), True))
    _stuck(hostile, first, stored, "Too many connections")


def test_a_garbage_page_alerts_and_reads_nothing(hostile: Hostile) -> None:
    first, stored = _first_read(hostile)
    garbage = (DATA / "page_garbage.bin").read_bytes().decode("latin-1")
    _serve_topic(hostile, lambda logged_in: garbage)
    _stuck(hostile, first, stored, "guest")  # no logout link: one fresh login, then alerted


def test_a_page_without_its_footer_is_quarantined(hostile: Hostile) -> None:
    first, stored = _first_read(hostile)
    whole = hostile.forum.topic_page
    _serve_topic(hostile, lambda logged_in: whole(logged_in).replace('id="footer"', 'id="x"'))
    _stuck(hostile, first, stored, "cut short")
    assert hostile.quarantined()


@pytest.mark.slow
def test_a_huge_inbox_is_read_once_each(night: Hostile) -> None:
    night.cycle()
    senders = ["Ann", "Bob", "Carl", "Dan", "Zed"]
    for n in range(150):
        night.forum.add_pm(senders[n % 5], f"N1 #{n}", f"hello {n}, nothing to say")
    night.forum.add_pm("Ann", "N1 order", "check Zed")
    assert night.cycle()
    assert night.count(RawPM) == 151
    assert [(o.ability, o.targets) for o in night.orders() if o.ability] == [("check", ["Zed"])]
    assert night.cycle() and night.count(RawPM) == 151
    sent = [(pm["to"], pm["subject"]) for pm in night.forum.data.sent]
    assert len(sent) == len(set(sent)), "a receipt was sent twice"
