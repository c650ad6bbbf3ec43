"""End to end in headless Chromium: log in, decide a queue item, approve a draft, see every page.

Uses Debian's ``/usr/bin/chromium`` through Playwright's ``executable_path`` (never
``playwright install``). Screenshots go to ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from forumbot.db.enums import DeliveryState, PhaseStatus, ReviewState
from forumbot.db.models import Outbound, Phase, ReviewItem
from forumbot.web import create_app
from forumbot.web.server import RunningServer, start_in_thread
from tests.conftest import ROOT
from tests.web.conftest import TOKEN
from tests.web.seed import NOW, Seeded

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "test-artifacts" / "screenshots"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is not installed"),
]


@pytest.fixture
def server(factory: sessionmaker[Session], db_url: str, seeded: Seeded) -> Iterator[RunningServer]:
    """The GM page over the runtime: its "Resolve now" runs the phases service."""
    from forumbot.web.resolve import runtime_resolve_now

    app = create_app(factory, token=TOKEN, now=lambda: NOW, resolve_now=runtime_resolve_now(db_url))
    running = start_in_thread(app, "127.0.0.1", 0)
    yield running
    running.stop()


def _draft_of(session: Session, seeded: Seeded, kind: str, to: list[str]) -> int:
    """The night 2 draft the resolution wrote (a post, or the PM to ``to``)."""
    waiting = (Outbound.phase_id == seeded.night2_id) & (Outbound.state == DeliveryState.DRAFT)
    rows = session.scalars(select(Outbound).where(waiting)).all()
    return next(
        r.id for r in rows if r.kind.value == kind and (kind == "post" or r.recipients == to)
    )


def _resolve_night2(page: Any, base: str, seeded: Seeded) -> None:
    """The GM presses "Resolve now" on night 2 (its queue decided): its drafts are written."""
    page.goto(f"{base}/games/{seeded.game_id}/phase/{seeded.night2_id}")
    page.click("button:has-text('Resolve now')")
    page.wait_for_selector(".flash")
    assert "night2 is resolved" in page.locator(".flash").inner_text()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield chromium
        chromium.close()


def _page(browser: Any, *, javascript: bool = True) -> Any:
    context = browser.new_context(
        viewport={"width": 1200, "height": 900}, java_script_enabled=javascript
    )
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.dialogs = dialogs  # an alert() would mean hostile text ran as script
    return page


def _login(page: Any, base: str) -> None:
    page.goto(f"{base}/")
    assert "/login" in page.url
    page.fill("input[name=token]", TOKEN)
    page.fill("input[name=name]", "Steph")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_gm_resolves_an_item_and_approves_a_draft(
    browser: Any, server: RunningServer, session: Session, seeded: Seeded
) -> None:
    base, g = server.url, seeded.game_id
    page = _page(browser)
    page.goto(f"{base}/login")
    _shot(page, "01-login")
    _login(page, base)
    _shot(page, "02-games")

    page.goto(f"{base}/games/{g}/queue/{seeded.order_item_id}/edit")
    _shot(page, "04a-edit-order")
    assert page.locator("select[name='heal-target-0'] option[value='Dave']").count() == 0
    page.goto(f"{base}/games/{g}/queue")
    _shot(page, "03-queue")
    item = page.locator(f"#item-{seeded.order_item_id}")
    assert "heal annie please" in item.locator("pre.raw").first.inner_text()
    assert "<script>" in item.locator("details pre.raw").text_content()  # shown as text
    item.locator("[data-accept='1']").click()
    page.wait_for_selector(".flash.ok")
    session.expire_all()
    decided = session.get(ReviewItem, seeded.order_item_id)
    assert decided is not None and decided.state is ReviewState.ACCEPTED
    assert decided.decided_by == "gm:Steph"

    page.goto(f"{base}/games/{g}/queue/{seeded.vote_item_id}/edit")
    _shot(page, "04b-edit-vote")
    page.goto(f"{base}/games/{g}/phase")
    _shot(page, "05-phase")
    page.goto(f"{base}/games/{g}/phase/{seeded.day1_id}")
    _shot(page, "06-phase-day1")
    assert "Dave (4): Ann, Bob, Zoé, Маша" in page.locator("main").inner_text()

    _resolve_night2(page, base, seeded)  # Bob's order decided above: night 2 resolves
    session.expire_all()
    pm_draft = _draft_of(session, seeded, "pm", ["Ann"])
    page.goto(f"{base}/games/{g}/drafts")
    _shot(page, "07-drafts")
    assert page.locator(".bb a[href^='javascript']").count() == 0
    page.locator(f"#msg-{pm_draft} [data-approve]").click()
    page.wait_for_selector(".flash.ok")
    session.expire_all()
    outbox = session.get(Outbound, pm_draft)
    assert outbox is not None and outbox.state is DeliveryState.APPROVED
    assert outbox.approved_by == "gm:Steph" and "Innocent" in outbox.body
    assert page.locator(f"#msg-{pm_draft} [data-approve]").count() == 0

    page.goto(f"{base}/games/{g}/report")
    _shot(page, "08-report")
    page.goto(f"{base}/games/{g}/state")
    _shot(page, "09-state")
    with page.expect_download() as download:
        page.click("text=Export the whole game as JSON")
    assert download.value.suggested_filename == "failheap-7.json"
    assert page.dialogs == []


def test_keyboard_shortcuts_accept_the_first_candidate(
    browser: Any, server: RunningServer, session: Session, seeded: Seeded
) -> None:
    page = _page(browser)
    _login(page, server.url)
    page.goto(f"{server.url}/games/{seeded.game_id}/queue")
    page.keyboard.press("j")
    page.keyboard.press("1")
    page.wait_for_selector(".flash.ok")
    session.expire_all()
    # the first item is the oldest: Carl's doubtful Day 1 vote, read as Zoé
    assert session.get(ReviewItem, seeded.vote_item_id).state is ReviewState.ACCEPTED
    page.keyboard.press("d")
    page.wait_for_url("**/drafts")
    assert page.dialogs == []


def test_the_essentials_work_without_javascript(
    browser: Any, server: RunningServer, session: Session, seeded: Seeded
) -> None:
    page = _page(browser, javascript=False)
    _login(page, server.url)
    page.goto(f"{server.url}/games/{seeded.game_id}/queue/{seeded.order_item_id}/edit")
    page.select_option("select[name='heal-target-0']", "Carl")
    page.fill("input[name=note]", "meant Carl")
    page.click("text=Store this order")
    page.wait_for_selector(".flash.ok")
    page.locator(f"#item-{seeded.vote_item_id} input[name=note]").fill("joke")
    page.locator(f"#item-{seeded.vote_item_id} button:has-text('Reject')").click()
    page.wait_for_selector(".flash.ok")
    _resolve_night2(page, server.url, seeded)
    session.expire_all()
    post_draft = _draft_of(session, seeded, "post", [])
    page.goto(f"{server.url}/games/{seeded.game_id}/drafts")
    page.locator(f"#msg-{post_draft} [data-hold]").click()
    page.wait_for_selector(".flash.ok")
    session.expire_all()
    assert session.get(ReviewItem, seeded.order_item_id).state is ReviewState.EDITED
    assert session.get(ReviewItem, seeded.vote_item_id).state is ReviewState.REJECTED
    assert session.get(Outbound, post_draft).state is DeliveryState.HELD


def test_resolve_now_drafts_the_phase(
    browser: Any, server: RunningServer, factory: sessionmaker[Session], seeded: Seeded
) -> None:
    from forumbot.services.phases import drafting

    page = _page(browser)
    _login(page, server.url)
    page.goto(f"{server.url}/games/{seeded.game_id}/phase/{seeded.night2_id}")
    page.click("button:has-text('Resolve now')")  # Bob's unclear order is still open
    page.wait_for_selector(".flash")
    assert "night2 is frozen, but not resolved yet" in page.locator(".flash").inner_text()
    with factory() as session:
        assert session.get_one(Phase, seeded.night2_id).status is PhaseStatus.FROZEN
    page.goto(f"{server.url}/games/{seeded.game_id}/queue")
    page.locator(f"#item-{seeded.order_item_id} [data-accept='1']").click()
    page.wait_for_selector(".flash.ok")
    _resolve_night2(page, server.url, seeded)
    _shot(page, "10-phase-after-resolve-now")
    with factory() as session:
        phase = session.get_one(Phase, seeded.night2_id)
        rows = session.scalars(select(Outbound).where(Outbound.phase_id == phase.id)).all()
        results = [o for o in rows if drafting.is_result(phase.game, phase, o.idempotency_key)]
        assert results and all(o.state is DeliveryState.DRAFT for o in results)  # none sent
    page.goto(f"{server.url}/games/{seeded.game_id}/drafts")
    _shot(page, "11-drafts-after-resolve-now")
    assert page.dialogs == []
