"""Practice rounds P1-P3, French (issue 11): the classes behind their wrong accepts and misses,
with new texts (not the corpus's), each with a twin that must stay queued or refused. Through
the real parser and the practice rounds' setups (``fixtures/orders/setups/practice*``)."""

from __future__ import annotations

import pytest

from tests.parsers.blind_games import read_as

GAMES = {
    "dr1": ("durarara", "practice1_drr_fr", "day1"),
    "dr2": ("durarara", "practice2_drr_fr", "night2"),
    "pad": ("durarara", "practice2_drr_fr_pad", "night2"),
    "pad3": ("durarara", "practice2_drr_fr_pad", "night3"),
    "fh": ("failheap", "practice1_fh_fr", "night2"),
    "fh2": ("failheap", "practice2_fh_fr", "night2"),
    "dr3": ("durarara", "practice3_drr_fr", "night2"),
    "en": ("failheap", "practice1_fh_en", "night3"),
    "ru": ("ru_mafia", "practice1_ru", "night3"),
}


def _parse(game: str, actor: str, text: str) -> tuple[str, tuple[str, ...]]:
    ruleset, setup, phase = GAMES[game]
    return read_as(ruleset, setup, phase, actor, text)


def _status(game: str, actor: str, text: str) -> str:
    return _parse(game, actor, text)[0]


def _accepted(game: str, actor: str, text: str, *orders: str) -> None:
    assert _parse(game, actor, text) == ("accepted", orders)


# A correction refused (a dead player) must not let the order it replaced stand (p1-dr10).
@pytest.mark.parametrize(
    ("game", "actor", "text"),
    [
        ("dr1", "Anastase", "Mon vote : Oudard. Finalement non, je change, je vote Déodat."),
        ("fh", "Jehanne", "Je soigne Pépin. Non attends, plutôt Bérold."),
        ("fh", "Jehanne", "Je protège Pépin ce soir. En fait non, je protège Childebert."),
        ("en", "Zinnia", "Heal Gethin. Actually, make that Wilbur."),
        ("ru", "Аверкий", "Лечу Капитона. Хотя нет, лечу Евстигнея."),
    ],
)
def test_a_refused_correction_takes_its_order_back(game: str, actor: str, text: str) -> None:
    assert _parse(game, actor, text) == ("rejected", ())


def test_a_later_vote_refused_without_a_correction_word_is_the_gms() -> None:
    assert _status("dr1", "Anastase", "Je vote Oudard. Je vote Déodat.") == "ambiguous"
    assert _status("dr1", "Anastase", "Je vote Oudard. J'aurais voté Déodat s'il vivait.") == (
        "ambiguous"
    )


def test_a_correction_to_a_living_player_still_reads_forward() -> None:
    _accepted("fh", "Jehanne", "Je soigne Pépin. Non attends, plutôt Ansbert.", "heal Ansbert")
    _accepted("en", "Zinnia", "Heal Gethin. Actually, make that Gresham.", "heal Gresham")
    _accepted("dr1", "Anastase", "Je vote Oudard, pas Nestor.", "vote Oudard")


# A "nobody" word after the vote's player is a remark, not a vote for nobody (p1-dr13).
@pytest.mark.parametrize(
    "text",
    [
        "Je vote Oudard, il n'a aucune preuve de ce qu'il avance.",
        "Je vote Oudard, personne ne le croit depuis hier.",
        "Mon vote : Oudard. Il ne répond à personne, sans aucun argument.",
        "Je vote Oudard et personne d'autre.",
    ],
)
def test_a_nobody_word_after_the_voted_player_is_a_remark(text: str) -> None:
    _accepted("dr1", "Anastase", text, "vote Oudard")


def test_nobody_before_any_player_or_as_an_alternative() -> None:
    _accepted("dr1", "Anastase", "Je vote blanc, Oudard est innocent.", "vote nobody")
    assert _status("dr1", "Anastase", "Je vote Oudard ou personne.") == "ambiguous"
    assert _status("dr1", "Anastase", "Je vote Oudard, ou blanc, je sais pas.") == "ambiguous"


