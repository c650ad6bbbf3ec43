"""A clan member's move sent by the clan head, through the runtime (issue 11, class 10).

Seed 004: "Ходы отправляет Босс": the Boss's PM "Hans стреляет в Oleg" is Hans's shot. The
PM goes into the local forum's inbox and is read by the real parser; the order row carries
the performer; at the deadline the real resolver runs the shot as Hans's, so a block on
Hans (the Doctor's sleeping pill) stops it while a block on the Boss does not.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import select

from forumbot import jobs
from forumbot.cli import main
from forumbot.db import upgrade
from forumbot.db.enums import OrderStatus, PhaseStatus
from forumbot.db.models import Order, Phase, Player, ReviewItem
from forumbot.localforum import ForumState, LocalForum, save_state
from forumbot.services import games, review
from tests.runtime.conftest import GAME, make_runtime
from tests.runtime.test_dctp_game import _start as _dctp_start
from tests.runtime.test_game_http import _step, forum  # noqa: F401

PLAYERS = """players:
  - {name: Lisa, role: mafia_boss}
  - {name: Hans, role: mafioso}
  - {name: Vera, role: mafia_recruiter}
  - {name: Kot, role: sheriff}
  - {name: Masha, role: doctor}
  - {name: Oleg, role: villager}
  - {name: Dina, role: villager}
  - {name: Tim, role: villager}
"""


def _night(tmp_path: Path, clock, pms: list[tuple[str, str]], decide=None):
    """Start the game, send the night's PMs, pass the deadline; the runtime and its rows."""
    text = GAME.replace("MODE", "auto").replace("ruleset: failheap", "ruleset: ru_mafia")
    text = text.replace("seed: 3", "seed: 1")  # under seed 3 even the Boss's own shot misses Oleg
    text = text[: text.index("players:")] + PLAYERS + text[text.index("schedule:") :]
    url = f"sqlite:///{tmp_path / 'fb.sqlite3'}"
    upgrade(url)
    save_state(tmp_path / "forum", ForumState(topic_id=5, title="Test Village"))
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    rt = make_runtime(url, tmp_path / "forum", clock)
    game_id = games.register(rt, tmp_path / "game.yaml")
    games.start(rt, game_id)
    scheduler = jobs.make_scheduler(rt, manual=True)
    scheduler.start()
    jobs.add_sync_job(scheduler, rt)
    scheduler.run_due()
    scheduler.run_due()  # night 1 opens
    players = LocalForum(tmp_path / "forum", "Players", clock=clock)
    for sender, body in pms:
        players.add_pm(sender, "ход", body, clock.now())
    clock.advance(timedelta(minutes=2))
    scheduler.run_due()
    if decide is not None:
        decide(rt, url)
    with rt.sessions() as s:
        lisa = s.scalar(select(Player.id).where(Player.display_name == "Lisa"))
        rows = [(o.ability, o.targets, o.params, o.status)
                for o in s.scalars(select(Order).where(Order.player_id == lisa))]  # fmt: skip
    clock.set(clock.now().replace(hour=21, minute=30) + timedelta(days=1))  # past 22:00 Paris
    for _ in range(3):
        clock.advance(timedelta(minutes=1))
        scheduler.run_due()
    with rt.sessions() as s:
        night1 = s.scalar(select(Phase).where(Phase.name == "night1"))
        assert night1 is not None and night1.status is PhaseStatus.PUBLISHED
    scheduler.shutdown()
    posts = [p["body_html"] for p in LocalForum(tmp_path / "forum", "ModBot").state.posts]
    return rows, posts


def test_the_boss_s_shot_is_carried_out_by_the_member_he_names(tmp_path: Path, clock):
    rows, posts = _night(tmp_path, clock, [("Lisa", "Hans стреляет в Oleg"),
                                           ("Masha", "усыпляю Lisa")])  # fmt: skip
    assert rows == [("shoot", ["Oleg"], {"performer": "Hans"}, OrderStatus.ACCEPTED)]
    assert "Oleg" in posts[-1]  # the Boss was put to sleep, not Hans: the shot lands


def test_a_block_on_the_performer_stops_the_shot(tmp_path: Path, clock):
    rows, posts = _night(tmp_path, clock, [("Lisa", "Hans стреляет в Oleg"),
                                           ("Masha", "усыпляю Hans")])  # fmt: skip
    assert rows == [("shoot", ["Oleg"], {"performer": "Hans"}, OrderStatus.ACCEPTED)]
    assert "Oleg" not in posts[-1]  # nobody died: Hans slept


def test_the_gm_accepts_a_queued_move_with_its_performer(tmp_path: Path, clock):
    """The Boss leaves the target open; the GM accepts the reading from the queue (the CLI):
    the stored order is Vera's recruitment, which the Boss's own role does not have."""
    rows, _ = _night(tmp_path, clock, [("Lisa", "Vera вербует Oleg или Dina, реши сам")],
                     decide=_accept_first)  # fmt: skip
    assert ("mafia_recruit", ["Oleg"], {"performer": "Vera"}, OrderStatus.ACCEPTED) in rows


def _accept_first(rt, url: str) -> None:
    with rt.sessions() as s:
        item = s.scalars(select(ReviewItem)).one()
        assert item.candidates and item.candidates[0]["orders"][0]["performer"] == "Vera"
        recruit = review.choices_for(s, item.id).ability("mafia_recruit")  # Vera's, not Lisa's
        assert recruit is not None and "Vera" in recruit.params[-1].options  # the performer
        args = ["queue", "test-village", "--accept", str(item.id), "--database", url]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output


def test_a_delegate_s_header_may_open_a_sentence(forum, tmp_path):  # noqa: F811
    """Seed 000's hand-off through the runtime: "… For Vic: discombobulate Rosa" on one line
    is Vic's order, split as `parse-order` splits it."""
    clock = forum.clock
    rt, _game_id, scheduler = _dctp_start(forum, tmp_path)
    forum.add_pm("Vic", "hand-off", "I hand over my actions to Kurt for Night 1", cc=("Kurt",))
    _step(scheduler, clock)
    forum.add_pm(
        "Kurt", "orders", "Vic handed me his night (he cc'd you). For Vic: discombobulate Rosa"
    )
    _step(scheduler, clock)
    with rt.sessions() as s:
        vic = s.scalar(select(Player.id).where(Player.display_name == "Vic"))
        rows = [(o.ability, o.targets, o.status)
                for o in s.scalars(select(Order).where(Order.player_id == vic))]  # fmt: skip
    assert ("discombobulate", ["Rosa"], OrderStatus.ACCEPTED) in rows
    scheduler.shutdown()
