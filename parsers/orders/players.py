"""Finding player names inside an order's words: exact, alias, learned, Russian case forms,
then the fuzzy stages of ``parsers.names`` for a leftover word in a target position."""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from rapidfuzz.distance import OSA

from parsers.names import Ambiguous, MatchKind, Resolved
from parsers.names import fold as _fold_name
from parsers.orders.morph import Morph
from parsers.orders.text import Token, tokenize
from parsers.roster import Roster

_CYRILLIC = re.compile("[а-яё]", re.I)
# Spellings that sound alike in French and English names ("Margaux", "Margot", "Margo"):
# rewritten in order, then doubled letters merged and a silent last letter dropped.
_SOUNDS = (
    ("eaux", "o"), ("eau", "o"), ("aux", "o"), ("au", "o"), ("ph", "f"), ("ck", "k"),
    ("qu", "k"), ("y", "i"), ("ai", "e"), ("ei", "e"),
)  # fmt: skip
_SILENT_END = re.compile(r"(?<=.{3})[tdsxe]$")

# Confidence of a name found by each way of matching (precision first: a prefix or a typo
# is a guess the GM confirms unless it is long and unique; see ``parse.ACCEPT``).
_JOINERS = re.compile(r"[_.\-]+")  # what joins the words of a one-word nickname
QUALITY: Mapping[str, float] = {
    "exact": 1.0,
    "alias": 0.99,
    "previous": 0.97,
    "learned": 0.98,
    "form": 0.96,
    "surname": 0.95,
    MatchKind.PREFIX.value: 0.9,
    MatchKind.INITIALS.value: 0.7,
    MatchKind.SUBSTRING.value: 0.7,
    MatchKind.TYPO.value: 0.8,
}

SURE_TYPO = 0.9  # a misspelt name with no rival reading (``PlayerFinder._sure_typo``)

# A name's comparison key, cached: every word of a PM is folded to look it up.
fold = functools.lru_cache(maxsize=1 << 16)(_fold_name)


@dataclass(frozen=True, slots=True)
class NameHit:
    """Player names a span of tokens may mean (several when the span is ambiguous)."""

    players: tuple[str, ...]
    length: int
    quality: float
    how: str
    written: str = ""


