"""Game files: a GM's mistakes get a message naming the setting, never a traceback."""

from __future__ import annotations

import json
import os
from datetime import time, timedelta
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from forumbot.cli import main
from forumbot.credentials import Secret, read_password
from forumbot.errors import ConfigError, CredentialsError
from forumbot.gamefile import load_game_file, parse_game

EXAMPLE = Path(__file__).resolve().parent.parent / "config" / "example-game.yaml"


def _example() -> dict:
    return yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def test_the_documented_example_is_valid() -> None:
    config = load_game_file(EXAMPLE)
    assert config.ruleset == "failheap"
    assert [p.name for p in config.players][-1] == "Маша"
    assert config.schedule.night.inner_deadlines == (("orders", time(19, 0)),)
    assert config.schedule.day.length == timedelta(hours=48)
    # 22:00 in Paris on 1 December is 21:00 UTC.
    assert config.schedule.start is not None
    assert config.schedule.start.utcoffset() == timedelta(hours=1)


@pytest.mark.parametrize(
    ("change", "setting", "words"),
    [
        (lambda d: d["forum"].pop("url"), "forum.url", "is required"),
        (lambda d: d["forum"].update(url="forum.example.org"), "forum.url", "http"),
        (lambda d: d.update(rulset="x"), "rulset", "did you mean 'ruleset'"),
        (lambda d: d["schedule"].update(timezone="Paris"), "schedule.timezone", "unknown time"),
        (lambda d: d["schedule"]["day"].update(length="two days"), "schedule.day.length", "48h"),
        (lambda d: d["players"].append({"name": "ann"}), "players[5].name", "listed twice"),
        (lambda d: d["votes"].update(syntax=["blue"]), "votes.syntax[0]", "not one of"),
        (lambda d: d["votes"].update(at_deadline="maybe"), "votes.at_deadline", "unknown value"),
        (lambda d: d["votes"].update(majority_ends_day="yes"), "votes.majority_ends_day", "true"),
        (lambda d: d["publishing"].update(mode="yolo"), "publishing.mode", "approve"),
        (lambda d: d.update(seed="abc"), "seed", "whole number"),
        (lambda d: d["credentials"].update(password="hunter2"), "credentials.password", "never"),
        (lambda d: d.update(players=[]), "players", "at least one"),
    ],
)
def test_a_wrong_setting_is_named(change, setting: str, words: str) -> None:
    data = _example()
    change(data)
    with pytest.raises(ConfigError) as info:
        parse_game(data)
    assert info.value.setting == setting
    assert words in str(info.value)


def test_an_inline_password_never_appears_in_the_message() -> None:
    data = _example()
    data["credentials"]["password"] = "hunter2"
    with pytest.raises(ConfigError) as info:
        parse_game(data)
    assert "hunter2" not in str(info.value)


def test_players_may_be_given_in_short_form() -> None:
    data = _example()
    data["players"] = {"Ann": "sheriff", "Bob": "doctor"}
    config = parse_game(data)
    assert [(p.name, p.role) for p in config.players] == [("Ann", "sheriff"), ("Bob", "doctor")]


