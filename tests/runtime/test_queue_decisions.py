"""Issue 11 in the runtime: the GM's queue stores an order for any phase it may be for
(a night order sent by day, an order for the next night while the night's results wait
for approval), by ``forumbot queue`` and by the web page, and a rejection's notice tells
the player the GM's reason in the game's language."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import select

from forumbot.cli import main
from forumbot.db.enums import OrderStatus, PhaseStatus, ReviewKind, ReviewState
from forumbot.db.models import Order, Phase, Player, ReviewItem
from forumbot.localforum import LocalForum
from forumbot.services import cycle, review
from forumbot.web import create_app
from tests.runtime.test_order_state import RU_PLAYERS, _game


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def _pm(world: dict, clock, sender: str, text: str) -> None:
    LocalForum(world["forum_dir"], "Players", clock=clock).add_pm(
        sender, "order", text, clock.now()
    )


def _item(rt, game_id: int) -> int:
    with rt.sessions() as s:
        query = select(ReviewItem).where(
            ReviewItem.game_id == game_id,
            ReviewItem.kind == ReviewKind.ORDER,
            ReviewItem.state == ReviewState.OPEN,
        )
        items = s.scalars(query).all()
        assert len(items) == 1, [i.reason for i in items]
        return items[0].id


def _stored(rt, name: str) -> list[tuple[str | None, list, str, OrderStatus]]:
    with rt.sessions() as s:
        pid = s.scalar(select(Player.id).where(Player.display_name == name))
        rows = s.scalars(select(Order).where(Order.player_id == pid, Order.decided_by.like("gm:%")))
        return [(o.ability, o.targets, s.get_one(Phase, o.phase_id).name, o.status) for o in rows]


def _to_day1(world: dict, clock) -> None:
    """Night 1 ends (auto mode publishes it): Day 1 opens, Night 2 is planned."""
    rt, game_id = world["rt"], world["game_id"]
    cycle(rt, game_id)
    clock.advance(timedelta(hours=25))
    for _ in range(3):
        cycle(rt, game_id)
    with rt.sessions() as s:
        assert s.scalar(select(Phase.status).where(Phase.name == "day1")) is PhaseStatus.OPEN


def _to_awaiting_approval(world: dict, clock) -> None:
    """Night 1 ends in approve mode: its results wait for the GM; Day 1 is only planned."""
    rt, game_id = world["rt"], world["game_id"]
    cycle(rt, game_id)
    clock.advance(timedelta(hours=25))
    for _ in range(2):
        cycle(rt, game_id)
    with rt.sessions() as s:
        assert s.scalar(select(Phase.status).where(Phase.name == "night1")) is PhaseStatus.RESOLVED
        assert s.scalar(select(Phase.id).where(Phase.name == "night2")) is None


def test_a_night_order_sent_by_day_is_accepted_for_the_night(auto_world, clock):
    rt, game_id, url = auto_world["rt"], auto_world["game_id"], auto_world["url"]
    _to_day1(auto_world, clock)
    _pm(auto_world, clock, "Bob", "heal Ann, or maybe Carl? your call")
    cycle(rt, game_id)
    item = _item(rt, game_id)
    listing = _cli("queue", "test-village", "--database", url)
    assert re.search(r"phases: .*day1.*night2", listing), listing
    out = _cli("queue", "test-village", "--edit", str(item), "--order", "heal Carl",
               "--phase", "night2", "--database", url)  # fmt: skip
    assert "edited" in out and "for night2" in out
    assert _stored(rt, "Bob") == [("heal", ["Carl"], "night2", OrderStatus.ACCEPTED)]


def test_the_best_candidate_is_accepted_for_the_phase_it_fits(auto_world, clock):
    """No --phase: a night reading queued by day is stored for the night, never refused."""
    rt, game_id, url = auto_world["rt"], auto_world["game_id"], auto_world["url"]
    _to_day1(auto_world, clock)
    _pm(auto_world, clock, "Bob", "heal Ann tonight. Not sure though.")
    cycle(rt, game_id)
    item = _item(rt, game_id)
    assert "for night2" in _cli("queue", "test-village", "--accept", str(item), "--database", url)
    assert _stored(rt, "Bob") == [("heal", ["Ann"], "night2", OrderStatus.ACCEPTED)]


def test_an_order_for_the_next_night_while_results_wait_for_approval(world, clock):
    rt, game_id, url = world["rt"], world["game_id"], world["url"]
    _to_awaiting_approval(world, clock)
    _pm(world, clock, "Bob", "for night 2: heal Ann, not sure yet")
    cycle(rt, game_id)
    item = _item(rt, game_id)
    assert "night2" in _cli("queue", "test-village", "--database", url)
    out = _cli("queue", "test-village", "--edit", str(item), "--order", "heal Ann",
               "--phase", "night2", "--database", url)  # fmt: skip
    assert "for night2" in out
    assert _stored(rt, "Bob") == [("heal", ["Ann"], "night2", OrderStatus.ACCEPTED)]
    with rt.sessions() as s:  # planned after Day 1, which the clock opens first
        names = [p.name for p in s.scalars(select(Phase).order_by(Phase.sequence))]
        assert names == ["night1", "day1", "night2"]
        assert s.scalar(select(Phase.status).where(Phase.name == "night2")) is PhaseStatus.PENDING


def test_the_web_edit_offers_the_night_and_stores_the_order_there(world, clock):
    rt, game_id = world["rt"], world["game_id"]
    _to_awaiting_approval(world, clock)
    _pm(world, clock, "Bob", "heal Ann maybe")
    cycle(rt, game_id)
    item = _item(rt, game_id)
    app = create_app(rt.sessions, token="test-token-0123456789", now=clock.now)
    app.config["TESTING"] = True
    client = app.test_client()
    client.get("/login")
    with client.session_transaction() as sess:
        csrf = str(sess["csrf"])
    client.post("/login", data={"token": "test-token-0123456789", "name": "Steph",
                                "csrf_token": csrf})  # fmt: skip
    with client.session_transaction() as sess:
        csrf = str(sess["csrf"])  # a new session after the login
    page = client.get(f"/games/{game_id}/queue/{item}/edit?phase=night2")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and 'value="night2"' in html and 'value="heal"' in html
    form = {"csrf_token": csrf, "phase": "night2", "ability": "heal", "heal-target-0": "Ann"}
    response = client.post(f"/games/{game_id}/queue/{item}/edit", data=form)
    assert response.status_code == 302, response.get_data(as_text=True)
    assert _stored(rt, "Bob") == [("heal", ["Ann"], "night2", OrderStatus.ACCEPTED)]


def test_a_rejection_tells_the_player_the_gm_s_reason(world, clock):
    rt, game_id, url = world["rt"], world["game_id"], world["url"]
    cycle(rt, game_id)
    _pm(world, clock, "Bob", "heal Ann or Carl, your call")
    cycle(rt, game_id)
    item = _item(rt, game_id)
    reason = "pick one player yourself, then send it again"
    _cli("queue", "test-village", "--reject", str(item), "--note", reason, "--database", url)
    cycle(rt, game_id)
    notices = [pm["body"] for pm in LocalForum(world["forum_dir"], "ModBot").state.sent
               if pm["to"] == ["Bob"] and "rejected" in pm["body"]]  # fmt: skip
    assert len(notices) == 1 and reason in notices[0] and "Night 1" in notices[0]
    assert "your call" not in notices[0] and "unsure" not in notices[0]  # not the parser's


def test_a_rejection_s_notice_is_in_the_game_s_language(tmp_path: Path, clock):
    rt, game_id = _game(tmp_path, clock, "ru_mafia", RU_PLAYERS)
    url = f"sqlite:///{tmp_path / 'fb.sqlite3'}"
    LocalForum(tmp_path / "forum", "Masha", clock=clock).add_pm(
        "Masha", "ход", "лечу Oleg или Kot, реши сам", clock.now())  # fmt: skip
    cycle(rt, game_id)
    item = _item(rt, game_id)
    _cli(
        "queue", "test-village", "--reject", str(item), "--note", "выбери одного", "--database", url
    )
    cycle(rt, game_id)
    notices = [pm["body"] for pm in LocalForum(tmp_path / "forum", "ModBot").state.sent
               if pm["to"] == ["Masha"] and "отклонил" in pm["body"]]  # fmt: skip
    assert len(notices) == 1 and "Причина, указанная ведущим: выбери одного" in notices[0]


def _options_game(tmp_path: Path, clock, options: str):
    """The test village with the game file's ``options`` block."""
    players = "players:\n" + "".join(
        f"  - {{name: {n}, role: {r}}}\n"
        for n, r in (("Ann", "sheriff"), ("Bob", "doctor"), ("Carl", "villager"),
                     ("Dan", "villager"), ("Zed", "godfather"))
    )  # fmt: skip
    return _game(tmp_path, clock, "failheap", players + options)


