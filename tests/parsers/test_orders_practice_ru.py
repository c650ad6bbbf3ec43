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


def _read3(actor: str, text: str) -> tuple[str, tuple[str, ...]]:
    return read_as("ru_mafia", "practice3_ru", "night3", actor, text)


@pytest.mark.parametrize(
    ("actor", "text", "order"),
    [
        ("Фотий", "Слежу за Ипатом. Если он кого-то тронет — рублю голову.", "behead_watch Ипат"),
        ("Фотий", "Смотрю за Руфиной. Если что-то сделает, казню.", "behead_watch Руфина"),
        ("Ираида", "Проверяю на грешность Вукола. Если грешен — в тюрьму.", "check_sin Вукол"),
    ],
)
def test_an_if_sentence_telling_the_order_s_own_outcome_is_no_new_order(
    actor: str, text: str, order: str
) -> None:
    """Seed 004: the Executioner watches and beheads if the target acts hostile; the
    Jailer's check for sin jails the sinful. "If ..., I behead" after the watch says what
    the order does."""
    assert _read3(actor, text) == ("accepted", (order,))


@pytest.mark.parametrize(
    ("actor", "text"),
    [
        ("Фотий", "Слежу за Ипатом. Если рыпнется — рублю Руфину."),  # another player
        ("Фотий", "Слежу за Ипатом. Если рыпнется — наверное, рублю."),  # a hedge too
        ("Фотий", "Слежу за Ипатом. Если рыпнется — рублю, а может и нет."),
        ("Фотий", "Слежу за Ипатом. Если рыпнется — рублю?"),
        ("Ираида", "Проверяю на грешность Вукола. Если грешен — в тюрьму Руфину."),
        ("Глафира", "Лечу Ипата. Если на него нападут — лечу."),  # no conditional outcome
    ],
)
def test_an_if_sentence_with_more_than_the_outcome_stays_with_the_gm(actor: str, text: str) -> None:
    status, orders = _read3(actor, text)
    assert status == "ambiguous", orders


@pytest.mark.parametrize(
    ("actor", "text", "order"),
    [
        ("Фотий", "Слежу за Ипатом, если что — рублю", "behead_watch Ипат"),
        ("Фотий", "смотрю за руфиной, а если что-то сделает — казню!", "behead_watch Руфина"),
        ("Ираида", "Проверяю на грешность Вукола, если грешен — в тюрьму его.", "check_sin Вукол"),
    ],
)
def test_an_if_clause_telling_the_order_s_own_outcome_is_no_new_order(
    actor: str, text: str, order: str
) -> None:
    assert _read3(actor, text) == ("accepted", (order,))


@pytest.mark.parametrize(
    ("actor", "text"),
    [
        ("Фотий", "Слежу за Ипатом, если что рублю Руфину."),
        ("Фотий", "Слежу за Ипатом, если что наверное рублю."),
        ("Фотий", "Наверное слежу за Ипатом, если что рублю."),
        ("Фотий", "Слежу за Ипатом, если что рублю?"),
        ("Фотий", "Слежу за Ипатом, если что рублю, а может и нет."),
        ("Глафира", "Лечу Ипата, если на него нападут — лечу."),
    ],
)
def test_an_if_clause_with_more_than_the_outcome_stays_with_the_gm(actor: str, text: str) -> None:
    status, orders = _read3(actor, text)
    assert status == "ambiguous", orders


def _read1(actor: str, text: str) -> tuple[str, tuple[str, ...]]:
    return read_as("ru_mafia", "practice1_ru", "night3", actor, text)


@pytest.mark.parametrize(
    ("actor", "text"),
    [
        ("Феодосия", "Хоть я и в тюрьме, слежу за Агафоном или за Фотием."),  # jailed (day 2)
        ("Феодосия", "Слежу за Агафоном, наверное."),
    ],
)
def test_a_jailed_sender_s_doubtful_order_is_refused_however_it_reads(
    actor: str, text: str
) -> None:
    """Seed 004 п.07: the jailed are out of the game; with the history given (the roster's
    statuses are the game's), no reading of the PM could stand."""
    assert _read1(actor, text) == ("rejected", ())


def test_a_doubtful_order_stays_queued_from_a_free_sender_or_without_history(tmp_path) -> None:
    assert _read3("Фотий", "Слежу за Ипатом или за Руфиной.")[0] == "ambiguous"
    assert _read1("Феодосия", "Я в тюрьме, могу ли я следить за Агафоном?")[0] == "ambiguous"
    setup = SETUP.parent / "practice1_ru.yaml"
    data = yaml.safe_load(setup.read_text(encoding="utf-8"))
    data.pop("history")  # the statuses may be stale: the GM decides
    path = tmp_path / "setup.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    args = ["parse-order", "--ruleset", "ru_mafia", "--setup", str(path), "--actor", "Феодосия",
            "--phase", "night3", "--json"]  # fmt: skip
    result = CliRunner().invoke(main, args, input="Слежу за Агафоном, наверное.")
    assert json.loads(result.output)["status"] == "ambiguous", result.output


def test_the_jailer_s_bare_check_on_a_prisoner_out_of_the_game_is_not_refused() -> None:
    """«проверяю» is the Jailer's check for sin (on a live player) and also how he checks
    today's prisoner: on today's prisoner (the history's day result) it is that check
    (``test_orders_practice2_ru``), not refused as an order on the dead; on an earlier
    day's prisoner the GM reads it. Another role's order on the dead stays refused."""
    assert _read("Проверяю Богдану.") == ("accepted", ("check_jailed Богдана",))
    assert _read("Проверяю Макара.")[0] == "ambiguous"
    assert _read("Ход: проверка посаженного - Богдана") == ("accepted", ("check_jailed Богдана",))
    status, _ = read_as("ru_mafia", "practice2_ru", "night3", "Елизар", "Лечу Богдану.")
    assert status == "rejected"
