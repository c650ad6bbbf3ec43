"""Roster changes through the runtime: the loopback SMF forum, the real adapter, parser,
vote counter, resolver and publisher; the changes made through ``forumbot.services.roster``.
"""

from __future__ import annotations

import html
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from forumbot.db import upgrade
from forumbot.db.enums import OrderStatus, PlayerStatus, ReviewKind, ReviewState
from forumbot.db.models import Game, Order, Player, ReviewItem
from forumbot.services import cycle, games, roster
from forumbot.services.phases import daycount
from tests.runtime.smf_forum import SMFTestForum
from tests.runtime.test_game_http import http_runtime

DAY1 = datetime(2026, 12, 1, 21, 0, 30, tzinfo=UTC)  # 22:00 in Paris: Day 1 has begun

GAME = """
name: roster-village
forum: {{url: "{url}?topic=5.0", engine: smf}}
credentials: {{username: ModBot, password_env: FORUMBOT_PASSWORD}}
gm: GameMaster
ruleset: failheap
seed: 3
players:
  - {{name: Ann, role: sheriff}}
  - {{name: Bob, role: doctor}}
  - {{name: Carl, role: villager}}
  - {{name: Dan, role: villager}}
  - {{name: Eve, role: villager}}
  - {{name: Zed, role: godfather}}
schedule:
  timezone: Europe/Paris
  first_phase: day1
  start: 2026-12-01 22:00
  day: {{length: 48h, starts: "22:00"}}
  night: {{length: 24h}}
votes: {{syntax: [dollar_bold, bold_vote]{votes}}}
publishing: {{mode: auto, receipts: true, poll_interval: 2m}}
"""


@pytest.fixture
def game(tmp_path: Path, request: pytest.FixtureRequest):
    votes = getattr(request, "param", "")
    from forumbot.clock import FakeClock

    clock = FakeClock(DAY1)
    with SMFTestForum(clock) as forum:
        forum.add_post("GameMaster", "<b>Roster Village</b>: Day 1 begins")
        path = tmp_path / "game.yaml"
        path.write_text(GAME.format(url=forum.base_url, votes=votes), encoding="utf-8")
        url = f"sqlite:///{tmp_path / 'fb.sqlite3'}"
        upgrade(url)
        rt = http_runtime(url, forum, clock, "w1")
        game_id = games.register(rt, path)
        games.start(rt, game_id)
        cycle(rt, game_id)  # Day 1 opens
        yield rt, game_id, forum, clock
        rt.engine.dispose()


def _step(rt, game_id, clock, minutes=2) -> None:
    clock.advance(timedelta(minutes=minutes))
    cycle(rt, game_id)


def _change(rt, game_id, what, *args, **kw):
    with rt.sessions.begin() as session:
        game = session.get_one(Game, game_id)
        return getattr(roster, what)(session, game, *args, by="gm:Steph", at=rt.clock.now(), **kw)


def _sent_to(forum, name: str) -> list[str]:
    return [html.unescape(pm["body"]) for pm in forum.data.sent if pm["to"] == name]


def _bot_posts(forum) -> list[str]:
    return [html.unescape(p["body"]) for p in forum.data.posts if p["author"] == "ModBot"]


def test_a_replacement_takes_the_slot_its_pms_votes_and_results(game) -> None:
    rt, game_id, forum, clock = game
    forum.add_post("Ann", "<b>$Zed</b>")
    forum.add_pm("Ann", "day", "check Bob tonight")
    _step(rt, game_id, clock)
    view = _change(rt, game_id, "replace", "Ann", "Nina")
    assert (view.kind, view.player, view.new_player, view.phase) == (
        "replace",
        "Ann",
        "Nina",
        "day1",
    )
    _step(rt, game_id, clock)
    posts = _bot_posts(forum)
    assert any("Nina" in p and "replaces" in p and "Ann" in p for p in posts)
    role_pm = _sent_to(forum, "Nina")[0]
    assert "Sheriff" in role_pm and "take over Ann's place" in role_pm
    assert not any("Sheriff" in p for p in posts)  # the role is in the PM only

    # The old vote stands for the slot (the default); the old account's later vote does not.
    assert daycount.tally(rt, game_id).votes == {"Zed": ("Nina",)}
    forum.add_post("Ann", "<b>$Bob</b>")
    forum.add_pm("Ann", "still me", "check Carl tonight")
    _step(rt, game_id, clock)
    assert daycount.tally(rt, game_id).votes == {"Zed": ("Nina",)}
    with rt.sessions() as session:
        item = session.scalars(select(ReviewItem).where(ReviewItem.state == ReviewState.OPEN)).one()
        assert "Ann was replaced by Nina" in item.reason and item.kind is ReviewKind.ORDER
        nina = session.scalars(select(Player).where(Player.display_name == "Nina")).one()
        ann = session.scalars(select(Player).where(Player.display_name == "Ann")).one()
        assert ann.status is PlayerStatus.REPLACED and nina.role == "sheriff"
        # Ann's order from before the change is the slot's now.
        moved = session.scalars(select(Order).where(Order.status == OrderStatus.ACCEPTED)).all()
        assert [(o.player_id, o.targets) for o in moved] == [(nina.id, ["Bob"])]
    receipts_to_ann = len(_sent_to(forum, "Ann"))

    # The new account's PM is the slot's order, and its thread vote counts for the slot.
    forum.add_pm("Nina", "my order", "check Zed tonight")
    forum.add_post("Nina", "<b>$Dan</b>")
    forum.add_post("Bob", "<b>$Dan</b>")
    forum.add_post("Carl", "<b>$Dan</b>")
    forum.add_post("Ann", "<b>$Zed</b>")  # still not the slot's
    _step(rt, game_id, clock)
    assert daycount.tally(rt, game_id).votes == {"Dan": ("Nina", "Bob", "Carl")}
    assert _sent_to(forum, "Nina")[-1].startswith("Received: check Zed")
    assert len(_sent_to(forum, "Ann")) == receipts_to_ann  # no receipt to the old account

    clock.set(DAY1 + timedelta(hours=48))  # the Day's deadline: Dan is lynched
    for _ in range(3):
        _step(rt, game_id, clock, 1)
    clock.set(DAY1 + timedelta(hours=72))  # the Night's deadline: Nina's check is resolved
    for _ in range(3):
        _step(rt, game_id, clock, 1)
    assert any("Dan" in p and "lynched" in p for p in _bot_posts(forum))
    results = [b for b in _sent_to(forum, "Nina") if "Zed" in b and "Received" not in b]
    assert results, _sent_to(forum, "Nina")  # the sheriff's result goes to the slot's holder
    assert not any(
        "Zed" in b and "Received" not in b for b in _sent_to(forum, "Ann")[receipts_to_ann:]
    )


