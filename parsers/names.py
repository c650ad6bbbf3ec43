"""Resolve a name as a player wrote it to one roster slot, or say why it cannot be done.

Players misspell, abbreviate, drop accents, type Cyrillic look-alikes and paste invisible
characters. :class:`NameIndex` folds all of that away and then tries, in order, stopping at
the first stage that finds anything:

1. exact (after folding) against names, GM-listed aliases and previous (replaced) names;
2. unambiguous prefix of a name (at least 3 characters, or 2 for a name of 3 or 4);
3. initials of a multi-word / camelCase / snake_case name ("DK" for "dark_knight",
   "MM4" for "MarioManiac4");
4. one whole word of a multi-word name ("Om" for "Om of the Nom"; later words need 4+
   letters, and "the", "of", "Mr"... never count), or the start (3+ letters) of one such
   word ("kuz" for "th3kuzinator");
5. a unique substring of a name (at least 4 characters);
6. a typo: within a small edit distance (transpositions count as one) of exactly one name,
   of its name without a trailing number, or of one of its long words;
7. only when the index is built with ``acronyms=True`` (the vote counter's bold targets),
   what a human counter also reads, each only when exactly one slot fits: an acronym of 3-5
   letters found in order in one name, starting with its first letter ("RBT" for
   "Riceballtail"); a misspelt start of a long name ("Wickid" for "Wickedestjr", one edit
   in the first 5+ letters); three lower-case letters found together in one name ("pac" for
   "evilpacman18"); one capital letter that only one name starts with ("K" for "Kthxbye").

A stage that finds one slot gives :class:`Resolved`; a stage that finds several gives
:class:`Ambiguous` with the candidates (the GM decides; we never guess); nothing anywhere
gives :class:`Unknown`. Names that are prefixes of each other ("Ann", "Anna") and players
named like roles or verbs ("Doctor", "Kill") are fine: exact matches win at stage 1.
"""

from __future__ import annotations

import enum
import functools
import re
import string
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from confusable_homoglyphs.confusables import confusables_data
from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

__all__ = [
    "Ambiguous",
    "EntryKind",
    "MatchKind",
    "NameEntry",
    "NameIndex",
    "Resolution",
    "Resolved",
    "Unknown",
    "account_key",
    "fold",
]


class MatchKind(enum.Enum):
    """How a name was matched (the stages of the module docstring)."""

    EXACT = "exact"
    ALIAS = "alias"
    PREVIOUS = "previous"
    PREFIX = "prefix"
    INITIALS = "initials"
    WORD = "word"
    SUBSTRING = "substring"
    TYPO = "typo"
    ACRONYM = "acronym"
    PREFIX_TYPO = "prefix_typo"
    INITIAL = "initial"


class EntryKind(enum.Enum):
    """What a roster string is for its slot."""

    NAME = "name"
    ALIAS = "alias"
    PREVIOUS = "previous"


@dataclass(frozen=True, slots=True)
class NameEntry:
    """One string that names a slot.

    Attributes:
        slot: the slot id it names.
        text: the string as written in the roster.
        kind: a current name, a GM-listed alias, or a previous (replaced) name.
    """

    slot: str
    text: str
    kind: EntryKind = EntryKind.NAME


@dataclass(frozen=True, slots=True)
class Resolved:
    """The name means exactly one slot.

    Attributes:
        slot: the slot id.
        how: which stage matched.
        matched: the roster string that matched.
    """

    slot: str
    how: MatchKind
    matched: str


@dataclass(frozen=True, slots=True)
class Ambiguous:
    """The name fits several slots equally well; the GM must choose.

    Attributes:
        candidates: the slot ids, sorted.
        how: the stage at which they tied.
        reason: a sentence for the GM.
    """

    candidates: tuple[str, ...]
    how: MatchKind
    reason: str


@dataclass(frozen=True, slots=True)
class Unknown:
    """The name fits no slot.

    Attributes:
        text: the name as written.
        reason: a sentence for the GM.
    """

    text: str
    reason: str


Resolution = Resolved | Ambiguous | Unknown

# Letters that NFD does not take apart and that are no look-alikes: written out in Latin.
_TRANSLITERATIONS = {"ł": "l", "ø": "o", "ß": "ss", "æ": "ae", "œ": "oe", "ð": "d", "þ": "th"}