# A team's one use, one member only (Blue Squares' anti-reveal, p2-dr03).
def test_a_team_use_sent_this_night_by_another_member_is_queued() -> None:
    # practice2_drr_fr_pad: Childéric's anti-reveal of night 2 is in the history
    assert _status("pad", "Bertille", "PAD ce soir : Mathurin = Shinra") == "ambiguous"


def test_a_team_use_spent_on_an_earlier_night_is_refused() -> None:
    assert _parse("pad3", "Bertille", "PAD : Flavie = Celty") == ("rejected", ())


def test_the_same_member_resending_or_the_first_use_stands() -> None:
    _accepted("pad", "Childéric", "PAD : Flavie = Celty", "anti_reveal Flavie celty")
    _accepted("dr2", "Bertille", "PAD ce soir : Mathurin = Shinra", "anti_reveal Mathurin shinra")


# "au cas où" / "just in case" closing the order's sentence is its purpose (p2-ff09).
@pytest.mark.parametrize(
    ("game", "actor", "text", "order"),
    [
        ("fh", "Jehanne", "Je soigne Pépin ce soir, au cas où.", "heal Pépin"),
        ("fh", "Jehanne", "protection sur Ansbert, juste au cas où 🙏", "heal Ansbert"),
        ("en", "Zinnia", "Heal Gethin tonight, just in case.", "heal Gethin"),
        ("fh", "Jehanne", "Au cas où : je soigne Pépin.", "heal Pépin"),
    ],
)
def test_just_in_case_after_the_order_is_no_doubt(
    game: str, actor: str, text: str, order: str
) -> None:
    _accepted(game, actor, text, order)


@pytest.mark.parametrize(
    "text",
    [
        "Je soigne Pépin au cas où il est visé, sinon Ansbert.",
        "Je soigne Pépin, ou Ansbert au cas où.",
        "Je soigne Pépin, peut-être, au cas où.",
    ],
)
def test_a_case_with_its_own_condition_or_doubt_stays_queued(text: str) -> None:
    assert _status("fh", "Jehanne", text) == "ambiguous"


# A cross-language phrase is kept when only a later word of it is another ability's
# ("rôle" in "prends le rôle de", p2-ff10): matches start at its first word.
@pytest.mark.parametrize(
    ("game", "actor", "text", "order"),
    [
        (
            "fh2",
            "Mauricette",
            "Ce soir je prends le rôle de Leufroy, il me manque.",
            "remember Leufroy",
        ),
        ("fh2", "Ottavie", "Cette nuit, découvrir le rôle de Jovinien.", "role_check Jovinien"),
    ],
)
def test_a_phrase_sharing_a_later_word_is_read(
    game: str, actor: str, text: str, order: str
) -> None:
    _accepted(game, actor, text, order)


def test_the_phrase_on_a_living_player_or_asked_is_not_accepted() -> None:
    assert _parse("fh2", "Mauricette", "je prends le rôle de Jovinien") == ("rejected", ())
    assert _status("fh2", "Mauricette", "je prends le rôle de Leufroy ? ou j'attends ?") == (
        "ambiguous"
    )


# "Pas X." is no name-first target, and a doubt closing the order's own clause is the
# order's (pre-existing wrong accepts found while looking at p3-dr02's pronoun).
def test_a_name_then_a_clitic_in_one_sentence_is_still_read() -> None:
    _accepted("dr3", "Quiterie", "Noémie, je la sauve cette nuit.", "save Noémie")


@pytest.mark.parametrize(
    "text",
    [
        "Pas Noémie. Je la sauve.",  # the one player ruled out
        "Pas Noémie. Je sauve Yolande.",
        "Noémie est visée. Je la sauve.",  # a name in a remark: the GM's (round A/B)
        "Noémie, je la sauve ou pas.",  # the doubt in the order's own clause
        "Noémie, je la sauve, ou pas.",
    ],
)
def test_not_x_or_a_doubt_around_a_pronoun_order_stays_queued(text: str) -> None:
    assert _status("dr3", "Quiterie", text) == "ambiguous"
