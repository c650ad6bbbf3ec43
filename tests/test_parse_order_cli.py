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
