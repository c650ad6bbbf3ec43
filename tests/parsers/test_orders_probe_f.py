"""Probe round F's wrong-accept classes (issue 11): new texts, not the corpus's, each with a
clear twin that must stay accepted. Through the real parser and the blind round E setups."""

from __future__ import annotations

import pytest

from tests.parsers.blind_games import read_as

GAMES = {
    "en": ("failheap", "blindE_fh_en", "night3"),
    "dc": ("dctp", "blindE_dctp_en", "day3"),
    "dcn": ("dctp", "blindE_dctp_en", "night3"),
    "fr": ("failheap", "blindE_fh_fr", "night2"),
    "dr": ("durarara", "blindE_drr_fr", "day2"),
    "ru": ("ru_mafia", "blindE_ru", "night3"),
}


def _parse(game: str, actor: str, text: str) -> tuple[str, tuple[str, ...]]:
    return read_as(*GAMES[game], actor, text)


def _queued(game: str, actor: str, text: str) -> None:
    status, orders = _parse(game, actor, text)
    assert status == "ambiguous", orders


def _accepted(game: str, actor: str, text: str, *orders: str) -> None:
    assert _parse(game, actor, text) == ("accepted", orders)


@pytest.mark.parametrize(
    ("game", "actor", "text"),
    [
        ("en", "Tilda", "Oh yeah sure, shadow Brannock, what could go wrong."),
        ("en", "Fenwick", "Guard Nell. Great idea, right? Nobody will notice."),
        ("fr", "Théodule", "Ouais c'est ça, je bloque Bérangère, excellente idée."),
        ("ru", "Никанор", "Ага, конечно, охраняю Вавилу, отличная идея."),
        ("ru", "Пелагея", "Слежу за Акулиной. Гениально, ага."),
    ],
)
def test_sarcasm_is_not_an_order(game: str, actor: str, text: str) -> None:
    _queued(game, actor, text)


def test_a_plain_order_with_thanks_stays_accepted() -> None:
    _accepted("en", "Tilda", "Sure, shadow Brannock tonight. Thanks!", "shadow Brannock")
    _accepted("ru", "Никанор", "Охраняю Вавилу, спасибо.", "guard Вавила")


@pytest.mark.parametrize(
    ("game", "actor", "text"),
    [
        ("en", "Fenwick", "Guard Nell. Hang on, let me think about it more."),
        ("en", "Tilda", "Shadow Gideon. Or don't, he's boring."),
        ("fr", "Aldric", "Je protège Isidore. Attends, ce n'est pas ça du tout."),
        ("fr", "Théodule", "Je bloque Valérien. Non attends, je reviens vers vous ce soir."),
        ("ru", "Никанор", "Охраняю Пелагею. Или нет, она и так в безопасности."),
        ("ru", "Акулина", "Наблюдаю за Евлампием. Погоди, дай мне час."),
        ("ru", "Пелагея", "Слежу за Фролом. Ой, не то написал."),
    ],
)
def test_an_order_taken_back_without_a_replacement_is_queued(
    game: str, actor: str, text: str
) -> None:
    _queued(game, actor, text)


def test_an_order_corrected_to_a_player_stays_accepted() -> None:
    _accepted("ru", "Никанор", "Охраняю Пелагею. Хотя нет, лучше Ефросинью.", "guard Ефросинья")
    _accepted("fr", "Aldric", "Je protège Isidore. Attends, plutôt Bérangère.", "guard Bérangère")
    _accepted("en", "Fenwick", "Guard Nell. Actually, make that Quimby.", "guard Quimby")


@pytest.mark.parametrize(
    ("game", "actor", "text"),
    [
        ("en", "Tilda", "Draft for tonight: shadow Gideon. Final later."),
        ("fr", "Isidore", "Brouillon pour ce soir : je vérifie Sévrine."),
        ("ru", "Пелагея", "Черновик: слежу за Фролом."),
    ],
)
def test_a_draft_is_not_final(game: str, actor: str, text: str) -> None:
    _queued(game, actor, text)


def test_a_final_order_stays_accepted() -> None:
    _accepted("en", "Tilda", "Final: shadow Gideon.", "shadow Gideon")
    _accepted("fr", "Isidore", "Je vérifie Sévrine. Définitif.", "check Sévrine")


