"""Anokata's Chameleon makes every ability the Black Suitcase can fake real (seed 000).

"When Anokata performs a killing while in possession of the Black Suitcase, actions faked with
the Black Suitcase are treated as real. So, Anokata can use the BS to discombobulate somebody
and they will be discombobulated. Does not apply to BS arrest." "Abilities that can be faked
with the BS: Interrogate, investigate, observe, protect, heal, discombobulate, arrest, steal
(Basically, any night ability)." "Faked Black Suitcase actions are not crimes (even
discombobulating, etc.) unless Anokata uses Chameleon and commits a crime in that way."
Each test plays the same night with and without Chameleon through ``forumbot simulate``.
"""

from __future__ import annotations

from typing import Any

import pytest

from forumbot.commands.simulate import simulate_json
from resolver.hooks.dctp.actions import copyable
from resolver.ruleset import load_ruleset
from resolver.scenario import parse_scenario

PLAYERS = {"Ano": "Anokata", "Gin1": "Gin", "Vod": "Vodka", "Tar": "Conan", "Vic": "Heiji",
           "Meg": "Megure", "Ran1": "Ran", "Ara": "Araide", "Tak": "Takagi", "Kaz": "Kazuha",
           "Ayu": "Ayumi", "Mit": "Mitsuhiko"}  # fmt: skip
RULESET = load_ruleset("dctp")
COPYABLE = sorted(a for a in RULESET.abilities if copyable(RULESET, a))

# What the real ability does that the fake does not, as the simulate report shows it.
RESULT = ("cross_examine", "deduction", "interrogate", "observe", "pinch_face", "pry", "spy",
          "stake_out", "steal")  # fmt: skip
TARGET_STATUS = {"frighten": "frightened", "hinder": "hindered", "sabotage": "sabotaged",
                 "slander": "slandered"}  # fmt: skip
SAVES_THE_VICTIM = ("bone_breaking", "first_aid", "heal", "protect")
BLOCKS = ("discombobulate", "confuse")
CRIMES = ("discombobulate", "confuse", "frighten", "hinder", "slander", "steal", "sabotage")
NOTHING_TO_SHOW = {  # real, but nothing in this night shows it (the reason)
    "collect_sample": "a sample is only read by a later Experiment",
    "experiment": "needs a sample of the target first (it fails like Sherry's would)",
    "erase_evidence": "the target has no crime to erase",
    "snipe_guard": "option snipe_guard: it stops snipes only, and Anokata's kill is no snipe",
}


def _night(aid: str, target: str, chameleon: bool, day: list[Any] | None = None) -> list[Any]:
    orders = [{"actor": "Ano", "ability": "fake_action", "targets": [aid, target]},
              {"actor": "Ano", "ability": "kill", "targets": ["Vic"]},
              {"actor": "Tar", "ability": "interrogate", "targets": ["Gin1"]}]  # fmt: skip
    if chameleon:
        orders.append({"actor": "Ano", "ability": "chameleon", "targets": []})
    phases: list[dict[str, Any]] = [{"phase": "night1", "orders": orders}]
    if day is not None:
        phases.append({"phase": "day1", "orders": day})
    data = {"ruleset": "dctp", "seed": 3, "players": PLAYERS, "phases": phases}
    return list(simulate_json(parse_scenario(data))["phases"])


def _given(phase: dict[str, Any], status: str) -> bool:
    return any(g["kind"] == "status" and g.get("status") == status and g.get("player") == "Tar"
               for g in phase["gm"])  # fmt: skip


def _chameleon_outcome(phase: dict[str, Any]) -> str:
    return next(g["outcome"] for g in phase["gm"] if g.get("ability") == "chameleon")


def test_every_night_ability_but_the_jail_actions_can_be_made_real() -> None:
    assert {"interrogate", "observe", "protect", "heal", "discombobulate", "steal"} <= set(COPYABLE)
    assert not {"arrest", "house_search", "detention", "hold"} & set(COPYABLE)
    covered = set(RESULT) | set(TARGET_STATUS) | set(SAVES_THE_VICTIM) | set(BLOCKS)
    assert set(COPYABLE) == covered | set(NOTHING_TO_SHOW)


@pytest.mark.parametrize("aid", COPYABLE)
def test_chameleon_makes_the_faked_ability_real(aid: str) -> None:
    target = "Vic" if aid in SAVES_THE_VICTIM else "Tar"
    real, fake = _night(aid, target, True)[0], _night(aid, target, False)[0]
    assert _chameleon_outcome(real) == ("failed" if aid == "experiment" else "done")
    if aid in RESULT:
        assert [p["kind"] for p in real["private"] if p["to"] == "Ano"].count(aid) == 1
        assert not [p for p in fake["private"] if p["to"] == "Ano" and p["kind"] == aid]
    if aid in TARGET_STATUS:
        assert _given(real, TARGET_STATUS[aid]) and not _given(fake, TARGET_STATUS[aid])
    if aid in SAVES_THE_VICTIM:
        assert real["dead"] == [] and fake["dead"] == ["Vic"]
    if aid in BLOCKS:  # Tar's Interrogate of the night is discombobulated
        outcome = {
            g["actor"]: g["outcome"] for g in real["gm"] if g.get("ability") == "interrogate"
        }
        assert outcome == {"Tar": "blocked"}
        assert not [p for p in fake["gm"] if p.get("ability") == "interrogate"
                    and p.get("outcome") == "blocked"]  # fmt: skip


@pytest.mark.parametrize("aid", CRIMES)
def test_a_crime_done_through_chameleon_is_anokatas_crime(aid: str) -> None:
    arrest = [{"actor": "Meg", "ability": "arrest", "targets": ["Ano", f"{aid}:Tar:night1"]}]
    real, fake = _night(aid, "Tar", True, arrest)[1], _night(aid, "Tar", False, arrest)[1]
    assert "arrested" in real["state"]["Ano"]["statuses"]
    assert "arrested" not in fake["state"]["Ano"]["statuses"]  # a fake is no crime
    assert "suspended" in fake["state"]["Meg"]["statuses"]


def test_chameleon_does_not_make_a_suitcase_arrest_real() -> None:
    night = _night("arrest", "Tar", True)[0]
    assert "arrested" not in night["state"]["Tar"]["statuses"]
    assert _chameleon_outcome(night) == "failed"


def test_chameleon_needs_anokata_to_perform_the_killing() -> None:
    orders = [
        {"actor": "Ano", "ability": "fake_action", "targets": ["frighten", "Tar"]},
        {"actor": "Ano", "ability": "chameleon", "targets": []},
        {"actor": "Ano", "ability": "order_kill", "targets": ["Gin1", "Vic"]},
    ]
    phases = [{"phase": "night1", "orders": orders}]
    data = {"ruleset": "dctp", "seed": 3, "players": PLAYERS, "phases": phases}
    night = simulate_json(parse_scenario(data))["phases"][0]
    assert night["dead"] == ["Vic"]  # Gin killed, on the Leader's order
    assert _chameleon_outcome(night) == "failed"
    assert "frightened" not in night["state"]["Tar"]["statuses"]