@pytest.mark.parametrize("game", [", replacement_inherits_vote: false"], indirect=True)
def test_with_the_option_off_the_old_vote_goes_once_the_new_account_posts(game) -> None:
    rt, game_id, forum, clock = game
    forum.add_post("Ann", "<b>$Zed</b>")
    forum.add_post("Bob", "<b>$Zed</b>")
    _step(rt, game_id, clock)
    _change(rt, game_id, "replace", "Ann", "Nina")
    forum.add_post("Nina", "Hi all, I am replacing in.")
    _step(rt, game_id, clock)
    assert daycount.tally(rt, game_id).votes == {"Zed": ("Bob",)}


def test_a_modkilled_player_is_dead_announced_and_his_pm_is_a_dead_players(game) -> None:
    rt, game_id, forum, clock = game
    forum.add_post("Bob", "<b>$Zed</b>")
    _step(rt, game_id, clock)
    view = _change(rt, game_id, "modkill", "Bob", note="inactive")
    assert (view.kind, view.role, view.revealed) == ("modkill", "doctor", True)
    _step(rt, game_id, clock)
    post = next(p for p in _bot_posts(forum) if "Bob" in p and "modkill" in p)
    assert "Bob was the [b]Doctor[/b]" in post
    assert daycount.tally(rt, game_id).votes == {}  # a dead player's vote does not count

    forum.add_pm("Bob", "N1", "heal Ann tonight")
    forum.add_post("Bob", "<b>$Carl</b>")
    _step(rt, game_id, clock)
    assert daycount.tally(rt, game_id).votes == {}
    with rt.sessions() as session:
        orders = session.scalars(select(Order)).all()
        assert orders and all(o.status is not OrderStatus.ACCEPTED for o in orders)
        items = session.scalars(select(ReviewItem).where(ReviewItem.kind == ReviewKind.ORDER)).all()
        assert len(items) == 1 and "dead" in items[0].reason.lower(), [i.reason for i in items]

    with pytest.raises(roster.RosterError, match="modkilled already"):
        _change(rt, game_id, "modkill", "Bob")


def test_a_player_leaving_is_replaced_by_the_next_substitute(game) -> None:
    rt, game_id, forum, clock = game
    with rt.sessions.begin() as session:
        game_row = session.get_one(Game, game_id)
        assert roster.add_substitute(game_row, "Sam") == ["Sam"]
        with pytest.raises(roster.RosterError, match="already plays"):
            roster.add_substitute(game_row, "carl")
    view = _change(rt, game_id, "leave", "Carl", substitute="next")
    assert (view.kind, view.new_player) == ("leave", "Sam")
    forum.add_post("Sam", "<b>$Zed</b>")
    _step(rt, game_id, clock)
    assert daycount.tally(rt, game_id).votes == {"Zed": ("Sam",)}
    with rt.sessions() as session:
        assert roster.substitutes(session.get_one(Game, game_id)) == []
        assert [c.kind for c in roster.changes(session, game_id)] == ["leave"]
    view = _change(rt, game_id, "leave", "Dan")  # nobody takes the slot: he is out
    assert view.kind == "leave" and view.new_player is None
    _step(rt, game_id, clock)
    assert any("Dan" in p and "left the game" in p for p in _bot_posts(forum))
