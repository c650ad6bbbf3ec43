"""The GM page through Flask's test client: auth, CSRF, every page, the decisions."""

from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from forumbot.db.enums import DeliveryState, ReviewState
from forumbot.db.models import Order, Outbound, ReviewItem
from tests.web.conftest import TOKEN, csrf_of
from tests.web.seed import Seeded


def _pages(s: Seeded) -> list[str]:
    g = s.game_id
    return [
        "/",
        f"/games/{g}/queue",
        f"/games/{g}/queue?decided=1",
        f"/games/{g}/queue/{s.order_item_id}/edit",
        f"/games/{g}/phase",
        f"/games/{g}/phase/{s.day1_id}",
        f"/games/{g}/drafts",
        f"/games/{g}/report",
        f"/games/{g}/state",
        f"/games/{g}/export.json",
    ]


def test_every_page_needs_login(client: FlaskClient, seeded: Seeded) -> None:
    for path in _pages(seeded):
        response = client.get(path)
        assert response.status_code == 302, path
        assert "/login" in response.headers["Location"]
        assert b"Zo\xc3\xa9" not in response.data and b"godfather" not in response.data


def test_posts_without_login_are_refused(client: FlaskClient, seeded: Seeded) -> None:
    token = csrf_of(client)
    url = f"/games/{seeded.game_id}/drafts/{seeded.post_draft_id}/approve"
    assert client.post(url, data={"csrf_token": token}).status_code == 403


def test_wrong_token_does_not_log_in(client: FlaskClient, seeded: Seeded) -> None:
    response = client.post(
        "/login", data={"token": "nope", "name": "Eve", "csrf_token": csrf_of(client)}
    )
    assert response.status_code == 401
    assert client.get(f"/games/{seeded.game_id}/state").status_code == 302


def test_login_needs_csrf(client: FlaskClient) -> None:
    client.get("/login")
    assert client.post("/login", data={"token": TOKEN, "name": "Steph"}).status_code == 400


def test_login_redirects_only_to_local_paths(client: FlaskClient) -> None:
    client.get("/login")
    response = client.post(
        "/login?next=//evil.example/x",
        data={"token": TOKEN, "name": "Steph", "csrf_token": csrf_of(client)},
    )
    assert response.headers["Location"] == "/"


def test_every_page_renders_for_the_gm(gm: FlaskClient, seeded: Seeded) -> None:
    for path in _pages(seeded):
        response = gm.get(path)
        assert response.status_code == 200, (path, response.data[:500])
        assert "Content-Security-Policy" in response.headers


def test_cookie_is_httponly_and_strict(client: FlaskClient) -> None:
    client.get("/login")
    response = client.post(
        "/login", data={"token": TOKEN, "name": "S", "csrf_token": csrf_of(client)}
    )
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


@pytest.mark.drafted
def test_post_without_csrf_changes_nothing(
    gm: FlaskClient, session: Session, seeded: Seeded
) -> None:
    g = seeded.game_id
    for url, data in (
        (f"/games/{g}/drafts/{seeded.post_draft_id}/approve", {}),
        (f"/games/{g}/queue/{seeded.vote_item_id}/accept", {"candidate": "0"}),
        (f"/games/{g}/queue/{seeded.vote_item_id}/reject", {"note": "x"}),
    ):
        assert gm.post(url, data=data).status_code == 400
        assert gm.post(url, data={**data, "csrf_token": "forged"}).status_code == 400
    session.expire_all()
    assert session.get(Outbound, seeded.post_draft_id).state is DeliveryState.DRAFT
    assert session.get(ReviewItem, seeded.vote_item_id).state is ReviewState.OPEN


def test_accept_a_candidate(gm: FlaskClient, session: Session, seeded: Seeded) -> None:
    url = f"/games/{seeded.game_id}/queue/{seeded.order_item_id}/accept"
    response = gm.post(
        url, data={"candidate": "0", "csrf_token": csrf_of(gm)}, follow_redirects=True
    )
    assert response.status_code == 200 and b"candidate 1 accepted" in response.data
    item = session.get(ReviewItem, seeded.order_item_id)
    assert item.state is ReviewState.ACCEPTED and item.decided_by == "gm:Steph"


