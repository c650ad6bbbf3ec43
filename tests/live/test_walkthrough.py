"""The GM walkthrough (``docs/walkthrough/``) followed on a live SMF 2.1 board: from
``forumbot init`` on an existing thread, through the role PMs (``game start``), to the first
phase post, by the real command line with its stock settings, each command timed (the goal:
under 5 minutes of commands in all; about 3 here, most of it the bot's spacing of its
messages, ``forum.post_interval``).

A command's time is the time it ran plus the waits the bot chose (its request spacing,
``forum.requests_per_second``, and ``forum.post_interval``): those are counted, not slept
(``PoliteSession``'s clock and sleep, which the adapters wait with, are injectable), so the
budget is the GM's wall time while the test does not sit through two minutes of sleeps. The
stock waits themselves are met for real in ``test_language.py`` (flood control).

One board is enough to follow the steps (the engines' differences are the contract and game
tests' business): SMF 2.1, the engine of the walkthrough's pages and the most used of the
three, whose board starts in seconds.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any
from unittest import mock

import yaml

from forum_adapters import PoliteSession
from tests.live.boards import Board
from tests.live.botcli import BotCli

ROLES = {"Conia": "sheriff", "Akonyl": "godfather", "bob": "doctor", "Kleene": "sleuth",
         "Маша": "villager", "Dr Watson": "mafioso"}  # fmt: skip
RULES = (
    "[b]Welcome to Walkthrough Village![/b]\n\nRoles in this game: a Sheriff, a Doctor, a "
    "Sleuth, a Cab Driver, the Godfather and Villagers.\n\n[b]Players[/b]\n[list]"
    + "".join(f"[li]{name}[/li]" for name in ROLES)
    + "[/list]\n\nVote in bold: [b]Vote: Name[/b]. Days last 48 hours. All times are UTC.\n"
    "Day 1 starts now."
)
BUDGET = 300.0  # seconds of commands, init to the first phase post


def open_thread(board: Board) -> int:
    """The GM's game thread as the walkthrough finds it: the rules post, then votes."""
    topic = board.player("GameMaster").new_topic("Walkthrough Village - Day 1", RULES)
    board.player("Conia").reply(topic, "Hello all. [b]Vote: Akonyl[/b]")
    board.player("Akonyl").reply(topic, "Not me! [b]Vote: Kleene[/b]")
    board.player("bob").reply(topic, "[b]Vote: Akonyl[/b]")
    board.player("Маша").reply(topic, "Agreed. [b]Vote: Akonyl[/b]")
    return topic


class Waits:
    """The waits of one command's HTTP sessions: counted, and its clock moved on by them."""

    def __init__(self) -> None:
        self.total = 0.0

    def clock(self) -> float:
        """Monotonic seconds, plus the waits so far (as if they had been slept)."""
        return time.monotonic() + self.total

    def sleep(self, seconds: float) -> None:
        """Count a wait instead of sleeping it."""
        self.total += max(0.0, seconds)


class Timed(BotCli):
    """``forumbot ...`` with the seconds each command took (ran plus waited)."""

    spent: list[tuple[str, float]]

    def __call__(self, *args: str, ok: bool = True, timeout: float = 300) -> str:
        waits = Waits()
        real_init = PoliteSession.__init__

        def counted_waits(session: PoliteSession, *a: Any, **kw: Any) -> None:
            kw.setdefault("clock", waits.clock)
            kw.setdefault("sleep", waits.sleep)
            real_init(session, *a, **kw)

        began = time.monotonic()
        try:
            with mock.patch.object(PoliteSession, "__init__", counted_waits):
                return super().__call__(*args, ok=ok, timeout=timeout)
        finally:
            shown = " ".join("URL" if a.startswith("http") else a for a in args)
            self.spent.append((shown, time.monotonic() - began + waits.total))


def fill_in(game: Path) -> None:
    """Step 5 of the walkthrough: the GM replaces each FILL_IN (here: the night's length
    and the roles) and keeps every proposal."""
    text = game.read_text(encoding="utf-8")
    text = text.replace("length: FILL_IN", "length: 24h", 1)
    for name, role in ROLES.items():
        text = re.sub(rf"(- name: \"?{name}\"?\n    role: )FILL_IN", rf"\g<1>{role}", text)
    game.write_text(text, encoding="utf-8")


def test_the_walkthrough_from_init_to_the_first_phase_post(smf21_board: Board, tmp_path: Path):
    board = smf21_board
    topic = open_thread(board)
    url = board.topic_url(topic)
    bot = Timed(board, tmp_path)
    bot.spent = []
    assert "logged in as ModBot" in bot.forum("check", url=url)

    out = bot("init", url, "--user", "ModBot", "--out", "game.yaml")
    assert "Fill in what is marked FILL_IN: schedule.night.length; the role of Conia" in out
    game = tmp_path / "game.yaml"
    drafted = yaml.safe_load(game.read_text(encoding="utf-8"))
    assert drafted["ruleset"] == "failheap"  # the Sleuth and the Cab Driver are failheap's
    assert [p["name"] for p in drafted["players"]] == list(ROLES)
    assert drafted["schedule"] | {"start": None, "night": None} == {"timezone": "UTC",
        "first_phase": "day1", "start": None, "day": {"length": "48h"}, "night": None}  # fmt: skip
    assert "Day 1 starts now." in game.read_text(encoding="utf-8")  # the start's evidence
    assert drafted["votes"] == {"syntax": ["bold_vote"]}

    refused = bot("game", "check", "game.yaml", ok=False)
    assert "fill in before `run`: schedule.night.length; the role of Conia" in refused
    assert "fill in before `run`" in bot("run", "--once", "game.yaml", ok=False)
    assert not board.posts_by(board.bot_id, topic)  # refused before the forum

    fill_in(game)
    assert "game.yaml: OK" in bot("game", "check", "game.yaml")
    name = str(drafted["name"])
    assert "6 new draft(s)" in bot("game", "start", "game.yaml")  # the role PMs
    assert "Your fellow Mafia members: Dr Watson." in bot("queue", name, "--drafts")
    bot("queue", name, "--approve", "all")
    bot("run", "--once", "game.yaml")  # sends the role PMs, reads the thread, opens day 1
    roles = [(to, text) for _, subject, to, text in board.pms_from(board.bot_id)
             if subject.endswith(": your role")]  # fmt: skip
    assert sorted(to for to, _ in roles) == sorted(ROLES), roles  # one each, once
    assert all(who in text for who, text in roles)  # "welcome, Conia."
    assert "Akonyl" in bot("status", name)
    bot("phase", "end", name)  # the GM does not wait 48 hours
    bot("run", "--once", "game.yaml")  # day 1 resolved: its post drafted
    assert "Akonyl" in bot("queue", name, "--drafts")
    assert not board.posts_by(board.bot_id, topic)  # nothing sent before the GM approves
    bot("queue", name, "--approve", "all")
    bot("run", "--once", "game.yaml")  # the approved post goes out
    bot("run", "--once", "game.yaml")  # and never twice

    posts = board.posts_by(board.bot_id, topic)
    assert len(posts) == 1, posts  # exactly one phase post
    assert "Akonyl (3): Conia, bob, Маша" in posts[0][1], posts[0][1]
    total = sum(seconds for _, seconds in bot.spent)
    print("\n".join(f"{seconds:6.1f} s  forumbot {command}" for command, seconds in bot.spent))
    print(f"{total:6.1f} s  in all ({len(bot.spent)} commands)")
    assert total < BUDGET, bot.spent
