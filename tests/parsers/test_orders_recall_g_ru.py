"""Recall classes of blind round F's Russian misses (issue 11): new texts, not the corpus's,
each failing before the fix, with twins that must stay queued or refused. Through the real
parser and the blind round F Russian setup."""

from __future__ import annotations

import pytest

from benchmarks.bench_orders import Case, Runner

RUNNER = Runner()


def _parse(actor: str, text: str) -> tuple[str, tuple[str, ...]]:
    case = Case("t", "ru_mafia", "blindF_ru", "ru", actor, "night3", text, "ambiguous", ())
    result = RUNNER.run(case)
    return str(result.status), tuple(order.render() for order in result.orders)


@pytest.mark.parametrize(
    ("actor", "text", "order"),
    [
        ("Мефодий", "Этой ночью слежу за Афоней, пусть понервничает.", "shadow Афанасий"),
        ("Прасковья", "Наблюдаю за Афоней, топор наготове.", "behead_watch Афанасий"),
    ],
)
def test_a_diminutive_the_dictionary_holds_indeclinable_is_declined(
    actor: str, text: str, order: str
) -> None:
    """ "Афоня" is "Fixd" in pymorphy3; players decline it ("за Афоней")."""
    assert _parse(actor, text) == ("accepted", (order,))


def test_a_declined_diminutive_of_nobody_stays_unread() -> None:
    status, orders = _parse("Мефодий", "Слежу за Федей.")
    assert status == "ambiguous", orders


@pytest.mark.parametrize(
    ("actor", "text", "order"),
    [
        ("Лаврентий", "Мир вашему дому, ведущий! Исповедую Эмилию.", "confess Эмилия"),
        ("Илларион", "Мир дому сему. Лечу Капитолину.", "heal Капитолина"),
    ],
)
def test_a_greeting_is_no_order(actor: str, text: str, order: str) -> None:
    """ "Мир вашему дому" is no "сижу дома"."""
    assert _parse(actor, text) == ("accepted", (order,))


def test_staying_home_after_a_greeting_is_still_read() -> None:
    assert _parse("Лаврентий", "Мир дому сему. Сижу дома.") == ("accepted", ("stay_home",))
    status, orders = _parse("Лаврентий", "Мир вам. Исповедую Эмилию, или сижу дома.")
    assert status == "ambiguous", orders


@pytest.mark.parametrize(
    ("actor", "text", "order"),
    [
        ("Прасковья", "смотрю за валентином", "behead_watch Валентин"),
        ("Мефодий", "Смотрю за Эмилией, материал будет.", "shadow Эмилия"),
    ],
)
def test_watching_over_is_the_watch(actor: str, text: str, order: str) -> None:
    assert _parse(actor, text) == ("accepted", (order,))


def test_looking_at_someone_is_no_watch() -> None:
    status, orders = _parse("Прасковья", "смотрю на валентина, подозрительный он")
    assert status == "ambiguous", orders


@pytest.mark.parametrize(
    ("actor", "text", "order"),
    [
        ("Нонна", "Охраняю Зиновия. Хочу, чтобы он дожил до утра.", "guard Зиновий"),
        ("Илларион", "Лечу Эмилию. Хочу, чтобы она утром проснулась.", "heal Эмилия"),
    ],
)
def test_i_want_is_no_although(actor: str, text: str, order: str) -> None:
    """ "хочу" shares the lemma "хотеть" with the hedge "хотя" (read as a gerund)."""
    assert _parse(actor, text) == ("accepted", (order,))


@pytest.mark.parametrize(
    "text",
    ["Охраняю Зиновия, хотя не уверен.", "Охраняю Зиновия. Хотя..."],
)
def test_although_stays_a_hedge(text: str) -> None:
    status, orders = _parse("Нонна", text)
    assert status == "ambiguous", orders


@pytest.mark.parametrize(
    "text",
    [
        "Охраняю Зиновия. Нет, Христину.",
        "Охраняю Зиновия... нет, Христину.",
        "Охраняю Зиновия, ой, нет, Христину.",
    ],
)
def test_no_then_another_player_is_never_the_first_order(text: str) -> None:
    """ "нет, X" after the order was read as "not X" and the first target accepted: it is a
    correction (or a ruling-out) the GM reads."""
    status, orders = _parse("Нонна", text)
    assert status == "ambiguous", orders


def test_a_ruled_out_player_keeps_the_order() -> None:
    assert _parse("Нонна", "Охраняю Зиновия, не Христину.") == ("accepted", ("guard Зиновий",))


@pytest.mark.parametrize(
    "text",
    ["Охраняю Зиновия. Ой, нет, лучше Христину.", "Охраняю Зиновия. Упс, лучше Христину."],
)
def test_oh_no_then_better_is_a_correction(text: str) -> None:
    assert _parse("Нонна", text) == ("accepted", ("guard Христина",))


def test_oh_no_alone_takes_the_order_back() -> None:
    status, orders = _parse("Нонна", "Охраняю Зиновия. Ой, нет.")
    assert status == "ambiguous", orders


@pytest.mark.parametrize(
    "text",
    ["Ищу Босса мафии — Афанасий, думаем на него.", "Ищу Босса мафии — Афанасий. Думаю на него."],
)
def test_suspecting_the_target_is_no_hedge(text: str) -> None:
    """ "думать на X" is suspecting X, not the hedge "думаю" ("I think")."""
    assert _parse("Доминика", text) == ("accepted", ("cop_search mafia_boss Афанасий",))


@pytest.mark.parametrize(
    "text",
    [
        "Ищу Босса мафии — Афанасий. Думаю, он.",
        "Ищу Босса мафии — Афанасий, думаю на Гаврилу тоже.",
        "Ищу Босса мафии — Афанасий. Думаю на него, но не уверена.",
    ],
)
def test_thinking_and_suspecting_another_stay_queued(text: str) -> None:
    status, orders = _parse("Доминика", text)
    assert status == "ambiguous", orders