def test_edit_with_pickers(gm: FlaskClient, session: Session, seeded: Seeded) -> None:
    url = f"/games/{seeded.game_id}/queue/{seeded.order_item_id}/edit"
    page = gm.get(url).data.decode()
    assert 'name="heal-target-0"' in page and '<option value="Dave"' not in page.split("teach")[0]
    bad = gm.post(url, data={"ability": "heal", "heal-target-0": "Dave", "csrf_token": csrf_of(gm)})
    assert bad.status_code == 422 and b"dead, or not in the game" in bad.data
    good = gm.post(
        url,
        data={"ability": "heal", "heal-target-0": "Carl", "note": "meant Carl",
              "teach-text-0": "carly", "teach-kind-0": "player", "teach-value-0": "Carl",
              "csrf_token": csrf_of(gm)},
    )  # fmt: skip
    assert good.status_code == 302
    item = session.get(ReviewItem, seeded.order_item_id)
    assert item.state is ReviewState.EDITED and item.note == "meant Carl"
    assert gm.get(f"/games/{seeded.game_id}/state").data.count(b"carly") == 1


def test_reject_with_note(gm: FlaskClient, session: Session, seeded: Seeded) -> None:
    url = f"/games/{seeded.game_id}/queue/{seeded.vote_item_id}/reject"
    response = gm.post(url, data={"note": "joke vote", "csrf_token": csrf_of(gm)})
    assert response.status_code == 302
    assert session.get(ReviewItem, seeded.vote_item_id).state is ReviewState.REJECTED


@pytest.mark.drafted
def test_approve_hold_and_edit_drafts(gm: FlaskClient, session: Session, seeded: Seeded) -> None:
    base = f"/games/{seeded.game_id}/drafts"
    token = csrf_of(gm)
    gm.post(
        f"{base}/{seeded.pm_draft_id}/edit",
        data={"body": "Zoé: [i]innocent[/i]", "subject": "N2", "csrf_token": token},
    )
    gm.post(f"{base}/{seeded.pm_draft_id}/approve", data={"csrf_token": token})
    gm.post(f"{base}/{seeded.pm_draft_id}/approve", data={"csrf_token": token})
    gm.post(f"{base}/{seeded.post_draft_id}/hold", data={"csrf_token": token})
    session.expire_all()
    pm = session.get(Outbound, seeded.pm_draft_id)
    assert pm.state is DeliveryState.APPROVED and pm.approved_by == "gm:Steph"
    assert pm.body == "Zoé: [i]innocent[/i]" and pm.subject == "N2"
    assert session.get(Outbound, seeded.post_draft_id).state is DeliveryState.HELD
    response = gm.post(
        f"{base}/{seeded.pm_draft_id}/edit",
        data={"body": "late", "csrf_token": token},
        follow_redirects=True,
    )
    assert b"only drafts can be edited" in response.data


def test_phase_page_shows_orders_votes_deadlines(gm: FlaskClient, seeded: Seeded) -> None:
    night = gm.get(f"/games/{seeded.game_id}/phase").data.decode()
    assert "night2" in night and "check Zoé" in night and "late" in night
    assert "disabled" in night and "phases service" in night
    assert "passed 1h 0m ago" in night and "2h 0m left" in night
    assert "2026-12-05 22:00 Europe/Paris (21:00 UTC)" in night  # the game file's zone
    day = gm.get(f"/games/{seeded.game_id}/phase/{seeded.day1_id}").data.decode()
    # The runtime's count of the Day's stored posts, as the Day began (Dave, lynched since,
    # was alive and a valid target), the same as the Day's published result:
    assert "<b>Dave</b> (4): Ann, Bob, Zoé, Маша" in day
    assert "Waiting for your decision (1): Carl" in day and "Decision: lynch (Dave)" in day


def test_resolve_now_calls_the_service(factory, seeded: Seeded) -> None:
    from forumbot.web import create_app

    calls = []
    app = create_app(
        factory, token=TOKEN, resolve_now=lambda g, p, who: calls.append((g, p, who)) or "resolved"
    )
    client = app.test_client()
    client.get("/login")
    client.post("/login", data={"token": TOKEN, "name": "Steph", "csrf_token": csrf_of(client)})
    page = client.get(f"/games/{seeded.game_id}/phase").data.decode()
    assert "Resolve now</button>" in page and "disabled" not in page.split("Resolve now")[0][-60:]
    client.post(
        f"/games/{seeded.game_id}/phase/{seeded.night2_id}/resolve",
        data={"csrf_token": csrf_of(client)},
    )
    assert calls == [(seeded.game_id, seeded.night2_id, "Steph")]


