"""Seed 004's host penalties «+1 в лог» in the live count: the GM enters one with
``forumbot player penalty``, the published vote count shows it on the penalised player's
wagon, and the Day resolves to the lynch that count announced (one vote model: the count
takes the penalty votes from the resolver's own ``vote_extras``)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import select

from forumbot.cli import main
from forumbot.db.enums import PhaseStatus
from forumbot.db.models import Game, Outbound, Phase, PhaseEvent
from forumbot.localforum import LocalForum
from forumbot.services import cycle, drafts
from forumbot.services.phases import controls, daycount
from tests.runtime.test_order_state import RU_PLAYERS, _game


def _penalty(url: str, *args: str) -> str:
    done = CliRunner().invoke(main, ["player", "penalty", "test-village", *args, "--database", url])
    assert done.exit_code == 0, done.output
    return done.output


def _to_day1(rt, game_id: int) -> None:
    cycle(rt, game_id)
    controls.end_now(rt, game_id)  # a quiet night 1
    for _ in range(3):
        cycle(rt, game_id)
    with rt.sessions.begin() as session:
        for row in session.scalars(select(Outbound).where(Outbound.state == "draft")):
            drafts.approve_draft(session, row.id, gm="Steph")
    for _ in range(2):
        cycle(rt, game_id)
    with rt.sessions() as session:
        day = session.scalar(select(Phase).where(Phase.name == "day1"))
        assert day is not None and day.status is PhaseStatus.OPEN


def _resolved_tally(rt) -> tuple[dict[str, int], list[dict]]:
    """Day 1's resolved log: each target's total, and the Day's lynch events."""
    with rt.sessions() as session:
        day = session.scalar(select(Phase).where(Phase.name == "day1"))
        assert day is not None and day.status is PhaseStatus.RESOLVED
        rows = session.scalars(select(PhaseEvent).where(PhaseEvent.phase_id == day.id)).all()
        tally = next(r.data for r in rows if r.kind == "vote_tally")
        totals = {row["target"]: row["total"] for row in tally["tally"]}
        return totals, [{"kind": r.kind, **r.data} for r in rows if r.kind in ("lynch", "no_lynch")]


def _final_count(rt, game_id: int):
    """Day 1 counted after its end, as the GM page shows it."""
    with rt.sessions() as session:
        game = session.get_one(Game, game_id)
        day = next(p for p in game.phases if p.name == "day1")
        return daycount.count_day(session, game, day, rt.clock.now()).result


def _day_with_votes(tmp_path: Path, clock):
    rt, game_id = _game(tmp_path, clock, "ru_mafia", RU_PLAYERS)
    _to_day1(rt, game_id)
    forum = LocalForum(tmp_path / "forum", "Players", clock=clock)
    for voter, target in (("Masha", "Lisa"), ("Kot", "Lisa"), ("Lisa", "Oleg"),
                          ("Hans", "Oleg"), ("Oleg", "Hans")):  # fmt: skip
        forum.add_post(voter, f"<b>${target}</b>", clock.now())
    cycle(rt, game_id)
    return rt, game_id


def test_a_penalty_the_gm_enters_is_in_the_published_count_and_the_lynch(tmp_path, clock):
    rt, game_id = _day_with_votes(tmp_path, clock)
    url = f"sqlite:///{tmp_path / 'fb.sqlite3'}"
    tied = daycount.tally(rt, game_id)
    assert [(w.target, w.total) for w in tied.result.wagons][:2] == [("Lisa", 2), ("Oleg", 2)]
    _penalty(url, "Oleg", "--rule", "no_avatar", "--gm", "Steph")  # п.15: +1 in the log
    count = daycount.tally(rt, game_id)
    oleg = next(w for w in count.result.wagons if w.target == "Oleg")
    assert (oleg.total, [v.name for v in oleg.voters]) == (3, ["Lisa", "Hans"])
    assert any("+1 in the log" in note for note in oleg.notes)
    assert "[b]Oleg (3)[/b]: Lisa, Hans" in count.post, count.post  # the published count
    controls.end_now(rt, game_id)
    for _ in range(2):
        cycle(rt, game_id)
    totals, lynch = _resolved_tally(rt)
    assert totals["Oleg"] == 3 and totals["Lisa"] == 2
    assert [e["kind"] for e in lynch] == ["lynch"], lynch
    assert lynch[0].get("player") == "Oleg" == _final_count(rt, game_id).decision.lynched


def test_without_a_penalty_the_tie_stays_a_tie_in_both(tmp_path, clock):
    rt, game_id = _day_with_votes(tmp_path, clock)
    count = daycount.tally(rt, game_id)
    assert not any(note for w in count.result.wagons for note in w.notes)
    controls.end_now(rt, game_id)
    for _ in range(2):
        cycle(rt, game_id)
    totals, lynch = _resolved_tally(rt)
    assert totals["Oleg"] == 2 == totals["Lisa"]
    assert {e["kind"] for e in lynch} == {"no_lynch"}
    assert _final_count(rt, game_id).decision.lynched is None