@functools.cache
def _lookalikes() -> dict[int, str]:
    """Letters that look like a Latin one (Unicode's confusables data, UTS #39: Cyrillic "а",
    Greek "ο", Latin alpha "ɑ", Cherokee "Ꭺ"...), by their case-folded form, to that Latin
    letter in lower case; so "Маша" typed with a Latin "a" still matches, as phpBB's own
    "clean" user names do. A letter whose lower case looks like a Latin lower-case letter
    maps to it; else one whose upper case looks like a Latin capital ("в" as "B")."""
    table: dict[int, str] = {}
    for shapes in (string.ascii_lowercase, string.ascii_uppercase):
        for shape in shapes:
            for entry in confusables_data.get(shape, ()):
                key = str(entry["c"]).casefold()
                if len(key) == 1 and not key.isascii() and unicodedata.category(key)[0] == "L":
                    table.setdefault(ord(key), shape.lower())
    table.update({ord(letter): latin for letter, latin in _TRANSLITERATIONS.items()})
    table[ord("@")] = "a"
    return table


_KEEP = re.compile(r"[^\w]|_", re.UNICODE)
_WORD_SPLIT = re.compile(
    r"[\s_\-.]+|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])"
)
_DIGITS = re.compile(r"\d+$")


@functools.lru_cache(maxsize=8192)  # pure; names repeat on every post
def fold(text: str) -> str:
    """The comparison key of a name: case, accents, look-alikes and separators folded away.

    Zero-width and other invisible (format) characters are dropped, compatibility forms
    (full-width letters, ligatures) are unified, diacritics removed, Cyrillic look-alikes
    mapped to Latin, and everything but letters and digits removed.

    Args:
        text: a name as written.

    Returns:
        The key (may be empty).

    >>> fold("  Zoé\\u200b ") == fold("zoe") == fold("ZOE")
    True
    >>> fold("Mr_Fox") == fold("mr fox")
    True
    """
    text = unicodedata.normalize("NFKC", text)
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cf", "Cc", "Zl", "Zp"))
    text = unicodedata.normalize("NFD", text.casefold())
    text = "".join(c for c in text if unicodedata.category(c) != "Mn")
    text = text.translate(_lookalikes())
    return _KEEP.sub("", text)


def account_key(text: str) -> str:
    """The key of a forum account name: who wrote a post, never folded like a vote target.

    Only Unicode normalisation (NFC), case and surrounding spaces are ignored. Look-alike
    letters, invisible and direction characters are kept, so an outsider account ``Аnn``
    (Cyrillic А), ``Ann\u200b`` or ``\u202eZed`` is never the player ``Ann`` or ``Zed``.

    Args:
        text: the account name as the forum shows it.

    Returns:
        The key.

    >>> account_key(" Ann ") == account_key("ann")
    True
    >>> account_key("\u0410nn") == account_key("Ann") or account_key("Ann\u200b") == "ann"
    False
    """
    return unicodedata.normalize("NFC", text).strip().casefold()


def _words(text: str) -> list[str]:
    """The words of a name: split at spaces, underscores, camelCase and digits."""
    return [w for w in _WORD_SPLIT.split(text.strip()) if w]


def _initials(text: str) -> set[str]:
    """Initials of a multi-word name, with and without its numbers ("MM4" and "MM")."""
    words = _words(text)
    if len(words) < 2:
        return set()
    out = {fold("".join(w if w.isdigit() else w[0] for w in words))}
    letters = [w for w in words if not w.isdigit()]
    if len(letters) >= 2:
        out.add(fold("".join(w[0] for w in letters)))
    return {i for i in out if len(i) >= 2}


_STOPWORDS = frozenset({"the", "of", "and", "a", "an", "mr", "dr", "ms", "mrs", "no", "de", "la"})


def _usable_word(key: str, position: int) -> bool:
    """A word of a name that may stand for it: the first word (2+ letters) or a long one."""
    if key.isdigit() or key in _STOPWORDS:
        return False
    return len(key) >= 2 if position == 0 else len(key) >= 4


def _acronym_of(key: str, name: str) -> bool:
    """True when ``key``'s letters can be read off ``name`` as its acronym."""
    words = [fold(w) for w in _words(name) if not w.isdigit()]
    if len(words) <= 1:
        return not any(c.isupper() for c in name[1:]) and _is_subsequence(key, fold(name))
    return _split_acronym(key, words)


def _split_acronym(key: str, words: list[str]) -> bool:
    """Can ``key`` be cut into len(words) pieces, each read in order from the start of a word?"""
    if not words:
        return not key
    if len(key) < len(words):
        return False
    for cut in range(1, len(key) - len(words) + 2):
        if _is_subsequence(key[:cut], words[0]) and _split_acronym(key[cut:], words[1:]):
            return True
    return False


def _looks_like_acronym(text: str) -> bool:
    """ "RBT" or "epm" may be acronyms; "Ace" is a word."""
    letters = text.strip()
    return letters.isalpha() and (letters.isupper() or letters.islower())


