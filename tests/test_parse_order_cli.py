"""``forumbot parse-order``: the stable JSON contract of DESIGN.md, on the corpus setups."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from forumbot.cli import main

SETUPS = Path(__file__).resolve().parent.parent / "fixtures" / "setups"


def _run(text: str, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["parse-order", *args], input=text)
    return result.exit_code, result.output


def test_accepted_order_as_json() -> None:
    code, out = _run(
        "Arrest Akonyl for Killing CTU on Night 1",
        "--ruleset", "dctp", "--setup", str(SETUPS / "dctp_a.yaml"),
        "--actor", "Conia", "--phase", "night2", "--json",
    )  # fmt: skip
    assert code == 0, out
    data = json.loads(out)
    assert data["status"] == "accepted"
    order = data["orders"][0]
    assert order["ability"] == "arrest"
    assert order["targets"] == ["Akonyl", {"crime": "kill", "victim": "CTU", "phase": "night1"}]
    assert order["params"] == {"phase": "night1"}
    assert data["reason"] and data["confidence"] == 1.0


def test_ambiguous_order_lists_candidates() -> None:
    _, out = _run(
        "heal ann or carl",
        "--ruleset", "failheap", "--setup", str(SETUPS / "failheap_a.yaml"),
        "--actor", "Bob", "--phase", "night2", "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert data["status"] == "ambiguous"
    assert [c["orders"][0]["targets"] for c in data["candidates"][:2]] == [["Ann"], ["Carl"]]


def test_recipients_decide_a_hand_off() -> None:
    args = ["--ruleset", "dctp", "--setup", str(SETUPS / "dctp_a.yaml"), "--actor", "Callid",
            "--phase", "day2", "--json"]  # fmt: skip
    text = "I hand over my actions to Akonyl for Night 2"
    ok = json.loads(_run(text, *args, "--recipients", "DCTP_GM,Akonyl")[1])
    assert ok["status"] == "accepted" and ok["kind"] == "handoff"
    refused = json.loads(_run(text, *args, "--recipients", "DCTP_GM")[1])
    assert refused["status"] == "rejected" and "Akonyl" in refused["rule"]


def test_plain_output_and_errors() -> None:
    base = ["--ruleset", "failheap", "--setup", str(SETUPS / "failheap_a.yaml"), "--actor", "Bob"]
    code, out = _run("heal Ann", *base, "--phase", "night2")
    assert code == 0 and out.startswith("accepted:")
    code, out = _run("heal Ann", *base, "--phase", "dusk")
    assert code == 2 and "phase" in out
    code, out = _run("heal Ann", "--ruleset", "failheap", "--setup", "/nonexistent.yaml",
                     "--actor", "Bob", "--phase", "night2")  # fmt: skip
    assert code == 2


def _setup(tmp_path: Path, history: str | None) -> str:
    text = (
        "players:\n  - {name: Маша, role: doctor}\n  - {name: Кот, role: sheriff}\n"
        "  - {name: Стас, role: investigator}\n  - {name: Лиса, role: mafia_boss}\n"
        "  - {name: Ганс, role: mafioso}\n"
    )
    if history is not None:
        text += history
    path = tmp_path / "setup.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _ru(text: str, setup: str, actor: str = "Маша") -> dict[str, object]:
    args = ["--ruleset", "ru_mafia", "--setup", setup, "--actor", actor, "--phase", "night3"]
    code, out = _run(text, *args, "--json")
    assert code == 0, out
    return dict(json.loads(out))


def test_history_settles_a_rule_that_looks_back(tmp_path: Path) -> None:
    """Seed 004: no heal of the same player two nights running. Without a history the CLI
    cannot know and queues; with one it answers as the runtime does."""
    unknown = _ru("лечу Кота", _setup(tmp_path, None))
    assert unknown["status"] == "ambiguous"
    last = (
        "history:\n  orders:\n    - {phase: night2, actor: Маша, ability: heal, targets: [Кот]}\n"
    )
    assert _ru("лечу Кота", _setup(tmp_path, last))["status"] == "rejected"
    other = (
        "history:\n  orders:\n    - {phase: night2, actor: Маша, ability: heal, targets: [Стас]}\n"
    )
    accepted = _ru("лечу Кота", _setup(tmp_path, other))
    assert accepted["status"] == "accepted"


def test_history_hand_off_lets_a_clan_member_send_the_move(tmp_path: Path) -> None:
    """Seed 004: the Boss sends the clan's moves, unless he handed them over."""
    none = "history: {orders: []}\n"
    refused = _ru("стреляю в Кота", _setup(tmp_path, none), actor="Ганс")
    assert refused["status"] == "rejected" and "Лиса" in str(refused["rule"])
    handed = "history:\n  handoffs: [{from: Лиса, to: Ганс, phases: [night3]}]\n"
    assert _ru("стреляю в Кота", _setup(tmp_path, handed), actor="Ганс")["status"] == "accepted"


def test_bad_history_names_the_key(tmp_path: Path) -> None:
    bad = "history:\n  orders:\n    - {phase: noon, actor: Маша, ability: heal}\n"
    args = ["--ruleset", "ru_mafia", "--setup", _setup(tmp_path, bad), "--actor", "Маша"]
    code, out = _run("лечу Кота", *args, "--phase", "night3")
    assert code != 0 and "history.orders[0].phase" in out


def test_a_roster_with_look_alike_names_loads_and_queues_either(tmp_path: Path) -> None:
    """A Cyrillic "Мара" and a Latin "Mapa" are two accounts: the roster loads, each sends
    as itself, and an order on either name goes to the GM."""
    path = tmp_path / "setup.yaml"
    path.write_text(
        "players:\n  - {name: Кот, role: sheriff, user_id: 1}\n"
        "  - {name: Мара, role: bodyguard, user_id: 2}\n"
        "  - {name: Mapa, role: villager, user_id: 3}\n"
        "history: {orders: []}\n",
        encoding="utf-8",
    )
    data = _ru("Проверяю Мару", str(path), actor="Кот")
    assert data["status"] == "ambiguous" and "Mapa" in str(data["reason"])
    guard = _ru("охраняю Кота", str(path), actor="Мара")
    assert guard["status"] == "accepted"
