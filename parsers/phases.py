"""Phase ids and phase references in player text: "Night 1", "N1", "ночь 2", "nuit 3", "tonight"."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from parsers.orders.grammar import ORDINALS, PREP, PREVIOUS, TONIGHT
from parsers.orders.text import normalize

_PHASE_ID = re.compile(r"^\s*(prep|[a-z]+?)\s*(\d+)?\s*$", re.I)
_SHORT = re.compile(r"^([a-zа-я]{1,2})\.?#?(\d{1,2})$", re.I)
_NUMBER = re.compile(
    r"^#?(\d{1,2})(?:st|nd|rd|th|e|er|ère|ème|eme|-?я|-?й|-?ю|-?ую|-?ой|-?ая)?$", re.I
)
# Words that may sit between a phase word and its number: "night #2", "night number 2".
_GLUE = frozenset({"#", "number", "no", "nr", "numero", "номер", "№"})

KeyFn = Callable[[str], frozenset[str]]


@dataclass(frozen=True, slots=True, order=True)
class Phase:
    """A phase of a game: its kind (``night``, ``day``, ``prep``) and number."""

    kind: str
    number: int = 0

    @property
    def id(self) -> str:
        """The canonical id: ``night2``, ``day0``, ``prep``."""
        return self.kind if self.kind == "prep" else f"{self.kind}{self.number}"

    def previous(self, kind: str, *, night_first: bool = True) -> Phase:
        """The latest phase of ``kind`` before this one.

        Args:
            kind: ``night`` or ``day``.
            night_first: True when night N comes before day N (``first: night1``).

        Returns:
            The phase ("last night" seen from day 3 is night 3 in a night-first game).
        """
        if kind == self.kind:
            number = self.number - 1
        elif (kind == "night") == night_first:
            number = self.number
        else:
            number = self.number - 1
        return Phase(kind, max(number, 0))


def parse_phase(text: str) -> Phase:
    """Parse a canonical or short phase id: ``night2``, ``N2``, ``day 0``, ``prep``.

    Args:
        text: the id as given on the command line or in a file.

    Returns:
        The phase.

    Raises:
        ValueError: for text that names no phase.
    """
    match = _PHASE_ID.match(text)
    if not match:
        raise ValueError(f"not a phase: {text!r}")
    word, number = match.group(1).lower(), match.group(2)
    kind = {"n": "night", "d": "day"}.get(word, word)
    if kind == "prep":
        return Phase("prep")
    if kind not in ("night", "day") or number is None:
        raise ValueError(f"not a phase: {text!r} (expected e.g. night2, day1, prep)")
    return Phase(kind, int(number))


@dataclass(frozen=True, slots=True)
class PhaseVocabulary:
    """How players write phase kinds, as word keys: ``{"night": {"night", "nuit", "ночь"}}``."""

    kinds: Mapping[str, frozenset[str]]
    short: Mapping[str, str]
    keyfn: KeyFn
    ordinals: Mapping[str, int]

    def kind_of(self, norm: str) -> str | None:
        """The phase kind a word names, or None."""
        keys = self.keyfn(norm)
        return next((kind for kind, words in self.kinds.items() if keys & words), None)


def build_vocabulary(words: Mapping[str, Sequence[str]], keyfn: KeyFn) -> PhaseVocabulary:
    """Build the phase vocabulary from the ruleset's ``phases.vocabulary`` (all languages).

    Args:
        words: phase kind -> written forms; one-letter forms (``n``, ``д``) become short ids.
        keyfn: the word-key function of the parser (stems/lemmas).

    Returns:
        The vocabulary used by :func:`find_phase`.
    """
    kinds: dict[str, set[str]] = {"night": set(), "day": set()}
    short: dict[str, str] = {"n": "night", "d": "day", "н": "night", "д": "day"}
    for kind, forms in words.items():
        for form in forms:
            if len(form) <= 2:
                short[form.casefold()] = kind
            else:
                kinds.setdefault(kind, set()).update(keyfn(form.casefold()))
    for kind, extra in {"night": ("night", "nuit", "ночь"), "day": ("day", "jour", "день")}.items():
        for form in extra:
            kinds[kind].update(keyfn(form))
    ordinals = {
        key: number
        for words in ORDINALS.values()
        for number, word in enumerate(words, start=1)
        for key in keyfn(word)
    }
    return PhaseVocabulary({k: frozenset(v) for k, v in kinds.items()}, short, keyfn, ordinals)


def _ordinal(norm: str, vocab: PhaseVocabulary) -> int | None:
    """The number of the first ordinal (in the vocabulary's order) a key of the word is."""
    keys = vocab.keyfn(norm)
    if vocab.ordinals.keys().isdisjoint(keys):
        return None  # most words
    return next((n for key, n in vocab.ordinals.items() if key in keys), None)


def _number(norm: str, vocab: PhaseVocabulary) -> int | None:
    match = _NUMBER.match(norm)
    return int(match.group(1)) if match else _ordinal(norm, vocab)


_Phrases = Mapping[str, tuple[tuple[str, ...], ...]]


def _words(table: Mapping[str, tuple[str, ...]]) -> _Phrases:
    """Every phrase of a grammar table as normalized words, longest first, by first word."""
    phrases = {tuple(normalize(w) for w in p.split()) for ps in table.values() for p in ps}
    by_first: dict[str, list[tuple[str, ...]]] = {}
    for words in sorted(phrases, key=len, reverse=True):
        if words:
            by_first.setdefault(words[0], []).append(words)
    return {first: tuple(group) for first, group in by_first.items()}


_TONIGHT, _PREVIOUS, _PREP = _words(TONIGHT), _words(PREVIOUS), _words(PREP)


def _phrase_at(norms: Sequence[str], i: int, phrases: _Phrases) -> int:
    """Length of the longest of ``phrases`` starting at ``i`` (0 if none)."""
    for words in phrases.get(norms[i], ()) if i < len(norms) else ():
        if tuple(norms[i : i + len(words)]) == words:
            return len(words)
    return 0


def is_previous(norms: Sequence[str], i: int) -> bool:
    """True when a "last night" / "yesterday" reference starts at token ``i``."""
    return bool(_phrase_at(norms, i, _PREVIOUS))


def find_phase(
    norms: Sequence[str], i: int, vocab: PhaseVocabulary, current: Phase
) -> tuple[Phase, int] | None:
    """Recognise a phase reference starting at token ``i``.

    Args:
        norms: the normalized words of a sentence.
        i: where to look.
        vocab: the ruleset's phase vocabulary.
        current: the phase the PM is for ("tonight" means it).

    Returns:
        ``(phase, number of tokens used)``, or None when no phase starts at ``i``.
    """
    word = norms[i]
    short = _SHORT.match(word)
    if short and short.group(1).casefold() in vocab.short:
        return Phase(vocab.short[short.group(1).casefold()], int(short.group(2))), 1
    if n := _phrase_at(norms, i, _TONIGHT):
        return current, n
    if n := _phrase_at(norms, i, _PREVIOUS):
        return current.previous("night" if "night" in norms[i + n - 1] else "day"), n
    if n := _phrase_at(norms, i, _PREP):
        return Phase("prep"), n
    kind = vocab.kind_of(word)
    if kind:
        j = i + 1
        while j < len(norms) and norms[j] in _GLUE:
            j += 1
        number = _number(norms[j], vocab) if j < len(norms) else None
        return (Phase(kind, number), j - i + 1) if number is not None else None
    number = _number(word, vocab)
    if number is not None and i + 1 < len(norms):
        kind = vocab.kind_of(norms[i + 1])
        if kind:
            return Phase(kind, number), 2
    return None
