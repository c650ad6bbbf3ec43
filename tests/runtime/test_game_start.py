"""``forumbot game start``: role PMs (and the opening post) drafted for the GM, then sent
exactly once by ``forumbot run``, even when the worker is killed (SIGKILL) right after the
forum took a role PM. The forum is the loopback SMF forum, read and written by the real
adapter in a real ``forumbot`` process.
"""

from __future__ import annotations

import html
import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from forumbot.cli import main
from forumbot.clock import FakeClock
from tests.runtime.smf_forum import SMFTestForum

ROOT = Path(__file__).resolve().parents[2]
ROLES = {"Ann": "sheriff", "Bob": "doctor", "Carl": "villager", "Mona": "mafioso",
         "Zed": "godfather"}  # fmt: skip
# The game starts in a month, whatever the day the tests run: its role PMs go out before.
START = (datetime.now(UTC) + timedelta(days=30)).strftime("%Y-%m-%d 22:00")
ROLE_WORDS = ("Sheriff", "Doctor", "Villager", "Mafioso", "Godfather", "Mafia")

GAME = """
name: start-village
forum: {{url: "{url}?topic=5.0", engine: smf, requests_per_second: 5, post_interval: 0}}
credentials: {{username: ModBot, password_env: FORUMBOT_PASSWORD}}
gm: GameMaster
ruleset: {ruleset}
seed: 3
players:
{players}
schedule:
  timezone: Europe/Paris
  first_phase: night1
  start: {start}
  day: {{length: 48h, starts: "22:00"}}
  night: {{length: 24h}}
publishing: {{mode: approve, receipts: true, poll_interval: 2m}}
"""


@pytest.fixture
def forum():
    # The forum's clock is the real one: the worker runs in its own process on real time.
    with SMFTestForum(FakeClock(datetime.now(UTC))) as forum:
        forum.add_post("GameMaster", "<b>Start Village</b> sign-ups")
        yield forum


def _setup(tmp_path: Path, forum, roles=ROLES, ruleset="failheap") -> tuple[Path, str, dict]:
    players = "\n".join(f"  - {{name: {n}, role: {r}}}" for n, r in roles.items())
    path = tmp_path / "game.yaml"
    text = GAME.format(url=forum.base_url, players=players, ruleset=ruleset, start=START)
    path.write_text(text, "utf-8")
    url = f"sqlite:///{tmp_path / 'fb.sqlite3'}"
    env = {**os.environ, "FORUMBOT_PASSWORD": "pw", "FORUMBOT_DATABASE_URL": url,
           "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONPATH": str(ROOT)}  # fmt: skip
    return path, url, env


def _cli(args: list[str], env: dict) -> str:
    result = CliRunner().invoke(main, args, env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_role_pms_are_drafted_with_partners_and_no_role_reaches_the_opening_post(
    tmp_path, forum
) -> None:
    path, _url, env = _setup(tmp_path, forum)
    out = json.loads(_cli(["game", "start", str(path), "--opening", "--json"], env))
    messages = out["messages"]
    assert [m["kind"] for m in messages] == ["post"] + ["pm"] * 5
    assert [m["to"] for m in messages[1:]] == [[n] for n in ROLES]
    assert all(m["state"] == "draft" and m["new"] for m in messages)
    again = json.loads(_cli(["game", "start", "start-village", "--opening", "--json"], env))
    assert [m["id"] for m in again["messages"]] == [m["id"] for m in messages]
    assert not any(m["new"] for m in again["messages"])  # drafted once

    drafts = _cli(["queue", "start-village", "--drafts"], env)
    assert "Godfather" in drafts and "Mona" in drafts
    from forumbot.db import make_engine, make_session_factory
    from forumbot.db.models import Outbound

    engine = make_engine(env["FORUMBOT_DATABASE_URL"])
    with make_session_factory(engine)() as session:
        bodies = {tuple(r.recipients): r.body for r in session.query(Outbound)}
    engine.dispose()
    opening = bodies[()]
    assert all(name in opening for name in ROLES)
    assert not any(word in opening for word in ROLE_WORDS)  # roles stay in the PMs
    assert "[b]Godfather[/b]" in bodies[("Zed",)] and "members: Mona" in bodies[("Zed",)]
    assert "members: Zed" in bodies[("Mona",)]
    assert "[b]Sheriff[/b]" in bodies[("Ann",)] and "Mona" not in bodies[("Ann",)]
    assert "Check" in bodies[("Ann",)]  # the role's ability, by its display name


@pytest.mark.parametrize(
    ("ruleset", "roles", "expected"),
    [
        (
            "durarara",
            {"Ann": "blue_square", "Bob": "blue_square", "Carl": "villager"},
            "Votre rôle",
        ),
        ("ru_mafia", {"Ann": "mafia_boss", "Bob": "mafioso", "Carl": "doctor"}, "Ваша роль"),
    ],
)
def test_role_pms_are_in_the_rulesets_language(tmp_path, forum, ruleset, roles, expected) -> None:
    path, _url, env = _setup(tmp_path, forum, roles, ruleset)
    _cli(["game", "start", str(path)], env)
    drafts = _cli(["queue", "start-village", "--drafts"], env)
    assert expected in drafts
    ann = drafts.split("to Ann")[1].split("to Bob")[0]
    assert "Bob" in ann  # a team that knows itself (blue squares, mafia): partners named
    bob = drafts.split("to Bob")[1].split("to Carl")[0]
    assert "Ann" in bob


def test_role_pms_are_sent_exactly_once_when_run_is_killed_after_a_post(tmp_path, forum) -> None:
    path, _url, env = _setup(tmp_path, forum)
    _cli(["game", "start", str(path), "--opening"], env)
    _cli(["queue", "start-village", "--approve", "all"], env)
    faulty = {**env, "FAULT": "kill", "FAULT_URL": r"sa=send2", "FAULT_FIELD": "message"}
    first = subprocess.run(
        [sys.executable, "-m", "tests.live.faulty_run", "run", str(path), "--once"],
        env=faulty, capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert first.returncode == -9, first.stderr[-2000:]  # killed by SIGKILL mid-publishing
    assert len(forum.data.sent) == 1  # the forum took the first role PM; the bot never knew
    second = subprocess.run(
        [sys.executable, "-m", "forumbot", "run", str(path), "--once"],
        env=env, capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert second.returncode == 0, second.stderr[-2000:]
    sent = [pm["to"] for pm in forum.data.sent]
    assert sorted(sent) == sorted(ROLES)  # each role PM exactly once
    openings = [p for p in forum.data.posts if p["author"] == "ModBot"]
    assert len(openings) == 1
    assert not any(w in html.unescape(openings[0]["body"]) for w in ROLE_WORDS)
