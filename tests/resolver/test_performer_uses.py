"""A limited ability carried out by a performer the sender names (issue 11, class 10): the
use spent is the performer's, the one the order was checked against, not the sender's.

Through the real resolver: an order with the ``performer`` parameter, as the runtime stores
a clan head's "Jan cleans Vic" (``resolver.validate.PERFORMER``)."""

from __future__ import annotations

from resolver.model import Order
from resolver.validate import PERFORMER
from tests.resolver.factories import failheap, make_state, resolve

ROLES = {"Gia": "godfather", "Jan": "janitor", "Vic": "villager", "Ned": "villager",
         "Ola": "villager", "Pip": "villager"}  # fmt: skip


def test_the_performer_s_use_is_spent_not_the_sender_s() -> None:
    rules = failheap(janitor_cleanings=2)
    state = make_state(rules, ROLES)
    orders = [Order("Gia", "kill", ("Vic",)), Order("Gia", "clean", ("Vic",), {PERFORMER: "Jan"})]
    after = resolve(state, rules, orders)
    assert after.state.player("Jan").uses_left("clean") == 1
    assert after.state.player("Gia").uses_left("clean") is None  # the sender has none to spend


def test_a_performer_with_no_use_left_has_the_order_refused_and_keeps_nothing_spent() -> None:
    rules = failheap(janitor_cleanings=1)
    state = make_state(rules, ROLES)
    once = resolve(state, rules, [Order("Jan", "clean", ("Vic",))]).state
    assert once.player("Jan").uses_left("clean") == 0
    day = resolve(once, rules).state  # day 1, no lynch
    again = resolve(day, rules, [Order("Gia", "clean", ("Ned",), {PERFORMER: "Jan"})])
    assert again.state.phase == "night2"
    outcomes = [e.data for e in again.events if e.data.get("ability") == "clean"]
    assert [o.get("reason") for o in outcomes] == ["no_uses_left"]  # checked as Jan's
    assert again.state.player("Jan").uses_left("clean") == 0
    assert not again.state.player("Ned").has("cleaned")
