"""The runtime hands the order parser the day votes' results (issue 11, seed 004's Jailer):
a ru_mafia game played through the runtime on a local forum, its days resolved by the
thread's votes; the Jailer's PM on the player the day before jailed is accepted, on one
an earlier day jailed refused (from the history, not the roster, which shows both dead)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from forumbot.clock import FakeClock
from forumbot.db import upgrade
from forumbot.db.enums import OrderStatus, PhaseStatus
from forumbot.db.models import Order, Outbound, Phase, Player
from forumbot.localforum import ForumState, LocalForum, save_state
from forumbot.services import cycle, drafts, games
from forumbot.services.phases import controls
from tests.runtime.conftest import GAME, START, make_runtime

PLAYERS = """players:
  - {name: Masha, role: doctor}
  - {name: Kot, role: sheriff}
  - {name: Lisa, role: mafia_boss}
  - {name: Hans, role: mafioso}
  - {name: Oleg, role: villager}
  - {name: Fedya, role: jailer}
  - {name: Vera, role: villager}
"""


def _game(tmp_path: Path, clock: FakeClock):
    text = GAME.replace("MODE", "approve").replace("ruleset: failheap", "ruleset: ru_mafia")
    text = text.replace("first_phase: night1", "first_phase: day1")  # the seed's order
    start, end = text.index("players:"), text.index("schedule:")
    url = f"sqlite:///{tmp_path / 'fb.sqlite3'}"
    upgrade(url)
    save_state(tmp_path / "forum", ForumState(topic_id=5, title="Test Village"))
    path = tmp_path / "game.yaml"
    path.write_text(text[:start] + PLAYERS + text[end:], encoding="utf-8")
    rt = make_runtime(url, tmp_path / "forum", clock)
    game_id = games.register(rt, path)
    games.start(rt, game_id)
    return rt, game_id


def _status(rt, name: str) -> PhaseStatus | None:
    with rt.sessions() as session:
        phase = session.scalar(select(Phase).where(Phase.name == name))
        return phase.status if phase is not None else None


def _end_phase(rt, game_id: int, following: str) -> None:
    """End the open phase now, approve its drafts, until ``following`` is open."""
    controls.end_now(rt, game_id)
    for _ in range(4):
        cycle(rt, game_id)
        with rt.sessions.begin() as session:
            for row in session.scalars(select(Outbound).where(Outbound.state == "draft")):
                drafts.approve_draft(session, row.id, gm="Steph")
        if _status(rt, following) is PhaseStatus.OPEN:
            return
    raise AssertionError(f"{following} did not open")


def _day(rt, game_id: int, tmp_path: Path, clock: FakeClock, lynch: str, voters: list[str]):
    forum = LocalForum(tmp_path / "forum", "Players", clock=clock)
    for voter in voters:
        forum.add_post(voter, f"<b>${lynch}</b>", clock.now())
    cycle(rt, game_id)


def _jailer_order(rt, game_id: int, tmp_path: Path, clock: FakeClock, text: str):
    LocalForum(tmp_path / "forum", "Fedya", clock=clock).add_pm("Fedya", "ход", text, clock.now())
    cycle(rt, game_id)
    with rt.sessions() as session:
        pid = session.scalar(select(Player.id).where(Player.display_name == "Fedya"))
        rows = session.scalars(select(Order).where(Order.game_id == game_id,
                                                   Order.player_id == pid))  # fmt: skip
        return [(o.ability, o.status) for o in rows]


def test_the_jailer_takes_the_prisoner_of_the_day_before_from_the_runtime_history(tmp_path):
    clock = FakeClock(START)
    rt, game_id = _game(tmp_path, clock)
    cycle(rt, game_id)
    assert _status(rt, "day1") is PhaseStatus.OPEN
    _day(rt, game_id, tmp_path, clock, "Oleg", ["Masha", "Kot", "Lisa", "Hans", "Vera"])
    _end_phase(rt, game_id, "night1")
    _end_phase(rt, game_id, "day2")  # a quiet night 1
    _day(rt, game_id, tmp_path, clock, "Vera", ["Masha", "Kot", "Lisa", "Hans", "Fedya"])
    _end_phase(rt, game_id, "night2")
    # Oleg (day 1) and Vera (day 2) are both out of the game now; only Vera is today's
    orders = _jailer_order(rt, game_id, tmp_path, clock, "выпускаю Oleg")
    assert orders == [(None, OrderStatus.REJECTED)], orders
    orders = _jailer_order(rt, game_id, tmp_path, clock, "Выпускаю Vera, прошу.")
    assert orders[-1] == ("release_jailed", OrderStatus.ACCEPTED), orders
