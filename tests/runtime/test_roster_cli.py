"""``forumbot player ...``: the roster changes from the command line, ``--json`` per the
contract, and one clear sentence (status 2) for a change that cannot be made."""

from __future__ import annotations

import json

from click.testing import CliRunner

from forumbot.cli import main
from forumbot.services import games


def _run(args: list[str], url: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*args, "--database", url], catch_exceptions=False)
    return result.exit_code, result.output


def test_replace_modkill_and_list_by_command(world) -> None:
    url = world["url"]
    code, out = _run(["player", "replace", "test-village", "Ann", "Nina", "--json",
                      "--note", "Ann is travelling"], url)  # fmt: skip
    assert code == 0, out
    change = json.loads(out)
    assert {k: change[k] for k in ("kind", "player", "new_player", "note", "by")} == {
        "kind": "replace", "player": "Ann", "new_player": "Nina", "note": "Ann is travelling",
        "by": "gm:gm"}  # fmt: skip

    code, out = _run(["player", "modkill", "test-village", "Zed", "--json", "--gm", "Steph"], url)
    assert code == 0, out
    kill = json.loads(out)
    assert (kill["kind"], kill["role"], kill["revealed"], kill["by"]) == (
        "modkill", "godfather", True, "gm:Steph")  # fmt: skip

    code, out = _run(["player", "sub", "test-village", "--add", "Sam", "--json"], url)
    assert code == 0 and json.loads(out)["substitutes"] == ["Sam"]
    code, out = _run(["player", "leave", "test-village", "Bob", "--sub", "next"], url)
    assert code == 0 and "leave" in out and "Bob -> Sam" in out

    code, out = _run(["player", "list", "test-village", "--json"], url)
    listing = json.loads(out)
    assert [(p["name"], p["status"]) for p in listing["players"]] == [
        ("Ann", "replaced"), ("Nina", "alive"), ("Bob", "replaced"), ("Sam", "alive"),
        ("Carl", "alive"), ("Dan", "alive"), ("Zed", "modkilled")]  # fmt: skip
    assert [c["kind"] for c in listing["changes"]] == ["replace", "modkill", "leave"]
    assert listing["substitutes"] == []

    games.register(world["rt"], world["game_file"])  # 'forumbot run' re-reads the game file
    code, again = _run(["player", "list", "test-village", "--json"], url)
    assert json.loads(again)["players"] == listing["players"]  # the changes stay

    code, out = _run(["queue", "test-village", "--drafts"], url)
    assert "[b]Nina[/b] replaces [b]Ann[/b]" in out and "Zed was the [b]Godfather[/b]" in out


def test_a_change_that_cannot_be_made_is_one_sentence(world) -> None:
    url = world["url"]
    code, out = _run(["player", "replace", "test-village", "Nobody", "Nina"], url)
    assert code == 2 and out.startswith("Error: 'Nobody' holds no slot of test-village")
    code, out = _run(["player", "replace", "test-village", "Ann", "bob"], url)
    assert code == 2 and "already plays in the game" in out
    _run(["player", "modkill", "test-village", "Carl"], url)
    code, out = _run(["player", "replace", "test-village", "Carl", "Nina"], url)
    assert code == 2 and "Carl is modkilled: only a living player can be replaced" in out
    code, out = _run(["player", "leave", "test-village", "Dan", "--sub", "next"], url)
    assert code == 2 and "no substitute is waiting" in out
