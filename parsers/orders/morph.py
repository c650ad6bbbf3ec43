"""Word keys for matching: Russian lemmas (pymorphy3), English/French Snowball stems.

A token matches a vocabulary word when their key sets meet: ``лечу`` has the lemma
``лечить``, ``protège`` and ``protéger`` share the stem ``proteg``, ``kills`` and ``killing``
share ``kill``. The analyzers are built once per process (they are read-only afterwards).
"""

from __future__ import annotations

import functools
import re
from typing import Any

import pymorphy3

_CYRILLIC = re.compile("[а-яё]", re.I)
# A prefix no Russian word has: the word becomes unknown and is declined by analogy.
_UNKNOWN = "ъъ"


def _singular(lexeme: Any) -> set[str]:
    return {f.word.replace("ё", "е") for f in lexeme if "plur" not in f.tag}


_STEM_LANGS = {"en": "english", "fr": "french"}
# Words too short to stem safely ("is" -> "is", "d" ...) keep only their surface form.
_MIN_STEM = 3


@functools.cache
def _analyzer() -> pymorphy3.MorphAnalyzer:
    return pymorphy3.MorphAnalyzer()


@functools.cache
def _stemmer(lang: str) -> Any:
    """A Snowball stemmer, or None when ``snowballstemmer`` is not installed."""
    try:
        import snowballstemmer  # optional dependency: French/English stems
    except ImportError:  # pragma: no cover - depends on the environment
        return None
    return snowballstemmer.stemmer(_STEM_LANGS[lang])


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
        if _CYRILLIC.search(norm):
            keys.update(self.lemmas(norm))
        elif len(norm) >= _MIN_STEM and norm.isalpha():
            keys.update("~" + s.stemWord(norm) for s in self._stemmers)
        result = frozenset(keys)
        self._keys[norm] = result
        return result

    def lemmas(self, norm: str) -> tuple[str, ...]:
        """Russian normal forms of a word, most likely first (``Машу`` → ``маша``, ``махать``)."""
        seen: dict[str, None] = {}
        for parse in _analyzer().parse(norm):
            seen.setdefault(parse.normal_form.replace("ё", "е"), None)
        return tuple(seen)

    def forms(self, norm: str) -> frozenset[str]:
        """Every inflected form of a Russian word (a Cyrillic player name in all cases).

        Args:
            norm: a normalized single word.

        Returns:
            Its forms from the most likely noun/name parses, the word itself included.
        """
        if not self._russian or not _CYRILLIC.search(norm):
            return frozenset({norm})
        forms = {norm}
        for parse in _analyzer().parse(norm)[:3]:
            if parse.normal_form.replace("ё", "е") == norm:
                forms.update(_singular(parse.lexeme))
        if len(forms) == 1:
            # Not a lemma of the dictionary ("Тигра" is only the genitive of "тигр" there):
            # let pymorphy's suffix predictor decline it as an unknown word would be.
            for parse in _analyzer().parse(_UNKNOWN + norm)[:3]:
                if parse.tag.case == "nomn" and "sing" in parse.tag:
                    forms.update(w[len(_UNKNOWN) :] for w in _singular(parse.lexeme))
                    break
        return frozenset(forms)

    def name_lemmas(self, norm: str) -> tuple[str, ...]:
        """Singular normal forms only: a plural reading never names one player."""
        cached = self._name_lemmas.get(norm)
        if cached is None:
            seen: dict[str, None] = {}
            for parse in _analyzer().parse(norm):
                if "plur" not in parse.tag:
                    seen.setdefault(parse.normal_form.replace("ё", "е"), None)
            cached = self._name_lemmas[norm] = tuple(seen)
        return cached
