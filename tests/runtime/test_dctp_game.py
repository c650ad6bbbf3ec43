"""A whole DCTP game on the real SMF adapter over loopback HTTP, from sign-up to the town's win.

Fourteen players, both sides and a Town/BO lover pair (Yumi's Amor), a Leader elected by the
BO on Night 1 whose kill order carries Night 2, an arrest by day and one by night, a lynch.
Orders and votes are PMs to the bot (seed 000: "You have to PM the GM
directly to vote/use your ability"), read by the real order parser and vote counter on the real
scheduler with a fake clock; the resolver and the event templates are the real ones.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import yaml
from sqlalchemy import select

from forumbot import jobs
from forumbot.db import upgrade
from forumbot.db.enums import GameStatus, PhaseStatus
from forumbot.db.models import Game, Phase
from forumbot.services import games, initgame
from tests.runtime.test_game_http import _reader, _step, forum, http_runtime  # noqa: F401

ROLES = {"Gina": "gin", "Vic": "vodka", "Kurt": "korn", "Mona": "megure", "Toby": "takagi",
         "Rosa": "ran", "Abe": "araide", "Cole": "conan", "Hugo": "heiji", "Yara": "yumi",
         "Kate": "kazuha", "Amy": "ayumi", "Milo": "mitsuhiko", "Gus": "genta"}  # fmt: skip
NIGHT1 = datetime(2026, 12, 1, 21, 0, 30, tzinfo=UTC)  # 22:00 in Paris


def _deadline(scheduler, clock, when: datetime) -> None:
    clock.set(when + timedelta(seconds=30))
    for _ in range(3):
        _step(scheduler, clock, 1)


def _pms(forum, scheduler, clock, orders: list[tuple[str, str]]) -> None:  # noqa: F811
    for sender, text in orders:
        forum.add_pm(sender, "order", text)
    _step(scheduler, clock)


def _bot_posts(forum) -> list[str]:  # noqa: F811
    return [p["body"] for p in forum.data.posts if p["author"] == "ModBot"]


def _start(forum, tmp_path):  # noqa: F811
    forum.add_post("GameMaster", "<b>Detective Conan Mafia</b> sign-ups: post /in")
    for name in ROLES:
        forum.add_post(name, "/in")
    text = initgame.draft_game_file(f"{forum.base_url}?topic=5.0", "smf", "ModBot", _reader(forum))
    data = yaml.safe_load(text)
    data["ruleset"] = "dctp"
    data.pop("votes", None)  # the ruleset's: by PM to the GM
    for player in data["players"]:
        player["role"] = ROLES[player["name"]]
    data["schedule"].update(
        timezone="Europe/Paris",
        start="2026-12-01 22:00",
        first_phase="night1",
        day={"length": "48h", "starts": "22:00"},
        night={"length": "24h", "inner_deadlines": {"orders": "19:00"}},
    )
    data["publishing"].update(mode="auto")
    game_file = tmp_path / "game.yaml"
    game_file.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    url = f"sqlite:///{tmp_path / 'fb.sqlite3'}"
    upgrade(url)
    rt = http_runtime(url, forum, forum.clock, "w1")
    game_id = games.register(rt, game_file)
    games.start(rt, game_id)
    scheduler = jobs.make_scheduler(rt, manual=True)
    scheduler.start()
    jobs.add_sync_job(scheduler, rt)
    forum.clock.set(NIGHT1)
    scheduler.run_due()
    scheduler.run_due()
    return rt, game_id, scheduler


def test_dctp_game_from_signup_to_the_towns_win(forum, tmp_path):  # noqa: F811
    clock = forum.clock
    rt, game_id, scheduler = _start(forum, tmp_path)

    _pms(forum, scheduler, clock, [
        ("Yara", "amor Amy, Milo, Gus, Vic, Rosa"),  # children can't be lovers: Vic and Rosa
        ("Gina", "kill Cole"),
        ("Hugo", "investigate 'Gina kills Cole'"),
        ("Vic", "new leader Vic"),  # 2 of the 3 BO: "50%+ of the BO vote"
        ("Kurt", "new leader Vic"),
        ("Vic", "discombobulate Abe"),
    ])  # fmt: skip
    _deadline(scheduler, clock, NIGHT1 + timedelta(days=1))
    assert "[b]Cole[/b] was found dead" in _bot_posts(forum)[-1]
    private = {pm["to"]: pm["body"] for pm in forum.data.sent}
    assert private["Hugo"] == "Investigate #: Gina kill Cole — true."
    assert "linked to [b]Rosa[/b]" in private["Vic"]

    day1 = NIGHT1 + timedelta(days=1)
    _pms(forum, scheduler, clock, [
        ("Mona", "Arrest Gina for killing Cole on Night 1"),
        ("Toby", "vote Kurt"),
        ("Kurt", "vote Toby"),
    ])  # fmt: skip
    _deadline(scheduler, clock, day1 + timedelta(days=2))
    day1_post = _bot_posts(forum)[-1]
    assert "An unidentified police officer arrested [b]Gina[/b]" in day1_post
    assert "Mona" not in day1_post.split("arrested")[0]  # the officer is never named
    assert "Nobody was lynched" in day1_post  # 1 vote to 1: a tie

    night2 = day1 + timedelta(days=2)
    _pms(forum, scheduler, clock, [("Vic", "I order Kurt to kill Hugo")])  # the new Leader
    _deadline(scheduler, clock, night2 + timedelta(days=1))
    assert "[b]Hugo[/b] was found dead" in _bot_posts(forum)[-1]

    day2 = night2 + timedelta(days=1)
    _pms(forum, scheduler, clock, [
        *[(v, "vote Kurt") for v in ("Toby", "Mona", "Kate", "Amy", "Milo", "Gus")],
        ("Kurt", "vote Abe"),
        ("Vic", "vote Abe"),
    ])  # fmt: skip
    _deadline(scheduler, clock, day2 + timedelta(days=2))
    assert "[b]Kurt[/b] was lynched" in _bot_posts(forum)[-1]

    night3 = day2 + timedelta(days=2)
    _pms(forum, scheduler, clock, [("Toby", "Arrest Vic for discombobulating Abe on Night 1")])
    _deadline(scheduler, clock, night3 + timedelta(days=1))

    with rt.sessions() as session:
        assert session.get(Game, game_id).status is GameStatus.FINISHED
        phases = {p.name: p.status for p in session.scalars(select(Phase))}
    assert all(
        phases[p] is PhaseStatus.PUBLISHED for p in ("night1", "day1", "night2", "day2", "night3")
    )
    final = _bot_posts(forum)[-1]
    assert "An unidentified police officer arrested [b]Vic[/b]" in final
    assert "The game is over! Winners: Town" in final
    winners = final.split("Winners:")[1]
    assert "Rosa" not in winners  # "A Town/BO pair doesn't win when the town or the BO wins"
    assert "Cole" in winners and "Hugo" in winners  # the dead win with their side
    scheduler.shutdown()
