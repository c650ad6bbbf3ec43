"""The host's penalties (seed 004 п.15, п.18) entered by the GM in a live Russian game with
``forumbot player penalty``: they weigh in the Day's vote log when it resolves, a withdrawn
one does not, and one entered outside a Day is refused in one sentence."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from forumbot.cli import main
from tests.resolver.ru_mafia.test_whole_game import ROLES, Game13, forum  # noqa: F401

GAME = "ru-mafia-test"


def _cli(g: Game13, *args: str) -> tuple[int, str]:
    done = CliRunner().invoke(main, ["player", "penalty", GAME, *args, "--database", g.url])
    return done.exit_code, done.output


def test_a_penalty_the_gm_enters_decides_a_tied_day(forum, tmp_path: Path) -> None:  # noqa: F811
    g = Game13(forum, tmp_path)
    g.tick()
    g.tick()  # the worker has taken the game and opened Day 1
    code, out = _cli(g, "Оля", "--rule", "no_avatar", "--gm", "Ведущий", "--json")
    assert code == 0, out
    entered = json.loads(out)["penalties"][0]
    assert (entered["player"], entered["rule"], entered["phase"], entered["by"]) == (
        "Оля", "no_avatar", "day1", "gm:Ведущий")  # fmt: skip
    code, out = _cli(g, "Тигр", "--rule", "no_avatar")  # a slip, withdrawn before the Day ends
    assert code == 0, out
    mistaken = int(out.split("#")[1].split(":")[0])
    code, out = _cli(g, "--cancel", str(mistaken))
    assert code == 0 and "(cancelled)" in out, out
    code, out = _cli(g, "Оля", "--rule", "no_avatar")
    assert code == 2 and "entered already" in out, out

    votes = {n: "Тигр" for n in ("Петя", "Вася", "Дима", "Гоша", "Коля", "Лёша")}
    votes |= {n: "Оля" for n in ("Тигр", "Рома", "Ира", "Зоя", "Нина", "Влад")}
    post = g.day({**votes, "Оля": "Петя"})  # 6 against 6: the penalty's +1 breaks the tie
    assert "Сел: Оля" in post, post
    log = {line.split(" (")[0]: line for line in post.splitlines() if " (" in line}
    assert log["Оля"].startswith("Оля (7):") and "+1 в лог" in log["Оля"], post
    assert log["Тигр"].startswith("Тигр (6):"), post  # the withdrawn penalty is not there

    code, out = _cli(g, "Петя", "--rule", "role_reveal", "--penalty", "lightning")
    assert code == 2 and "night1" in out and "next Day" in out, out
    code, out = _cli(g, "--list", "--json")
    listed = [(p["player"], p["status"]) for p in json.loads(out)["penalties"]]
    assert listed == [("Оля", "accepted"), ("Тигр", "cancelled")]


def test_a_penalty_of_no_such_rule_is_refused(forum, tmp_path: Path) -> None:  # noqa: F811
    g = Game13(forum, tmp_path)
    g.tick()
    g.tick()  # the worker has taken the game and opened Day 1
    code, out = _cli(g, "Оля", "--rule", "swearing")
    assert code == 2 and "not one of: late_post, no_avatar, role_reveal" in out, out
    code, out = _cli(g, "Оля", "--rule", "no_avatar", "--penalty", "lightning")
    assert code == 2 and "--rule role_reveal" in out, out
    code, out = _cli(g, "Оля")
    assert code == 2 and "give NAME and --rule" in out, out


def test_the_gm_page_enters_and_withdraws_a_penalty(forum, tmp_path: Path) -> None:  # noqa: F811
    from forumbot.db.types import utcnow
    from forumbot.web import create_app
    from tests.web.conftest import TOKEN, csrf_of

    g = Game13(forum, tmp_path)
    g.tick()
    g.tick()
    client = create_app(g.rt.sessions, token=TOKEN, now=utcnow).test_client()
    client.get("/login")
    client.post("/login", data={"token": TOKEN, "name": "Ведущий", "csrf_token": csrf_of(client)})
    page = client.get(f"/games/{g.game_id}/roster").get_data(as_text=True)
    assert "Host penalties" in page and '<option value="no_avatar">' in page

    refused = client.post(f"/games/{g.game_id}/roster/penalty",
                          data={"name": "Оля", "rule": "no_avatar"})  # fmt: skip
    assert refused.status_code in (400, 403)  # no CSRF token: nothing entered
    form = {"name": "Оля", "rule": "no_avatar", "note": "нет аватара",
            "csrf_token": csrf_of(client)}  # fmt: skip
    page = client.post(f"/games/{g.game_id}/roster/penalty", data=form,
                       follow_redirects=True).get_data(as_text=True)  # fmt: skip
    assert "weighs in this Day" in page and "<b>Оля</b>, no_avatar" in page
    code, out = _cli(g, "--list", "--json")
    assert code == 0, out
    entered = json.loads(out)["penalties"]
    assert [(p["player"], p["by"], p["status"]) for p in entered] == [
        ("Оля", "gm:Ведущий", "accepted")]  # fmt: skip

    cancel = f"/games/{g.game_id}/roster/penalty/{entered[0]['id']}/cancel"
    page = client.post(cancel, data={"csrf_token": csrf_of(client)},
                       follow_redirects=True).get_data(as_text=True)  # fmt: skip
    assert "withdrawn" in page and "cancelled" in page
    again = client.post(f"/games/{g.game_id}/roster/penalty", data={**form, "rule": "swearing",
                        "csrf_token": csrf_of(client)}, follow_redirects=True)  # fmt: skip
    assert "is not one of" in again.get_data(as_text=True)
