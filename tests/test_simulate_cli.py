"""``forumbot simulate``: the stable JSON contract, the rendered text, clean errors."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from forumbot.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = """\
ruleset: failheap
seed: 1
players: {Godfrey: Godfather, Vic: Vigilante, Carl: Villager, Ann: Villager}
start:
  statuses: {Carl: [doused]}
  uses: {Vic: {shoot: 2}}
  items: {Carl: [vest]}
phases:
  - phase: night1
    orders:
      - {actor: Vic, ability: shoot, targets: [Carl]}
      - {actor: Godfrey, ability: kill, targets: [Vic], params: {}}
  - phase: day1
    votes: {Carl: Godfrey, Ann: Godfrey}
    orders: []
"""


def _run(tmp_path: Path, text: str, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["simulate", str(path), *args])
    return result.exit_code, result.stdout, result.stderr


def test_design_example_json_shape(tmp_path: Path) -> None:
    code, out, _ = _run(tmp_path, EXAMPLE, "--json")
    assert code == 0
    data = json.loads(out)
    night, day = data["phases"]
    assert set(night) >= {
        "phase",
        "dead",
        "lynched",
        "rejected",
        "public",
        "private",
        "state",
        "winner",
    }
    assert night["phase"] == "night1"
    assert night["dead"] == ["Vic"]
    assert night["rejected"][0]["reason"] == "not_this_phase"
    assert night["state"]["Carl"] == {
        "alive": True,
        "role": "villager",
        "faction": "village",
        "statuses": ["doused"],
        "uses": {},
        "items": {"vest": 1},
    }
    assert day["lynched"] == "Godfrey"
    assert day["winner"]["factions"] == ["village"]
    assert data["winner"] == day["winner"]


def test_private_results_have_to_kind_data(tmp_path: Path) -> None:
    text = """\
ruleset: failheap
seed: 3
players: {Ann: Sheriff, Bob: Mafioso, Cid: Villager, Dee: Villager}
phases:
  - phase: night1
    orders: [{actor: Ann, ability: check, targets: [Bob]}]
"""
    code, out, _ = _run(tmp_path, text, "--json")
    assert code == 0
    private = json.loads(out)["phases"][0]["private"]
    assert {
        "to": "Ann",
        "kind": "check",
        "data": {"target": "Bob", "result": "suspicious"},
    } in private


def test_text_output_is_the_rendered_posts(tmp_path: Path) -> None:
    code, out, _ = _run(tmp_path, EXAMPLE)
    assert code == 0
    assert "[b]Vic[/b] was found dead." in out
    assert "Night 1" in out


def test_every_shipped_scenario_runs(tmp_path: Path) -> None:
    for path in sorted((ROOT / "fixtures" / "games").glob("*.yaml")):
        result = CliRunner().invoke(main, ["simulate", str(path), "--json"])
        assert result.exit_code == 0, (path, result.output)


def test_unknown_role_is_a_clean_error(tmp_path: Path) -> None:
    code, _, err = _run(tmp_path, EXAMPLE.replace("Villager}", "Wizard}"), "--json")
    assert code == 2
    assert "players.Ann" in err and "unknown role 'Wizard'" in err


def test_unknown_option_is_a_clean_error(tmp_path: Path) -> None:
    code, _, err = _run(tmp_path, "options: {nigth_deaths: dawn}\n" + EXAMPLE, "--json")
    assert code == 2
    assert "nigth_deaths" in err and "unknown option" in err


def test_bad_phase_and_missing_file(tmp_path: Path) -> None:
    code, _, err = _run(tmp_path, EXAMPLE.replace("phase: day1", "phase: dusk1"), "--json")
    assert code == 2 and "phases[1].phase" in err
    result = CliRunner().invoke(main, ["simulate", str(tmp_path / "nope.yaml"), "--json"])
    assert result.exit_code == 2 and "cannot read" in result.stderr


def test_gm_mode_shows_the_options_in_effect(tmp_path: Path) -> None:
    code, out, _ = _run(tmp_path, "options: {night_deaths: immediate}\n" + EXAMPLE, "--gm")
    assert code == 0
    assert "night_deaths = immediate (default dawn)" in out
    assert "GM report, Night 1" in out
    code, out, _ = _run(tmp_path, EXAMPLE, "--json")
    assert json.loads(out)["setup"]["options"]["night_deaths"]["value"] == "dawn"


def test_text_output_starts_with_the_role_pms(tmp_path: Path) -> None:
    code, out, _ = _run(tmp_path, EXAMPLE)
    assert code == 0
    assert (
        out.index("===== Setup =====")
        < out.index("Your role is [b]Godfather[/b]")
        < out.index("===== Night 1 =====")
    )
