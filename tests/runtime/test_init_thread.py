"""``forumbot init`` fits the thread: recorded topic pages of SMF 2.1, SMF 2.0 and phpBB 3.3
(in English, French and Russian) read by the adapters' own page parsers, and the game file
it writes: each proposal with its evidence, each unknown a FILL_IN blank that ``game check``
reports and ``run`` refuses with the same message."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from forum_adapters import ENGINES
from forum_adapters.markup import parse_html
from forumbot.cli import main
from forumbot.services import initgame
from tests.conftest import FIXTURES

EN_SAVED = datetime(2026, 11, 29, 13, 10, tzinfo=UTC)  # when the en pages were captured
FR_RU_SAVED = datetime(2026, 12, 1, 12, 45, tzinfo=UTC)  # fixtures/init/*.json


def _reader(engine: str, pages: list[Path], saved_on: datetime) -> initgame.Reader:
    """The thread of saved topic pages, read by the engine's own topic-page parser."""

    def read(url: str, _engine: str, _user: str) -> tuple[str, list[tuple[str, str, datetime]]]:
        title, posts = "", []
        for page_file in pages:
            root = parse_html(page_file.read_text(encoding="utf-8"))
            page = ENGINES[engine].read_saved(root, str(page_file), now=saved_on, tz=UTC).topic
            assert page is not None, page_file
            title = title or page.title
            posts += [(p.author.name, p.body_html, p.posted_at) for p in page.posts]
        return title, posts

    return read


THREADS = {  # name: (engine, pages, the day they were saved)
    "smf21": ("smf", [FIXTURES / "smf21" / f"topic_p{n}.html" for n in range(1, 6)], EN_SAVED),
    "smf20": ("smf", [FIXTURES / "smf20" / f"topic_p{n}.html" for n in range(1, 6)], EN_SAVED),
    "phpbb33": (
        "phpbb",
        [FIXTURES / "phpbb33" / f"topic_page_{n}.html" for n in range(1, 7)],
        EN_SAVED,
    ),
    "fr": ("smf", [FIXTURES / "init" / "smf21_fr_topic.html"], FR_RU_SAVED),
    "ru": ("smf", [FIXTURES / "init" / "smf21_ru_topic.html"], FR_RU_SAVED),
}
SMF_PLAYERS = ["Conia", "Akonyl", "CTU", "bob", "Kleene", "Shinichi", "Zoé", "Маша", "Dr Watson",
               "player_42", "McGonagall", "xX_DarkKnight_7_Xx"]  # fmt: skip


def _draft(thread: str, tmp_path: Path) -> tuple[Path, dict, str]:
    engine, pages, saved_on = THREADS[thread]
    url = "http://127.0.0.1:8121/index.php?topic=2.0"
    text = initgame.draft_game_file(url, engine, "ModBot", _reader(engine, pages, saved_on))
    path = tmp_path / f"{thread}.yaml"
    path.write_text(text, encoding="utf-8")
    return path, yaml.safe_load(text), text


def _comment(text: str, key: str) -> str:
    """The comment written after ``key:`` (first such line)."""
    found = re.search(rf"^\s*{re.escape(key)}:.*?#\s*(.*)$", text, re.M)
    assert found, f"no comment after {key}"
    return found.group(1)


@pytest.mark.parametrize("thread", ["smf21", "smf20"])
def test_an_english_smf_thread_gives_its_player_list_phase_zone_and_votes(thread, tmp_path):
    _, data, text = _draft(thread, tmp_path)
    assert data["gm"] == "GameMaster"
    assert [p["name"] for p in data["players"]] == SMF_PLAYERS  # the GM's list, not ModBot
    assert _comment(text, "players") == "the GM's player list (the GM's post 1)"
    assert data["schedule"]["first_phase"] == "day1"
    assert _comment(text, "first_phase") == 'from the title "Loopback Village Mafia - Day 1"'
    assert data["schedule"]["timezone"] == "UTC"
    assert "Sunday 18:00 UTC" in _comment(text, "timezone")
    # "Day 1 starts now." in the rules post: day 1 began then, the votes since then count.
    assert data["schedule"]["start"] == "2026-11-27 18:00+00:00"
    assert _comment(text, "start").endswith('Day 1 starts now."')
    assert data["votes"] == {"syntax": ["bold_vote", "dollar_bold"]}
    # No post names a ruleset or its roles: left blank, with the candidates for English.
    assert data["ruleset"] == "FILL_IN"
    assert "dctp, failheap" in _comment(text, "ruleset") and "English" in _comment(text, "ruleset")
    # "Deadline for Day 1: Sunday 18:00 UTC" says when a day ends, not how long it lasts.
    assert data["schedule"]["day"]["length"] == "FILL_IN"
    assert "Deadline for Day 1: Sunday 18:00 UTC" in _comment(text, "length")
    assert {p["role"] for p in data["players"]} == {"FILL_IN"}


def test_a_phpbb_thread_gives_no_zone_it_does_not_state(tmp_path):
    _, data, text = _draft("phpbb33", tmp_path)
    assert [p["name"] for p in data["players"]][:3] == ["Conia", "Akonyl", "bob"]
    assert len(data["players"]) == 10
    assert data["schedule"]["first_phase"] == "day1"
    assert data["schedule"]["timezone"] == "FILL_IN"  # the GM's posts name no time zone
    assert data["schedule"]["start"] == "FILL_IN"  # no post says when day 1 began
    assert "or delete this line" in _comment(text, "start")
    assert data["schedule"]["day"]["length"] == "FILL_IN"
    assert "Day 1 ends in 48 hours" in _comment(text, "length")


