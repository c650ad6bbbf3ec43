"""Name resolution: folding, stages, and never guessing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parsers.names import (
    Ambiguous,
    EntryKind,
    MatchKind,
    NameEntry,
    NameIndex,
    Resolved,
    Unknown,
    fold,
)

PLAYERS = [
    "Ann",
    "Anna",
    "Akonyl",
    "Маша",
    "Zoé",
    "Mr Fox",
    "dark_knight_99",
    "xX_DarkKnight_7_Xx",
    "Doctor",
    "Kill",
    "Dr Watson",
    "Kleene",
    "player_42",
    "MarioManiac4",
    "Riceballtail",
    "evilpacman18",
]


@pytest.fixture
def index() -> NameIndex:
    entries = [NameEntry(p, p) for p in PLAYERS]
    entries.append(NameEntry("Kleene", "Klee", EntryKind.ALIAS))
    entries.append(NameEntry("Akonyl", "OldAko", EntryKind.PREVIOUS))
    return NameIndex(entries, acronyms=True)


@pytest.mark.parametrize(
    ("text", "slot", "how"),
    [
        ("ann", "Ann", MatchKind.EXACT),
        ("ANNA", "Anna", MatchKind.EXACT),
        ("akonyl", "Akonyl", MatchKind.EXACT),
        ("Akonly", "Akonyl", MatchKind.TYPO),  # transposition
        ("Мaшa", "Маша", MatchKind.EXACT),  # Latin a inside Cyrillic
        ("Ма\u200bша", "Маша", MatchKind.EXACT),  # zero-width space
        ("Zoe", "Zoé", MatchKind.EXACT),
        ("ＺＯＥ", "Zoé", MatchKind.EXACT),  # full-width
        ("mr fox", "Mr Fox", MatchKind.EXACT),
        ("MrFox", "Mr Fox", MatchKind.EXACT),
        ("Klee", "Kleene", MatchKind.ALIAS),
        ("OldAko", "Akonyl", MatchKind.PREVIOUS),
        ("Doc", "Doctor", MatchKind.PREFIX),
        ("Doctor", "Doctor", MatchKind.EXACT),
        ("Kill", "Kill", MatchKind.EXACT),
        ("DK", "dark_knight_99", MatchKind.INITIALS),
        ("Watson", "Dr Watson", MatchKind.WORD),
        ("atso", "Dr Watson", MatchKind.SUBSTRING),
        ("MM4", "MarioManiac4", MatchKind.INITIALS),
        ("RBT", "Riceballtail", MatchKind.ACRONYM),
        ("evilpacman", "evilpacman18", MatchKind.PREFIX),
        ("epicpacman", "evilpacman18", MatchKind.TYPO),
        ("player 42", "player_42", MatchKind.EXACT),
        # Look-alikes from Unicode's confusables data, missed by the old hand table:
        ("ɑkonyl", "Akonyl", MatchKind.EXACT),  # Latin small alpha
        ("ᎪKONYL", "Akonyl", MatchKind.EXACT),  # Cherokee letter go
        ("Акоnуl", "Akonyl", MatchKind.EXACT),  # Cyrillic А, к, о, у
    ],
)
def test_resolves(index: NameIndex, text: str, slot: str, how: MatchKind) -> None:
    result = index.resolve(text)
    assert isinstance(result, Resolved), result
    assert (result.slot, result.how) == (slot, how)


@pytest.mark.parametrize(
    ("text", "candidates"),
    [
        ("An", ("Ann", "Anna")),
        ("knight", ("dark_knight_99", "xX_DarkKnight_7_Xx")),
    ],
)
def test_ambiguous_lists_candidates(index: NameIndex, text: str, candidates: tuple) -> None:
    result = index.resolve(text)
    assert isinstance(result, Ambiguous)
    assert result.candidates == candidates
    assert text in result.reason


@pytest.mark.parametrize("text", ["bob", "", "   ", "x", "Zorro the Great"])
def test_unknown(index: NameIndex, text: str) -> None:
    assert isinstance(index.resolve(text), Unknown)


def test_typo_close_to_two_players_is_ambiguous() -> None:
    index = NameIndex([NameEntry("Marta", "Marta"), NameEntry("Maria", "Maria")])
    result = index.resolve("Marua")
    assert isinstance(result, Ambiguous)


def test_short_names_take_no_typos() -> None:
    index = NameIndex([NameEntry("Bob", "Bob"), NameEntry("Ann", "Ann")])
    assert isinstance(index.resolve("Bub"), Unknown)


def test_resolve_leading_skips_trailing_words(index: NameIndex) -> None:
    result, used = index.resolve_leading("Akonyl because he lied")
    assert isinstance(result, Resolved) and result.slot == "Akonyl"
    assert used == "Akonyl"
    result, used = index.resolve_leading("Mr Fox please")
    assert isinstance(result, Resolved) and result.slot == "Mr Fox"


def test_fold_is_idempotent_on_examples() -> None:
    for name in PLAYERS:
        assert fold(fold(name)) == fold(name)


@given(st.text(max_size=30))
def test_resolve_never_raises(text: str) -> None:
    index = NameIndex([NameEntry(p, p) for p in PLAYERS])
    assert isinstance(index.resolve(text), Resolved | Ambiguous | Unknown)


@given(st.sampled_from(PLAYERS), st.sampled_from(["", "\u200b", "\u200d", "\ufeff"]))
def test_every_exact_name_resolves_to_itself(name: str, junk: str) -> None:
    index = NameIndex([NameEntry(p, p) for p in PLAYERS])
    result = index.resolve(junk + name.upper() + junk)
    assert isinstance(result, Resolved) and result.slot == name


def test_acronyms_follow_the_words_of_a_name() -> None:
    names = ["Lady Lambdadelta", "AlmasterGM", "ArcAngel9", "theaceofspades", "Riceballtail"]
    index = NameIndex([NameEntry(n, n) for n in names], acronyms=True)
    assert index.resolve("LLD") == Resolved(
        "Lady Lambdadelta", MatchKind.ACRONYM, "Lady Lambdadelta"
    )
    assert index.resolve("agm") == Resolved("AlmasterGM", MatchKind.ACRONYM, "AlmasterGM")
    assert isinstance(index.resolve("Ace"), Unknown)  # a word, and not ArcAngel's letters
    assert isinstance(index.resolve("ACE"), Unknown)


def test_acronyms_are_opt_in() -> None:
    entries = [NameEntry("Riceballtail", "Riceballtail"), NameEntry("Kimball", "Kimball")]
    assert isinstance(NameIndex(entries).resolve("RBT"), Unknown)
    assert isinstance(NameIndex(entries).resolve("kill"), Unknown)
    assert NameIndex(entries, acronyms=True).resolve("RBT") == Resolved(
        "Riceballtail", MatchKind.ACRONYM, "Riceballtail"
    )


def test_stopwords_never_name_a_player() -> None:
    index = NameIndex([NameEntry("Om of the Nom", "Om of the Nom"), NameEntry("Bob", "Bob")])
    assert index.resolve("Om") == Resolved("Om of the Nom", MatchKind.WORD, "Om of the Nom")
    assert isinstance(index.resolve("the"), Unknown)
    assert isinstance(index.resolve("of"), Unknown)


def test_suggestions_for_the_queue() -> None:
    names = ["darkdude", "Scumhunter", "Shattered Viewpoint", "Riceballtail"]
    index = NameIndex([NameEntry(n, n) for n in names])
    assert index.suggest("DD") == ("darkdude",)
    assert set(index.suggest("SH")) >= {"Scumhunter", "Shattered Viewpoint"}
    assert index.suggest("") == ()


def test_the_vote_counters_loose_stages_are_off_by_default() -> None:
    names = ["Wickedestjr", "evilpacman18", "Kthxbye"]
    loose = NameIndex([NameEntry(n, n) for n in names], acronyms=True)
    strict = NameIndex([NameEntry(n, n) for n in names])
    for written in ("Wickid", "pac", "K"):
        assert isinstance(loose.resolve(written), Resolved)
        assert isinstance(strict.resolve(written), Unknown), written
