"""A whole Russian forum mafia game on the real SMF adapter over loopback HTTP.

Thirteen players: two mafia clans, the cops, a Vampire, loners (Maniac, Rebel), town roles
and Villagers. Votes are red (п.09), orders Russian PMs read by the real order parser; the
worker resolves each phase under ``ru_mafia`` and posts the п.17 announcements and the
Russian results. Five days, four nights: items (the vests, sirens, vodka, the clan diploma,
the Fairy's gift of a vest read from «Дарю Ире бронежилет»), a recruitment (a repeated
invitation answered «Согласна!», п.ru Вербовщик), a bite that kills the next night,
penalties «+1 в лог» (no vote, a tie, posts after the day's end: п.09, п.09а), and the town's
win (п.14).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml

from forumbot import jobs
from forumbot.clock import FakeClock
from forumbot.db import upgrade
from forumbot.db.enums import GameStatus
from forumbot.db.models import Game
from forumbot.services import games
from tests.runtime.smf_forum import SMFTestForum
from tests.runtime.test_game_http import http_runtime

ROLES = {
    "Петя": "mafia_boss", "Вася": "mafioso", "Дима": "mafioso_2", "Гоша": "mafia_recruiter_2",
    "Коля": "sheriff", "Лёша": "investigator", "Влад": "vampire", "Тигр": "maniac",
    "Рома": "rebel", "Ира": "doctor", "Оля": "villager", "Зоя": "villager", "Нина": "fairy",
}  # fmt: skip
DAY1 = datetime(2026, 12, 1, 21, 0, 30, tzinfo=UTC)  # 22:00 in Paris: day 1 begins


def _game_file(
    forum: SMFTestForum, tmp_path: Path, roles: dict[str, str], options: dict[str, object]
) -> Path:
    data = {
        "name": "ru-mafia-test",
        "forum": {"url": f"{forum.base_url}?topic=5.0", "engine": "smf"},
        "credentials": {"username": "ModBot", "password_env": "UNUSED"},
        "gm": "GameMaster",
        "ruleset": "ru_mafia",
        "seed": 4,
        "options": options,
        "players": [{"name": n, "role": r} for n, r in roles.items()],
        "schedule": {"timezone": "Europe/Paris", "first_phase": "day1",
                     "start": "2026-12-01 22:00", "day": {"length": "24h", "starts": "22:00"},
                     "night": {"length": "24h"}},
        "publishing": {"mode": "auto", "receipts": True, "poll_interval": "2m"},
    }  # fmt: skip
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


@pytest.fixture
def forum():
    with SMFTestForum(FakeClock(datetime(2026, 12, 1, 12, 0, tzinfo=UTC))) as forum:
        yield forum


def _red(name: str) -> str:
    return f'<span style="color: red;" class="bbc_color">{name}</span>'


class Game13:
    """The game's driver: posts and PMs at the right times, then the phase deadline."""

    def __init__(
        self,
        forum: SMFTestForum,
        tmp_path: Path,
        roles: dict[str, str] = ROLES,
        options: dict[str, object] | None = None,
    ) -> None:
        self.forum = forum
        self.url = f"sqlite:///{tmp_path / 'fb.sqlite3'}"
        upgrade(self.url)
        self.rt = http_runtime(self.url, forum, forum.clock, "w1")
        options = options or {"mafia_clans": 2, "villager_gifts": "none"}
        self.game_id = games.register(self.rt, _game_file(forum, tmp_path, roles, options))
        games.start(self.rt, self.game_id)
        self.scheduler = jobs.make_scheduler(self.rt, manual=True)
        self.scheduler.start()
        jobs.add_sync_job(self.scheduler, self.rt)
        self.phase_start = DAY1
        forum.clock.set(DAY1)
        self.tick()

    def tick(self, minutes: int = 2) -> None:
        self.forum.clock.advance(timedelta(minutes=minutes))
        self.scheduler.run_due()

    def day(self, votes: dict[str, str]) -> str:
        for voter, target in votes.items():
            self.forum.add_post(voter, f"Мой голос: {_red(target)}")
            self.tick()
        return self._end()

    def night(self, orders: dict[str, str], *, thread: dict[str, str] | None = None) -> str:
        """The night's PMs, and posts in the thread after the day's end (п.09а)."""
        for author, text in (thread or {}).items():
            self.forum.add_post(author, text)
            self.tick()
        for actor, text in orders.items():
            self.forum.add_pm(actor, "ход", text)
            self.tick()
        return self._end()

    def _end(self) -> str:
        before = len(self.bot_posts())
        self.phase_start += timedelta(hours=24)
        self.forum.clock.set(self.phase_start)
        for _ in range(4):
            self.tick(1)
        posts = self.bot_posts()
        assert len(posts) > before, "the phase post was not published"
        return posts[-1]

    def bot_posts(self) -> list[str]:
        return [p["body"] for p in self.forum.data.posts if p["author"] == "ModBot"]

    def pms_to(self, name: str) -> list[str]:
        return [pm["body"] for pm in self.forum.data.sent if pm["to"] == name]


