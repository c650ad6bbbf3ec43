"""The roster panel and the history timeline, on a game the runtime played: the loopback SMF
forum read by the real adapter, votes and PMs through the counter and parser, the phases
resolved by the resolver. The page is then used in Chromium (where installed) and through
the test client (CSRF)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from forumbot.db.enums import PlayerStatus
from forumbot.db.models import Game, Outbound, Player
from forumbot.db.types import utcnow
from forumbot.services import cycle, roster
from forumbot.web import create_app
from forumbot.web.server import start_in_thread
from tests.runtime.test_roster import DAY1, game  # noqa: F401  (the played game's fixture)
from tests.web.conftest import TOKEN, csrf_of
from tests.web.test_browser import CHROMIUM, _login, _page, _shot

pytestmark = pytest.mark.usefixtures("password")


@pytest.fixture
def password(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORUMBOT_PASSWORD", "pw")


@pytest.fixture
def played(game: Any) -> Iterator[tuple[Any, int]]:  # noqa: F811
    """Day 1 lynches Dan after Ann was replaced by Nina; Night 1 is open."""
    rt, game_id, forum, clock = game
    forum.add_post("Ann", "<b>$Dan</b>")
    clock.advance(timedelta(minutes=2))
    cycle(rt, game_id)
    with rt.sessions.begin() as session:
        roster.replace(session, session.get_one(Game, game_id), "Ann", "Nina", by="gm:Steph",
                       at=rt.clock.now())  # fmt: skip
    for voter in ("Bob", "Carl"):
        forum.add_post(voter, "<b>$Dan</b>")
    clock.advance(timedelta(minutes=2))
    cycle(rt, game_id)
    clock.set(DAY1 + timedelta(hours=48))
    for _ in range(3):
        clock.advance(timedelta(minutes=1))
        cycle(rt, game_id)
    yield rt, game_id


def test_the_timeline_shows_the_phases_lynch_death_and_replacement(played) -> None:
    rt, game_id = played
    app = create_app(rt.sessions, token=TOKEN, now=utcnow)
    client = app.test_client()
    client.get("/login")
    client.post("/login", data={"token": TOKEN, "name": "Steph", "csrf_token": csrf_of(client)})
    page = client.get(f"/games/{game_id}/roster").get_data(as_text=True)
    assert 'class="timeline"' in page
    assert "Host penalties" not in page  # Failheap has none: no penalty form
    history = page.split('<ol class="history">')[1]
    day1, night1 = history.split("<li>")[1:3]
    assert "Ann replaced by Nina" in day1 and "Dan lynched" in day1 and "(villager)" in day1
    assert "night1" in night1
    report = client.get(f"/games/{game_id}/report").get_data(as_text=True)
    assert "<b>replace</b> Ann → Nina" in report.split("Roster changes")[1]
    phase_page = client.get(f"/games/{game_id}/phase").get_data(as_text=True)
    assert 'class="timeline"' in phase_page and "Dan lynched" in phase_page

    # A form without the session's CSRF token changes nothing.
    refused = client.post(f"/games/{game_id}/roster/modkill", data={"name": "Bob"})
    assert refused.status_code in (400, 403)
    with rt.sessions() as session:
        bob = session.scalars(select(Player).where(Player.display_name == "Bob")).one()
        assert bob.status is PlayerStatus.ALIVE

    # A modkill cannot be undone: without the "sure" box ticked, nothing changes.
    unsure = client.post(
        f"/games/{game_id}/roster/modkill",
        data={"name": "Bob", "csrf_token": csrf_of(client)},
        follow_redirects=True,
    )
    assert "Tick &#39;sure&#39; to modkill Bob" in unsure.get_data(as_text=True)
    with rt.sessions() as session:
        bob = session.scalars(select(Player).where(Player.display_name == "Bob")).one()
        assert bob.status is PlayerStatus.ALIVE

    # The replace form takes the new account's forum user id (votes are matched on it).
    client.post(
        f"/games/{game_id}/roster/replace",
        data={"old": "Carl", "new": "Theo", "user_id": "42", "csrf_token": csrf_of(client)},
    )
    with rt.sessions() as session:
        theo = session.scalars(select(Player).where(Player.display_name == "Theo")).one()
        assert theo.forum_user_id == "42"


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is not installed")
def test_the_gm_modkills_and_adds_a_substitute_in_the_browser(played, tmp_path: Path) -> None:
    rt, game_id = played
    sync_api = pytest.importorskip("playwright.sync_api")
    server = start_in_thread(create_app(rt.sessions, token=TOKEN, now=utcnow), "127.0.0.1", 0)
    try:
        with sync_api.sync_playwright() as pw:
            from tests.web.test_browser import ARGS

            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            page = _page(browser, javascript=False)  # the forms need no JavaScript
            _login(page, server.url)
            page.goto(f"{server.url}/games/{game_id}/roster")
            assert page.locator("svg.timeline").count() == 1
            assert "Ann replaced by Nina" in page.locator("svg.timeline").text_content()
            row = page.locator("tr[data-player='Bob']")
            row.locator("input[name=note]").nth(1).fill("never posted")
            row.locator("[data-confirm-modkill]").check()
            row.locator("[data-modkill]").click()
            page.wait_for_selector(".flash.ok")
            page.fill("input[name=add]", "Sam")
            page.click("[data-add-sub]")
            page.wait_for_selector(".flash.ok")
            _shot(page, "20-roster")
            assert "Bob modkilled (doctor)" in page.locator("svg.timeline").text_content()
            assert page.locator("ol.changes li").count() == 2
            browser.close()
    finally:
        server.stop()
    with rt.sessions() as session:
        game_row = session.get_one(Game, game_id)
        assert roster.substitutes(game_row) == ["Sam"]
        kill = next(c for c in roster.changes(session, game_id) if c.kind == "modkill")
        assert (kill.player, kill.by, kill.note) == ("Bob", "gm:Steph", "never posted")
        posts = session.scalars(select(Outbound.body).where(Outbound.idempotency_key.like(
            f"game{game_id}:roster%:post"))).all()  # fmt: skip
        assert any("Bob" in body and "Doctor" in body for body in posts)
