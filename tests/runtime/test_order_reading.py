"""What the runtime hands the order parser: the whole roster, recipients, lessons, the phase fit."""

from __future__ import annotations

from forumbot.services import domain
from parsers.orders import Learned, OrderParser, ParseResult
from parsers.roster import Roster, Slot
from resolver.ruleset import load_ruleset

FAILHEAP = {"Ann": "doctor", "Bob": "amnesiac", "Zoé": "sheriff", "Mona": "villager"}
DCTP = {"Conia": "megure", "Akonyl": "vermouth", "CTU": "ran", "Callid": "anokata"}


def _read(text: str, actor: str, phase: str, **kw: object) -> ParseResult:
    roles = kw.pop("roster", FAILHEAP)
    alive = kw.pop("alive", tuple(roles))  # type: ignore[arg-type]
    ruleset = load_ruleset(str(kw.pop("ruleset", "failheap")))
    roster = Roster(tuple(Slot(n, r, alive=n in alive) for n, r in roles.items()))  # type: ignore[union-attr,operator]
    return OrderParser(ruleset).parse(text, actor=actor, phase=phase, roster=roster, **kw)  # type: ignore[arg-type]


def test_a_night_order_sent_by_day_fits_the_night_not_the_day() -> None:
    failheap = load_ruleset("failheap")
    day = _read("I heal Zoé tonight", "Ann", "day1")
    night = _read("I heal Zoé tonight", "Ann", "night1")
    assert not domain.fits_phase(failheap, "day1", day)
    assert domain.fits_phase(failheap, "night1", night) and night.status == "accepted"


def test_orders_on_dead_players_find_them() -> None:
    """The Amnesiac remembers a dead player: the dead stay in the roster, marked dead."""
    alive = ("Ann", "Bob", "Zoé")
    reading = _read("remember Mona", "Bob", "night2", alive=alive)
    assert reading.status == "accepted"
    assert [domain.order_fields(o)[1] for o in reading.orders] == [["Mona"]]


def test_what_the_gm_taught_is_used() -> None:
    text = "heal zozo"
    before = _read(text, "Ann", "night1")
    after = _read(text, "Ann", "night1", learned=Learned(names={"zozo": "Zoé"}))
    assert before.status != "accepted"
    assert after.status == "accepted" and domain.order_fields(after.orders[0])[1] == ["Zoé"]


def test_a_hand_off_counts_only_when_the_delegate_received_the_pm() -> None:
    text = "I hand over my actions to Akonyl for Night 2"
    alone = _read(text, "Callid", "day2", ruleset="dctp", roster=DCTP, recipients=("GM",))
    shared = _read(text, "Callid", "day2", ruleset="dctp", roster=DCTP, recipients=("GM", "Akonyl"))
    assert shared.status == "accepted"
    assert alone.status != "accepted"
