"""A "no" inside an aside or a clause of its own ("(people pile on her for no reason)") does
not reach past its mark: the next order's player is read, not silently skipped (issue 11
class 8: a vote dropped from a two-line PM, blind round G's bG-dc08); "X, not Y" still rules
Y out."""

from __future__ import annotations

from benchmarks.bench_orders import Case, Runner

RUNNER = Runner()


def _parse(text: str) -> tuple[str, tuple[str, ...]]:
    case = Case("t", "dctp", "blindD_dctp_en", "en", "Kestrel", "day2", text, "ambiguous", ())
    result = RUNNER.run(case)
    return str(result.status), tuple(order.render() for order in result.orders)


def test_a_no_in_an_aside_does_not_eat_the_next_orders_player() -> None:
    text = "Today:\n- Accompany: Minty (everyone doubts her for no reason)\n- My vote: Saoirse"
    assert _parse(text) == ("accepted", ("accompany Araminta", "vote Saoirse"))
    text = "Accompany Minty, no questions asked, and my vote is Saoirse."
    assert _parse(text) == ("accepted", ("accompany Araminta", "vote Saoirse"))


def test_not_right_before_a_player_still_rules_him_out() -> None:
    status, orders = _parse("Accompany Minty, not Saoirse.")
    assert (status, orders) == ("accepted", ("accompany Araminta",))