def _is_subsequence(short: str, long: str) -> bool:
    """True when ``short``'s letters appear in ``long`` in order, the first one first."""
    if not short or not long or short[0] != long[0]:
        return False
    position = 1
    for char in short[1:]:
        position = long.find(char, position) + 1
        if position == 0:
            return False
    return True


def _typo_budget(length: int) -> int:
    """How many edits a name of ``length`` folded characters may carry and still match."""
    if length <= 3:
        return 0
    if length <= 5:
        return 1
    return 2


@dataclass(frozen=True, slots=True)
class _Key:
    key: str
    entry: NameEntry


class NameIndex:
    """Names of a roster (plus any extra entries, such as "No Lynch"), ready to resolve.

    Args:
        entries: every string that names a slot.
        acronyms: also try the loose acronym stage (off by default: "kill" would otherwise
            find "Kimball"; the vote counter turns it on for bold vote targets only).
    """

    def __init__(self, entries: Iterable[NameEntry], *, acronyms: bool = False) -> None:
        self._use_acronyms = acronyms
        self._keys = tuple(_Key(fold(e.text), e) for e in entries if fold(e.text))
        self._initials = tuple(
            _Key(ini, k.entry) for k in self._keys for ini in _initials(k.entry.text)
        )
        self._words = tuple(
            _Key(key, k.entry)
            for k in self._keys
            for position, key in enumerate(fold(w) for w in _words(k.entry.text))
            if len(_words(k.entry.text)) > 1 and _usable_word(key, position)
        )
        # Typos are also matched against a name without its trailing number ("evilpacman").
        self._typo_keys = tuple(
            {(k.key, k.entry) for k in self._keys}
            | {(_DIGITS.sub("", k.key), k.entry) for k in self._keys if _DIGITS.sub("", k.key)}
            | {(w.key, w.entry) for w in self._words if len(w.key) >= 5}
        )

    @property
    def slots(self) -> frozenset[str]:
        """Every slot id the index knows."""
        return frozenset(k.entry.slot for k in self._keys)

    def resolve(self, text: str) -> Resolution:
        """Resolve ``text`` to one slot (see the module docstring for the stages).

        Args:
            text: the name as the player wrote it.

        Returns:
            Resolved, Ambiguous (with candidates) or Unknown. Never a guess.
        """
        key = fold(text)
        if not key:
            return Unknown(text, "no name given")
        stages = (
            self._exact,
            self._prefix,
            self._by_initials,
            self._by_word,
            self._substring,
            self._typo,
            self._acronym,
            self._prefix_typo,
            self._short_substring,
            self._initial,
        )
        loose = (self._prefix_typo, self._short_substring, self._initial)
        for stage in stages:
            if stage == self._acronym and not _looks_like_acronym(text):
                continue
            if stage == self._initial and not text.strip().isupper():
                continue  # "K" is a name's initial; a lone "x" is a placeholder
            if stage == self._short_substring and not text.strip().islower():
                continue  # "pac" is a piece of a name; "Ace" and "ACE" are words
            if stage in loose and not self._use_acronyms:
                break  # the loose stages are the vote counter's only
            found = stage(key)
            if found:
                return _decide(text, found)
        return Unknown(text, f"'{text}' matches no player")

    def suggest(self, text: str, limit: int = 3) -> tuple[str, ...]:
        """Slots a GM may mean by a name that did not resolve: for the queue, never applied.

        Letters in order from the start of a name ("DD" for "darkdude"), then the closest
        names by fuzzy ratio (at least 60).

        Args:
            text: the name as written.
            limit: how many slots at most.

        Returns:
            Slot ids, likeliest first (may be empty).
        """
        key = fold(text)
        if not key:
            return ()
        out: list[str] = []
        for k in self._keys:
            if len(key) >= 2 and _is_subsequence(key, k.key) and k.entry.slot not in out:
                out.append(k.entry.slot)
        scored = process.extract(
            key, [k.key for k in self._keys], scorer=fuzz.WRatio, score_cutoff=60, limit=limit * 2
        )
        for _, _, index in scored:
            slot = self._keys[index].entry.slot
            if slot not in out:
                out.append(slot)
        return tuple(out[:limit])

    def resolve_leading(self, text: str, max_words: int = 5) -> tuple[Resolution, str]:
        """Resolve a name at the start of ``text`` followed by other words.

        "Akonyl because he lied" resolves to Akonyl. Tries the longest word-prefix first and
        accepts, for the shorter ones, only exact/alias/previous matches, so trailing words
        never drag a typo match in.

        Args:
            text: the text after a vote keyword or an order verb.
            max_words: the longest name, in words, to try.

        Returns:
            The resolution and the part of ``text`` it used.
        """
        words = text.split()
        for count in range(min(len(words), max_words), 0, -1):
            head = " ".join(words[:count])
            found = self.resolve(head)
            if not isinstance(found, Unknown):
                return found, head
        return Unknown(text, f"'{text}' matches no player"), text

    # --- stages: each returns the matching entries with the stage's kind -------------------

    def _exact(self, key: str) -> list[tuple[NameEntry, MatchKind]]:
        kinds = {
            EntryKind.NAME: MatchKind.EXACT,
            EntryKind.ALIAS: MatchKind.ALIAS,
            EntryKind.PREVIOUS: MatchKind.PREVIOUS,
        }
        return [(k.entry, kinds[k.entry.kind]) for k in self._keys if k.key == key]

    def _prefix(self, key: str) -> list[tuple[NameEntry, MatchKind]]:
        return [
            (k.entry, MatchKind.PREFIX)
            for k in self._keys
            if k.key.startswith(key) and len(key) >= (2 if len(k.key) <= 4 else 3)
        ]

    def _by_initials(self, key: str) -> list[tuple[NameEntry, MatchKind]]:
        if len(key) < 2:
            return []
        return [(k.entry, MatchKind.INITIALS) for k in self._initials if k.key == key]

    def _by_word(self, key: str) -> list[tuple[NameEntry, MatchKind]]:
        whole = [(k.entry, MatchKind.WORD) for k in self._words if k.key == key]
        if whole or len(key) < 3:
            return whole
        # The start of one word of a longer name: "kuz" for "th3kuzinator".
        return [
            (k.entry, MatchKind.WORD)
            for k in self._words
            if len(k.key) >= 4 and k.key.startswith(key)
        ]

    def _acronym(self, key: str) -> list[tuple[NameEntry, MatchKind]]:
        if not self._use_acronyms or not 3 <= len(key) <= 5 or not key.isalpha():
            return []
        # Where a name shows its words ("Lady Lambdadelta", "AlmasterGM"), the letters must
        # start at its words, in order ("LLD", "AGM"; "Ace" is not "ArcAngel"); a one-word
        # name hides them, so its letters only need to come in order ("RBT": riceballtail).
        return [
            (k.entry, MatchKind.ACRONYM)
            for k in self._keys
            if len(k.key) > len(key) + 2 and _acronym_of(key, k.entry.text)
        ]

    def _prefix_typo(self, key: str) -> list[tuple[NameEntry, MatchKind]]:
        """One edit in the first letters of a longer name ("wickid" for "wickedestjr")."""
        if len(key) < 5:
            return []
        return [
            (k.entry, MatchKind.PREFIX_TYPO)
            for k in self._keys
            if len(k.key) >= len(key) + 2
            and OSA.distance(key, k.key[: len(key)], score_cutoff=1) <= 1
        ]

    def _short_substring(self, key: str) -> list[tuple[NameEntry, MatchKind]]:
        """Three letters found together in one longer name ("pac" for "evilpacman18")."""
        if len(key) != 3 or not key.isalpha():
            return []
        found = [(k.entry, MatchKind.SUBSTRING) for k in self._keys if key in k.key]
        return found if len({e.slot for e, _ in found}) == 1 else []

    def _initial(self, key: str) -> list[tuple[NameEntry, MatchKind]]:
        """One letter that only one name starts with ("K" for "Kthxbye")."""
        if len(key) != 1 or not key.isalpha():
            return []
        found = [
            (k.entry, MatchKind.INITIAL)
            for k in self._keys
            if k.key.startswith(key) and k.entry.kind is EntryKind.NAME
        ]
        return found if len({e.slot for e, _ in found}) == 1 else []

    def _substring(self, key: str) -> list[tuple[NameEntry, MatchKind]]:
        if len(key) < 4:
            return []
        return [(k.entry, MatchKind.SUBSTRING) for k in self._keys if key in k.key]

    def _typo(self, key: str) -> list[tuple[NameEntry, MatchKind]]:
        out = []
        for name_key, entry in self._typo_keys:
            budget = min(_typo_budget(len(name_key)), _typo_budget(len(key)))
            if budget and OSA.distance(key, name_key, score_cutoff=budget) <= budget:
                out.append((entry, MatchKind.TYPO))
        return out


def _decide(text: str, found: list[tuple[NameEntry, MatchKind]]) -> Resolution:
    slots = sorted({entry.slot for entry, _ in found})
    entry, how = found[0]
    if len(slots) == 1:
        return Resolved(slot=entry.slot, how=how, matched=entry.text)
    names = ", ".join(slots)
    return Ambiguous(
        candidates=tuple(slots),
        how=how,
        reason=f"'{text}' could be any of {names} ({how.value} match)",
    )