def test_a_french_thread_proposes_durarara_from_its_roles(tmp_path):
    _, data, text = _draft("fr", tmp_path)
    assert data["ruleset"] == "durarara"
    assert _comment(text, "ruleset").startswith("the GM's posts name its roles: ")
    assert "saika" in _comment(text, "ruleset")
    # The GM's list: Dr Watson posted too, but only to watch.
    assert [p["name"] for p in data["players"]] == ["Conia", "Akonyl", "bob", "Kleene", "Zoé"]
    assert data["schedule"]["first_phase"] == "day2"
    assert data["schedule"]["timezone"] == "Europe/Paris"
    assert data["schedule"]["day"]["length"] == "48h"  # not the "il reste 6 heures" reminder
    assert data["schedule"]["night"]["length"] == "24h"
    assert "la nuit dure 24 heures" in text
    assert data["votes"] == {"syntax": ["bold_vote"]}


def test_a_russian_thread_takes_the_phase_from_the_gms_last_post(tmp_path):
    _, data, text = _draft("ru", tmp_path)
    assert data["ruleset"] == "ru_mafia"
    assert data["schedule"]["first_phase"] == "night1"  # the title names no phase
    assert "Ночь 1 началась" in _comment(text, "first_phase")
    opened = yaml.safe_load(FIXTURES.joinpath("init", "smf21_ru_topic.json").read_text())
    assert data["schedule"]["start"].startswith(opened["captured_at_utc"][:10])  # that post's
    assert data["schedule"]["timezone"] == "Europe/Moscow"
    assert (data["schedule"]["day"]["length"], data["schedule"]["night"]["length"]) == (
        "24h",
        "12h",
    )
    # No list in the GM's posts: the posters, the GM and the bot left out, said so.
    assert [p["name"] for p in data["players"]] == ["Маша", "Conia", "CTU", "player_42"]
    assert "remove who is not playing" in _comment(text, "players")
    assert "votes" not in data  # no vote in the thread yet: the ruleset's syntax


def test_game_check_and_run_refuse_the_blanks_with_one_message(tmp_path):
    path, _, _ = _draft("smf21", tmp_path)
    check = CliRunner().invoke(main, ["game", "check", str(path)])
    run = CliRunner().invoke(main, ["run", "--once", str(path), "--database",
                                    f"sqlite:///{tmp_path / 'fb.sqlite3'}"])  # fmt: skip
    assert check.exit_code != 0 and run.exit_code != 0
    message = check.output.strip().splitlines()[-1]
    assert message.startswith(
        f"Error: {path}: setting 'ruleset': fill in before `run`: ruleset, "
        "schedule.day.length, schedule.night.length; the role of Conia, "
    )
    assert message.endswith("McGonagall, xX_DarkKnight_7_Xx (left FILL_IN or empty in the file)")
    assert message in run.output  # the same rule, the same words
    # game start (the role PMs) applies it too, before drafting anything.
    database = f"sqlite:///{tmp_path / 'start.sqlite3'}"
    start = CliRunner().invoke(main, ["game", "start", str(path), "--database", database])
    assert start.exit_code != 0
    assert message.split("setting ", 1)[1] in start.output


def test_the_filled_in_file_checks_ok(tmp_path):
    path, _, text = _draft("smf21", tmp_path)
    text = text.replace("ruleset: FILL_IN", "ruleset: failheap")
    text = text.replace("length: FILL_IN", "length: 48h", 1).replace(
        "length: FILL_IN", "length: 24h"
    )
    roles = iter(["sheriff", "doctor", "godfather", "mafioso"] + ["villager"] * 8)
    text = re.sub(r"role: FILL_IN", lambda _: f"role: {next(roles)}", text)
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["game", "check", str(path)])
    assert result.exit_code == 0, result.output
    assert "first phase: day1" in result.output and "ruleset: failheap" in result.output


def test_a_player_left_without_a_role_is_a_blank_too(tmp_path):
    path, _, text = _draft("fr", tmp_path)
    text = text.replace("role: FILL_IN", "role: villager", 4).replace("role: FILL_IN", "role:")
    text = re.sub(r"\n  start: FILL_IN.*", "", text)  # as its comment says: deleted
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["game", "check", str(path)])
    assert result.exit_code != 0
    assert (
        "fill in before `run`: the role of Zoé (left FILL_IN or empty in the file)" in result.output
    )


@pytest.mark.parametrize(
    ("said", "zone"),
    [
        ("Deadline: Sunday 18:00 EST.", "America/New_York"),
        ("Day 2 ends Friday 9pm EDT", "America/New_York"),
        ("Deadline is 20:00 PST", "America/Los_Angeles"),
        ("The night ends at 8 PM Central time", "America/Chicago"),
        ("Deadline 21:00 BST", "Europe/London"),
        ("Дедлайн в 20:00 по Киеву", "Europe/Kyiv"),
        ("Deadline: 18:00 UTC+3", "Etc/GMT-3"),
        ("fin du jour à 22h (GMT -5)", "Etc/GMT+5"),
        ("Deadline 18:00 GMT+0", "UTC"),
    ],
)
def test_the_zone_the_gm_names_is_proposed(said: str, zone: str) -> None:
    from zoneinfo import ZoneInfo

    thread = initgame.Thread("Mafia", "GameMaster", (f"<p>{said}</p>",), ())
    proposal = initgame.propose_timezone(thread)
    assert proposal.value == zone and ZoneInfo(zone).key == zone
    assert said.split()[-1].strip(".()") in proposal.note


def test_two_zones_named_leave_the_zone_to_the_gm() -> None:
    thread = initgame.Thread("Mafia", "GameMaster", ("<p>Deadline 18:00 EST (23:00 UTC)</p>",), ())
    proposal = initgame.propose_timezone(thread)
    assert proposal.value == "FILL_IN" and "UTC, America/New_York" in proposal.note