def test_report_shows_every_event_with_its_wording(gm: FlaskClient, seeded: Seeded) -> None:
    page = gm.get(f"/games/{seeded.game_id}/report").data.decode()
    assert "Order #1 Bob → Heal Ann: done." in page  # a GM-only event of night 1
    assert "You checked" in page and "Innocent" in page  # Ann's private result, night 1
    assert "The town has decided to lynch" in page and "(4 votes)" in page  # Day 1


@pytest.mark.drafted
def test_export_is_the_whole_game(gm: FlaskClient, session: Session, seeded: Seeded) -> None:
    from sqlalchemy import func, select

    from forumbot.db.models import PhaseEvent, RawPM, RawPost

    response = gm.get(f"/games/{seeded.game_id}/export.json")
    assert response.headers["Content-Disposition"].startswith("attachment")
    data = json.loads(response.data)
    assert data["game"]["name"] == "failheap-7"
    assert {p["display_name"] for p in data["players"]} >= {"Ann", "Zoé", "Dave"}
    for key, model in (("outbound", Outbound), ("events", PhaseEvent), ("raw_pms", RawPM),
                       ("raw_posts", RawPost)):  # fmt: skip
        assert len(data[key]) == session.scalar(select(func.count()).select_from(model)) > 0


def test_other_games_items_are_not_reachable(gm: FlaskClient, seeded: Seeded) -> None:
    assert gm.get("/games/999/queue").status_code == 404
    assert gm.get(f"/games/{seeded.game_id}/queue/9999/edit").status_code == 404


def test_edit_a_vote(gm: FlaskClient, session: Session, seeded: Seeded) -> None:
    url = f"/games/{seeded.game_id}/queue/{seeded.vote_item_id}/edit"
    page = gm.get(url).data.decode()
    assert "Edit the vote of Carl" in page and 'value="no_lynch"' in page
    response = gm.post(url, data={"ability": "no_lynch", "csrf_token": csrf_of(gm)})
    assert response.status_code == 302
    item = session.get(ReviewItem, seeded.vote_item_id)
    assert item.state is ReviewState.EDITED
    day = gm.get(f"/games/{seeded.game_id}/phase/{seeded.day1_id}").data.decode()
    assert "No Lynch</b> (1): Carl" in day  # the runtime's count follows the GM's edit


def test_edit_form_suggests_what_the_candidate_teaches(gm: FlaskClient, seeded: Seeded) -> None:
    page = gm.get(f"/games/{seeded.game_id}/queue/{seeded.vote_item_id}/edit").data.decode()
    assert 'name="teach-text-0" placeholder="as written, e.g. annie" value="Zoey"' in page


def test_alerts_are_acknowledged(gm: FlaskClient, session: Session, seeded: Seeded) -> None:
    from forumbot.db.enums import ReviewKind

    alert = ReviewItem(game_id=seeded.game_id, kind=ReviewKind.ALERT, reason="forum is down")
    session.add(alert)
    session.commit()
    page = gm.get(f"/games/{seeded.game_id}/queue").data.decode()
    assert "forum is down" in page and "/acknowledge" in page
    url = f"/games/{seeded.game_id}/queue/{alert.id}/acknowledge"
    assert gm.post(url, data={"csrf_token": csrf_of(gm)}).status_code == 302
    session.expire_all()
    assert session.get(ReviewItem, alert.id).decided_by == "gm:Steph"


def test_state_page_reads_the_resolver_state(gm: FlaskClient, seeded: Seeded) -> None:
    page = gm.get(f"/games/{seeded.game_id}/state").data.decode()
    rows = [" ".join(row.split()) for row in page.split("<tr")]
    assert any("Dave" in r and "villager" in r and "dead" in r for r in rows)  # lynched Day 1
    assert any("Zoé" in r and "godfather" in r and "alive" in r for r in rows)
    assert any("day1" in r and "2026-12-04 21:01" in r for r in rows)  # when it resolved


