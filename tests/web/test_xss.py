"""Hostile player text (HTML, BBCode, javascript: URLs, attribute injection) is never markup."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from lxml import html as lxml_html
from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.db.models import Game, Player
from forumbot.web.bbcode import render_bbcode
from tests.web.seed import Seeded

EVIL_NAME = '<img src=x onerror=alert("name")>"\'><svg onload=alert(1)>'
OUR_SCRIPTS = {"/static/keys.js"}


# The GM page's wagon chart (forumbot/web/wagons.py) and history timeline
# (forumbot/web/timeline.py) are the only svg allowed: drawing elements only, and every
# attribute is checked like any other element's.
_CHART_TAGS = {"svg", "title", "g", "line", "polyline", "text", "rect", "circle"}
_CHARTS = ("wagons", "timeline")


def _in_wagon_chart(el: object) -> bool:
    chart = next((a for a in el.iterancestors("svg")), el if el.tag == "svg" else None)  # type: ignore[attr-defined]
    if chart is None or chart.get("class") not in _CHARTS:
        return False
    for name, value in el.attrib.items():  # type: ignore[attr-defined]
        assert not name.lower().startswith("on") and "javascript" not in value.lower()
    return el.tag in _CHART_TAGS  # type: ignore[attr-defined]


def _assert_inert(page: str, where: str) -> None:
    """No script but ours, no event handler, no javascript: link, no foreign style."""
    root = lxml_html.document_fromstring(page)
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        if el.tag == "script":
            assert el.get("src") in OUR_SCRIPTS and not (el.text or "").strip(), where
        if _in_wagon_chart(el):
            continue  # the server-drawn wagon chart: its attributes are still checked below
        assert el.tag not in ("svg", "iframe", "object", "embed", "img"), (where, el.tag)
        for name, value in el.attrib.items():
            assert not name.lower().startswith("on"), (where, el.tag, name)
            if name in ("href", "src", "action", "formaction"):
                assert (
                    not value.strip().lower().startswith(("javascript:", "data:", "vbscript:"))
                ), (
                    where,
                    value,
                )
            if name == "style":
                assert "url(" not in value and "expression" not in value, (where, value)


@pytest.fixture
def hostile(session: Session, seeded: Seeded) -> Seeded:
    """Give a player's aliases and statuses and the GM name hostile text as well (the
    built game carries hostile post and PM bodies, and an outsider account's hostile name,
    through the runtime)."""
    carl = session.scalar(select(Player).where(Player.display_name == "Carl"))
    assert carl is not None
    carl.aliases = [EVIL_NAME]
    carl.statuses = [EVIL_NAME]
    game = session.get(Game, seeded.game_id)
    assert game is not None
    game.gm_name = EVIL_NAME
    session.commit()
    return seeded


def _all_pages(s: Seeded) -> list[str]:
    g = s.game_id
    return [
        "/",
        f"/games/{g}/queue",
        f"/games/{g}/queue/{s.order_item_id}/edit",
        f"/games/{g}/queue/{s.vote_item_id}/edit",
        f"/games/{g}/phase",
        f"/games/{g}/phase/{s.day1_id}",
        f"/games/{g}/drafts",
        f"/games/{g}/report",
        f"/games/{g}/state",
    ]


def test_pages_with_hostile_text_are_inert(gm: FlaskClient, hostile: Seeded) -> None:
    for path in _all_pages(hostile):
        response = gm.get(path)
        assert response.status_code == 200, path
        _assert_inert(response.data.decode(), path)


def test_hostile_text_is_shown_escaped(gm: FlaskClient, hostile: Seeded) -> None:
    queue = gm.get(f"/games/{hostile.game_id}/queue").data.decode()
    assert "&lt;script&gt;" in queue  # the raw HTML is visible, as text
    assert 'href="javascript:' not in queue
    assert "&lt;img src=x onerror=alert(&#34;name&#34;)&gt;Eve" in queue  # an account's name
    state = gm.get(f"/games/{hostile.game_id}/state").data.decode()
    assert "&lt;img src=x onerror=" in state


def test_a_hostile_gm_name_is_escaped(client: FlaskClient, hostile: Seeded) -> None:
    from tests.web.conftest import TOKEN, csrf_of

    client.get("/login")
    client.post("/login", data={"token": TOKEN, "name": EVIL_NAME, "csrf_token": csrf_of(client)})
    page = client.get(f"/games/{hostile.game_id}/queue").data.decode()
    _assert_inert(page, "queue as evil GM")


def test_the_export_is_served_as_json_not_html(gm: FlaskClient, hostile: Seeded) -> None:
    response = gm.get(f"/games/{hostile.game_id}/export.json")
    assert response.mimetype == "application/json"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize(
    "bbcode",
    [
        "[url=javascript:alert(1)]x[/url]",
        "[url]javascript:alert(1)[/url]",
        "[url= JaVaScRiPt:alert(1)]x[/url]",
        "[url=java&#115;cript:alert(1)]x[/url]",
        '[url=http://a.example/" onclick="alert(1)]x[/url]',
        "[url=http://a.example/'onclick='alert(1)]x[/url]",
        "[img]javascript:alert(1)[/img]",
        '[img]http://a.example/x.png" onerror="alert(1)[/img]',
        "[color=red;background:url(javascript:alert(1))]x[/color]",
        '[color=red" onmouseover="alert(1)]x[/color]',
        "[size=9;position:fixed]x[/size]",
        "[quote=<script>alert(1)</script>]x[/quote]",
        '[spoiler="><img src=x onerror=alert(1)>]x[/spoiler]',
        "<script>alert(1)</script>[b]<b onclick=alert(1)>x</b>[/b]",
        "[b][i]unclosed[/b] [list][*]<svg onload=alert(1)>[/list]",
        "[url=data:text/html;base64,PHNjcmlwdD4=]x[/url]",
    ],
)
def test_bbcode_renderer_is_safe(bbcode: str) -> None:
    _assert_inert(f"<html><body>{render_bbcode(bbcode)}</body></html>", bbcode)


def test_bbcode_renders_the_common_tags() -> None:
    out = str(
        render_bbcode(
            "[b]bold[/b] [i]it[/i] [u]u[/u] [s]s[/s] [color=#c00]red[/color] [size=12]big[/size]\n"
            "[url=https://forum.example.org/?a=1&b=2]link[/url] [quote=Ann]hi[/quote] "
            "[spoiler]secret[/spoiler] [list][*]one[*]two[/list] [b][b]nested[/b][/b]"
        )
    )
    assert "<strong>bold</strong>" in out and "<em>it</em>" in out
    assert '<span style="color:#c00">red</span>' in out
    assert 'href="https://forum.example.org/?a=1&amp;b=2"' in out
    assert "<cite>Ann wrote:</cite>" in out and "<details class=bb-spoiler>" in out
    assert "<li>one</li><li>two</li>" in out and "<br>" in out
    assert "<strong><strong>nested</strong></strong>" in out