def test_broken_yaml_and_missing_file_are_clear(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("forum: [unclosed\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_game_file(broken)
    with pytest.raises(ConfigError, match="does not exist"):
        load_game_file(tmp_path / "nope.yaml")


def test_cli_check_reports_the_setting_without_a_traceback(tmp_path: Path) -> None:
    data = _example()
    data["schedule"]["timezone"] = "Mars/Olympus"
    result = CliRunner().invoke(main, ["game", "check", str(_write(tmp_path, data))])
    assert result.exit_code == 2
    assert "schedule.timezone" in result.output
    assert "Traceback" not in result.output


def test_cli_check_accepts_the_example() -> None:
    result = CliRunner().invoke(main, ["game", "check", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    assert "failheap" in result.output


def test_password_from_environment_is_hidden() -> None:
    secret = read_password(env="FB_PW", environ={"FB_PW": "s3cret"})
    assert secret.reveal() == "s3cret"
    assert "s3cret" not in repr(secret) and "s3cret" not in str(secret)
    assert "s3cret" not in repr(Secret("s3cret"))


def test_missing_password_variable_is_named() -> None:
    with pytest.raises(CredentialsError, match="FB_PW is not set"):
        read_password(env="FB_PW", environ={})


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_password_file_must_be_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "pw"
    path.write_text("s3cret\n", encoding="utf-8")
    path.chmod(0o644)
    with pytest.raises(CredentialsError, match="chmod 600"):
        read_password(file=path)
    path.chmod(0o600)
    assert read_password(file=path).reveal() == "s3cret"


def test_check_shows_every_rules_option_with_its_default(tmp_path: Path) -> None:
    data = _example()
    data["options"] = {"night_deaths": "immediate"}
    result = CliRunner().invoke(main, ["game", "check", str(_write(tmp_path, data))])
    assert result.exit_code == 0, result.output
    assert "* night_deaths = immediate" in result.output
    assert "  lynch_rule = plurality" in result.output


def test_check_json_carries_options_with_value_and_default() -> None:
    result = CliRunner().invoke(main, ["game", "check", str(EXAMPLE), "--json"])
    data = json.loads(result.output)
    night = data["options"]["night_deaths"]
    assert night["value"] == night["default"] and night["doc"]


@pytest.mark.parametrize(
    ("change", "setting"),
    [
        (lambda d: d["players"][0].update(role="sherif"), "players[0].role"),
        (lambda d: d.update(options={"night_death": "dawn"}), "options.night_death"),
        (lambda d: d.update(options={"night_deaths": "never"}), "options.night_deaths"),
        (lambda d: d.update(ruleset="calvinball"), "ruleset"),
    ],
)
def test_check_names_what_the_ruleset_refuses(tmp_path: Path, change, setting: str) -> None:
    data = _example()
    change(data)
    result = CliRunner().invoke(main, ["game", "check", str(_write(tmp_path, data))])
    assert result.exit_code == 2
    assert f"setting '{setting}'" in result.output
    assert "Traceback" not in result.output


def test_game_check_lists_the_vote_rules_and_what_the_game_changes(tmp_path: Path) -> None:
    data = _example()
    data["votes"].update(at_deadline="no_lynch", majority_ends_day=True)
    result = CliRunner().invoke(main, ["game", "check", str(_write(tmp_path, data))])
    assert result.exit_code == 0, result.output
    assert " * at_deadline = no_lynch" in result.output
    assert " * majority_ends_day = True" in result.output
    assert "   tie = no_lynch" in result.output


@pytest.mark.parametrize(
    "change, blank",
    [
        (lambda d: d.update(ruleset="FILL_IN"), "ruleset"),
        (lambda d: d["schedule"].update(timezone="FILL_IN"), "schedule.timezone"),
        (lambda d: d["schedule"].update(first_phase="FILL_IN"), "schedule.first_phase"),
        (lambda d: d["schedule"]["day"].update(length="FILL_IN"), "schedule.day.length"),
        (lambda d: d["schedule"]["night"].update(starts="FILL_IN"), "schedule.night.starts"),
        (lambda d: d["players"][1].update(name="FILL_IN"), "players[1].name"),
    ],
)
def test_a_blank_is_kept_and_the_rest_still_checked(tmp_path: Path, change, blank: str) -> None:
    data = _example()
    change(data)
    config = load_game_file(_write(tmp_path, data))
    assert config.blanks == (blank,)
    result = CliRunner().invoke(main, ["game", "check", str(_write(tmp_path, data))])
    assert result.exit_code == 2
    assert f"setting '{blank}': fill in before `run`: {blank}" in result.output


def test_a_wrong_setting_next_to_a_blank_is_still_named(tmp_path: Path) -> None:
    data = _example()
    data["ruleset"] = "FILL_IN"
    data["schedule"]["timezone"] = "Paris"
    with pytest.raises(ConfigError, match=r"schedule\.timezone"):
        load_game_file(_write(tmp_path, data))
