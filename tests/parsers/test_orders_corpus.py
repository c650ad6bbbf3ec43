"""The labelled order corpus (fixtures/orders/*.yaml): every PM parses to the GM's label.

Two checks per PM: the one that matters most (never accept a wrong order), and agreement
with the label. A case with ``known_miss`` documents a gap (xfail, strict).
"""

from __future__ import annotations

import pytest

from benchmarks.bench_orders import Case, Runner, load_corpus, rendered, same_orders, verdict
from parsers.orders import ParseResult
from resolver.errors import RulesetError

CASES = load_corpus()
RUNNER = Runner()


def _run(case: Case) -> ParseResult:
    try:
        return RUNNER.run(case)
    except RulesetError as exc:  # the ruleset file is another area's; its own test fails
        pytest.skip(f"ruleset {case.ruleset} does not load: {exc}")


def _id(case: Case) -> str:
    return case.id


def _xfail_known(cases: list[Case]) -> list[object]:
    return [
        pytest.param(c, marks=pytest.mark.xfail(reason=c.known_miss, strict=True))
        if c.known_miss
        else c
        for c in cases
    ]


# A known miss that accepts wrongly (``accepts_wrongly: true``) must come from ruleset data,
# named in its reason; the parser's own gaps only ever queue.
WRONG_ACCEPT_KNOWN = [c for c in CASES if c.accepts_wrongly]


@pytest.mark.parametrize(
    "case",
    [c for c in CASES if c not in WRONG_ACCEPT_KNOWN] + _xfail_known(WRONG_ACCEPT_KNOWN),
    ids=_id,
)
def test_never_accepts_a_wrong_order(case: Case) -> None:
    result = _run(case)
    assert verdict(case, result) != "wrong_accept", (result.reason, rendered(result))


@pytest.mark.parametrize("case", _xfail_known(CASES), ids=_id)
def test_matches_the_label(case: Case) -> None:
    result = _run(case)
    assert str(result.status) == case.status, result.reason
    if case.status == "accepted":
        assert same_orders(case, result), rendered(result)
    if case.rule:
        assert case.rule.casefold() in (result.rule or "").casefold(), result.rule


def test_only_ruleset_gaps_may_accept_wrongly() -> None:
    assert all((c.known_miss or "").startswith("ruleset") for c in WRONG_ACCEPT_KNOWN)


def test_corpus_is_big_enough() -> None:
    assert len({c.id for c in CASES}) == len(CASES), "duplicate case ids"
    assert len(CASES) >= 100
