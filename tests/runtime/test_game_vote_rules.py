"""The game file's ``votes:`` overrides reach everyone who reads vote rules: the counter, the
resolver's lynch, the GM page (one rules object, ``forumbot.services.domain.ruleset_of``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from forumbot.clock import FakeClock
from forumbot.db.models import Phase, PhaseEvent
from forumbot.localforum import LocalForum
from forumbot.services import cycle, drafts
from forumbot.services.phases import controls, daycount
from forumbot.web import create_app
from tests.runtime import conftest
from tests.runtime.test_day_votes import _to_day1
from tests.web.conftest import TOKEN, csrf_of


@pytest.fixture
def random_tie(tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict]:
    """The test game, its file breaking ties by a draw (failheap's own rule: no lynch)."""
    old = "votes: {syntax: [dollar_bold, bold_vote]}"
    text = conftest.GAME.replace(old, old.replace("]}", "], tie: random}"))
    monkeypatch.setattr(conftest, "GAME", text)
    yield from conftest._world(tmp_path, clock, "approve")


def test_a_tie_rule_of_the_game_file_decides_the_count_and_the_lynch(random_tie, clock):
    rt, game_id = random_tie["rt"], random_tie["game_id"]
    _to_day1(random_tie, clock)
    forum = LocalForum(random_tie["forum_dir"], "Players", clock=clock)
    forum.add_post("Ann", "<b>$Zed</b>", clock.now())
    forum.add_post("Bob", "<b>$Ann</b>", clock.now())
    cycle(rt, game_id)
    count = daycount.tally(rt, game_id)
    assert count is not None and count.votes == {"Zed": ("Ann",), "Ann": ("Bob",)}
    with rt.sessions() as session:
        day1 = session.scalar(select(Phase).where(Phase.name == "day1")).id
    client = create_app(rt.sessions, token=TOKEN, now=clock.now).test_client()
    client.get("/login")
    client.post("/login", data={"token": TOKEN, "name": "Steph", "csrf_token": csrf_of(client)})
    assert "plurality; tie: random" in client.get(f"/games/{game_id}/phase/{day1}").data.decode()
    controls.end_now(rt, game_id)
    for _ in range(3):
        cycle(rt, game_id)
    with rt.sessions() as session:
        kinds = [e.kind for e in session.scalars(select(PhaseEvent).where(
            PhaseEvent.phase_id == day1))]  # fmt: skip
    assert "draw" in kinds and "lynch" in kinds  # the file's rule: a draw lynches one of them
    with rt.sessions.begin() as session:
        posts = [v for v in drafts.list_drafts(session, game_id) if v.kind.value == "post"]
    assert any("lynch" in v.body for v in posts)


def test_game_check_lists_the_rules_the_game_plays(random_tie):
    from click.testing import CliRunner

    from forumbot.cli import main

    result = CliRunner().invoke(main, ["game", "check", str(random_tie["game_file"])])
    assert result.exit_code == 0, result.output
    lines = result.output.split("Vote rules", 1)[1].splitlines()
    assert " * tie = random" in lines  # the game file's, marked as changed
    assert "   rule = plurality" in lines and "   channel = thread" in lines  # the ruleset's
