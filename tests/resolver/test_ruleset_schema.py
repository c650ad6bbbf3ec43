"""Every shipped ruleset loads and validates; broken data fails with a precise message."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from resolver.errors import ResolverError, RulesetError
from resolver.ruleset import RULESETS_DIR, load_ruleset, ruleset_from_data

RULESET_FILES = sorted(RULESETS_DIR.glob("*.yaml"))


@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: p.stem)
def test_every_shipped_ruleset_loads(path: Path) -> None:
    ruleset = load_ruleset(path)
    assert ruleset.id == path.stem
    for role in ruleset.roles.values():
        assert role.faction in ruleset.factions
        for ability in role.abilities.values():
            assert ability.id in ruleset.abilities


def test_failheap_is_complete() -> None:
    ruleset = load_ruleset("failheap")
    assert len(ruleset.roles) == 23
    assert ruleset.hooks == "failheap"
    for ability in ruleset.abilities.values():
        assert ability.vocabulary["en"], ability.id


def _failheap_data() -> dict:
    return yaml.safe_load((RULESETS_DIR / "failheap.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("mutate", "path", "fragment"),
    [
        (
            lambda d: d["roles"]["sheriff"].update(faction="police"),
            "roles.sheriff.faction",
            "valid: ",
        ),
        (
            lambda d: d["abilities"]["check"].update(priority="later"),
            "abilities.check.priority",
            "investigate",
        ),
        (
            lambda d: d["abilities"]["check"]["targets"][0].update(kind="planet"),
            "abilities.check.targets[0].kind",
            "player",
        ),
        (
            lambda d: d["roles"]["doctor"].update(abilities=["heal", "fly"]),
            "roles.doctor.abilities[1]",
            "heal",
        ),
        (
            lambda d: d["abilities"]["heal"].update(colour="red"),
            "abilities.heal.colour",
            "unknown key",
        ),
        (lambda d: d["vote"].update(tie="coin"), "vote.tie", "no_lynch"),
        (
            lambda d: d["abilities"]["clean"].update(uses="$cleanings"),
            "abilities.clean.uses",
            "unknown option",
        ),
        (lambda d: d.pop("roles"), "roles", "missing"),
        (lambda d: d["win"].update(check="vibes"), "win.check", "team_endgame"),
        (lambda d: d.update(hooks="conan"), "hooks", "failheap"),
        (lambda d: d["statuses"]["doused"].update(lasts="week"), "statuses.doused.lasts", "night"),
        (
            lambda d: d["statuses"]["framed"]["effects"].update(glows=True),
            "statuses.framed.effects.glows",
            "appears",
        ),
        (
            lambda d: d["roles"]["survivalist"]["start"]["items"].update(helmet=1),
            "roles.survivalist.start.items.helmet",
            "vest",
        ),
        (lambda d: d["items"]["vest"].update(ability="fly"), "items.vest.ability", "vest"),
        (
            lambda d: d["succession"].update(godfather={"heirs": ["pope"]}),
            "succession.godfather.heirs[0]",
            "mafioso",
        ),
        (
            lambda d: d["abilities"]["check"].update(vocabulary={"fr": ["vérifier"]}),
            "abilities.check.vocabulary.fr",
            "unknown key",
        ),
        (lambda d: d["phases"].update(first="dusk1"), "phases.first", "night"),
        (
            lambda d: d["abilities"]["heal"]["targets"][0].update(self="yes"),
            "abilities.heal.targets[0].self",
            "true or false",
        ),
        (
            lambda d: d["win"]["tie_table"][0].update(winner="arsonist"),
            "win.tie_table[0].winner",
            "both",
        ),
        (
            lambda d: d["abilities"]["defend"].update(phases=["day"], priority="kill"),
            "abilities.defend.priority",
            "not in order.day",
        ),
        (
            lambda d: d["options"]["order_night"].update(default=["kill"]),
            "options.order_night.default",
            "exactly the steps",
        ),
    ],
)
def test_broken_data_names_the_key_path(mutate, path, fragment) -> None:
    data = _failheap_data()
    mutate(data)
    with pytest.raises(RulesetError) as info:
        ruleset_from_data(data, "failheap.yaml")
    assert info.value.path == path
    assert fragment in str(info.value)
    assert isinstance(info.value, ResolverError)
    assert "failheap.yaml" in str(info.value)


def test_unknown_ruleset_lists_the_known_ones() -> None:
    with pytest.raises(RulesetError, match="failheap"):
        load_ruleset("nope")


def test_game_options_are_validated() -> None:
    assert (
        load_ruleset("failheap", options={"janitor_cleanings": 5}).option("janitor_cleanings") == 5
    )
    with pytest.raises(RulesetError, match="night_deaths"):
        load_ruleset("failheap", options={"night_deaths": "noon"})
    with pytest.raises(RulesetError, match="unknown option"):
        load_ruleset("failheap", options={"nigth_deaths": "dawn"})


def test_option_references_follow_game_choices() -> None:
    ruleset = load_ruleset("failheap", options={"janitor_cleanings": 4})
    assert ruleset.roles["janitor"].abilities["clean"].uses == 4
