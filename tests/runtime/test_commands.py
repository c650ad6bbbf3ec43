"""``forumbot status``, ``queue``, ``phase`` and ``run --once`` on a real database."""

from __future__ import annotations

import json

from click.testing import CliRunner

from forumbot.cli import main
from forumbot.localforum import LocalForum
from forumbot.services import cycle


def _cli(*args):
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_status_queue_and_phase_commands(world, clock):
    rt, game_id, url = world["rt"], world["game_id"], world["url"]
    players = LocalForum(world["forum_dir"], "Players", clock=clock)
    players.add_pm("Ann", "N1", "check Zed", clock.now())
    players.add_pm("Bob", "N1", "what should I do lol?", clock.now())
    cycle(rt, game_id)

    info = json.loads(_cli("status", "test-village", "--database", url, "--json"))
    assert info["phase"] == "night1" and info["orders_received"] == ["Ann"]
    assert "Bob" in info["orders_missing"] and info["queue"] == 1

    listing = _cli("queue", "test-village", "--database", url)
    assert "from Bob" in listing and "what should I do" in listing
    item = int(listing.split("#")[1].split(" ")[0])
    assert "rejected" in _cli("queue", "test-village", "--reject", str(item), "--note", "no order",
                              "--database", url)  # fmt: skip
    assert "queue is empty" in _cli("queue", "test-village", "--database", url)

    assert "new deadline" in _cli("phase", "extend", "test-village", "12h", "--database", url)
    assert "paused" in _cli("phase", "pause", "test-village", "--database", url)
    assert "running" in _cli("phase", "resume", "test-village", "--database", url)
    assert "night1 ends now" in _cli("phase", "end", "test-village", "--database", url)


def test_run_once_registers_and_cycles(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    url = f"sqlite:///{tmp_path / 'fb.sqlite3'}"
    out = _cli("run", "--once", "--database", url, "forumbot/demo_game/game.yaml")
    assert "cycled games: [1]" in out
    assert "day1" in _cli("status", "loopback-village", "--database", url)


def test_drafts_listed_and_approved_from_the_terminal(world, clock):
    from datetime import UTC, datetime

    rt, game_id, url = world["rt"], world["game_id"], world["url"]
    LocalForum(world["forum_dir"], "Zed", clock=clock).add_pm("Zed", "N1", "kill Carl", clock.now())
    cycle(rt, game_id)
    clock.set(datetime(2026, 12, 2, 21, 0, 30, tzinfo=UTC))
    cycle(rt, game_id)
    listing = _cli("queue", "test-village", "--drafts", "--database", url)
    assert "thread post (night1)" in listing and "Carl" in listing
    assert LocalForum(world["forum_dir"], "ModBot").state.posts == []  # nothing without you
    assert "approved" in _cli("queue", "test-village", "--approve", "all", "--database", url)
    assert "No draft waits" in _cli("queue", "test-village", "--drafts", "--database", url)
    cycle(rt, game_id)
    posts = LocalForum(world["forum_dir"], "ModBot").state.posts
    assert len(posts) == 1 and "Carl" in posts[0]["body_html"]