def test_the_game_s_options_reach_the_parser_and_the_pickers(tmp_path: Path, clock):
    """Failheap's ``doctor_self_heal`` (default false) set to true in the game file: the
    live parser accepts the Doctor's self-heal and the edit's pickers offer him."""
    rt, game_id = _options_game(tmp_path, clock, "options: {doctor_self_heal: true}\n")
    url = f"sqlite:///{tmp_path / 'fb.sqlite3'}"
    forum = LocalForum(tmp_path / "forum", "Bob", clock=clock)
    forum.add_pm("Bob", "order", "I heal myself tonight", clock.now())
    cycle(rt, game_id)
    with rt.sessions() as s:
        rows = s.scalars(select(Order).where(Order.ability == "heal")).all()
        assert [(o.targets, o.status) for o in rows] == [(["Bob"], OrderStatus.ACCEPTED)]
    forum.add_pm("Bob", "change", "heal Ann or myself, your call", clock.now())
    cycle(rt, game_id)
    item = _item(rt, game_id)
    with rt.sessions() as s:
        heal = review.choices_for(s, item).ability("heal")
        assert heal is not None and "Bob" in heal.targets[0].options
    out = _cli("queue", "test-village", "--edit", str(item), "--order", "heal Bob",
               "--database", url)  # fmt: skip
    assert "edited" in out


def test_without_the_option_the_self_heal_is_refused(tmp_path: Path, clock):
    rt, game_id = _options_game(tmp_path, clock, "")
    LocalForum(tmp_path / "forum", "Bob", clock=clock).add_pm(
        "Bob", "order", "I heal myself tonight", clock.now())  # fmt: skip
    cycle(rt, game_id)
    with rt.sessions() as s:
        rows = s.scalars(select(Order).where(Order.player_id.is_not(None))).all()
        assert all(o.status is not OrderStatus.ACCEPTED for o in rows) and rows
