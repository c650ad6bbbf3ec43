"""Every ru_mafia ability, item and role is played by a scenario that quotes the seed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from resolver.ruleset import load_ruleset

GAMES = Path(__file__).resolve().parents[3] / "fixtures" / "games"
SCENARIOS = sorted(GAMES.glob("ru_mafia-*.yaml"))
PASSIVE_ABILITIES = {"absorb_vote"}  # the Banshee's vote weight: ru_mafia-banshee-absorbs day 2
ITEMS_NOBODY_HOLDS = {"pistol"}  # «кроме пистолета и ножа»: no role of the seed starts with one
ITEMS_FROM_MOVES = {"cross": "confess"}  # «Во время исповеди дарит крестик»


def _scenarios() -> list[dict[str, Any]]:
    return [yaml.safe_load(p.read_text(encoding="utf-8")) for p in SCENARIOS]


def _orders(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [o for phase in data["phases"] for o in phase.get("orders") or []]


def test_every_scenario_quotes_the_seed() -> None:
    for path, data in zip(SCENARIOS, _scenarios(), strict=True):
        title = str(data.get("title", ""))
        assert "«" in title or "п." in title, f"{path.name}: the title must quote the seed"


def test_every_ability_is_ordered_in_a_scenario() -> None:
    used = {o["ability"] for data in _scenarios() for o in _orders(data)}
    assert set(load_ruleset("ru_mafia").abilities) - PASSIVE_ABILITIES <= used


def test_every_role_plays_in_a_scenario() -> None:
    roles = {str(r) for data in _scenarios() for r in data["players"].values()}
    missing = set(load_ruleset("ru_mafia").roles) - roles
    assert missing <= {"follower"}  # a Follower is a status of a recruited player, never dealt


def test_every_item_is_used_or_held_in_a_scenario() -> None:
    seen: set[str] = set()
    ruleset = load_ruleset("ru_mafia")
    for data in _scenarios():
        for items in ((data.get("start") or {}).get("items") or {}).values():
            seen |= set(items)
        for o in _orders(data):
            if o["ability"] == "use_item":
                seen.add(o["targets"][0])
        for role in data["players"].values():
            seen |= set(ruleset.role_of(str(role)).start_items)
        seen |= {
            i
            for i, move in ITEMS_FROM_MOVES.items()
            if move in {o["ability"] for o in _orders(data)}
        }
    assert set(ruleset.items) - ITEMS_NOBODY_HOLDS <= seen
