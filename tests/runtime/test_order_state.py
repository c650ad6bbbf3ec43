"""Issue 11 through the runtime: the order parser gets the game's state and history (the
rules it checks are the game's, not a guess), and receipts never quote its reasoning."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from forumbot.db import upgrade
from forumbot.db.enums import OrderStatus, ReviewKind
from forumbot.db.models import Order, Player, ReviewItem
from forumbot.localforum import ForumState, LocalForum, save_state
from forumbot.services import cycle, games
from tests.runtime.conftest import GAME, make_runtime

FAILHEAP_PLAYERS = """players:
  - {name: Ann, role: sheriff}
  - {name: Bob, role: doctor}
  - {name: Carl, role: arsonist}
  - {name: Dan, role: villager}
  - {name: Zed, role: godfather}
"""
RU_PLAYERS = """players:
  - {name: Masha, role: doctor}
  - {name: Kot, role: sheriff}
  - {name: Lisa, role: mafia_boss}
  - {name: Hans, role: mafioso}
  - {name: Oleg, role: villager}
"""


def _game(tmp_path: Path, clock, ruleset: str, players: str):
    text = GAME.replace("MODE", "approve").replace("ruleset: failheap", f"ruleset: {ruleset}")
    start, end = text.index("players:"), text.index("schedule:")
    text = text[:start] + players + text[end:]
    url = f"sqlite:///{tmp_path / 'fb.sqlite3'}"
    upgrade(url)
    save_state(tmp_path / "forum", ForumState(topic_id=5, title="Test Village"))
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    rt = make_runtime(url, tmp_path / "forum", clock)
    game_id = games.register(rt, path)
    games.start(rt, game_id)
    return rt, game_id


def _pm(tmp_path: Path, clock, sender: str, text: str) -> None:
    LocalForum(tmp_path / "forum", sender, clock=clock).add_pm(sender, "order", text, clock.now())


def _outcome(rt, game_id, name):
    with rt.sessions() as s:
        pid = s.scalar(select(Player.id).where(Player.display_name == name))
        orders = [(o.ability, o.status) for o in s.scalars(select(Order).where(
            Order.game_id == game_id, Order.player_id == pid))]  # fmt: skip
        reasons = [i.reason for i in s.scalars(select(ReviewItem).where(
            ReviewItem.game_id == game_id, ReviewItem.kind == ReviewKind.ORDER))]  # fmt: skip
        return orders, reasons


def test_a_queued_pm_s_receipt_never_quotes_the_parser(tmp_path, clock):
    rt, game_id = _game(tmp_path, clock, "failheap", FAILHEAP_PLAYERS)
    _pm(tmp_path, clock, "Carl", "Ignite tonight.")  # nobody is doused
    cycle(rt, game_id)
    orders, reasons = _outcome(rt, game_id, "Carl")
    assert all(status is not OrderStatus.ACCEPTED for _, status in orders) and reasons
    receipts = [pm["body"] for pm in LocalForum(tmp_path / "forum", "ModBot").state.sent
                if pm["to"] == ["Carl"]]  # fmt: skip
    assert len(receipts) == 1 and receipts[0].startswith("Received. The GM will read it")
    assert reasons[0] not in receipts[0] and "unsure" not in receipts[0]


def test_a_clan_member_s_own_move_is_refused_from_the_game_history(tmp_path, clock):
    """Seed 004: the Boss sends the clan's moves. The runtime hands the parser the game's
    history (no hand-off from the Boss), so the rule is applied, not guessed."""
    rt, game_id = _game(tmp_path, clock, "ru_mafia", RU_PLAYERS)
    _pm(tmp_path, clock, "Hans", "стреляю в Kot")
    cycle(rt, game_id)
    orders, reasons = _outcome(rt, game_id, "Hans")
    assert orders == [(None, OrderStatus.REJECTED)]  # to the GM queue, never applied
    assert any("sent by its head (Lisa)" in r for r in reasons)
    receipts = [pm["body"] for pm in LocalForum(tmp_path / "forum", "ModBot").state.sent
                if pm["to"] == ["Hans"]]  # fmt: skip
    assert receipts and all("Lisa" not in r for r in receipts)  # never the parser's reasoning
    assert receipts[0].startswith("Получено. Ведущий прочтёт")  # in the game's language


def test_a_clear_order_is_still_accepted_with_the_state(tmp_path, clock):
    rt, game_id = _game(tmp_path, clock, "ru_mafia", RU_PLAYERS)
    _pm(tmp_path, clock, "Masha", "лечу Oleg")
    cycle(rt, game_id)
    orders, _ = _outcome(rt, game_id, "Masha")
    assert orders == [("heal", OrderStatus.ACCEPTED)]
    receipts = [pm["body"] for pm in LocalForum(tmp_path / "forum", "ModBot").state.sent
                if pm["to"] == ["Masha"]]  # fmt: skip
    assert len(receipts) == 1 and receipts[0].startswith("Получено: ") and "Oleg" in receipts[0]
