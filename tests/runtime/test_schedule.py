"""Phase clock arithmetic on seed 003's schedule: days 48 h from 22:00, nights 24 h, 19:00."""

from __future__ import annotations

from datetime import UTC, datetime, time
from zoneinfo import ZoneInfo

from forumbot.gamefile import PhaseLength, Schedule, parse_duration
from forumbot.services import schedule

PARIS = ZoneInfo("Europe/Paris")
SEED_003 = Schedule(
    timezone=PARIS,
    first_phase="day0",
    start=datetime(2027, 3, 25, 22, 0, tzinfo=PARIS),
    day=PhaseLength(parse_duration("48h", "d")),
    night=PhaseLength(parse_duration("24h", "n"), inner_deadlines=(("orders", time(19, 0)),)),
)


def test_day_zero_then_night_one_with_a_19h_inner_deadline():
    day0 = schedule.first_plan(SEED_003, datetime(2027, 3, 1, tzinfo=UTC))
    assert day0.name == "day0"
    assert day0.deadline.astimezone(PARIS) == datetime(2027, 3, 27, 22, 0, tzinfo=PARIS)
    night1 = schedule.following_plan(SEED_003, "day0", day0.deadline)
    assert night1.name == "night1"
    assert night1.deadline.astimezone(PARIS) == datetime(2027, 3, 28, 22, 0, tzinfo=PARIS)
    assert night1.orders_deadline().astimezone(PARIS) == datetime(2027, 3, 28, 19, 0, tzinfo=PARIS)


def test_wall_clock_across_summer_time():
    # 2027-03-28 02:00 Paris jumps to 03:00: the night is 23 real hours, still 22:00 to 22:00.
    night1 = schedule.plan(SEED_003, "night1", datetime(2027, 3, 27, 21, 0, tzinfo=UTC))
    assert (night1.deadline - night1.starts_at).total_seconds() == 23 * 3600
    day1 = schedule.following_plan(SEED_003, "night1", night1.deadline)
    assert day1.name == "day1"
    assert day1.deadline.astimezone(PARIS).hour == 22


def test_phase_order():
    assert schedule.next_name("night1", nights_first=True) == "day1"
    assert schedule.next_name("day1", nights_first=True) == "night2"
    assert schedule.next_name("day1", nights_first=False) == "night1"
    assert schedule.next_name("night1", nights_first=False) == "day2"


def test_polling_is_faster_near_a_deadline(world, clock):
    from datetime import timedelta

    from forumbot.services import status
    from forumbot.services.phases import clock as phase_clock

    rt, game_id = world["rt"], world["game_id"]
    phase_clock.open_first(rt, game_id)
    assert status.poll_interval(rt, game_id) == timedelta(minutes=2)
    clock.set(datetime(2026, 12, 2, 20, 50, tzinfo=UTC))  # 21:50 in Paris: 10 min left
    assert status.poll_interval(rt, game_id) == timedelta(seconds=30)
