"""Blind round G's French misses and round F's "je regarde" (issue 11): new texts, not the
corpus's, each class with a twin that must stay queued. Through the real parser and the
blind rounds' setups."""

from __future__ import annotations

import pytest

from tests.parsers.blind_games import read_as

GAMES = {
    "fh": ("failheap", "blindG_fh_fr", "night2", "fr"),
    "dr": ("durarara", "blindF_drr_fr", "night2", "fr"),
    "en": ("failheap", "blindE_fh_en", "night3", "en"),
}


def _parse(game: str, actor: str, text: str) -> tuple[str, tuple[str, ...]]:
    ruleset, setup, phase, _lang = GAMES[game]
    return read_as(ruleset, setup, phase, actor, text)


def _queued(game: str, actor: str, text: str) -> None:
    status, orders = _parse(game, actor, text)
    assert status == "ambiguous", orders


def _accepted(game: str, actor: str, text: str, *orders: str) -> None:
    assert _parse(game, actor, text) == ("accepted", orders)


@pytest.mark.parametrize(
    "text",
    [
        "J'examine le dossier et Oriane ment.",
        "Ce soir je contrôle la liste et Lison ment.",
        "Je regarde le fil et Noëlie se cache.",
    ],
)
def test_a_thing_as_object_then_and_a_player_is_no_target(text: str) -> None:
    """ "<order word> the <thing> and <player> …": the player is the next clause's subject."""
    _queued("dr", "Hermance", text)


def test_two_players_joined_by_and_are_still_read() -> None:
    _accepted("fh", "Zacharie", "Je tue Urbain cette nuit.", "mafia_kill Urbain")
    _queued("dr", "Hermance", "Je vérifie Oriane et Lison.")  # two targets for one search


@pytest.mark.parametrize(
    "text",
    [
        "cette nuit je regarde Noëlie.",
        "Lison a menti au vote, alors ce soir je regarde Oriane.",
    ],
)
def test_je_regarde_is_a_search(text: str) -> None:
    status, orders = _parse("dr", "Hermance", text)
    assert status == "accepted"
    assert orders in (("discover Noëlie",), ("discover Oriane",))


def test_je_regarde_as_chat_stays_out() -> None:
    _queued("dr", "Hermance", "Je regarde Noëlie, ou peut-être Oriane.")
    _queued("dr", "Hermance", "Je regarde Noëlie ? Je ne sais pas trop.")


def test_a_role_after_a_negation_is_no_performer() -> None:
    """ "Gratien n'était pas Irénée's role": told, not "our Bacula does it"."""
    _accepted(
        "dr", "Hermance", "Gratien n'était pas Bacula, donc je regarde Lison.", "discover Lison"
    )


@pytest.mark.parametrize(
    ("actor", "text", "order"),
    [
        (
            "Tiphaine",
            "Tout le monde s'acharne sur Valère depuis ce matin, donc je soigne Raoul.",
            "heal Raoul",
        ),
        (
            "Gildas",
            "Ludivine n'a pas défendu Sylvestre, alors je vérifie Oriol.",
            "check Oriol",
        ),
    ],
)
def test_players_in_the_reason_told_before_so_are_no_targets(
    actor: str, text: str, order: str
) -> None:
    _accepted("fh", actor, text, order)


def test_a_name_alone_before_so_stays_queued() -> None:
    """ "Valère, donc je soigne Raoul": no reason told, maybe a target or a correction; a
    player as the subject of a present remark may be the one meant."""
    _queued("fh", "Tiphaine", "Valère, donc je soigne Raoul.")
    _queued("fh", "Tiphaine", "Valère esquive toutes les questions, donc je soigne Raoul.")
    _queued("fh", "Tiphaine", "Valère ou Sylvestre, je ne sais pas, donc je soigne Raoul ?")


def test_a_line_wrapped_after_a_preposition_is_one_sentence() -> None:
    text = "Tout le monde tape sur\nValère depuis ce matin, donc je soigne Raoul."
    _accepted("fh", "Tiphaine", text, "heal Raoul")


@pytest.mark.parametrize(
    "text",
    [
        "Victime de la mafia ce soir : Sylvestre.",
        "Notre victime cette nuit : Sylvestre. Oriol s'en chargera.",
    ],
)
def test_the_mafias_victim_is_its_kill(text: str) -> None:
    _accepted("fh", "Zacharie", text, "mafia_kill Sylvestre")


@pytest.mark.parametrize(
    ("game", "actor", "text"),
    [
        ("fh", "Zacharie", "La victime était Sylvestre."),
        ("fh", "Zacharie", "Notre victime d'hier : Sylvestre."),
        ("fh", "Zacharie", "Ma cible d'hier était Sylvestre."),
        ("en", "Fenwick", "My target last night was Nell."),
        ("en", "Fenwick", "My target was Nell."),
    ],
)
def test_a_target_told_in_the_past_is_no_order(game: str, actor: str, text: str) -> None:
    _queued(game, actor, text)
