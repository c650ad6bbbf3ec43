"""Blind round H's performer class (issue 11), new texts through the real parser and the
blind rounds' setups: the teammate who carries out a team move, named inside it (a sentence
of its own after the kill, the verb's subject, a Russian clause of the verb then the name)
is its performer, checked by the performer rules; twins that must stay queued."""

from __future__ import annotations

import pytest

from tests.parsers.blind_games import read_as


def _fh(text: str) -> tuple[str, tuple[str, ...]]:
    return read_as("failheap", "blindH_fh_en", "night3", "Tancred", text)


def _ru(text: str) -> tuple[str, tuple[str, ...]]:
    return read_as("ru_mafia", "blindH_ru", "night3", "Доброслав", text)


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("Kill Oswin tonight. Ignatz does the visiting, he knows the way.", "mafia_kill Oswin"),
        ("Mafia kill: Leocadia. Ignatz will do the visiting.", "mafia_kill Leocadia"),
        ("Ignatz kills Oswin tonight.", "mafia_kill Oswin"),  # seed 002: the Mafioso visits
    ],
)
def test_the_one_mafioso_named_as_the_killer_is_the_godfathers_kill(text: str, order: str) -> None:
    assert _fh(text) == ("accepted", (order,))


@pytest.mark.parametrize(
    "text",
    [
        "Kill Oswin tonight. Ximena does the visiting.",  # the framer is not the visitor
        "Kill Oswin tonight. Ignatz does it, or Winthrop.",  # two performers offered
        "Kill Oswin tonight. Ignatz will handle it if he can.",  # a condition
        "Ximena kills Oswin tonight.",
    ],
)
def test_another_teammate_or_an_open_performer_stays_queued(text: str) -> None:
    status, orders = _fh(text)
    assert status == "ambiguous", orders


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("Ночью стреляем в Малушу, стреляет Евпраксия.", "shoot Малуша by=Евпраксия"),
        ("Сегодня убиваем Калерию — стреляет Евпраксия.", "shoot Калерия by=Евпраксия"),
    ],
)
def test_the_shooter_named_after_the_clans_shot_is_its_performer(text: str, order: str) -> None:
    assert _ru(text) == ("accepted", (order,))


@pytest.mark.parametrize(
    "text",
    [
        "Стреляем в Малушу, стреляет Ян.",  # a villager is no clan member
        "Стреляем в Малушу, стреляет Евпраксия или Пантелеймон.",
        "Стреляем в Малушу, стреляем в Калерию.",  # two shots
    ],
)
def test_a_shooter_off_the_clan_or_a_second_shot_stays_queued(text: str) -> None:
    status, orders = _ru(text)
    assert status != "accepted", orders


def _ru_clan(actor: str, text: str) -> tuple[str, tuple[str, ...]]:
    return read_as("ru_mafia", "practice2_ru", "night2", actor, text)


@pytest.mark.parametrize(
    ("text", "orders"),
    [
        ("Ходы на ночь: Бажен варит яд.", ("make_poison by=Бажен",)),
        ("бажен сварит яд", ("make_poison by=Бажен",)),
        (
            "Бажен — варит яд. Всемила вербует Ангелину.",
            ("make_poison by=Бажен", "mafia_recruit Ангелина by=Всемила"),
        ),
    ],
)
def test_a_teammate_named_before_a_move_with_no_target_is_its_performer(
    text: str, orders: tuple[str, ...]
) -> None:
    # practice round P2 (p2-ru02): the clan head's "бажен варит яд", not a target of a
    # move that takes none
    assert _ru_clan("Аделаида", text) == ("accepted", orders)


@pytest.mark.parametrize(
    ("actor", "text"),
    [
        ("Всемила", "Бажен варит яд."),  # a member is not the clan head
        ("Аделаида", "Бажен варил яд прошлой ночью."),  # a report
        ("Аделаида", "Корней варит яд."),  # the sheriff is of another team
        ("Аделаида", "Бажен или Всемила варит яд."),  # two performers offered
        ("Аделаида", "Бажен варит яд, наверное."),  # a hedge
    ],
)
def test_a_move_with_no_target_for_another_player_stays_queued_when_unsettled(
    actor: str, text: str
) -> None:
    status, orders = _ru_clan(actor, text)
    assert status == "ambiguous", orders
