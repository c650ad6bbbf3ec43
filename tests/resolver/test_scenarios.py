"""Every scenario in ``fixtures/games/`` plays to the outcome its ``expect`` blocks state."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from forumbot.commands.simulate import simulate_json
from resolver.scenario import parse_scenario
from tests.resolver.expect import phase_problems

GAMES = Path(__file__).resolve().parents[2] / "fixtures" / "games"
SCENARIOS = sorted(GAMES.glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_outcome(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    report = simulate_json(parse_scenario(data))
    problems: list[str] = []
    for scripted, phase in zip(data["phases"], report["phases"], strict=True):
        problems += phase_problems(phase, scripted.get("expect") or {})
    final = (data.get("expect") or {}).get("winner", "unset")
    if final != "unset":
        problems += phase_problems(report["phases"][-1], {"winner": final})
    assert not problems, "\n".join(problems)


def test_there_is_a_scenario_for_every_failheap_role() -> None:
    roles = set()
    for path in GAMES.glob("failheap-*.yaml"):
        roles |= {
            str(r).lower().replace(" ", "_")
            for r in yaml.safe_load(path.read_text())["players"].values()
        }
    from resolver.ruleset import load_ruleset

    assert set(load_ruleset("failheap").roles) <= roles
