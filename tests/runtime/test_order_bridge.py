"""What the runtime hands the order parser: the whole roster, recipients, lessons, the phase fit."""

from __future__ import annotations

from forumbot.services.bridges import parse_order_bridge
from forumbot.services.pipeline import OrderRequest

FAILHEAP = {"Ann": "doctor", "Bob": "amnesiac", "Zoé": "sheriff", "Mona": "villager"}
DCTP = {"Conia": "megure", "Akonyl": "vermouth", "CTU": "ran", "Callid": "anokata"}


def _request(text: str, actor: str, phase: str, **kw: object) -> OrderRequest:
    roster = kw.pop("roster", FAILHEAP)
    ruleset = kw.pop("ruleset", "failheap")
    return OrderRequest(text=text, actor=actor, phase=phase, ruleset=ruleset, roster=roster, **kw)  # type: ignore[arg-type]


def test_a_night_order_sent_by_day_fits_the_night_not_the_day() -> None:
    day = parse_order_bridge(_request("I heal Zoé tonight", "Ann", "day1"))
    night = parse_order_bridge(_request("I heal Zoé tonight", "Ann", "night1"))
    assert not day.fits_phase
    assert night.fits_phase and night.status == "accepted"


def test_orders_on_dead_players_find_them() -> None:
    """The Amnesiac remembers a dead player: the dead stay in the roster, marked dead."""
    alive = ("Ann", "Bob", "Zoé")
    reading = parse_order_bridge(_request("remember Mona", "Bob", "night2", alive=alive))
    assert reading.status == "accepted"
    assert [o.targets for o in reading.orders] == [("Mona",)]


def test_what_the_gm_taught_is_used() -> None:
    text = "heal zozo"
    before = parse_order_bridge(_request(text, "Ann", "night1"))
    after = parse_order_bridge(_request(text, "Ann", "night1", learned_names={"zozo": "Zoé"}))
    assert before.status != "accepted"
    assert after.status == "accepted" and after.orders[0].targets == ("Zoé",)


def test_a_hand_off_counts_only_when_the_delegate_received_the_pm() -> None:
    text = "I hand over my actions to Akonyl for Night 2"
    alone = parse_order_bridge(
        _request(text, "Callid", "day2", ruleset="dctp", roster=DCTP, recipients=("GM",))
    )
    shared = parse_order_bridge(
        _request(text, "Callid", "day2", ruleset="dctp", roster=DCTP, recipients=("GM", "Akonyl"))
    )
    assert shared.status == "accepted"
    assert alone.status != "accepted"
