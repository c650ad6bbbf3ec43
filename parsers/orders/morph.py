"""Word keys for matching: Russian lemmas (pymorphy3), English/French Snowball stems.

A token matches a vocabulary word when their key sets meet: ``лечу`` has the lemma
``лечить``, ``protège`` and ``protéger`` share the stem ``proteg``, ``kills`` and ``killing``
share ``kill``. The analyzers are built once per process (they are read-only afterwards).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

import pymorphy3

_CYRILLIC = re.compile("[а-яё]", re.I)
# A prefix no Russian word has: the word becomes unknown and is declined by analogy.
_UNKNOWN = "ъъ"
# The first declension's singular endings, for a name pymorphy3 holds as indeclinable
# while players decline it ("Афоня" is "Fixd" there; "слежу за Афоней", "к Афоне").
_FIRST_DECLENSION = {
    "я": {"и": "gent", "е": "datv", "ю": "accs", "ей": "ablt", "ею": "ablt"},
    "а": {"ы": "gent", "е": "datv", "у": "accs", "ой": "ablt", "ою": "ablt"},
}
_HUSHING = frozenset("гкхжшщч")  # "-ка" takes "-ки", not "-кы"
_RU_VOWELS = frozenset("аеёиоуыэюяй")


# English past forms of order verbs that do not end in "-ed".
_ENGLISH_PAST = frozenset({"shot", "did", "went", "took", "gave", "made", "saw", "slew", "stole"})


def _add_cases(cases: dict[str, set[str]], lexeme: Any, prefix: str) -> None:
    for form in lexeme:
        if "plur" not in form.tag and form.tag.case:
            word = form.word.replace("ё", "е")[len(prefix) :]
            cases.setdefault(word, set()).add(str(form.tag.case))


def _add_first_declension(cases: dict[str, set[str]], norm: str) -> None:
    """The singular forms of a name in "-а"/"-я" after a consonant ("Афоня", "Кузя") that
    the analyzer leaves undeclined; "-ия" names and "Дюма"-like vowel stems are left as they are."""
    endings = _FIRST_DECLENSION.get(norm[-1:])
    if endings is None or len(norm) < 3 or norm[-2] in _RU_VOWELS or norm[-2] in "ьъ":
        return
    stem = norm[:-1]
    for ending, case in endings.items():
        if ending == "ы" and stem[-1] in _HUSHING:
            ending = "и"
        cases.setdefault(stem + ending, set()).update((case, "loct") if case == "datv" else (case,))
    cases[norm].add("nomn")


_STEM_LANGS = {"en": "english", "fr": "french"}
# Words too short to stem safely ("is" -> "is", "d" ...) keep only their surface form.
# Longer "words" (a pasted string, a URL) are kept whole: stemming them costs time.
_MAX_WORD = 40
_MIN_STEM = 3


@functools.cache
def _analyzer() -> pymorphy3.MorphAnalyzer:
    return pymorphy3.MorphAnalyzer()


def _parses(word: str) -> list[Any]:
    """pymorphy3's parses of ``word``; none for a word with a letter Unicode gives no name
    (pymorphy3 raises on it: "𗀀А" from a PM)."""
    if any(not unicodedata.name(c, "") for c in word if c.isalpha()):
        return []
    return list(_analyzer().parse(word))


@functools.cache
def _stemmer(lang: str) -> Any:
    """A Snowball stemmer, or None when ``snowballstemmer`` is not installed."""
    try:
        import snowballstemmer  # optional dependency: French/English stems
    except ImportError:  # pragma: no cover - depends on the environment
        return None
    return snowballstemmer.stemmer(_STEM_LANGS[lang])


# Russian verbs come in aspect pairs that pymorphy3 keeps apart: "проверю" is "проверить",
# "проверяю" "проверять". A player writes either whichever form the vocabulary lists; the
# pairs of the order verbs differ in "-ять"/"-ить"/"-ать" after the same root ("проверять" /
# "проверить", "заменять" / "заменить"): that root is one more key. Short roots are left
# out ("брать" / "брить").
_ASPECT_ENDINGS = ("ять", "ить", "ать")
_MIN_ASPECT_ROOT = 5


def _aspect_key(lemma: str) -> str | None:
    """The aspect key of a Russian infinitive (``проверить`` → ``≈провер``), else None."""
    if not lemma.endswith(_ASPECT_ENDINGS) or len(lemma) - 3 < _MIN_ASPECT_ROOT:
        return None
    return "≈" + lemma[:-3]


class Morph:
    """Per-parser cache of word keys for the languages a ruleset declares."""

    def __init__(self, languages: tuple[str, ...]) -> None:
        """Prepare the analyzers for ``languages`` (``en``, ``fr``, ``ru``)."""
        self._stemmers = [s for lang in languages if lang in _STEM_LANGS if (s := _stemmer(lang))]
        self._russian = "ru" in languages
        self._keys: dict[str, frozenset[str]] = {}
        self._name_lemmas: dict[str, tuple[str, ...]] = {}

    def keys(self, norm: str) -> frozenset[str]:
        """All keys of a normalized word: itself, its stems or its lemmas.

        Args:
            norm: a word from :func:`parsers.orders.text.normalize`.

        Returns:
            The key set (never empty).
        """
        cached = self._keys.get(norm)
        if cached is not None:
            return cached
        keys = {norm}
        if len(norm) > _MAX_WORD:
            return frozenset(keys)  # no word of any vocabulary is this long: not stemmed
        if _CYRILLIC.search(norm):
            keys.update(self.lemmas(norm))
        elif len(norm) >= _MIN_STEM and norm.isalpha():
            keys.update("~" + s.stemWord(norm) for s in self._stemmers)
        result = frozenset(keys)
        self._keys[norm] = result
        return result

    def lemmas(self, norm: str) -> tuple[str, ...]:
        """Russian normal forms of a word, most likely first (``Машу`` → ``маша``, ``махать``),
        then the aspect key of a verb (``≈провер`` for ``проверю`` and ``проверяю``)."""
        seen: dict[str, None] = {}
        verbs: list[str] = []
        for parse in _parses(norm):
            lemma = parse.normal_form.replace("ё", "е")
            if "COMP" in parse.tag:
                lemma = norm  # "лучше" is not "хороший": "она хорошая" is no correction
            seen.setdefault(lemma, None)
            if parse.tag.POS in ("VERB", "INFN"):
                verbs.append(lemma)
        for aspect in filter(None, map(_aspect_key, verbs)):
            seen.setdefault(aspect, None)
        return tuple(seen)

    def forms(self, norm: str) -> frozenset[str]:
        """Every inflected singular form of a Russian word (see :meth:`form_cases`)."""
        return frozenset(self.form_cases(norm))

    def form_cases(self, norm: str) -> dict[str, frozenset[str]]:
        """Every inflected form of a Russian word (a Cyrillic player name in all cases).

        Args:
            norm: a normalized single word.

        Returns:
            Form -> the grammatical cases it has (``{"тигру": {"datv"}}``), from the most
            likely noun/name parses; the word itself is there as ``nomn``.
        """
        cases: dict[str, set[str]] = {norm: {"nomn"}}
        if not self._russian or not _CYRILLIC.search(norm):
            return {norm: frozenset()}  # indeclinable here: no case to check
        for parse in _parses(norm)[:3]:
            if parse.normal_form.replace("ё", "е") == norm:
                _add_cases(cases, parse.lexeme, "")
        if len(cases) == 1:
            # Not a lemma of the dictionary ("Тигра" is only the genitive of "тигр" there):
            # let pymorphy's suffix predictor decline it as an unknown word would be.
            for parse in _parses(_UNKNOWN + norm)[:3]:
                if parse.tag.case == "nomn" and "sing" in parse.tag:
                    _add_cases(cases, parse.lexeme, _UNKNOWN)
                    break
        if len(cases) == 1:
            _add_first_declension(cases, norm)
        return {form: frozenset(c) for form, c in cases.items()}

    def is_verb(self, norm: str) -> bool:
        """True when the word's most likely reading is a verb (a transitive order verb)."""
        parses = _parses(norm)
        return bool(parses) and parses[0].tag.POS in ("VERB", "INFN")

    def is_particle(self, norm: str) -> bool:
        """True when a Russian word's most likely reading is a conjunction, particle or
        interjection ("хотя", "пожалуй"): its other readings ("хотя", a gerund of "хотеть")
        are not what a vocabulary listing it means."""
        parses = _parses(norm) if _CYRILLIC.search(norm) else []
        return bool(parses) and parses[0].tag.POS in ("CONJ", "PRCL", "INTJ")

    def is_third_singular(self, norm: str) -> bool:
        """True when the word's most likely reading is a Russian verb in the third person
        singular, not past ("стреляет", "вербует"): what another player does."""
        parses = _parses(norm) if _CYRILLIC.search(norm) else []
        tag = parses[0].tag if parses else None
        return tag is not None and tag.POS == "VERB" and tag.person == "3per" and \
            tag.number == "sing"  # fmt: skip

    def is_past(self, norm: str) -> bool:
        """True when the word reads as a verb in the past tense ("стрелял", "вербовала",
        "killed"): what someone did, not an order."""
        if _CYRILLIC.search(norm):
            parses = _parses(norm)
            return bool(parses) and parses[0].tag.POS == "VERB" and parses[0].tag.tense == "past"
        return (norm.endswith("ed") and len(norm) > 4) or norm in _ENGLISH_PAST

    def name_lemmas(self, norm: str) -> tuple[str, ...]:
        """Singular normal forms only: a plural reading never names one player."""
        cached = self._name_lemmas.get(norm)
        if cached is None:
            seen: dict[str, None] = {}
            for parse in _parses(norm):
                if "plur" not in parse.tag:
                    seen.setdefault(parse.normal_form.replace("ё", "е"), None)
            cached = self._name_lemmas[norm] = tuple(seen)
        return cached
