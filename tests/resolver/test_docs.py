"""The resolver's docs cover every option, primitive, rejection reason and event kind."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver.model import Effect, EventKind
from resolver.ruleset import load_ruleset
from resolver.validate import Reject

DOCS = Path(__file__).resolve().parents[2] / "docs"
RESOLVER_DOC = (DOCS / "resolver.md").read_text(encoding="utf-8")
RULESETS_DOC = (DOCS / "rulesets.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("option", sorted(load_ruleset("failheap").options))
def test_every_failheap_option_is_documented(option: str) -> None:
    assert f"`{option}`" in RESOLVER_DOC or option in RESOLVER_DOC


def test_every_primitive_is_documented() -> None:
    for effect in Effect:
        assert f"`{effect}`" in RESOLVER_DOC and f"`{effect}`" in RULESETS_DOC, effect


def test_every_rejection_reason_and_event_kind_is_documented() -> None:
    for reason in Reject:
        assert f"`{reason}`" in RESOLVER_DOC, reason
    for kind in EventKind:
        assert f"`{kind}`" in RESOLVER_DOC, kind


def test_the_scenario_example_in_the_docs_runs() -> None:
    import yaml

    from resolver.scenario import parse_scenario, run_scenario

    text = (DOCS / "scenarios.md").read_text(encoding="utf-8")
    example = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    report = run_scenario(parse_scenario(yaml.safe_load(example)))
    night = report["phases"][0]
    assert night["dead"] == []
    assert night["rejected"][0]["reason"] == "no_such_ability"
    assert {"to": "Carl", "kind": "saved", "data": {"protection": "heal"}} in night["private"]


def test_failheap_reference_in_the_docs_is_current() -> None:
    from resolver.reference import ruleset_reference

    start, end = "<!-- failheap-reference:start -->\n", "<!-- failheap-reference:end -->"
    documented = RESOLVER_DOC.split(start, 1)[1].split(end, 1)[0]
    assert documented == ruleset_reference(load_ruleset("failheap")), (
        "docs/resolver.md is out of date: paste the output of "
        "resolver.reference.ruleset_reference(load_ruleset('failheap')) between the markers"
    )
