"""A game driven by the real scheduler on a fake clock, against the local stateful forum.

The whole pipeline is real: order parser, vote counter, resolver and event templates.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from forumbot import jobs
from forumbot.db.enums import GameStatus, OrderStatus, PhaseStatus
from forumbot.db.models import Game, Order, Phase, Player
from forumbot.localforum import LocalForum
from tests.runtime.conftest import make_runtime


def _run(scheduler, clock, minutes=2):
    clock.advance(timedelta(minutes=minutes))
    scheduler.run_due()


def _orders(rt, name):
    with rt.sessions() as s:
        pid = s.scalar(select(Player.id).where(Player.display_name == name))
        return [(o.ability, o.targets, o.status) for o in s.scalars(
            select(Order).where(Order.player_id == pid).order_by(Order.id))]  # fmt: skip


def test_orders_receipts_restart_freeze_and_a_win(auto_world, clock):
    rt, game_id, forum_dir = auto_world["rt"], auto_world["game_id"], auto_world["forum_dir"]
    players = LocalForum(forum_dir, "Players", clock=clock)
    scheduler = jobs.make_scheduler(rt, manual=True)
    scheduler.start()
    jobs.add_sync_job(scheduler, rt)
    scheduler.run_due()  # lease + schedule
    scheduler.run_due()  # first cycle: night 1 opens

    players.add_pm("Zed", "N1", "kill Carl", clock.now())
    _run(scheduler, clock)  # one poll interval later: parsed and receipted
    sent = LocalForum(forum_dir, "ModBot").state.sent
    assert any(pm["to"] == ["Zed"] and pm["body"].startswith("Received: mafia kill Carl")
               for pm in sent)  # fmt: skip

    # Restart mid-phase: a new process, same database (jobs resume from the job store).
    scheduler.shutdown()
    rt2 = make_runtime(auto_world["url"], forum_dir, clock)
    scheduler = jobs.make_scheduler(rt2, manual=True)
    scheduler.start()
    assert scheduler.get_job(f"game-{game_id}") is not None  # the schedule came back
    players.add_pm("Zed", "N1 change", "actually kill Dan", clock.now())
    _run(scheduler, clock)
    assert _orders(rt2, "Zed") == [
        ("mafia_kill", ["Carl"], OrderStatus.SUPERSEDED),
        ("mafia_kill", ["Dan"], OrderStatus.ACCEPTED),
    ]  # nothing lost, nothing applied twice

    clock.set(clock.now().replace(hour=15, minute=30) + timedelta(days=1))  # 16:30 Paris
    _run(scheduler, clock)
    reminded = [pm["to"] for pm in LocalForum(forum_dir, "ModBot").state.sent
                if "your orders" in pm["subject"]]  # fmt: skip
    assert sorted(reminded) == [["Ann"], ["Bob"]]  # who may act and has not (Zed has)

    clock.set(clock.now().replace(hour=18, minute=30))  # 19:30 Paris
    players.add_pm("Zed", "late", "kill Ann", clock.now())
    _run(scheduler, clock)
    assert _orders(rt2, "Zed")[-1] == ("mafia_kill", ["Ann"], OrderStatus.LATE)

    clock.advance(timedelta(hours=3))  # past the 22:00 deadline
    for _ in range(3):
        _run(scheduler, clock, 1)
    with rt2.sessions() as s:
        night1 = s.scalar(select(Phase).where(Phase.name == "night1"))
        assert night1.status is PhaseStatus.PUBLISHED
        assert s.scalar(select(Phase).where(Phase.name == "day1")).status is PhaseStatus.OPEN
    posts = LocalForum(forum_dir, "ModBot").state.posts
    assert len(posts) == 1 and "Dan" in posts[0]["body_html"] and "Ann" not in posts[0]["body_html"]

    for voter in ("Ann", "Bob", "Carl"):
        players.add_post(voter, "<b>$Zed</b>", clock.now())
    clock.advance(timedelta(hours=48))
    for _ in range(3):
        _run(scheduler, clock, 1)
    with rt2.sessions() as s:
        assert s.get(Game, game_id).status is GameStatus.FINISHED
    final = LocalForum(forum_dir, "ModBot").state.posts[-1]["body_html"]
    assert "The game is over! Winners: Village" in final
    scheduler.shutdown()