class PlayerFinder:
    """Names of one roster, indexed for look-up inside a PM (built once per roster)."""

    def __init__(
        self,
        roster: Roster,
        morph: Morph,
        learned: Mapping[str, str] | None = None,
        words: Collection[str] = (),
    ) -> None:
        """Index names, aliases, previous names, learned nicknames and Russian case forms;
        ``words`` are the vocabulary's and the grammar's words (a misspelt name as near to
        one of them stays a guess)."""
        self.roster = roster
        self._words = frozenset(k for w in words if len(k := fold(w)) >= 3)
        self._morph = morph
        self._index = roster.name_index()
        self._exact: dict[tuple[str, ...], dict[str, str]] = defaultdict(dict)
        self._cases: dict[tuple[str, str], frozenset[str]] = {}
        self._fuzzy: dict[str, NameHit | None] = {}
        self.longest = 1
        for slot in roster.slots:
            self._add(slot.name, slot.name, "exact", morph)
            for alias in slot.aliases:
                self._add(alias, slot.name, "alias", morph)
            for old in slot.previous:
                self._add(old, slot.name, "previous", morph)
        for written, player in (learned or {}).items():
            if player in self.players:
                self._add(written, player, "learned", morph)
        self._add_alias_rivals()
        self._firsts = frozenset(key[0] for key in self._exact)  # a name's first words
        # the first words of names of several words: a span goes on only while it is one
        self._prefixes = frozenset(key[:j] for key in self._exact for j in range(1, len(key)))
        self._may_name: dict[str, bool] = {}
        self._hits: dict[int, NameHit] = {}  # per entry of ``_exact`` (built, never changed)

    def _add_alias_rivals(self) -> None:
        """ "Ro" for Rowena with Romilly alive: a one-word alias that begins another living
        player's name is a name that fits both (the GM settles it)."""
        self._rivalled: dict[str, str] = {}
        for slot in self.roster.slots:
            for alias in slot.aliases:
                key = fold(alias)
                if " " in key or not key:
                    continue
                for other in self.roster.slots:
                    names = (fold(n).split()[0] for n in (other.name, *other.aliases) if fold(n))
                    if (
                        other.alive
                        and other.name != slot.name
                        and any(len(n) > len(key) and n.startswith(key) for n in names)
                    ):
                        self._exact[(key,)].setdefault(other.name, MatchKind.PREFIX.value)
                        self._rivalled[key] = slot.name

    def alias_owner(self, word: str) -> str | None:
        """The player whose one-word alias ``word`` is, when it also begins another
        player's name (``_add_alias_rivals``); else None."""
        return self._rivalled.get(fold(word))

    @property
    def players(self) -> frozenset[str]:
        """Every slot name."""
        return frozenset(s.name for s in self.roster.slots)

    def _add(self, text: str, player: str, how: str, morph: Morph) -> None:
        words = [t.norm for t in tokenize(text).tokens if not t.is_punct]
        if not words:
            return
        key = tuple(fold(w) for w in words)
        self._exact[key].setdefault(player, how)
        self.longest = max(self.longest, len(key))
        parts = [p for p in _JOINERS.split(words[0]) if p] if len(words) == 1 else []
        if len(parts) > 1:  # "Pyro_Pete" written "pyro pete", "Chloe.B" as "chloe b"
            self._exact[tuple(fold(p) for p in parts)].setdefault(player, "alias")
            self.longest = max(self.longest, len(parts))
        if len(words) == 1:  # a Cyrillic name in all its cases: "Машу", "Маши" -> Маша
            for form, cases in morph.form_cases(words[0]).items():
                self._exact[(fold(form),)].setdefault(player, "form" if how == "exact" else how)
                self._cases[(fold(form), player)] = cases
        elif len(words) == 2 and _CYRILLIC.search(words[0]):
            self._add_declined_pair(words, player, how, morph)
        elif len(words) >= 2 and how == "exact" and self._own_word(words[-1], player):
            self._exact[(fold(words[-1]),)].setdefault(player, "surname")  # "Onigiri"

    def _add_declined_pair(self, words: list[str], player: str, how: str, morph: Morph) -> None:
        """ "Дмитрия Соколова": a first name and a surname declined in the same case, and
        the surname alone in every case ("лечу Соколова") when no other name has it."""
        first, last = morph.form_cases(words[0]), morph.form_cases(words[1])
        for form1, cases1 in first.items():
            for form2, cases2 in last.items():
                if cases1 & cases2:
                    key = (fold(form1), fold(form2))
                    self._exact[key].setdefault(player, "form" if how == "exact" else how)
        if how == "exact" and self._own_word(words[1], player):
            self._exact[(fold(words[1]),)].setdefault(player, "surname")
            for form, cases in last.items():
                self._exact[(fold(form),)].setdefault(player, "surname")
                self._cases[(fold(form), player)] = cases

    def _own_word(self, word: str, player: str) -> bool:
        """A surname of 4+ letters that no other player's name or alias contains."""
        taken = {fold(w) for s in self.roster.slots if s.name != player
                 for n in (s.name, *s.aliases) for w in n.split()}  # fmt: skip
        return len(word) >= 4 and fold(word) not in taken

    def cases(self, norm: str, player: str) -> frozenset[str]:
        """The cases a word can be in as a form of ``player``'s name (empty: unknown)."""
        return self._cases.get((fold(norm), player), frozenset())

    def may_name(self, norm: str) -> bool:
        """False when :meth:`exact_at` finds no name at a word of this normal form (most
        words of a PM: no name starts with them; a Cyrillic word none of whose singular
        lemmas is a name). Remembered per word."""
        found = self._may_name.get(norm)
        if found is None:
            if len(self._may_name) > 50_000:
                self._may_name.clear()
            key = fold(norm)
            found = key in self._firsts or (norm.endswith("'s") and fold(norm[:-2]) in self._firsts)
            if not found and len(norm) >= 3 and _CYRILLIC.search(norm):
                found = self._by_lemma(norm, None) is not None
            self._may_name[norm] = found
        return found

    def exact_at(self, tokens: Sequence[Token], i: int) -> NameHit | None:
        """The longest exact (or alias, learned, case-form) name starting at token ``i``.

        A Cyrillic word also counts by its singular lemmas ("Олегом" → "Олег"); when it is
        a case form of two names ("Тигре": Тигр or Тигра) the hit lists both players.
        """
        hit = self._exact_span(tokens, i)
        if len(tokens[i].norm) < 3 or not _CYRILLIC.search(tokens[i].norm):
            return hit
        if hit is None or hit.length == 1:
            hit = self._by_lemma(tokens[i].norm, hit)
        return hit

    def _by_lemma(self, norm: str, hit: NameHit | None) -> NameHit | None:
        players = dict.fromkeys(hit.players if hit else ())
        for lemma in self._morph.name_lemmas(norm):
            for player, how in self._exact.get((fold(lemma),), {}).items():
                if how != "form":  # the lemma is the name itself, not another name's case
                    players.setdefault(player)
        if not players:
            return None
        if hit is not None and tuple(players) == hit.players:
            return hit
        quality = hit.quality if hit and len(players) == len(hit.players) else 0.96
        return NameHit(tuple(sorted(players)), 1, quality, "form")

    def _exact_span(self, tokens: Sequence[Token], i: int) -> NameHit | None:
        norm = tokens[i].norm
        if fold(norm) not in self._firsts and not (
            norm.endswith("'s") and fold(norm[:-2]) in self._firsts
        ):
            return None  # no name starts with this word (most words of a PM)
        longest: tuple[int, dict[str, str]] | None = None
        key: tuple[str, ...] = ()
        for size in range(1, min(self.longest, len(tokens) - i) + 1):
            token = tokens[i + size - 1]
            if token.is_punct or (key and key not in self._prefixes):
                break  # no longer name goes on with these words
            key = (*key, fold(token.norm))
            found = self._exact.get(key)
            if not found and token.norm.endswith("'s"):  # "Carl's role"
                found = self._exact.get((*key[:-1], fold(token.norm[:-2])))
            if found:
                longest = (size, found)
        if longest is None:
            return None
        size, found = longest
        hit = self._hits.get(id(found))  # the same name found again: the same (frozen) hit
        if hit is None or hit.length != size:
            best = max(QUALITY[h] for h in found.values())
            how = next(iter(found.values()))
            hit = self._hits[id(found)] = NameHit(tuple(sorted(found)), size, best, how)
        return hit

    def fuzzy(self, word: str) -> NameHit | None:
        """A prefix, initials, substring or typo match of one written word (names.py stages).

        Args:
            word: the word as written.

        Returns:
            The hit (one player, or several when ambiguous), or None.
        """
        if word not in self._fuzzy:  # a long PM repeats its words
            if len(self._fuzzy) > 50_000:
                self._fuzzy.clear()
            self._fuzzy[word] = self._fuzzy_hit(word)
        return self._fuzzy[word]

    def _fuzzy_hit(self, word: str) -> NameHit | None:
        if fold(word) in self._words:
            return None  # "than", "and", "check": a word of the language, not a name's typo
        found = self._index.resolve(word)
        if isinstance(found, Resolved):
            rivals = self._near_misses(word, found.slot)
            if rivals:  # "margo" with Margot and Margaux: the closer one is a guess
                return NameHit((found.slot, *rivals), 1, 0.5, "near-miss", word)
            quality = QUALITY.get(found.how.value, 0.7)
            if found.how is MatchKind.PREFIX and len(fold(word)) < 4:
                quality = 0.8
            if found.how is MatchKind.TYPO and self._sure_typo(word, found.slot):
                quality = SURE_TYPO
            return NameHit((found.slot,), 1, quality, found.how.value, word)
        if isinstance(found, Ambiguous):
            return NameHit(found.candidates, 1, 0.5, found.how.value, word)
        return None

    def _sure_typo(self, word: str, chosen: str) -> bool:
        """ "Perinne" for Perrine: a misspelling of a living player's name, of 5+ letters,
        one edit away (two for 7+ letters), with no other player as near (checked before)
        and no word of the vocabulary or grammar as near: read as that player."""
        slot = next((s for s in self.roster.slots if s.name == chosen), None)
        key = fold(word)
        if slot is None or not slot.alive or len(key) < 5:
            return False
        edits = min(OSA.distance(key, fold(n)) for n in (slot.name, *slot.aliases))
        if not 0 < edits <= (1 if len(key) <= 6 else 2):
            return False
        return not any(
            abs(len(other) - len(key)) <= edits
            and OSA.distance(key, other, score_cutoff=edits) <= edits
            for other in self._words
        )

    def _near_misses(self, word: str, chosen: str) -> tuple[str, ...]:
        """Other players a non-exact word is as near to: one typo away from (two for a word
        of 6+ letters), a longer name it begins, or a name that sounds the same."""
        key, sound = fold(word), _sound(word)
        budget = 1 if len(key) <= 5 else 2
        out = []
        for slot in self.roster.slots:
            if slot.name == chosen:
                continue
            for name in (slot.name, *slot.aliases):
                other = fold(name)
                if key.startswith(other):
                    continue  # "annab" is written past "Anna": it points at Annabelle
                if (
                    (len(key) >= 4 and OSA.distance(key, other) <= budget)
                    or (len(key) >= 3 and other.startswith(key))
                    or (len(sound) >= 3 and _sound(name) == sound)
                ):
                    out.append(slot.name)
                    break
        return tuple(sorted(out))


def _sound(text: str) -> str:
    """A rough sound key of a name: "Margaux", "Margot" and "margo" all give "margo"."""
    key = fold(text).replace(" ", "")
    for written, said in _SOUNDS:
        key = key.replace(written, said)
    key = re.sub(r"(.)\1+", r"\1", key)
    return _SILENT_END.sub("", key)
