"""Practice rounds' Russian classes (issue 11): new texts, not the corpus's, with twins.

The Jailer (seed 004) checks or releases only the player the day vote just before this
night jailed ("посаженного в текущий день"): the history's day results (``lynched``) say
who that is; a target they do not name is refused, a day they do not record is queued.
Through the real parser and the practice round P2 setup (ru_mafia, day first: night 3
follows day 3, whose vote jailed Богдана; Макар was jailed on day 2), and through
``forumbot parse-order`` with a SETUP file carrying the history.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from forumbot.cli import main
from tests.parsers.blind_games import read_as

SETUP = Path(__file__).resolve().parents[2] / "fixtures" / "orders" / "setups" / "practice2_ru.yaml"
JAILER = "Ферапонт"


def _read(text: str) -> tuple[str, tuple[str, ...]]:
    return read_as("ru_mafia", "practice2_ru", "night3", JAILER, text)


@pytest.mark.parametrize(
    "text",
    [
        "Освобождаю Макара, хватит ему сидеть.",
        "отпускаю макара",
        "Ход тюремщика: проверяю посаженного Макара",
        "выпускаю Корнея",  # alive and free: nobody to let out
    ],
)
def test_the_jailer_s_order_on_another_than_today_s_prisoner_is_refused(text: str) -> None:
    status, orders = _read(text)
    assert (status, orders) == ("rejected", ()), orders


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("Освобождаю Богдану.", "release_jailed Богдана"),
        ("Ход: проверка посаженного - Богдана", "check_jailed Богдана"),
    ],
)
def test_the_jailer_s_order_on_today_s_prisoner_is_accepted(text: str, order: str) -> None:
    assert _read(text) == ("accepted", (order,))


def _cli(text: str, tmp_path: Path, history: dict[str, Any] | None) -> dict[str, Any]:
    data = yaml.safe_load(SETUP.read_text(encoding="utf-8"))
    if history is None:
        data.pop("history")
    else:
        data["history"] = history
    path = tmp_path / "setup.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    args = ["parse-order", "--ruleset", "ru_mafia", "--setup", str(path), "--actor", JAILER,
            "--phase", "night3", "--json"]  # fmt: skip
    result = CliRunner().invoke(main, args, input=text)
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.output)
    return out


@pytest.mark.parametrize(
    "history",
    [
        None,  # no history: unknown
        {"orders": []},  # nothing on record, no day results
        {"orders": [], "lynched": [{"phase": "day2", "player": "Макар"}]},  # day 3 not listed
    ],
)
def test_a_day_the_history_does_not_record_queues_the_jailer(tmp_path, history) -> None:
    out = _cli("Освобождаю Богдану.", tmp_path, history)
    assert out["status"] == "ambiguous", out


def test_the_setup_file_s_day_results_decide_the_jailer(tmp_path) -> None:
    tie = {"orders": [], "lynched": [{"phase": "day2", "player": "Богдана"}, {"phase": "day3"}]}
    assert _cli("Освобождаю Богдану.", tmp_path, tie)["status"] == "rejected"  # a tie on day 3
    today = {"orders": [], "lynched": [{"phase": "day3", "player": "Богдана"}]}
    out = _cli("Освобождаю Богдану.", tmp_path, today)
    assert out["status"] == "accepted" and out["orders"][0]["ability"] == "release_jailed"


def test_a_bad_day_result_names_its_key(tmp_path) -> None:
    bad = {"orders": [], "lynched": [{"phase": "night2", "player": "Богдана"}]}
    data = yaml.safe_load(SETUP.read_text(encoding="utf-8"))
    data["history"] = bad
    path = tmp_path / "setup.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    args = ["parse-order", "--ruleset", "ru_mafia", "--setup", str(path), "--actor", JAILER,
            "--phase", "night3", "--json"]  # fmt: skip
    result = CliRunner().invoke(main, args, input="Освобождаю Богдану.")
    assert result.exit_code != 0 and "history.lynched[0].phase" in result.output
