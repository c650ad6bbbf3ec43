"""Answers to an invitation sent as Russian PMs, through the runtime (the real SMF adapter
over loopback, the order parser, the GM's queue, the resolver): п.ru Вербовщик «Если игрок
согласен, вербовка происходит ... Если игрок не согласен, то Вербовщик может повторно
послать приглашение»; an answer that cannot be read with certainty waits for the GM."""

from __future__ import annotations

from sqlalchemy import select

from forumbot.db.enums import ReviewKind, ReviewState
from forumbot.db.models import Player, ReviewItem
from forumbot.services import review
from tests.resolver.ru_mafia.test_whole_game import Game13, forum  # noqa: F401  (fixture)

ROLES = {"Вер": "mafia_recruiter", "Оля": "villager", "Коля": "villager", "Зоя": "villager",
         "Ман": "maniac", "Док": "doctor"}  # fmt: skip


def _open_items(g: Game13, name: str) -> list[ReviewItem]:
    with g.rt.sessions() as s:
        pid = s.scalar(select(Player.id).where(Player.display_name == name))
        return list(s.scalars(select(ReviewItem).where(
            ReviewItem.kind == ReviewKind.ORDER, ReviewItem.state == ReviewState.OPEN,
            ReviewItem.player_id == pid)))  # fmt: skip


def test_answers_decide_the_recruitment(forum, tmp_path):  # noqa: F811
    g = Game13(forum, tmp_path, ROLES, {"villager_gifts": "none"})
    post = g.day({n: "Ман" for n in ROLES if n != "Ман"} | {"Ман": "Оля"})
    assert "Сел: Ман" in post

    # Night 1: a bare «Отказываюсь» (a refusal, or staying home?) goes to the GM.
    g.forum.add_pm("Вер", "ход", "вербую Олю")
    g.forum.add_pm("Оля", "ход", "Отказываюсь.")
    g.tick()
    (item,) = _open_items(g, "Оля")
    assert any("Ведущий прочтёт" in pm for pm in g.pms_to("Оля"))
    with g.rt.sessions.begin() as s:
        review.reject(s, item.id, gm="GameMaster", note="неясно")
    post = g._end()
    assert "Мафия: 0" in post.splitlines()  # nobody recruited, nobody killed
    assert any("Вербовка мафии (Оля): неудачно, цель отказалась" in pm for pm in g.pms_to("Вер"))
    assert any("предложение о вербовке" in pm for pm in g.pms_to("Оля"))

    g.day({n: "Док" for n in ("Вер", "Коля", "Зоя")} | {"Док": "Вер", "Оля": "Вер"})

    # Night 2: asked again, «отказываюсь от вербовки» stops it (without an answer it succeeds).
    sent = len(g.pms_to("Вер"))
    g.night({"Вер": "вербую Олю", "Оля": "отказываюсь от вербовки"})
    assert not _open_items(g, "Оля")
    assert any("цель отказалась" in pm for pm in g.pms_to("Вер")[sent:])
    assert not any("Вы завербованы" in pm for pm in g.pms_to("Оля"))

    g.day({"Вер": "Зоя", "Зоя": "Вер", "Оля": "Зоя", "Коля": "Вер"})

    # Night 3: Коля's «Я согласен» makes the first invitation succeed.
    g.night({"Вер": "вербую Колю", "Коля": "Я согласен"})
    assert any("цель согласилась" in pm for pm in g.pms_to("Вер"))
    assert any("Вы завербованы" in pm for pm in g.pms_to("Коля"))
    g.scheduler.shutdown()
