"""The login on a real HTTP server: where ``next`` may send the GM, and what logout ends."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import requests
from sqlalchemy.orm import Session, sessionmaker

from forumbot.web import create_app
from forumbot.web.server import RunningServer, start_in_thread
from tests.web.conftest import TOKEN
from tests.web.seed import Seeded

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture
def server(factory: sessionmaker[Session], seeded: Seeded) -> Iterator[RunningServer]:
    running = start_in_thread(create_app(factory, token=TOKEN), "127.0.0.1", 0)
    yield running
    running.stop()


def _csrf(browser: requests.Session, base: str) -> str:
    found = CSRF.search(browser.get(f"{base}/login", allow_redirects=False).text)
    assert found, "the login page has a CSRF field"
    return found.group(1)


def _login(browser: requests.Session, base: str, next_part: str = "") -> requests.Response:
    csrf = _csrf(browser, base)
    return browser.post(
        f"{base}/login{next_part}",
        data={"token": TOKEN, "name": "Steph", "csrf_token": csrf},
        allow_redirects=False,
    )


@pytest.mark.parametrize(
    "next_part",
    [
        "?next=/%09/evil.example",
        "?next=/%0a/evil.example",
        "?next=%2F%2Fevil.example",
        "?next=/\\evil.example",
        "?next=%5C%5Cevil.example",
        "?next=https://evil.example/",
        "?next=javascript:alert(1)",
        "?next=/%20/evil.example",
        "?next=///evil.example",
        "?next=/%E2%80%8B/evil.example",
    ],
)
def test_next_never_leaves_the_site(server: RunningServer, next_part: str) -> None:
    response = _login(requests.Session(), server.url, next_part)
    assert response.status_code == 302
    assert response.headers["Location"] in ("/", f"{server.url}/")


@pytest.mark.parametrize("next_part", ["?next=/%0d%0aSet-Cookie:%20x=1", "?next=/games%0d%0a"])
def test_a_cr_lf_in_next_is_not_a_server_error(server: RunningServer, next_part: str) -> None:
    response = _login(requests.Session(), server.url, next_part)
    assert response.status_code == 302
    assert "x=1" not in response.headers.get("Set-Cookie", "")
    assert response.headers["Location"] in ("/", f"{server.url}/")


def test_a_local_page_is_kept(server: RunningServer, seeded: Seeded) -> None:
    page = f"/games/{seeded.game_id}/queue?page=2"
    response = _login(requests.Session(), server.url, f"?next={requests.utils.quote(page)}")
    assert response.headers["Location"] in (page, f"{server.url}{page}")


def test_logout_ends_a_copied_cookie(server: RunningServer, seeded: Seeded) -> None:
    gm = requests.Session()
    assert _login(gm, server.url).status_code == 302
    queue = f"{server.url}/games/{seeded.game_id}/queue"
    stolen = requests.Session()
    stolen.cookies.update(gm.cookies)
    assert stolen.get(queue, allow_redirects=False).status_code == 200
    page = gm.get(queue).text
    csrf = CSRF.search(page)
    assert csrf
    assert gm.post(f"{server.url}/logout", data={"csrf_token": csrf.group(1)}).ok
    read = stolen.get(queue, allow_redirects=False)
    assert read.status_code == 302 and "/login" in read.headers["Location"]
    approve = stolen.post(
        f"{server.url}/games/{seeded.game_id}/drafts/{seeded.pm_draft_id}/approve",
        data={"csrf_token": csrf.group(1)},
        allow_redirects=False,
    )
    assert approve.status_code in (400, 403)


def test_a_cookie_from_before_a_restart_is_not_accepted(
    factory: sessionmaker[Session], seeded: Seeded
) -> None:
    first = start_in_thread(create_app(factory, token=TOKEN), "127.0.0.1", 0)
    gm = requests.Session()
    try:
        _login(gm, first.url)
        cookies = gm.cookies.get_dict()
    finally:
        first.stop()
    second = start_in_thread(create_app(factory, token=TOKEN), "127.0.0.1", 0)
    try:
        read = requests.get(f"{second.url}/", cookies=cookies, allow_redirects=False)
        assert read.status_code == 302 and "/login" in read.headers["Location"]
    finally:
        second.stop()
