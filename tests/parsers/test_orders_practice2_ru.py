"""Practice rounds P4-P6's Russian classes (issue 11): new texts, not the corpus's, with twins.

An order taken back by a later sentence that names its ability but no player ("Стреляю в
Гавриила. Нет, поправка, стрелять пока рано.", p4-ru04's class): the take-back is a reason
to queue, never a repetition of the order. Through the real parser and the practice round
P4 setups (ru_mafia, Russian; failheap, English).

Seed 004's clan moves: "Клановые игроки не могут делать однотипные ходы (за исключением
поиска в клане полицейских)": the cops' PM may give each cop's own search (p6-ru02's class);
two searches by one cop, or two shots of the mafia, go to the GM. The ruleset option
``clan_repeated_moves`` (default: the cops' search and the stake hunt) says which moves a
clan may repeat; without the cops' search in it, one search a night.

The Jailer's bare check word on today's prisoner ("проверяю Богдану", p2-ru21, p6-ru11): a
check for sin on a player out of the game fails, so a word that is also the check of the
jailed ("проверяю посаженного") is that check; a check for sin said outright, another
order word, or an earlier day's prisoner stays the GM's (practice round P2 setup).
"""

from __future__ import annotations

import pytest

from benchmarks.bench_orders import load_setup
from parsers.orders import OrderParser
from resolver.ruleset import load_ruleset
from tests.parsers.blind_games import read_as


def _ru(actor: str, text: str) -> tuple[str, tuple[str, ...]]:
    return read_as("ru_mafia", "practice4_ru", "night3", actor, text)


@pytest.mark.parametrize(
    ("actor", "text"),
    [
        ("Есения", "Лечу Зарину. Стоп, лечить её смысла нет."),
        ("Есения", "Лечу Зарину.\nНет-нет, лечить сегодня не буду, пусть сама."),
        ("Есения", "Лечу Зарину. Лечить её сегодня точно не надо."),
        ("Есения", "Лечу Зарину. Не-не, лечить её не стану."),
        ("Владислав", "Стреляю в Гавриила. Стрелять не буду, рано ещё."),
        ("Владислав", "Выстрел по Гавриилу. Поправка: выстрел отменяется."),
    ],
)
def test_an_order_taken_back_without_a_player_is_queued(actor: str, text: str) -> None:
    status, orders = _ru(actor, text)
    assert status == "ambiguous", orders


def test_the_other_orders_of_the_pm_stay_candidates() -> None:
    text = "Стреляю в Гавриила.\nПоправка: стрелять рано. Ищу Босса мафии: Октябрина."
    assert _ru("Владислав", text) == ("ambiguous", ("cop_search mafia_boss Октябрина",))


@pytest.mark.parametrize(
    ("actor", "text", "order"),
    [
        ("Есения", "Лечу Зарину. Лечить буду обязательно, она важна.", "heal Зарина"),
        ("Есения", "Лечу Зарину. Лечить, не раздумывая!", "heal Зарина"),
        ("Владислав", "Стреляю в Гавриила. Стрелять буду наверняка.", "cop_shoot Гавриил"),
        ("Владислав", "Стреляю в Гавриила. Хотя нет, не стреляю.", "cancel cop_shoot"),
    ],
)
def test_an_order_repeated_or_cancelled_outright_still_reads(
    actor: str, text: str, order: str
) -> None:
    assert _ru(actor, text) == ("accepted", (order,))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Shoot Fergus. No wait, shooting is too early.", ("ambiguous", ())),
        ("Shoot Fergus. Actually, shooting tonight is a bad idea.", ("ambiguous", ())),
        ("Shoot Fergus. Shooting for sure, no doubt.", ("accepted", ("shoot Fergus",))),
    ],
)
def test_the_same_in_english(text: str, expected: tuple[str, tuple[str, ...]]) -> None:
    assert read_as("failheap", "practice4_fh_en", "night3", "Sylvester", text) == expected


def _p6(actor: str, text: str) -> tuple[str, tuple[str, ...]]:
    return read_as("ru_mafia", "practice6_ru", "night3", actor, text)


@pytest.mark.parametrize(
    ("text", "orders"),
    [
        (
            "Ходы копов:\nИщу Бунтаря: Ратибор.\nКазимир ищет Маньяка: Гостомысл.",
            ("cop_search rebel Ратибор", "cop_search maniac Гостомысл by=Казимир"),
        ),
        (
            "Копы этой ночью: я проверяю на Босса мафии Аникея, Чеслав проверяет на "
            "Вербовщика мафии Добромира",
            ("cop_search mafia_boss Аникей", "cop_search mafia_recruiter Добромир by=Чеслав"),
        ),
    ],
)
def test_each_cop_s_own_search_in_one_pm_is_read(text: str, orders: tuple[str, ...]) -> None:
    assert _p6("Рогнеда", text) == ("accepted", orders)


@pytest.mark.parametrize(
    ("actor", "text"),
    [
        ("Рогнеда", "Ищу Босса мафии: Аникей. Ищу Бунтаря: Ратибор."),
        (
            "Рогнеда",
            "Ищу Бунтаря: Ратибор. Казимир ищет Маньяка: Гостомысл. Казимир ищет "
            "Вербовщика мафии: Добромир.",
        ),
        ("Аникей", "Вышеслав стреляет в Лавра. Добромир стреляет в Святослава."),
    ],
)
def test_two_moves_of_one_kind_by_one_cop_or_of_the_mafia_are_queued(actor: str, text: str) -> None:
    status, orders = _p6(actor, text)
    assert status == "ambiguous", orders


def test_one_cops_search_a_night_when_the_option_says_so() -> None:
    setup = load_setup("practice6_ru")
    text = "Ходы копов:\nИщу Бунтаря: Ратибор.\nКазимир ищет Маньяка: Гостомысл."
    for moves, status in (
        (["stake_hunt"], "ambiguous"),
        (["cop_search", "stake_hunt"], "accepted"),
    ):
        ruleset = load_ruleset("ru_mafia", options={"clan_repeated_moves": moves})
        result = OrderParser(ruleset).parse(text, roster=setup.roster, actor="Рогнеда",
                                            phase="night3", history=setup.history)  # fmt: skip
        assert str(result.status) == status, result.reason


def _jailer(text: str) -> tuple[str, tuple[str, ...]]:
    return read_as("ru_mafia", "practice2_ru", "night3", "Ферапонт", text)


@pytest.mark.parametrize(
    "text", ["Проверяю Богдану, пусть все увидят.", "проверка Богданы", "Проверю сегодня Богдану"]
)
def test_the_jailer_s_check_word_on_today_s_prisoner_is_the_check_of_the_jailed(text: str) -> None:
    assert _jailer(text) == ("accepted", ("check_jailed Богдана",))


@pytest.mark.parametrize(
    "text",
    [
        "проверяю на грешность Богдану",  # a check for sin said outright
        "В тюрьму Богдану",  # another order word
        "Проверяю Макара",  # day 2's prisoner, not today's
    ],
)
def test_other_jailer_orders_on_a_prisoner_stay_the_gm_s(text: str) -> None:
    status, orders = _jailer(text)
    assert status == "ambiguous", orders


def test_a_check_on_a_free_player_is_the_check_for_sin() -> None:
    assert _jailer("Проверяю Корнея") == ("accepted", ("check_sin Корней",))
