"""A recruited player's answer and the Fairy's gift, read from Russian PMs by
``forumbot parse-order`` (п.ru Вербовщик: «Если игрок согласен, вербовка происходит. Если
игрок не согласен ...»; «вербовка 1», «вербовка 2»; п.ru Фея: подарки). An answer that
cannot be read with certainty goes to the GM's queue, never guessed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from forumbot.cli import main

PLAYERS = {"Вер": "mafia_recruiter", "Фея": "fairy", "Оля": "villager", "Коля": "villager",
           "Ман": "maniac"}  # fmt: skip


@pytest.fixture
def setup(tmp_path: Path) -> Path:
    path = tmp_path / "setup.yaml"
    data = {"ruleset": "ru_mafia", "players": PLAYERS}
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def parse(setup: Path, actor: str, text: str) -> dict[str, object]:
    args = ["parse-order", "--ruleset", "ru_mafia", "--setup", str(setup), "--actor", actor,
            "--phase", "night1", "--json"]  # fmt: skip
    result = CliRunner().invoke(main, args, input=text)
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.output)
    return data


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("согласен", "accept"),
        ("Я согласна!", "accept"),
        ("принимаю приглашение", "accept"),
        ("отказываюсь от вербовки", "refuse"),
        ("не согласен", "refuse"),
        ("вербовка 2", "accept_2"),
        ("Выбираю вербовку 3.", "accept_3"),
    ],
)
def test_an_answer_is_read(setup: Path, text: str, answer: str) -> None:
    data = parse(setup, "Оля", text)
    assert data["status"] == "accepted", data
    assert data["orders"] == [
        {**data["orders"][0], "ability": "answer_recruitment", "params": {"answer": answer}}  # type: ignore[index]
    ]


@pytest.mark.parametrize(
    "text",
    [
        "отказываюсь",  # a refusal, or «может отказаться от ночного действия»
        "согласен или отказываюсь",
        "наверное согласен",
        "согласен?",
    ],
)
def test_an_unclear_answer_is_queued(setup: Path, text: str) -> None:
    data = parse(setup, "Оля", text)
    assert data["status"] == "ambiguous", data
    assert data["orders"] == []


def test_staying_home_is_not_an_answer(setup: Path) -> None:
    data = parse(setup, "Оля", "отказываюсь от ночного действия")
    assert data["status"] == "accepted"
    assert [o["ability"] for o in data["orders"]] == ["stay_home"]  # type: ignore[union-attr,index]


@pytest.mark.parametrize(
    "text", ["дарю самопал Коле", "Дарю Коле самопал.", "подарок: бронежилет Оле"]
)
def test_the_fairys_gift_names_its_item(setup: Path, text: str) -> None:
    data = parse(setup, "Фея", text)
    assert data["status"] == "accepted", data
    (order,) = data["orders"]  # type: ignore[misc]
    assert order["ability"] == "gift"
    assert order["params"]["item"] in ("zip_gun", "vest")
    assert order["targets"] in (["Коля"], ["Оля"])
