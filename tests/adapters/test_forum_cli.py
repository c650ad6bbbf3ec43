"""``forumbot forum ...`` against replayed pages: JSON output, clean errors, no password leaks."""

from __future__ import annotations

import json

from click.testing import CliRunner

from forumbot.cli import main
from tests.adapters.conftest import SMF20, SMF21, Replay

SECRET = "s3cret-Value-42"


def run(*args: str, env: dict[str, str | None] | None = None) -> tuple[int, str, str]:
    runner = CliRunner()
    result = runner.invoke(
        main,
        ["forum", *args, "--user", "ModBot", "--rate", "0"],
        env=env or {"FORUMBOT_PASSWORD": SECRET},
    )
    return result.exit_code, result.stdout, result.stderr


def test_topic_json_lists_every_post(phpbb: Replay) -> None:
    phpbb.on("GET", r"viewtopic\.php\?t=2$", "topic_page_1")
    for number in range(2, 8):
        phpbb.on("GET", rf"start={(number - 1) * 10}$", f"topic_page_{number}")
    code, out, _ = run(
        "topic", "--url", "http://127.0.0.1:8733/viewtopic.php?f=3&t=2&sid=x", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["engine"] == "phpbb" and data["topic_id"] == 2
    assert len(data["posts"]) == 61
    assert data["posts"][6]["author"] == {"id": 64, "name": "Маша"}
    assert "Маша" in out  # readable UTF-8, not \\u escapes
    assert data["posts"][0]["posted_at"].endswith("+00:00")


def test_topic_after_a_post_reads_from_its_page(smf21: Replay) -> None:
    smf21.on("GET", r"topic=2\.msg60$", "topic_p4")
    smf21.on("GET", r"topic=2\.60$", "topic_p5")
    code, out, _ = run("topic", "--url", f"{SMF21}?topic=2.15", "--after", "60")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == ["#61", "#62", "#63", "#64", "#65"]


def test_inbox_json_keeps_every_recipient(smf20: Replay) -> None:
    smf20.on("GET", r"action=pm;f=inbox;sort=date;desc;start=0$", "pm_inbox_desc_p1")
    code, out, _ = run("inbox", "--url", f"{SMF20}?topic=2.0", "--after", "31", "--json")
    assert code == 0
    data = json.loads(out)
    assert [pm["pm_id"] for pm in data["pms"]] == [32, 33, 34]
    assert [r["name"] for r in data["pms"][-1]["recipients"]] == ["ModBot", "Akonyl"]
    assert "marks" in data["note"]


def test_wrong_password_is_a_clean_error_without_the_password(smf21: Replay) -> None:
    smf21.on("GET", r"action=login$", "login_page")
    smf21.on("POST", r"action=login2", "login_wrong_password")
    code, out, err = run("check", "--url", f"{SMF21}?topic=2.0")
    assert code == 2
    assert "login as 'ModBot' failed" in err and "Password incorrect" in err
    assert SECRET not in out + err
    ((_, _, body),) = smf21.posts()
    assert "s3cret-Value-42" in body  # it went to the forum, and only there


def test_missing_password_says_where_to_put_it() -> None:
    code, _, err = run("check", "--url", f"{SMF21}?topic=2.0", env={"FORUMBOT_PASSWORD": None})
    assert code == 2 and "FORUMBOT_PASSWORD" in err


def test_check_reads_one_topic_page_and_the_inbox_list(phpbb: Replay) -> None:
    phpbb.on("GET", r"ucp\.php\?mode=login$", "login_redirect_target_index")  # cookies valid
    phpbb.on("GET", r"viewtopic\.php\?t=2$", "topic_page_1")
    phpbb.on("GET", r"folder=inbox$", "pm_inbox")
    code, out, _ = run("check", "--url", "http://127.0.0.1:8733/viewtopic.php?t=2")
    assert code == 0, out
    assert "engine: phpbb" in out and "7 page(s)" in out and "newest PM #9" in out
    assert "requests made: 3" in out


def test_guest_reads_a_public_topic_without_a_password(smf21: Replay) -> None:
    smf21.on("GET", r"topic=2\.0$", "guest_topic_p1")
    runner = CliRunner()
    result = runner.invoke(
        main,
        ["forum", "check", "--url", f"{SMF21}?topic=2.0", "--guest", "--rate", "0"],
        env={"FORUMBOT_PASSWORD": None},
    )
    assert result.exit_code == 0, result.output
    assert "reading as a guest" in result.stdout and "5 page(s)" in result.stdout
    assert smf21.posts() == []


def test_guest_cannot_read_the_inbox(smf21: Replay) -> None:
    smf21.on("GET", r"action=pm", "guest_pm_not_logged_in")
    result = CliRunner().invoke(
        main, ["forum", "inbox", "--url", f"{SMF21}?topic=2.0", "--guest", "--rate", "0"]
    )
    assert result.exit_code == 2 and "guests cannot" in result.stderr


def test_a_post_url_finds_its_topic(phpbb: Replay) -> None:
    phpbb.on("GET", r"viewtopic\.php\?p=36$", "topic_by_post_id")
    phpbb.on("GET", r"viewtopic\.php\?p=55$", "topic_page_6")
    phpbb.on("GET", r"viewtopic\.php\?t=2&start=60$", "topic_page_7")
    code, out, _ = run(
        "topic", "--url", "http://127.0.0.1:8733/viewtopic.php?p=36#p36", "--after", "55"
    )
    assert code == 0, out
    assert [line.split()[0] for line in out.splitlines()] == [f"#{n}" for n in range(56, 63)]


def test_unknown_time_zone_is_a_clean_error() -> None:
    code, _, err = run("topic", "--url", f"{SMF21}?topic=2.0", "--tz", "Mars/Olympus")
    assert code == 2 and "--tz" in err
