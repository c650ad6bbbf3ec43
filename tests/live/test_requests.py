"""What the bot costs a board, counted in the board's own access log, and pages read once."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from forum_adapters import HttpSettings, PoliteSession, PostId, ThreadRef
from tests.live.boards import Board
from tests.live.botcli import BotCli


def _requests_during(board: Board, action: Callable[[], object]) -> list[str]:
    before = len(board.log_lines())
    action()
    return board.log_lines()[before:]


def test_a_fresh_inbox_read_opens_the_inbox_once_and_keeps_new_marks(
    board: Board, tmp_path: Path
) -> None:
    newest = max((pm.pm_id for pm in board.adapter().iter_pms()), default=0)
    board.player("Kleene").send_pm([board.bot[0]], "unread", "[b]check Conia[/b]")
    bot = BotCli(board, tmp_path)
    seen = _requests_during(board, lambda: bot.forum("inbox", "--json", "--after", str(newest)))
    pms = json.loads(bot.stdout)
    assert [pm["subject"] for pm in pms["pms"]] == ["unread"]
    assert pms["pms"][0]["was_unread"] is True  # nobody opened it before the bot
    login = max(i for i, line in enumerate(seen) if "POST" in line and "login" in line)
    after = seen[login + 1 :]  # a guest's look before it showed a login box, not the inbox
    inbox = [line for line in after if "folder=inbox" in line or "action=pm;f=inbox" in line]
    assert len(inbox) == 1, seen


def test_forum_check_tells_the_pm_limit_and_counts_pages(board: Board, tmp_path: Path) -> None:
    topic = board.player("GameMaster").new_topic("Check me", "two pages")
    per_page = 10 if board.engine == "phpbb" else 15
    for n in range(per_page):  # one more post than a page holds
        board.player("Conia").reply(topic, f"post {n}")
    out = BotCli(board, tmp_path).forum("check", url=board.topic_url(topic))
    assert "2 page(s)" in out and "first by GameMaster" in out, out
    if board.engine == "smf":
        assert "send_mail" in out


def test_an_idle_poll_costs_one_topic_and_one_inbox_request(board: Board) -> None:
    topic = board.player("GameMaster").new_topic("Idle", "nothing happens here")
    bot = board.adapter()
    last = max(p.post_id for p in bot.iter_posts(ThreadRef(topic)))
    newest = max((pm.pm_id for pm in bot.iter_pms()), default=None)

    def poll() -> None:
        assert list(bot.iter_posts(ThreadRef(topic), after=PostId(last))) == []
        assert list(bot.iter_pms(after=newest)) == []

    assert len(_requests_during(board, poll)) == 2


def test_the_first_contact_reads_each_page_once(board: Board, tmp_path: Path) -> None:
    topic = board.player("GameMaster").new_topic("First contact", "read me once")
    http = PoliteSession(settings=HttpSettings(rate=0, attempts=1), cookie_file=tmp_path / "c")
    bot = board.adapter(http=http)  # a bot that keeps its session, on its first run

    def first_read() -> None:
        assert [p.author.name for p in bot.iter_posts(ThreadRef(topic))] == ["GameMaster"]
        list(bot.iter_pms())

    seen = _requests_during(board, first_read)
    pages = [line for line in seen if f"t={topic}" in line or f"topic={topic}." in line]
    assert len(pages) == 1, seen  # not first as a guest and again after logging in
    inbox = [line for line in seen if "folder=inbox" in line or "action=pm;f=inbox" in line]
    assert len(inbox) == 1, seen