@pytest.mark.drafted
def test_approve_all_drafts_of_a_phase(gm: FlaskClient, session: Session, seeded: Seeded) -> None:
    base = f"/games/{seeded.game_id}/drafts"
    gm.post(f"{base}/{seeded.post_draft_id}/hold", data={"csrf_token": csrf_of(gm)})
    page = gm.get(base).data.decode()
    assert "Approve all 2 drafts of night2" in page  # Ann's result and the GM's report
    gm.post(f"{base}/phase/{seeded.night2_id}/approve", data={"csrf_token": csrf_of(gm)})
    session.expire_all()
    assert session.get(Outbound, seeded.pm_draft_id).state is DeliveryState.APPROVED
    assert session.get(Outbound, seeded.post_draft_id).state is DeliveryState.HELD


def test_an_empty_game_renders_every_page(gm: FlaskClient, session: Session) -> None:
    from forumbot.db.models import Game

    game = Game(name="empty", forum_id=1, topic_id="1", topic_url="https://f.example/t1",
                ruleset="no-such-ruleset", seed=1)  # fmt: skip
    session.add(game)
    session.commit()
    for page in ("queue", "phase", "drafts", "report", "state", "export.json"):
        response = gm.get(f"/games/{game.id}/{page}")
        assert response.status_code == 200, page


@pytest.mark.drafted
def test_sent_messages_are_listed_on_request(
    gm: FlaskClient, session: Session, seeded: Seeded
) -> None:
    from forumbot.db.repo import move_outbound

    row = session.get(Outbound, seeded.pm_draft_id)
    for state in (DeliveryState.APPROVED, DeliveryState.SENDING, DeliveryState.SENT):
        move_outbound(session, row, state, by="gm:Steph", forum_message_id="77")
    session.commit()
    base = f"/games/{seeded.game_id}/drafts"
    assert f'id="msg-{seeded.pm_draft_id}"' not in gm.get(base).data.decode()
    assert f'id="msg-{seeded.pm_draft_id}"' in gm.get(f"{base}?sent=1").data.decode()


def _dctp_item(session: Session, seeded: Seeded, role: str) -> int:
    """Make Bob a DCTP player of ``role`` in a DCTP game; skip if that ruleset does not load."""
    from forumbot.db.models import Game, Player
    from forumbot.services import review

    game = session.get(Game, seeded.game_id)
    game.ruleset = "dctp"
    bob = session.query(Player).filter_by(game_id=game.id, display_name="Bob").one()
    bob.role = role
    session.commit()
    if review.load_game_ruleset(game) is None:
        pytest.skip("the dctp ruleset does not load")
    return seeded.order_item_id


def test_crime_and_phase_pickers(gm: FlaskClient, session: Session, seeded: Seeded) -> None:
    item_id = _dctp_item(session, seeded, "takagi")
    url = f"/games/{seeded.game_id}/queue/{item_id}/edit"
    page = gm.get(url).data.decode()
    assert 'name="arrest-target-1-crime"' in page and 'name="arrest-param-phase"' in page
    response = gm.post(url, data={
        "ability": "arrest", "arrest-target-0": "Zoé", "arrest-target-1-crime": "kill",
        "arrest-target-1-victim": "Dave", "arrest-target-1-phase": "night1",
        "arrest-param-phase": "night2", "csrf_token": csrf_of(gm)})  # fmt: skip
    assert response.status_code == 302, response.data.decode()[-1500:]
    order = session.query(Order).filter_by(decided_by="gm:Steph").one()
    assert order.targets == ["Zoé", {"crime": "kill", "victim": "Dave", "phase": "night1"}]
    assert order.params == {"phase": "night2"}


def test_text_parameters_with_choices_are_picked(
    gm: FlaskClient, session: Session, seeded: Seeded
) -> None:
    item_id = _dctp_item(session, seeded, "makoto")
    url = f"/games/{seeded.game_id}/queue/{item_id}/edit"
    page = gm.get(url).data.decode()
    assert '<select name="travel-param-direction"' in page
    bad = gm.post(url, data={"ability": "travel", "travel-param-direction": "to_mars",
                             "csrf_token": csrf_of(gm)})  # fmt: skip
    assert bad.status_code == 422 and b"to_mars" in bad.data
