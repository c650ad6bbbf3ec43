"""Property tests: any text parses to a value (never an exception); rendered orders re-parse."""

from __future__ import annotations

import functools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsers.orders import OrderParser, Status
from parsers.roster import Roster, roster_from_data
from resolver.ruleset import load_ruleset

ROSTERS = {
    "failheap": {"Ann": "sheriff", "Bob": "doctor", "Kill": "villager", "Сара": "witch"},
    "dctp": {"Conia": "megure", "Akonyl": "vermouth", "Kleene Onigiri": "gin"},
    "durarara": {"Zoé": "shinra", "Kévin": "blue_square", "Jean": "celty"},
    "ru_mafia": {"Маша": "doctor", "Кот": "sheriff", "Тигра": "journalist"},
}
WORDS = st.sampled_from(
    ["heal", "Ann", "Bob", "kill", "Kill", "for", "night", "1", "'", '"', "cancel", "?", "not",
     "else", "лечу", "Машу", "je", "protège", "Zoé", "arrest", "Akonyl", "[quote]", "[/quote]",
     "<b>", "--", "\n", ",", ":", "=", "if", "is", "lynched", "then", "vote", "my", "will"]
)  # fmt: skip
TEXT = st.one_of(st.text(max_size=200), st.lists(WORDS, max_size=30).map(" ".join))


@functools.cache
def _setup(ruleset: str) -> tuple[OrderParser, Roster]:
    roster = roster_from_data({"players": ROSTERS[ruleset]})
    return OrderParser(load_ruleset(ruleset)), roster


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXT, ruleset=st.sampled_from(sorted(ROSTERS)), phase=st.sampled_from(
    ["night1", "night2", "day0", "day2", "prep"]))  # fmt: skip
def test_any_text_gives_a_result(text: str, ruleset: str, phase: str) -> None:
    parser, roster = _setup(ruleset)
    actor = next(iter(ROSTERS[ruleset]))
    result = parser.parse(text, roster=roster, actor=actor, phase=phase, recipients=["GM"])
    assert result.status in set(Status)
    assert 0.0 <= result.confidence <= 1.0
    assert result.reason
    if result.status is Status.ACCEPTED:
        assert result.orders


@settings(max_examples=60, deadline=None)
@given(
    ability=st.sampled_from(["check", "heal", "shoot", "guard", "block", "douse", "frame"]),
    target=st.sampled_from(["Ann", "Bob", "Kill", "Сара", "Doctor"]),
)
def test_rendered_order_parses_back(ability: str, target: str) -> None:
    """``parse(render(order)) == order`` for one-target orders of a sender who has them."""
    ruleset = load_ruleset("failheap")
    role = next(r.id for r in ruleset.roles.values() if ability in r.abilities)
    players = {"Sender": role, "Ann": "villager", "Bob": "villager", "Kill": "villager",
               "Сара": "villager", "Doctor": "villager"}  # fmt: skip
    roster = roster_from_data({"players": players})
    parser, _ = _setup("failheap")
    text = f"{ability} {target}"
    result = parser.parse(text, roster=roster, actor="Sender", phase="night2")
    assert result.status is Status.ACCEPTED, result.reason
    assert [o.render() for o in result.orders] == [text]
