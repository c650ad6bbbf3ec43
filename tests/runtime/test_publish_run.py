"""Publishing through the real ``forumbot run --once`` on a loopback SMF forum: after a run
that was not killed, every approved message is on the forum, or waits for a reason the GM
can see, and one refused message never holds back the others."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import create_engine, select

from forumbot.clock import SystemClock
from forumbot.db.enums import ReviewKind
from forumbot.db.models import ReviewItem
from tests.runtime.smf_forum import SMFTestForum
from tests.runtime.test_run_errors import PASSWORD_ENV, forumbot, game_file

PLAYERS = ("Ann", "Bob", "Carl", "Dan", "Zed")
ORDERS = {"Ann": ("N1 check", "check Zed"), "Bob": ("N1 heal", "heal Ann")}


@pytest.fixture
def forum() -> Iterator[SMFTestForum]:
    with SMFTestForum(SystemClock()) as forum:
        forum.add_post("GameMaster", "<b>Night 1</b> begins. Send your orders.")
        for sender, (subject, body) in ORDERS.items():
            forum.add_pm(sender, subject, body)
        yield forum


def night_over(tmp_path: Path, forum: SMFTestForum) -> Path:
    """The game (auto-post, receipts on) whose first night ended an hour ago: the first run
    resolves it and posts its results; no waits between the bot's requests."""
    path = game_file(tmp_path, forum.base_url)
    start = datetime.now(ZoneInfo("Europe/Paris")).replace(second=0, microsecond=0)
    text = path.read_text(encoding="utf-8").replace(
        "engine: smf}", "engine: smf, requests_per_second: 5, post_interval: 0}"
    )
    lines = [f"  start: {start - timedelta(hours=25):%Y-%m-%d %H:%M}" if "  start:" in line
             else line for line in text.splitlines()]  # fmt: skip
    path.write_text("\n".join(lines).replace("gm: Steph", "gm: GameMaster") + "\n", "utf-8")
    return path


def start_game(tmp_path: Path, path: Path) -> None:
    """``forumbot game start --opening``: the opening post and the role PMs, approved."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), PASSWORD_ENV: "pw"}
    command = [sys.executable, "-m", "forumbot", "game", "start", "--opening", "--database",
               f"sqlite:///{tmp_path / 'fb.sqlite3'}", str(path)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path,
                          timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def unsent(tmp_path: Path) -> list[str]:
    """``forumbot status --json``'s approved messages not on the forum yet, with why."""
    command = [sys.executable, "-m", "forumbot", "status", "test-village", "--json",
               "--database", f"sqlite:///{tmp_path / 'fb.sqlite3'}"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")},
                          check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout)["unsent"])


def run_once(tmp_path: Path, path: Path) -> None:
    done = forumbot(tmp_path, str(path))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr


def bot_posts(forum: SMFTestForum) -> list[str]:
    return [p["body"] for p in forum.data.posts if p["author"] == "ModBot"]


def sent(forum: SMFTestForum) -> Counter[tuple[str, str]]:
    return Counter((pm["to"], pm["subject"]) for pm in forum.data.sent)


def alerts(tmp_path: Path) -> list[str]:
    engine = create_engine(f"sqlite:///{tmp_path / 'fb.sqlite3'}")
    with engine.connect() as connection:
        reasons = connection.scalars(
            select(ReviewItem.reason).where(ReviewItem.kind == ReviewKind.ALERT)
        ).all()
    engine.dispose()
    return list(reasons)


def test_one_run_sends_two_posts_and_every_pm(tmp_path: Path, forum: SMFTestForum) -> None:
    """The opening post, then the night's results: the bot's own opening post is no "new
    post made" that refuses the second, and no PM waits for another run."""
    path = night_over(tmp_path, forum)
    start_game(tmp_path, path)
    run_once(tmp_path, path)
    posts = bot_posts(forum)
    assert len(posts) == 2 and "begins" in posts[0] and "Night 1 is over" in posts[1], posts
    got = sent(forum)
    assert all(got[(name, "test-village: your role")] == 1 for name in PLAYERS), got
    assert got[("Ann", "Re: N1 check")] == 1 and got[("Bob", "Re: N1 heal")] == 1, got
    assert got[("GameMaster", "test-village: Night 1 (GM report)")] == 1, got
    assert alerts(tmp_path) == []


def test_a_refused_post_holds_back_no_receipt(tmp_path: Path, forum: SMFTestForum) -> None:
    """A player posts just as the bot opens the reply form: the results post is refused
    (routine: read the new post, post next run), but the receipts go out in the same run;
    the next run posts the results once and sends what waited behind them."""
    path = night_over(tmp_path, forum)
    forum.data.racing_posts.append(("Carl", "morning all"))
    run_once(tmp_path, path)
    assert bot_posts(forum) == []
    got = sent(forum)
    assert got[("Ann", "Re: N1 check")] == 1 and got[("Bob", "Re: N1 heal")] == 1, got
    assert alerts(tmp_path) == []  # routine: no alert for one refusal
    waiting = unsent(tmp_path)  # ... but the GM sees what waits, and why
    assert waiting[0].startswith("post (failed: ") and "new posts were made" in waiting[0]
    assert all("Re: N1" not in line for line in waiting), waiting
    run_once(tmp_path, path)
    posts = bot_posts(forum)
    assert len(posts) == 1 and "Night 1 is over" in posts[0], posts
    got = sent(forum)
    assert got[("GameMaster", "test-village: Night 1 (GM report)")] == 1, got
    assert max(got.values()) == 1, got  # nothing sent twice
    assert unsent(tmp_path) == []


def test_a_refusal_that_keeps_coming_back_is_told_to_the_gm(
    tmp_path: Path, forum: SMFTestForum
) -> None:
    """Someone posts every time the bot is about to reply: retried each run, and after the
    third refusal the GM is told why the post has not gone out."""
    path = night_over(tmp_path, forum)
    forum.data.racing_posts.extend(("Carl", f"spam {n}") for n in range(3))
    for _ in range(2):
        run_once(tmp_path, path)
    assert alerts(tmp_path) == []
    run_once(tmp_path, path)
    reasons = alerts(tmp_path)
    assert len(reasons) == 1 and "refused it 3 times" in reasons[0], reasons
    assert any(pm["to"] == "GameMaster" and "refused it 3 times" in pm["body"]
               for pm in forum.data.sent), forum.data.sent  # fmt: skip
    run_once(tmp_path, path)  # the thread is quiet now: the post goes, once
    assert len(bot_posts(forum)) == 1


def test_a_pm_the_forum_refuses_waits_alone_with_an_alert(
    tmp_path: Path, forum: SMFTestForum
) -> None:
    """Ann's account was renamed on the forum: every PM to her is refused. Her PMs wait,
    the GM is told (by PM, in the same run), and every other message still goes."""
    forum.data.unknown_members.add("Ann")
    path = night_over(tmp_path, forum)
    run_once(tmp_path, path)
    got = sent(forum)
    assert not [to for to, _subject in got if to == "Ann"], got
    assert got[("Bob", "Re: N1 heal")] == 1, got
    assert got[("GameMaster", "test-village: Night 1 (GM report)")] == 1, got
    assert len(bot_posts(forum)) == 1
    reasons = alerts(tmp_path)
    assert len(reasons) == 1 and "could not be found: Ann" in reasons[0], reasons
    to_gm = [pm["body"] for pm in forum.data.sent if pm["to"] == "GameMaster"]
    assert any("could not be found: Ann" in body for body in to_gm), to_gm
