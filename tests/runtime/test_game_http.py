"""A Failheap game from sign-up to a win, on the real SMF adapter over loopback HTTP.

The forum is ``SMFTestForum`` (pages cut from the recorded SMF 2.1 pages); the worker runs on
the real scheduler with a fake clock; orders and votes go through the real order parser and
vote counter, the resolver and the event templates are the real ones.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import yaml
from sqlalchemy import select

from forum_adapters import HttpSettings, PoliteSession, SMFAdapter, ThreadRef
from forumbot import jobs
from forumbot.clock import FakeClock
from forumbot.db import make_engine, make_session_factory, upgrade
from forumbot.db.enums import GameStatus, PhaseStatus
from forumbot.db.models import Game, Phase
from forumbot.services import games, initgame
from forumbot.services.context import Runtime
from tests.runtime.smf_forum import SMFTestForum

ROLES = {"Ann": "sheriff", "Bob": "doctor", "Carl": "villager", "Dan": "villager",
         "Zed": "godfather"}  # fmt: skip


def smf_adapter(base_url: str) -> SMFAdapter:
    """The real SMF adapter, with politeness delays that never really sleep."""
    http = PoliteSession(settings=HttpSettings(rate=0, attempts=1), sleep=lambda s: None)
    return SMFAdapter(base_url, "ModBot", "pw", http=http, post_interval=0)


def http_runtime(url: str, forum: SMFTestForum, clock: FakeClock, worker: str) -> Runtime:
    engine = make_engine(url)
    return Runtime(engine=engine, sessions=make_session_factory(engine),
                   adapter_factory=lambda access: smf_adapter(forum.base_url),
                   clock=clock, worker=worker)  # fmt: skip


def _reader(forum):
    def read(url, engine, username):
        posts = smf_adapter(forum.base_url).iter_posts(ThreadRef(forum.data.topic_id))
        return forum.data.title, [(p.author.name, p.body_html, p.posted_at) for p in posts]

    return read


@pytest.fixture
def forum():
    clock = FakeClock(datetime(2026, 12, 1, 12, 0, tzinfo=UTC))
    with SMFTestForum(clock) as forum:
        yield forum


def _step(scheduler, clock, minutes=2):
    clock.advance(timedelta(minutes=minutes))
    scheduler.run_due()


def test_failheap_game_from_signup_to_a_win(forum, tmp_path):
    clock = forum.clock
    forum.add_post("GameMaster", "<b>Failheap Village</b> sign-ups: post /in")
    for name in ROLES:
        forum.add_post(name, "/in")
    text = initgame.draft_game_file(f"{forum.base_url}?topic=5.0", "smf", "ModBot", _reader(forum))
    data = yaml.safe_load(text)
    assert data["gm"] == "GameMaster" and [p["name"] for p in data["players"]] == list(ROLES)
    for player in data["players"]:
        player["role"] = ROLES[player["name"]]
    data["schedule"].update(
        timezone="Europe/Paris",
        start="2026-12-01 22:00",
        first_phase="night1",
        day={"length": "48h", "starts": "22:00"},
        night={"length": "24h", "inner_deadlines": {"orders": "19:00"}},
    )
    data["publishing"].update(mode="auto", vote_count_every="12h")
    game_file = tmp_path / "game.yaml"
    game_file.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")

    url = f"sqlite:///{tmp_path / 'fb.sqlite3'}"
    upgrade(url)
    rt = http_runtime(url, forum, clock, "w1")
    game_id = games.register(rt, game_file)
    games.start(rt, game_id)
    scheduler = jobs.make_scheduler(rt, manual=True)
    scheduler.start()
    jobs.add_sync_job(scheduler, rt)
    clock.set(datetime(2026, 12, 1, 21, 0, 30, tzinfo=UTC))  # night 1 has begun
    scheduler.run_due()
    scheduler.run_due()

    forum.add_pm("Zed", "N1", "kill Carl")
    forum.add_pm("Bob", "N1", "heal Ann")
    _step(scheduler, clock)  # within one poll interval: parsed and receipted on the forum
    receipts = {pm["to"]: pm["body"] for pm in forum.data.sent}
    assert receipts["Zed"].startswith("Received: mafia kill Carl")

    scheduler.shutdown()  # a restart mid-phase
    rt = http_runtime(url, forum, clock, "w1")
    scheduler = jobs.make_scheduler(rt, manual=True)
    scheduler.start()
    forum.add_pm("Zed", "N1 change", "actually kill Dan")
    _step(scheduler, clock)

    clock.set(datetime(2026, 12, 2, 21, 0, 30, tzinfo=UTC))  # the night's 22:00 deadline
    for _ in range(3):
        _step(scheduler, clock, 1)
    bot_posts = [p for p in forum.data.posts if p["author"] == "ModBot"]
    assert len(bot_posts) == 1 and "Dan" in bot_posts[0]["body"]

    for voter in ("Ann", "Bob", "Carl"):
        forum.add_post(voter, "<b>$Zed</b>")
        _step(scheduler, clock)
    for hours in (12, 24, 36, 48):  # through the day to its deadline
        clock.set(datetime(2026, 12, 2, 21, 0, 30, tzinfo=UTC) + timedelta(hours=hours))
        for _ in range(3):
            _step(scheduler, clock, 1)
    with rt.sessions() as session:
        assert session.get(Game, game_id).status is GameStatus.FINISHED
        phases = {p.name: p.status for p in session.scalars(select(Phase))}
    assert phases["night1"] is PhaseStatus.PUBLISHED and phases["day1"] is PhaseStatus.PUBLISHED
    bot_posts = [p["body"] for p in forum.data.posts if p["author"] == "ModBot"]
    counts = [body for body in bot_posts if "Vote count 1" in body]
    assert len(counts) == 3 and "Zed (3)" in counts[-1]  # every 12 h of the 48 h day
    assert len(bot_posts) == 5 and "The game is over! Winners: Village" in bot_posts[-1]
    assert [pm for pm in forum.data.sent if pm["to"] == "GameMaster"]  # the GM's phase reports
    assert len({pm["to"] + pm["body"] for pm in forum.data.sent}) == len(forum.data.sent)
    scheduler.shutdown()


def test_forumbot_init_drafts_a_game_file_from_the_thread(forum, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from forumbot.cli import main

    forum.add_post("GameMaster", "Sign-ups for <b>Failheap Village</b>")
    forum.add_post("Ann", "/in")
    forum.add_post("Bob", "/in")
    monkeypatch.setenv("FORUMBOT_PASSWORD", "s3cret-pw")
    import forum_adapters

    # The real SMF adapter, built without politeness delays (a test never waits for real).
    monkeypatch.setitem(
        forum_adapters.ADAPTERS, "smf", lambda base, user, pw, **kw: smf_adapter(base)
    )
    out = tmp_path / "game.yaml"
    result = CliRunner().invoke(
        main, ["init", f"{forum.base_url}?topic=5.0", "--user", "ModBot", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    data = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert data["name"] == "test-village" and data["gm"] == "GameMaster"
    assert [p["name"] for p in data["players"]] == ["Ann", "Bob"]
    assert data["forum"]["engine"] == "smf" and "s3cret" not in out.read_text()
    assert data["credentials"] == {"username": "ModBot", "password_env": "FORUMBOT_PASSWORD"}
