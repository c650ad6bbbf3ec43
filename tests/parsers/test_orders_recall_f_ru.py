"""Issue 11, Russian recall classes and ruleset-rule refusals after blind rounds D and E: each
class with new texts (none is a corpus sentence) and twins that must stay queued/refused."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from parsers.orders import History, OrderParser, ParseResult, Status
from parsers.roster import roster_from_data
from resolver.ruleset import load_ruleset


@functools.cache
def _parser() -> OrderParser:
    return OrderParser(load_ruleset("ru_mafia"))


GAME: dict[str, object] = {
    "Кузьма": "mafia_boss", "Гаврила": "mafioso", "Зиновий": "mafia_recruiter",
    "Прасковья": "sheriff", "Савва": "investigator", "Марьяна": "doctor",
    "Тихон": "bodyguard", "Василиса": "journalist", "Лаврентий": "jailer",
    "Ульяна": "tour_operator", "Ермолай": "maniac", "Дарья": "villager",
    "Мефодий": "villager", "Степанида": "villager",
}  # fmt: skip


def _parse(
    text: str,
    actor: str,
    players: Mapping[str, object] = GAME,
    history: History | None = History(),
    phase: str = "night3",
) -> ParseResult:
    roster = roster_from_data({"players": players})
    return _parser().parse(text, roster=roster, actor=actor, phase=phase, history=history)


def _orders(result: ParseResult) -> list[str]:
    return [o.render() for o in result.orders]


# --- "нет, лучше X" inside the sentence: the correction's "no", not "not X" ---------------


def test_a_no_then_a_correction_in_the_sentence_means_the_later_player() -> None:
    for text, actor, order in (
        ("Лечу Дарью, нет, лучше Мефодия.", "Марьяна", "heal Мефодий"),
        ("Отправляю в тур Тихона... нет, лучше Степаниду", "Ульяна", "tour Степанида"),
        ("Слежу за Саввой — нет, лучше за Зиновием.", "Василиса", "shadow Зиновий"),
    ):
        result = _parse(text, actor)
        assert result.status is Status.ACCEPTED, (text, result.reason)
        assert _orders(result) == [order], text


def test_a_no_before_a_name_or_a_correction_left_open_stays_as_it_was() -> None:
    kept = _parse("Лечу Дарью, нет, не Мефодия.", "Марьяна")  # "not Мефодий": still Дарья
    assert _orders(kept) == ["heal Дарья"], kept.reason
    for text in (
        "Лечу Дарью, нет, лучше Мефодия или Степаниду.",  # an alternative
        "Лечу Дарью, нет, лучше Мефодия?",  # a question
        "Лечу Дарью, нет, лучше.",  # a correction to nobody
        "Лечу Дарью... нет, лучше Мефодия. Или нет.",  # taken back again
    ):
        result = _parse(text, "Марьяна")
        assert result.status is not Status.ACCEPTED, (text, _orders(result))


# --- A sender out of the game for good (a status that blocks actions, lasting the game) ----


def test_a_jailed_sender_is_refused_once_the_history_says_the_state_is_current() -> None:
    """Seed 004 п.07: the jailed are out of the game («выбывшими игроками»); ru_mafia's
    ``jailed`` and ``jailed_by_jailer`` block actions for the rest of the game."""
    for status in ("jailed", "jailed_by_jailer"):
        players = {**GAME, "Дарья": {"role": "villager", "statuses": [status]}}
        for text in ("Наблюдаю за Мефодием этой ночью.", "Сижу дома, всем удачи"):
            result = _parse(text, "Дарья", players)
            assert result.status is Status.REJECTED, (status, text, result.reason)
            assert status in (result.rule or ""), result.rule


def test_a_jailed_sender_without_a_history_or_a_passing_status_stays_queued() -> None:
    jailed = {**GAME, "Дарья": {"role": "villager", "statuses": ["jailed"]}}
    unknown = _parse("Наблюдаю за Мефодием.", "Дарья", jailed, history=None)
    assert unknown.status is Status.AMBIGUOUS, unknown.reason  # the statuses may be stale
    for_a_night = {**GAME, "Дарья": {"role": "villager", "statuses": ["on_tour"]}}
    assert _parse("Наблюдаю за Мефодием.", "Дарья", for_a_night).status is not Status.REJECTED
    free = _parse("Наблюдаю за Мефодием.", "Дарья")
    assert _orders(free) == ["villager_watch Мефодий"], free.reason


# --- The other aspect of the sender's own order verb ("проверю" for "проверяю") -----------


def test_the_other_aspect_of_the_senders_verb_is_the_senders_order() -> None:
    """The Jailer's check lists "проверяю"; "проверю" / "проверим" (the perfective pair,
    another lemma) is the same check, not the Mafia's search the Jailer does not have."""
    for text in ("Проверю Мефодия.", "Этой ночью проверим Степаниду", "проверю на грех Дарью"):
        result = _parse(text, "Лаврентий")
        assert result.status is Status.ACCEPTED, (text, result.reason)
        assert [o.ability for o in result.orders] == ["check_sin"], text


def test_the_other_aspect_keeps_other_senders_and_role_checks_as_they_were() -> None:
    boss = _parse("Проверю Мефодия на шерифа.", "Кузьма")  # the Boss's own search
    assert _orders(boss) == ["mafia_search sheriff Мефодий"], boss.reason
    doctor = _parse("Проверю Мефодия.", "Марьяна")  # no check of any kind
    assert doctor.status is Status.REJECTED, doctor.reason
    for text in ("Проверю Мефодия на шерифа.", "Проверяю Дарью на маньяка"):
        jailer = _parse(text, "Лаврентий")  # a role the Jailer's check cannot look for
        assert jailer.status is not Status.ACCEPTED, (text, _orders(jailer))


# --- Feminine role words: the rulesets list "вербовщик", players write "вербовщица" ----------


def test_a_feminine_role_word_names_the_role() -> None:
    for text, actor, order in (
        ("Вербовщица вербует Дарью.", "Кузьма", "mafia_recruit Дарья by=Зиновий"),
        ("Следовательница допрашивает Мефодия", "Прасковья", "interrogate Мефодий by=Савва"),
        ("Ищу шерифшу - Степанида", "Кузьма", "mafia_search sheriff Степанида"),
        ("Рядовая стреляет в Дарью", "Кузьма", "shoot Дарья by=Гаврила"),
    ):
        result = _parse(text, actor)
        assert result.status is Status.ACCEPTED, (text, result.reason)
        assert _orders(result) == [order], text


def test_a_feminine_role_the_sender_may_not_seek_or_an_unread_role_is_not_accepted() -> None:
    sought = _parse("Ищу следовательницу - Дарья", "Кузьма")  # the Boss seeks the Sheriff only
    assert sought.status is Status.REJECTED, _orders(sought)
    for text in ("Ищу шерифиню - Дарья", "Ищу главную - Степанида"):  # a role word not read
        result = _parse(text, "Кузьма")
        assert result.status is Status.AMBIGUOUS, (text, _orders(result))