def test_russian_game_from_day_one_to_the_town_win(forum, tmp_path):
    g = Game13(forum, tmp_path)
    everyone_but = [n for n in ROLES if n not in ("Тигр", "Рома", "Влад")]
    post = g.day({**{n: "Тигр" for n in everyone_but}, "Тигр": "Оля"})  # Рома, Влад: no vote
    assert "Сел: Тигр" in post and "Лог голосования" in post and "Маньяк" not in post

    post = g.night({
        "Коля": "ищу Босса - Петя",        # found; the Boss's vest takes the shot
        "Петя": "стреляю в Иру<br>использую диплом",  # the Boss sends; the Doctor's siren
        "Дима": "стреляю в Нину",          # Нина drank: nobody reaches her, her siren stays
        "Нина": "пью водку",
        "Гоша": "вербую Зою",              # no answer: refused (never accepted on a guess)
        "Влад": "кусаю Олю",
        "Ира": "лечу Олю",                 # a heal does not cure a bite
    }, thread={"Нина": "Ой, а день уже кончился?"})  # fmt: skip  # п.09а: a first late post
    lines = post.splitlines()
    assert "Сел: Тигр" in lines and "Одиночки: 1" in lines and "Мирные: 0" in lines
    assert not any(line.startswith("Убит:") for line in lines)
    assert any("Поиск копов (Петя): удачно" in pm for pm in g.pms_to("Коля"))
    assert any("Выстрел (Ира): неудачно" in pm for pm in g.pms_to("Петя"))
    assert any("Вы отравлены" in pm for pm in g.pms_to("Оля"))

    post = g.day({**{n: "Влад" for n in ROLES if n not in ("Тигр", "Влад", "Рома", "Дима")},
                  "Влад": "Оля", "Рома": "Оля"})  # fmt: skip
    assert "Сел: Влад" in post and "+1 в лог" in post  # Рома's and Влад's day-1 penalties
    assert "Нина (1)" not in post  # the first late post: a warning only
    assert any("Предупреждение: писать в теме после окончания дня" in pm for pm in g.pms_to("Нина"))

    post = g.night({
        "Гоша": "вербую Зою",              # asked again: the recruitment happens
        "Зоя": "Согласна!",                # her answer, read by the order parser
        "Ира": "усыпляю Петю",             # the sleeping pill stops the Boss's shot
        "Петя": "стреляю в Колю",
        "Коля": "стреляю в Диму",          # «Ходы отправляются Шерифом»
        "Рома": "вербую Иру",              # «неудачно, цель невербуема»
        "Нина": "Дарю Ире бронежилет",     # the Fairy's gift reaches Ира at dawn
    }, thread={"Нина": "Я опять после конца дня"})  # fmt: skip  # п.09а: +1 on day 3
    lines = post.splitlines()
    assert {"Сел: Влад", "Убит: Оля", "Убит: Дима"} <= set(lines)  # Оля: the bite's poison
    assert {"Мафия: 0", "Мафия (второй клан): 1", "Мирные: 1", "Нечисть: 1"} <= set(lines)
    assert any("цель невербуема" in pm for pm in g.pms_to("Рома"))
    assert any("Вы завербованы" in pm for pm in g.pms_to("Зоя"))

    post = g.day({n: "Рома" for n in ("Петя", "Вася", "Гоша", "Коля", "Лёша", "Ира", "Нина",
                                       "Зоя")} | {"Рома": "Коля"})  # fmt: skip
    assert "Сел: Рома" in post
    assert "Нина (1): +1 в лог" in post  # the second late post (п.09а)

    post = g.night({
        "Коля": "ищу Босса - Петя",        # the vest is spent: the Boss dies
        "Зоя": "стреляю в Иру",            # the second clan's new Mafioso; the siren is spent,
        "Петя": "стреляю в Нину",          # the Fairy's vest takes it; Нина's siren, kept by
    })  # fmt: skip                        # the vodka (he dies at dawn)
    assert "Убит: Петя" in post.splitlines() and "Убит: Ира" not in post
    assert any("Выстрел (Ира): удачно" in pm for pm in g.pms_to("Зоя"))  # п.17: a vest, «удачно»

    post = g.day({n: "Вася" for n in ("Гоша", "Коля", "Лёша", "Нина", "Зоя")} | {"Вася": "Коля"})
    assert "Сел: Вася" in post

    post = g.night({
        "Коля": "стреляю в Зою",
        "Лёша": "стреляю в Гошу",          # the Sheriff sends the cops' moves: to the GM's queue
        "Зоя": "стреляю в Нину",           # the Fairy's vest
    })  # fmt: skip
    assert "Убит: Зоя" in post.splitlines() and "Убит: Гоша" not in post
    assert any("Ведущий прочтёт" in pm for pm in g.pms_to("Лёша"))

    post = g.day({n: "Гоша" for n in ("Коля", "Лёша", "Нина")} | {"Гоша": "Коля"})
    assert "Сел: Гоша" in post
    assert "Игра окончена! Победа: Мирные" in post
    with g.rt.sessions() as session:
        assert session.get(Game, g.game_id).status is GameStatus.FINISHED
    g.scheduler.shutdown()
