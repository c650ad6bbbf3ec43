"""``forumbot count-votes``: saved pages and stored posts in, the stable JSON or BBCode out."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from forumbot.cli import main

VOTES = Path(__file__).resolve().parent.parent / "fixtures" / "votes"
# The recorded pages are the adapters\' fixtures (one copy in the project).
PAGES = Path(__file__).resolve().parent.parent / "fixtures"
PHPBB_PAGES = [str(PAGES / "phpbb33" / f"topic_page_{i}.html") for i in range(1, 8)]
SMF_PAGES = [str(PAGES / "smf21" / f"topic_p{i}.html") for i in range(1, 6)]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["count-votes", *args])
    return result.exit_code, result.output


def test_json_from_phpbb_pages() -> None:
    code, out = run(
        "--ruleset",
        "failheap",
        "--setup",
        str(VOTES / "setup_phpbb33.yaml"),
        *PHPBB_PAGES,
        "--json",
    )
    assert code == 0, out
    data = json.loads(out)
    assert data["engine"] == "phpbb"
    assert data["window"] == {"from_post": 0, "to_post": 60, "posts": 61}
    tally = {w["target"]: [v["name"] for v in w["voters"]] for w in data["tally"]}
    assert tally["Akonyl"] == ["Маша", "CTU", "bob", "Mr Fox", "Conia"]
    assert data["not_voting"] == ["Zoé"]
    assert data["decision"]["lynched"] == "Akonyl"
    assert data["majority"] == 6
    assert data["queue"] == []
    event = data["events"][0]
    assert set(event) >= {"post_id", "voter", "action", "target", "status", "raw", "syntax"}
    assert data["tally"][0]["voters"][0]["post_id"] == "18"


def test_smf_pages_and_the_as_of_window() -> None:
    code, out = run(
        "--saved-on",
        "2026-11-29",
        "--ruleset",
        "failheap",
        "--setup",
        str(VOTES / "setup_smf.yaml"),
        *SMF_PAGES,
        "--to-post",
        "25",
        "--json",
    )
    assert code == 0, out
    data = json.loads(out)
    assert data["engine"] == "smf21"  # a stable value of the JSON contract
    assert {w["target"]: w["votes"] for w in data["tally"]} == {
        "Akonyl": 6,
        "Kleene": 2,
        "Conia": 1,
        "CTU": 1,
    }


def test_stored_posts_with_a_window(tmp_path: Path) -> None:
    posts = tmp_path / "posts.jsonl"
    lines = [
        {"id": "10", "author": "Ann", "time": "2026-11-29T10:00:00+00:00", "html": "<b>$Bob</b>"},
        {"id": "11", "author": "Bob", "time": "2026-11-29T11:00:00", "html": "<b>$Ann</b>"},
        {"id": "12", "author": "Cy", "time": "2026-11-29T19:00:00+00:00", "html": "<b>$Bob</b>"},
        {"id": "13", "author": "Cy", "html": "<b>$Ann</b>", "previous_html": "<b>$Cy</b>"},
    ]
    posts.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    setup = tmp_path / "setup.yaml"
    setup.write_text(
        "players: {Ann: sheriff, Bob: doctor, Cy: null}\n"
        "day: {number: 2, deadline: '2026-11-29T18:00:00+00:00'}\n",
        encoding="utf-8",
    )
    code, out = run("--ruleset", "failheap", "--setup", str(setup), "--posts", str(posts), "--json")
    assert code == 0, out
    data = json.loads(out)
    assert {w["target"]: w["votes"] for w in data["tally"]} == {"Bob": 1, "Ann": 2}
    assert data["events"][2]["status"] == "ignored"  # after the deadline
    assert data["edits"] == [
        {"post_id": "13", "voter": "Cy", "before": "vote Cy", "after": "vote Ann"}
    ]
    code, out = run(
        "--ruleset",
        "failheap",
        "--setup",
        str(setup),
        "--posts",
        str(posts),
        "--from-post",
        "1",
        "--to-post",
        "1",
        "--json",
    )
    assert json.loads(out)["tally"][0]["voters"][0]["name"] == "Bob"


def test_bbcode_vote_count_post_and_a_gm_template(tmp_path: Path) -> None:
    code, out = run(
        "--ruleset", "failheap", "--setup", str(VOTES / "setup_phpbb33.yaml"), *PHPBB_PAGES
    )
    assert code == 0, out
    assert "[b]Akonyl (5)[/b]: Маша, CTU, bob, Mr Fox, Conia, [s]Kleene[/s], [s]Zoé[/s]" in out
    assert "[b]Not voting (1)[/b]: Zoé" in out
    # failheap lynches the plurality at the deadline: no "it takes N to lynch" there.
    assert "to lynch" not in out
    assert "Deadline: 2026-11-29 18:00 UTC (deadline passed)" in out
    mine = tmp_path / "mine.j2"
    mine.write_text(
        "{% for w in tally %}{{ w.target }}={{ w.votes }};{% endfor %}", encoding="utf-8"
    )
    code, out = run(
        "--ruleset",
        "failheap",
        "--setup",
        str(VOTES / "setup_phpbb33.yaml"),
        *PHPBB_PAGES,
        "--template",
        str(mine),
    )
    assert out == "Akonyl=5;Mr Fox=2;Zoé=1;Маша=1;"


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("players: [Ann, ann]\n", "players[1].name"),
        ("players: [Ann]\nvote: {tie: coin}\n", "vote.tie"),
        ("players: [Ann]\nday: {deadline: tomorrow}\n", "day.deadline"),
        ("nope: 1\n", "players"),
    ],
)
def test_bad_setup_is_a_clean_error(tmp_path: Path, setup: str, message: str) -> None:
    path = tmp_path / "setup.yaml"
    path.write_text(setup, encoding="utf-8")
    code, out = run("--ruleset", "failheap", "--setup", str(path), PHPBB_PAGES[0], "--json")
    assert code == 2
    assert message in out


def test_pages_and_posts_are_exclusive(tmp_path: Path) -> None:
    posts = tmp_path / "p.jsonl"
    posts.write_text("", encoding="utf-8")
    code, out = run(
        "--ruleset",
        "failheap",
        "--setup",
        str(VOTES / "setup_smf.yaml"),
        SMF_PAGES[0],
        "--posts",
        str(posts),
        "--json",
    )
    assert code == 2 and "one of the two" in out
    code, out = run("--ruleset", "failheap", "--setup", str(VOTES / "setup_smf.yaml"), "--json")
    assert code == 2 and "one of the two" in out


def test_smf_local_times_and_the_deadline(tmp_path: Path) -> None:
    # The SMF pages show times in the forum's zone; in Paris (UTC+1) the last posts of
    # Nov 29 ("Today at 10:51") fall after a deadline of 10:00 Paris time.
    setup = tmp_path / "setup.yaml"
    text = (VOTES / "setup_smf.yaml").read_text(encoding="utf-8")
    text = text.replace(
        'deadline: "2026-11-29T18:00:00+00:00"', 'deadline: "2026-11-29T10:00:00+01:00"'
    )
    setup.write_text(text + "timezone: Europe/Paris\n", encoding="utf-8")
    code, out = run(
        "--ruleset", "failheap", "--setup", str(setup), *SMF_PAGES, "--saved-on", "2026-11-29",
        "--json",
    )  # fmt: skip
    assert code == 0, out
    data = json.loads(out)
    late = [e for e in data["events"] if e["reason"] == "posted after the deadline"]
    assert late and all(e["time"] > "2026-11-29T10:00:00+01:00" for e in late)
    assert all(e["time"].endswith("+01:00") for e in data["events"])


def test_a_post_stored_twice_is_an_edit(tmp_path: Path) -> None:
    posts = tmp_path / "posts.jsonl"
    lines = [
        {"id": "1", "author": "Ann", "html": "<b>$Bob</b>"},
        {"id": "2", "author": "Bob", "html": "<b>$Ann</b>"},
        {"id": "1", "author": "Ann", "html": "<b>$Cy</b> (edited)"},
    ]
    posts.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    setup = tmp_path / "setup.yaml"
    setup.write_text("players: [Ann, Bob, Cy]\n", encoding="utf-8")
    code, out = run("--ruleset", "failheap", "--setup", str(setup), "--posts", str(posts), "--json")
    assert code == 0, out
    data = json.loads(out)
    assert [w["target"] for w in data["tally"]] == ["Cy", "Ann"]
    assert data["edits"] == [{"post_id": "1", "voter": "Ann", "before": "vote Bob",
                              "after": "vote Cy"}]  # fmt: skip
    setup.write_text("players: [Ann, Bob, Cy]\nvote: {edited_votes: flag}\n", encoding="utf-8")
    code, out = run("--ruleset", "failheap", "--setup", str(setup), "--posts", str(posts), "--json")
    data = json.loads(out)
    assert data["queue"][0]["kind"] == "edited_vote"
    assert data["queue"][0]["versions"] == ["vote Bob", "vote Cy"]
    assert [w["target"] for w in data["tally"]] == ["Ann"]


def test_pm_votes_from_saved_pm_pages(tmp_path: Path) -> None:
    # The saved SMF 2.1 inbox, with two PMs turned into votes (dctp: votes are PMs to the GM).
    page = (PAGES / "smf21" / "pm_inbox_p1.html").read_text(encoding="utf-8")
    page = page.replace("Arrest Akonyl for Killing Conia on Night 1", "Vote: Akonyl")
    page = page.replace("protect bob pls", "I vote Conia")
    inbox = tmp_path / "inbox.html"
    inbox.write_text(page, encoding="utf-8")
    setup = tmp_path / "setup.yaml"
    players = "[Conia, Akonyl, CTU, bob, Kleene, Shinichi, Zoé, Маша, Dr Watson, player_42]"
    setup.write_text(f"players: {players}\nhosts: [GameMaster, ModBot]\n", encoding="utf-8")
    code, out = run(
        "--ruleset", "dctp", "--setup", str(setup), "--saved-on", "2026-11-29", SMF_PAGES[0],
        str(inbox), "--json",
    )  # fmt: skip
    assert code == 0, out
    data = json.loads(out)
    assert {w["target"]: [v["name"] for v in w["voters"]] for w in data["tally"]} == {
        "Akonyl": ["Shinichi"],
        "Conia": ["Dr Watson"],
    }  # the thread's bold votes do not count


def test_the_count_post_says_what_a_majority_takes_only_under_a_majority_rule(
    tmp_path: Path,
) -> None:
    setup = yaml.safe_load((VOTES / "setup_phpbb33.yaml").read_text(encoding="utf-8"))
    setup["vote"]["rule"] = "majority"
    setup["timezone"] = "Europe/Paris"
    path = tmp_path / "setup.yaml"
    path.write_text(yaml.safe_dump(setup, allow_unicode=True), encoding="utf-8")
    code, out = run("--ruleset", "failheap", "--setup", str(path), *PHPBB_PAGES)
    assert code == 0, out
    assert "With 10 alive, it takes 6 to lynch." in out
    assert "Deadline: 2026-11-29 19:00 CET" in out  # the game's zone, to the minute


def test_vote_rules_are_cached_until_the_ruleset_file_changes(tmp_path: Path) -> None:
    from forumbot.votecount import RULESETS, load_vote_rules

    mine = tmp_path / "failheap.yaml"  # a GM's copy of the ruleset, loaded by path
    mine.write_text((RULESETS / "failheap.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    assert load_vote_rules(str(mine), {}).tie.value == "no_lynch"
    assert load_vote_rules(str(mine), {}) == load_vote_rules(str(mine), {})  # from memory
    text = mine.read_text(encoding="utf-8").replace("  tie: no_lynch\n", "  tie: random\n", 1)
    mine.write_text(text, encoding="utf-8")
    os.utime(mine, ns=(mine.stat().st_atime_ns, mine.stat().st_mtime_ns + 10**9))
    assert load_vote_rules(str(mine), {}).tie.value == "random"  # the GM's edit is read


def test_a_host_penalty_in_the_setup_counts_on_the_wagon(tmp_path: Path) -> None:
    """Seed 004's «+1 в лог»: the GM's penalty vote decides the Day the CLI counts, as it
    does in the runtime (a 1-1 tie becomes Bob's lynch); a name not in the game is refused."""
    posts = tmp_path / "posts.jsonl"
    lines = [
        {
            "id": "10",
            "author": "Ann",
            "time": "2026-11-29T10:00:00+03:00",
            "html": '<span style="color: red">Bob</span>',
        },
        {
            "id": "11",
            "author": "Bob",
            "time": "2026-11-29T11:00:00+03:00",
            "html": '<span style="color: red">Ann</span>',
        },
    ]
    posts.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    setup = tmp_path / "setup.yaml"
    day = "day: {number: 2, deadline: '2026-11-29T18:00:00+03:00', ended: true%s}\n"
    players = "players: {Ann: civilian, Bob: civilian, Cy: civilian}\n"
    setup.write_text(players + day % "", encoding="utf-8")
    args = ("--ruleset", "ru_mafia", "--setup", str(setup), "--posts", str(posts), "--json")
    code, out = run(*args)
    assert code == 0, out
    assert json.loads(out)["decision"]["lynched"] is None  # a tie
    setup.write_text(players + day % ", added_votes: {Bob: 1}", encoding="utf-8")
    code, out = run(*args)
    assert code == 0, out
    data = json.loads(out)
    assert {w["target"]: w["votes"] for w in data["tally"]} == {"Bob": 2, "Ann": 1}
    assert data["decision"]["lynched"] == "Bob"
    setup.write_text(players + day % ", added_votes: {Bobby: 1}", encoding="utf-8")
    code, out = run(*args)
    assert code != 0 and "day.added_votes.Bobby" in out and "Traceback" not in out
