"""One bot account, one inbox: a PM from a player of two games is applied to neither alone."""

from __future__ import annotations

from sqlalchemy import select

from forumbot.db.enums import OrderStatus, ReviewKind
from forumbot.db.models import Order, ReviewItem
from forumbot.localforum import LocalForum
from forumbot.services import cycle, games
from tests.runtime.conftest import GAME


def _second_game(world, *, with_bob: bool) -> int:
    text = GAME.replace("MODE", "approve").replace("name: test-village", "name: other-village")
    text = text.replace("topic=5.0", "topic=6.0")
    if not with_bob:
        text = text.replace("{name: Bob, role: doctor}", "{name: Eve, role: doctor}")
    path = world["game_file"].with_name("other.yaml")
    path.write_text(text, encoding="utf-8")
    game_id = games.register(world["rt"], path)
    games.start(world["rt"], game_id)
    return game_id


def _orders_and_items(rt, game_id):
    with rt.sessions() as session:
        orders = session.scalars(select(Order).where(Order.game_id == game_id)).all()
        items = session.scalars(
            select(ReviewItem).where(
                ReviewItem.game_id == game_id, ReviewItem.kind == ReviewKind.ORDER
            )
        ).all()
        return [o.status for o in orders], [i.reason for i in items]


def test_a_player_of_two_games_has_his_pm_placed_by_the_gm(world, clock):
    rt, game_id = world["rt"], world["game_id"]
    _second_game(world, with_bob=True)
    LocalForum(world["forum_dir"], "Bob", clock=clock).add_pm("Bob", "N1", "heal Ann", clock.now())
    cycle(rt, game_id)
    statuses, reasons = _orders_and_items(rt, game_id)
    assert OrderStatus.ACCEPTED not in statuses
    assert any("also plays in other-village" in r for r in reasons)


def test_a_player_of_one_game_is_read_as_usual(world, clock):
    rt, game_id = world["rt"], world["game_id"]
    _second_game(world, with_bob=False)
    LocalForum(world["forum_dir"], "Bob", clock=clock).add_pm("Bob", "N1", "heal Ann", clock.now())
    cycle(rt, game_id)
    statuses, reasons = _orders_and_items(rt, game_id)
    assert statuses == [OrderStatus.ACCEPTED]
    assert reasons == []
