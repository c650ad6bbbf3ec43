"""DCTP through the runtime: hand-offs of actions and multi-recipient PMs (seed 000).

Seed 000, "Handing off Actions": "you must PM the GM stating so, in a PM also sent to the
member(s) you're giving your power to, along with the phases ... Once you hand power over
your actions to someone else, it is immediate, irreversible, and absolute. ... any and all
orders they make for you will override your own orders, even if you send in newer ones. ...
Results of actions will still be sent to the person actually performing the action, and the
person who is given control of the other's actions will not be told if their actions were
valid or invalid." "Sending Game Actions: ... Multi-recipient PMs don't count."

PMs go into the loopback SMF forum's inbox and are read by the real adapter, order parser,
scheduler and resolver, as in ``test_dctp_game``.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from forumbot.db.enums import OrderStatus
from forumbot.db.models import Order, Player, ReviewItem
from tests.runtime.test_dctp_game import NIGHT1, _bot_posts, _deadline, _start
from tests.runtime.test_game_http import _step, forum  # noqa: F401


def _sent_to(forum, name: str) -> list[str]:  # noqa: F811
    return [pm["body"] for pm in forum.data.sent if pm["to"] == name]


def _orders(rt, player: str) -> list[tuple[str, list[str], OrderStatus]]:
    with rt.sessions() as session:
        pid = session.scalar(select(Player.id).where(Player.display_name == player))
        rows = session.scalars(select(Order).where(Order.player_id == pid).order_by(Order.id))
        return [(r.ability or "", list(r.targets), r.status) for r in rows]


def _queue_reasons(rt) -> list[str]:
    with rt.sessions() as session:
        return [i.reason for i in session.scalars(select(ReviewItem))]


def test_a_handed_off_night_is_the_delegates_to_order(forum, tmp_path):  # noqa: F811
    clock = forum.clock
    rt, _game_id, scheduler = _start(forum, tmp_path)
    forum.add_pm("Vic", "order", "discombobulate Abe")  # his own, before the hand-off
    _step(scheduler, clock)
    forum.add_pm("Vic", "hand-off", "I hand over my actions to Kurt for Night 1", cc=("Kurt",))
    _step(scheduler, clock)
    forum.add_pm("Kurt", "orders", "stake out Mona<br>For Vic:<br>discombobulate Rosa")
    forum.add_pm("Gina", "order", "kill Cole")
    forum.add_pm("Hugo", "order", "investigate 'Vic discombobulates Rosa'")
    _step(scheduler, clock)
    forum.add_pm("Vic", "order", "discombobulate Cole")  # newer, and still overridden
    forum.add_pm("Vic", "hand-off", "I hand over my actions to Gina for Night 1", cc=("Gina",))
    _step(scheduler, clock)

    vic = _orders(rt, "Vic")
    assert ("discombobulate", ["Abe"], OrderStatus.SUPERSEDED) in vic  # overridden
    assert ("discombobulate", ["Rosa"], OrderStatus.ACCEPTED) in vic  # Kurt's, for Vic
    assert ("discombobulate", ["Cole"], OrderStatus.REJECTED) in vic  # "even if you send newer"
    assert ("handoff", ["Gina"], OrderStatus.REJECTED) in vic  # "irreversible"
    assert ("stake_out", ["Mona"], OrderStatus.ACCEPTED) in _orders(rt, "Kurt")  # his own
    reasons = _queue_reasons(rt)
    assert any("immediate and irreversible" in r and "already Kurt's" in r for r in reasons)
    assert any("Kurt's orders for Vic override Vic's own" in r for r in reasons)

    _deadline(scheduler, clock, NIGHT1 + timedelta(days=1))
    assert "[b]Cole[/b] was found dead" in _bot_posts(forum)[-1]
    # Investigations see the delegate's order as the giver's action.
    assert _sent_to(forum, "Hugo")[-1] == "Investigate #: Vic discombobulate Rosa — true."
    # The result goes to the player performing the action, never to the delegate.
    assert _sent_to(forum, "Vic")[-1] == "You have successfully discombobulated Rosa."
    assert "Received. The GM will read it" in _sent_to(forum, "Vic")[-2]  # refused: queued
    to_kurt = "\n".join(_sent_to(forum, "Kurt"))
    assert "Rosa" not in to_kurt and "discombobulat" not in to_kurt.lower()
    report = _sent_to(forum, "GameMaster")[-1]
    assert "[hand-off] Vic → Kurt for night1" in report
    assert "Vic: discombobulate Rosa (PM from Kurt): accepted — ordered by Kurt for Vic" in report
    assert "Vic: discombobulate Cole (PM from Vic): rejected" in report
    scheduler.shutdown()


def test_orders_for_a_phase_not_handed_are_refused_with_the_reason(forum, tmp_path):  # noqa: F811
    clock = forum.clock
    rt, _game_id, scheduler = _start(forum, tmp_path)
    forum.add_pm("Vic", "hand-off", "I give my actions to Kurt for Night 2", cc=("Kurt",))
    _step(scheduler, clock)
    forum.add_pm("Kurt", "orders", "As Vic: discombobulate Rosa")  # Night 1: not handed
    _step(scheduler, clock)
    assert ("discombobulate", ["Rosa"], OrderStatus.REJECTED) in _orders(rt, "Vic")
    assert any("whose actions for night1 were not handed to them" in r for r in _queue_reasons(rt))
    forum.add_pm("Vic", "order", "discombobulate Abe")  # Night 1 is still his own
    _step(scheduler, clock)
    assert ("discombobulate", ["Abe"], OrderStatus.ACCEPTED) in _orders(rt, "Vic")
    scheduler.shutdown()


def test_multi_recipient_pms_do_not_count(forum, tmp_path):  # noqa: F811
    clock = forum.clock
    rt, _game_id, scheduler = _start(forum, tmp_path)
    forum.add_pm("Gina", "order", "kill Cole")
    forum.add_pm("Vic", "order", "discombobulate Abe", cc=("Kurt",))  # copied to a player
    forum.add_pm("Hugo", "order", "investigate 'Vic discombobulates Abe'")
    _step(scheduler, clock)
    assert {status for _, _, status in _orders(rt, "Vic")} == {OrderStatus.REJECTED}
    assert any("sent to other players too (Kurt) do not count" in r for r in _queue_reasons(rt))
    _deadline(scheduler, clock, NIGHT1 + timedelta(days=1))
    assert _sent_to(forum, "Hugo")[-1] == "Investigate #: Vic discombobulate Abe — false."

    day1 = NIGHT1 + timedelta(days=1)
    forum.add_pm("Toby", "vote", "vote Kurt", cc=("Mona",))  # does not count
    forum.add_pm("Kurt", "vote", "vote Toby")
    forum.add_pm("Mona", "order", "Arrest Gina for killing Cole on Night 1", cc=("Toby",))
    _step(scheduler, clock)
    reasons = _queue_reasons(rt)
    assert any("sent to other players too (Mona) do not count" in r for r in reasons)  # vote
    assert any("sent to other players too (Toby) do not count" in r for r in reasons)  # arrest
    _deadline(scheduler, clock, day1 + timedelta(days=2))
    post = _bot_posts(forum)[-1]
    assert "[b]Toby[/b] was lynched" in post  # 1 vote to 0: Toby's copied vote is not counted
    assert "arrested [b]Gina[/b]" not in post
    scheduler.shutdown()