@pytest.mark.parametrize(
    ("game", "actor", "text"),
    [
        ("en", "Tilda", "Shadow Gideon. Gideon, changed my mind."),
        ("dc", "Rupert", "vote Sable. Sable, i changed my mind"),
        ("dr", "Anthelme", "Je vote Fulbert. Fulbert, finalement j'ai changé d'avis."),
        ("ru", "Пелагея", "Слежу за Фролом. Фрол, я передумала."),
    ],
)
def test_a_correction_naming_the_same_player_is_queued(game: str, actor: str, text: str) -> None:
    _queued(game, actor, text)


def test_a_correction_to_another_player_or_a_confirmation_stays_accepted() -> None:
    _accepted("dc", "Rupert", "vote Sable. Actually, make that Halloran.", "vote Halloran")
    _accepted("ru", "Пелагея", "Слежу за Фролом. Фрол, точно.", "shadow Фрол")


@pytest.mark.parametrize(
    ("game", "actor", "text"),
    [
        ("fr", "Théodule", "Je bloque Valérien s'il n'est pas déjà bloqué."),
        ("dr", "Sigismond", "Je vote Anthelme, sauf s'il se défend bien."),
    ],
)
def test_a_french_condition_written_s_il_is_queued(game: str, actor: str, text: str) -> None:
    _queued(game, actor, text)


def test_s_il_te_plait_is_no_condition() -> None:
    _accepted("fr", "Théodule", "Je bloque Valérien, s'il te plaît.", "block Valérien")


@pytest.mark.parametrize(
    ("game", "actor", "text"),
    [
        ("fr", "Aldric", "Je protège celle que Guenièvre a soignée hier."),
        ("fr", "Aldric", "Je protège celui qu'Isidore a vérifié."),
        ("ru", "Ефросинья", "Лечу самого активного."),
    ],
)
def test_a_target_described_not_named_is_queued(game: str, actor: str, text: str) -> None:
    _queued(game, actor, text)


def test_a_russian_self_heal_stays_accepted() -> None:
    _accepted("ru", "Ефросинья", "Лечу себя сама.", "heal Ефросинья")


def test_a_russian_doubt_after_the_order_queues_it() -> None:
    _queued("ru", "Никанор", "Охраняю Пелагею. Не знаю даже.")
    _accepted("ru", "Никанор", "Охраняю Пелагею. Спасибо.", "guard Пелагея")


def test_an_investigation_joined_to_another_own_order_is_not_one_claim() -> None:
    _queued("dcn", "Maddox", "Investigate Sable and interrogate Halloran tonight.")
    _accepted("dcn", "Maddox", "Interrogate Halloran.", "interrogate Halloran")
    _accepted(
        "dcn", "Maddox", "Investigate: Halloran killed Ysolde.", "investigate Halloran>kill>Ysolde"
    )


def test_a_vote_against_the_lover_paired_in_the_history_is_queued() -> None:
    _queued("dr", "Prosper", "Vote Bathilde.")  # Cupid paired Bathilde and Prosper, night 1
    _accepted("dr", "Prosper", "Je vote Fulbert.", "vote Fulbert")


@pytest.mark.parametrize(
    ("game", "actor", "text"),
    [
        ("en", "Tilda", "Leaning toward shadowing Halvard tonight."),
        ("en", "Fenwick", "I reckon guard Nell."),
        ("en", "Seraphina", "Block Thessaly. Having second thoughts already."),
        ("fr", "Théodule", "Je penche pour bloquer Sévrine."),
        ("fr", "Aldric", "Je protège Bérangère. J'ai un doute sur elle quand même."),
        ("fr", "Isidore", "Je vérifie Lothaire, n'importe quoi, il est gentil."),
        ("dr", "Sigismond", "Je vote Anthelme, enfin je crois."),
        ("ru", "Пелагея", "Склоняюсь к слежке за Евлампием."),
        ("ru", "Никанор", "Скорее всего охраняю Митрофана."),
        ("ru", "Акулина", "Наблюдаю за Харитоном. Есть сомнения."),
        ("ru", "Вавила", "Убиваю Февронию, да щас, она же мирная."),
    ],
)
def test_more_hedges_and_doubts_queue(game: str, actor: str, text: str) -> None:
    _queued(game, actor, text)


def test_an_interjection_before_a_correction_keeps_it_a_correction() -> None:
    _accepted("ru", "Пелагея", "Слежу за Фролом. Хм, хотя нет, лучше Харитона.", "shadow Харитон")
    _accepted(
        "fr", "Aldric", "Je protège Isidore. Euh, en fait plutôt Bérangère.", "guard Bérangère"
    )


def test_an_order_on_a_jailed_ru_mafia_player_is_refused() -> None:
    """Seed 004: a jailed player is out of the game; only the Jailer's orders meant for
    today's prisoner reach them."""
    status, orders = _parse("ru", "Ефросинья", "Лечу Лукерью этой ночью.")
    assert (status, orders) == ("rejected", ())
    assert _parse("ru", "Вавила", "Убиваю Лукерью.")[0] == "rejected"


def test_the_jailers_orders_on_the_prisoner_stay_accepted_or_go_to_the_gm() -> None:
    # not refused as orders on the jailed: the setup's history (``lynched``) says the vote
    # just before this night jailed Лукерья, so she is today's prisoner (without that record:
    # queued, tests/parsers/test_orders_practice_ru.py)
    _accepted("ru", "Поликарп", "Выпускаю Лукерью.", "release_jailed Лукерья")
    _accepted("ru", "Поликарп", "Проверяю посаженную Лукерью.", "check_jailed Лукерья")
    # a check for sin on a prisoner out of the game fails: «проверяю» is the check of the
    # jailed (seed 004 says "проверяет посаженного"; P2 and P6's writers label it so)
    _accepted("ru", "Поликарп", "Проверяю Лукерью.", "check_jailed Лукерья")
    _queued("ru", "Поликарп", "Проверяю на грешность Лукерью.")  # said outright: the GM's


@pytest.mark.parametrize(
    ("game", "actor", "text"),
    [
        ("en", "Fenwick", "guard Nell /s"),
        ("en", "Tilda", "Shadow Brannock. 🙄"),
        ("fr", "Théodule", "je bloque Bérangère /s"),
        ("ru", "Никанор", "охраняю Вавилу 🙄"),
    ],
)
def test_a_sarcasm_tag_or_an_eye_roll_queues(game: str, actor: str, text: str) -> None:
    _queued(game, actor, text)


def test_a_smile_is_no_sarcasm() -> None:
    _accepted("en", "Fenwick", "guard Nell 😊", "guard Nell")


@pytest.mark.parametrize(
    ("game", "actor", "text"),
    [
        ("en", "Fenwick", "Guard Nell, assuming she's still town."),
        ("en", "Tilda", "Shadow Halvard, depending on how today goes."),
        ("fr", "Aldric", "Je protège Bérangère, en supposant qu'elle dise vrai."),
        ("fr", "Théodule", "Je bloque Sévrine, ça dépend de ce que dit Isidore."),
        ("ru", "Никанор", "Охраняю Пелагею, смотря как пройдёт день."),
        ("ru", "Акулина", "Наблюдаю за Харитоном, вроде бы."),
        ("ru", "Вавила", "Убиваю Февронию при условии, что её не лечат."),
    ],
)
def test_an_order_on_a_proviso_queues(game: str, actor: str, text: str) -> None:
    _queued(game, actor, text)


def test_a_russian_provisional_order_queues_even_in_brackets() -> None:
    _queued("ru", "Никанор", "Охраняю Митрофана (предварительно).")
    _queued("ru", "Акулина", "Предварительный ход: наблюдаю за Харитоном.")
    _accepted("ru", "Никанор", "Охраняю Митрофана (это окончательно).", "guard Митрофан")


def test_i_no_longer_know_queues_in_french() -> None:
    _queued("fr", "Théodule", "Je bloque Sévrine. Je sais plus trop, en vrai.")
    _queued("fr", "Isidore", "je vérifie Lothaire... bref je ne sais plus")
    _accepted("fr", "Théodule", "Je bloque Sévrine. Bonne nuit !", "block Sévrine")
