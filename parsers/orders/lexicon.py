"""Per-ruleset vocabulary: ability, role, item and crime words plus the shared grammar phrases.

Every phrase is stored as a tuple of word-key sets (see ``morph.py``) and indexed by the keys
of its first word, so finding what starts at a token is a dict look-up plus a short scan.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from parsers.orders import grammar
from parsers.orders.crossvocab import ACTION_WORDS, CRIME_WORDS
from parsers.orders.morph import Morph
from parsers.orders.text import normalize, tokenize
from parsers.phases import PhaseVocabulary, build_vocabulary
from resolver.model import Ability, Ruleset

# Built-in phrase kinds and the grammar table each comes from (a table, not a ladder).
BUILTIN_KINDS: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "cancel": grammar.CANCEL,
    "question": grammar.QUESTION_START,
    "hedge": grammar.HEDGE,
    "open_choice": grammar.OPEN_CHOICE,
    "doubt": grammar.DOUBT,
    "handed": grammar.HANDED,
    "tell_me": grammar.TELL_ME,
    "negation": grammar.NEGATION,
    "alternative": grammar.ALTERNATIVE,
    "self": grammar.SELF,
    "vague": grammar.VAGUE,
    "correction": grammar.CORRECTION,
    "target": grammar.TARGET,
    "gone": grammar.GONE,
    "condition": grammar.CONDITION_START,
    "crime_link": grammar.CRIME_LINK,
    "disguise_link": grammar.DISGUISE_LINK,
    "greeting": grammar.GREETING,
    "signoff": grammar.SIGNOFF,
    "will": grammar.WILL,
    "handoff": grammar.HANDOFF,
    "vote": grammar.VOTE,
    "no_target": grammar.NO_TARGET,
    "filler": grammar.FILLER,
    "clause": grammar.CLAUSE_BREAK,
}
# Kinds that start an order (see scan.TRIGGERS).
TRIGGER_KINDS = frozenset({"ability", "vote", "cancel", "will", "handoff"})
# Kinds whose values name ruleset things (ids); the others are grammar markers.
CATALOGUE_KINDS = ("ability", "role", "item", "crime", "faction")


@dataclass(frozen=True, slots=True)
class Entry:
    """One phrase: what it means (kind + value) and its words as key sets."""

    kind: str
    value: str
    words: tuple[frozenset[str], ...]
    text: str
    norms: tuple[str, ...] = ()
    lang: str = ""  # the language the phrase was given in ("" when it has none)


@dataclass(frozen=True, slots=True)
class Match:
    """A phrase found in a sentence: the entries it may mean and how many tokens it spans."""

    entries: tuple[Entry, ...]
    length: int
    _kinds: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_kinds", frozenset(e.kind for e in self.entries))

    def values(self, kind: str) -> tuple[str, ...]:
        """The distinct values of ``kind`` this match may mean, in catalogue order."""
        return tuple(dict.fromkeys(e.value for e in self.entries if e.kind == kind))

    def kinds(self) -> frozenset[str]:
        """Every kind this match may be."""
        return self._kinds


class Lexicon:
    """The vocabulary of one ruleset in all its languages, with the shared grammar phrases."""

    def __init__(self, ruleset: Ruleset, morph: Morph | None = None) -> None:
        """Build the vocabulary of ``ruleset`` (done once per ruleset; takes milliseconds)."""
        self.ruleset = ruleset
        self.languages = tuple(ruleset.languages) or ("en",)
        self.morph = morph or Morph(("en", "fr", "ru"))
        self._index: dict[str, list[Entry]] = defaultdict(list)
        self._for_keys: dict[frozenset[str], tuple[Entry, ...]] = {}
        self._memo: dict[tuple[object, ...], Match | None] = {}
        self._false_friends: dict[int, str] | None = None
        self._short_words: frozenset[int] | None = None
        self._by_second: dict[int, tuple[tuple[Entry, ...], _SecondIndex]] = {}
        self._sizes: dict[tuple[int, frozenset[str]], tuple[tuple[Entry, ...], int]] = {}
        self._kinds_at: dict[tuple[int, frozenset[str]], tuple[tuple[Entry, ...], frozenset[str]]]
        self._kinds_at = {}
        self._friendly: dict[int, tuple[Match, bool]] = {}
        self._anchor_keys: dict[frozenset[str], frozenset[str]] = {}
        self.display: dict[tuple[str, str], str] = {}
        self.known_words: set[str] = set()
        self.ability_words: dict[str, set[str]] = {}
        self.crimes = frozenset(crimes_of(ruleset))
        self._add_catalogue(ruleset)
        # Players write in any of the three languages whatever the ruleset declares (a
        # French PM in an English-only game): its hedges and questions must be read too.
        for kind, table in BUILTIN_KINDS.items():
            for lang, phrases in table.items():
                for phrase in phrases:
                    self.add(kind, kind, phrase, lang)
        for entries in self._index.values():
            entries.sort(key=lambda e: -len(e.words))
        self.grammar_words = self._grammar_words()
        common = (w for words in grammar.COMMON_WORDS.values() for w in words)
        self.all_words = frozenset(self.known_words.union(*self.grammar_words.values(), common))
        self._only_words = {
            lang: frozenset(words - set().union(*(w for o, w in self.grammar_words.items()
                                                  if o != lang)))
            for lang, words in self.grammar_words.items()
        }  # fmt: skip
        self.phases: PhaseVocabulary = build_vocabulary(_phase_words(ruleset), self.morph.keys)
        self.phase_keys = self._phase_keys()
        self.preference_keys = self._word_keys(grammar.PREFERENCE)
        self.remark_keys = self._word_keys(grammar.REMARK)
        self.sequence_keys = self._word_keys(grammar.SEQUENCE)
        self.pronoun_keys = self._word_keys(grammar.PRONOUN)
        self.player_keys = self._word_keys(grammar.PLAYER_WORD)
        self.instead_keys = self._word_keys(grammar.INSTEAD)
        self.affirm_keys = self._word_keys(grammar.AFFIRM)
        self.pick_keys = self._word_keys(grammar.PICK)
        self.preference_or_pick_keys = self.preference_keys | self.pick_keys  # made once
        self.carry_out = self._phrase_keys(grammar.CARRY_OUT)

    def _grammar_words(self) -> dict[str, frozenset[str]]:
        """Per language, the written words of the shared grammar's phrases."""
        words: dict[str, set[str]] = defaultdict(set)
        for table in BUILTIN_KINDS.values():
            for lang, phrases in table.items():
                for phrase in phrases:
                    words[lang].update(t.norm for t in tokenize(phrase).tokens if not t.is_punct)
        return {lang: frozenset(found) for lang, found in words.items()}

    def _word_keys(self, table: grammar.Table) -> frozenset[str]:
        """The keys of a table's one-word phrases (looked up per word, not as phrases)."""
        words = (w for phrases in table.values() for p in phrases for w in p.split())
        return frozenset(k for w in words for k in self.morph.keys(normalize(w)))

    def _phrase_keys(self, table: grammar.Table) -> tuple[tuple[frozenset[str], ...], ...]:
        """A table's phrases as the key sets of their words (matched per word, in order)."""
        phrases = (p for found in table.values() for p in found)
        words = ([t.norm for t in tokenize(p).tokens if not t.is_punct] for p in phrases)
        return tuple(tuple(self.morph.keys(w) for w in found) for found in words if found)

    def phrase_at(
        self, keys: list[frozenset[str]], i: int, phrases: tuple[tuple[frozenset[str], ...], ...]
    ) -> int:
        """The length of the longest of ``phrases`` starting at token ``i`` (0: none)."""
        found = [
            len(p) for p in phrases
            if i + len(p) <= len(keys) and all(keys[i + j] & w for j, w in enumerate(p))
        ]  # fmt: skip
        return max(found, default=0)

    def _phase_keys(self) -> frozenset[str]:
        """Every word key a phase reference may start with (a fast pre-check per token)."""
        keys: set[str] = set().union(*self.phases.kinds.values(), self.phases.ordinals)
        for table in (grammar.TONIGHT, grammar.PREVIOUS, grammar.PREP):
            for phrases in table.values():
                for phrase in phrases:
                    keys |= self.morph.keys(normalize(phrase.split()[0]))
        return frozenset(keys)

    def may_start_phase(self, norm: str, keys: frozenset[str]) -> bool:
        """False when no phase reference can start at a word with these keys."""
        if keys & self.phase_keys:
            return True
        return not norm.isalpha() and any(ch.isdigit() for ch in norm)  # letters only: none

    def _entry_keys(self, kind: str, norm: str) -> frozenset[str]:
        """A phrase word's keys; a hedge's conjunction or particle ("хотя") keeps its written
        form only, so "хочу" (its lemma's verb) is no hedge."""
        if kind in SURFACE_KINDS and self.morph.is_particle(norm):
            return frozenset({norm})
        return self.morph.keys(norm)

    def add(self, kind: str, value: str, phrase: str, lang: str = "") -> None:
        """Add one phrase meaning ``value`` of ``kind`` (words keyed like player text), in
        the language ``lang`` when it has one."""
        tokens = [t for t in tokenize(phrase).tokens if not t.is_punct]
        words = tuple(self._entry_keys(kind, t.norm) for t in tokens)
        if not words:
            return
        if kind in CATALOGUE_KINDS:
            self.known_words.update(t.norm for t in tokens)
        if kind == "ability":
            self.ability_words.setdefault(value, set()).update(t.norm for t in tokens)
        entry = Entry(kind, value, words, phrase, tuple(t.norm for t in tokens), lang)
        self._for_keys.clear()
        self._memo.clear()
        self._by_second.clear()
        self._sizes.clear()
        self._kinds_at.clear()
        self._friendly.clear()
        self._false_friends = None
        self._short_words = None
        self._anchor_keys.clear()
        for key in words[0]:
            self._index[key].append(entry)

    def _add_catalogue(self, ruleset: Ruleset) -> None:
        for ability in ruleset.abilities.values():
            self._add_thing("ability", ability.id, ability.name, ability.vocabulary)
        for role in ruleset.roles.values():
            self._add_thing("role", role.id, role.name, role.vocabulary)
        for item in ruleset.items.values():
            self._add_thing("item", item.id, item.name, item.vocabulary)
        for faction in ruleset.factions.values():
            self._add_thing("faction", faction.id, faction.name, {})
        for crime, words in crimes_of(ruleset).items():
            for word in words:
                self.add("crime", crime, word)
            found = ruleset.abilities.get(crime)
            own = {*found.vocabulary, *found.name} if found is not None else set()
            for lang, phrases in CRIME_WORDS.get(crime, {}).items():
                for phrase in phrases if lang not in own else ():
                    self.add("crime", crime, phrase)  # "pour le meurtre de Mori"
        self._add_action_words(ruleset)  # before the effect words: the more precise reading
        self._add_effect_words(ruleset)

    def _add_action_words(self, ruleset: Ruleset) -> None:
        """``crossvocab.ACTION_WORDS`` of each ability, in the languages its own
        vocabulary lacks; a phrase whose first word another ability of the ruleset already
        uses is left out (a later word shared, "rôle" in "prends le rôle de", is not: a match
        starts at the first word)."""
        keys = {a: {k for w in words for k in self.morph.keys(w)}
                for a, words in self.ability_words.items()}  # fmt: skip
        for ability in ruleset.abilities.values():
            table = ACTION_WORDS.get(ability.id)
            if table is None or ability.passive:
                continue
            own = {*ability.vocabulary, *ability.name}
            others = set().union(*(k for a, k in keys.items() if a != ability.id))
            for lang, phrases in table.items():
                for phrase in phrases if lang not in own else ():
                    words = [t.norm for t in tokenize(phrase).tokens if not t.is_punct]
                    if not self.morph.keys(words[0]) & others:
                        self.add("ability", ability.id, phrase, lang)

    def _add_effect_words(self, ruleset: Ruleset) -> None:
        """``grammar.EFFECT_WORDS`` for the abilities of each effect, where no ability of
        the ruleset already uses the phrase (its own vocabulary stays the only reading)."""
        taken = {k for words in self.ability_words.values() for w in words
                 for k in self.morph.keys(w)}  # fmt: skip
        for effect, table in grammar.EFFECT_WORDS.items():
            ids = [a.id for a in ruleset.abilities.values()
                   if effect_of(a) == effect and not a.passive]  # fmt: skip
            for lang, phrases in table.items():
                for phrase in phrases:
                    words = [t.norm for t in tokenize(phrase).tokens if not t.is_punct]
                    if any(self.morph.keys(w) & taken for w in words):
                        continue  # a word the ruleset's own vocabulary already has
                    for ability_id in ids:
                        self.add("ability", ability_id, phrase, lang)

    def _add_thing(
        self, kind: str, value: str, name: Mapping[str, Any], vocab: Mapping[str, Any]
    ) -> None:
        self.add(kind, value, value.replace("_", " "))
        for lang, text in name.items():
            for phrase in _strings(text):
                self.add(kind, value, phrase, str(lang))
                self.display.setdefault((kind, value), phrase)
                self.display.setdefault((f"{kind}:{lang}", value), phrase)
        for lang, phrases in vocab.items():
            for phrase in _strings(phrases):
                self.add(kind, value, phrase, str(lang))
        if kind == "role":  # "Вербовщица", "Докторша": the feminine forms of the role
            russian = [*_strings(name.get("ru")), *_strings(vocab.get("ru"))]
            for phrase in dict.fromkeys(feminine_ru(p) for p in russian):
                if phrase not in russian:
                    self.add(kind, value, phrase, "ru")

    def match_at(
        self,
        keys: list[frozenset[str]],
        i: int,
        norms: list[str] | None = None,
        prefer: frozenset[str] | None = None,
        avoid: frozenset[str] | None = None,
        longest: int = 99,
    ) -> Match | None:
        """The longest phrase(s) starting at token ``i``; written forms beat stems/lemmas.

        Args:
            keys: the key sets of a sentence's tokens.
            i: the start token.
            norms: the tokens' normal forms (to prefer "costumes" over "costume").
            prefer: the sender's abilities: when one of them matches here, other abilities'
                phrases are set aside, even longer ones ("слежу" for a villager, not the
                journalist's "слежу за").
            avoid: the sender's abilities unusable now: their phrases give way to another
                order word at the same place ("je vote pour" is a Day 0 mayor vote, on
                Day 2 the lynch vote "je vote").
            longest: ignore phrases longer than this many words.

        Returns:
            A match, or None when no phrase starts there.
        """
        entries = self._entries_for(keys[i])
        if not entries:
            return None  # most words of a PM start no phrase
        memo: tuple[object, ...]
        if len(entries[0].words) > 1:  # a longer phrase may start here: look at what follows
            # the answer depends on the words the phrases that may start here could cover
            size = self._window(entries, keys, i)
            window = (tuple(keys[i : i + size]), tuple(norms[i : i + size]) if norms else None)
            memo = (window, prefer, avoid, longest)
        else:
            memo = (keys[i], norms[i] if norms else None, prefer, avoid, longest)
        try:
            return self._memo[memo]  # the same words decide the same way
        except KeyError:
            if len(self._memo) > _MEMO_SIZE:
                self._memo.clear()
            found = self._memo[memo] = self._match(entries, keys, i, norms, prefer, avoid, longest)
            return found

    def _window(self, entries: tuple[Entry, ...], keys: list[frozenset[str]], i: int) -> int:
        """How many words from ``i`` the phrases that may start there could cover (the
        candidates depend on the next word only: remembered per next word)."""
        if i + 1 >= len(keys):
            return max((len(e.words) for e in self._candidates(entries, keys, i)), default=1)
        key = (id(entries), keys[i + 1])
        held = self._sizes.get(key)
        if held is None or held[0] is not entries:  # keyed by identity: hashing is slow
            if len(self._sizes) > _MEMO_SIZE:
                self._sizes.clear()
            size = max((len(e.words) for e in self._candidates(entries, keys, i)), default=1)
            held = self._sizes[key] = (entries, size)
        return held[1]

    def kinds_at(self, keys: list[frozenset[str]], i: int) -> frozenset[str]:
        """Every kind a phrase starting at token ``i`` may have, from the first two words
        only (the candidates :meth:`match_at` picks from; empty when none starts there): a
        match there has no other kind, so a kind missing here needs no look-up. Remembered
        per first word's phrases and next word."""
        entries = self._entries_for(keys[i])
        if not entries:
            return frozenset()
        key = (id(entries), keys[i + 1] if i + 1 < len(keys) else frozenset({"\x00end"}))
        held = self._kinds_at.get(key)
        if held is None or held[0] is not entries:  # keyed by identity: hashing is slow
            if len(self._kinds_at) > _MEMO_SIZE:
                self._kinds_at.clear()
            kinds = frozenset(e.kind for e in self._candidates(entries, keys, i))
            held = self._kinds_at[key] = (entries, kinds)
        return held[1]

    def abilities_split(
        self, keys: list[frozenset[str]], texts: list[str], abilities: frozenset[str]
    ) -> frozenset[str]:
        """The abilities among ``abilities`` whose phrase of several words the sentence
        holds with a pronoun or a name inside it ("stake him out", "back Ann up"), which no
        phrase look-up sees."""
        found: set[str] = set()
        for i, keyset in enumerate(keys[:-2]):
            inside = keys[i + 1] & self.pronoun_keys or texts[i + 1][:1].isupper()
            if not inside:
                continue
            for entry in self._entries_for(keyset):
                rest = entry.words[1:]
                if (
                    entry.kind == "ability"
                    and entry.value in abilities - found
                    and rest
                    and i + 2 + len(rest) <= len(keys)
                    and all(keys[i + 2 + j] & words for j, words in enumerate(rest))
                ):
                    found.add(entry.value)
        return frozenset(found)

    def anchor_keys(self, kinds: frozenset[str]) -> frozenset[str]:
        """The keys of the longest word of every phrase of one of ``kinds`` (a pre-check
        per sentence: a sentence with no word having one of them holds no such phrase,
        and the longest word of a phrase is rarely a common one)."""
        found = self._anchor_keys.get(kinds)
        if found is None:
            keys: set[str] = set()
            for entries in self._index.values():
                for entry in entries:
                    if entry.kind in kinds:
                        sizes = [len(norm) for norm in entry.norms] or [0]
                        keys |= entry.words[sizes.index(max(sizes))]
            found = self._anchor_keys[kinds] = frozenset(keys)
        return found

    def short_grammar_word(self, entry: Entry) -> bool:
        """Whether ``entry`` is a one-word ability phrase of at most two letters that is
        also a word of its own language's grammar (DCTP's "so" for stake-out, "is")."""
        if self._short_words is None:
            entries = {id(e): e for es in self._index.values() for e in es}.values()
            self._short_words = frozenset(
                id(e) for e in entries
                if e.kind == "ability" and len(e.norms) == 1 and len(e.norms[0]) <= 2
                and e.norms[0] in self.grammar_words.get(e.lang, ())
            )  # fmt: skip
        return id(entry) in self._short_words

    def has_false_friend(self, match: Match) -> bool:
        """Whether an entry of ``match`` is a :meth:`false_friend` (remembered per match:
        the look-ups give the same match objects for the same words)."""
        held = self._friendly.get(id(match))
        if held is None or held[0] is not match:
            if len(self._friendly) > _MEMO_SIZE:
                self._friendly.clear()
            found = any(self.false_friend(e) for e in match.entries)
            held = self._friendly[id(match)] = (match, found)
        return held[1]

    def false_friend(self, entry: Entry) -> str | None:
        """The language in which the one word of an ability phrase given in one language
        only is a common word of the grammar ("pour", English for douse, is French "for"):
        in a sentence of that language it is not this order word. None for other entries."""
        if self._false_friends is None:
            self._false_friends = self._find_false_friends()
        return self._false_friends.get(id(entry))

    def _find_false_friends(self) -> dict[int, str]:
        entries = {id(e): e for es in self._index.values() for e in es}.values()
        langs: dict[tuple[str, str, str], set[str]] = defaultdict(set)
        for entry in entries:
            for norm in entry.norms:
                langs[(entry.kind, entry.value, norm)].add(entry.lang)
        found: dict[int, str] = {}
        for entry in entries:
            if entry.kind != "ability" or len(entry.norms) != 1 or not entry.lang:
                continue
            given = langs[(entry.kind, entry.value, entry.norms[0])]
            other = [lang for lang, words in self.grammar_words.items()
                     if lang not in given and entry.norms[0] in words]  # fmt: skip
            if "" not in given and len(other) == 1:
                found[id(entry)] = other[0]
        return found

    def sentence_language(self, norms: list[str]) -> str | None:
        """The language of a sentence when its words say so clearly: at least two words
        only that language's grammar has, none only another's; else None."""
        counts = {lang: sum(n in only for n in norms) for lang, only in self._only_words.items()}
        clear = [lang for lang, count in counts.items() if count >= 2]
        if len(clear) != 1 or any(c for lang, c in counts.items() if lang != clear[0]):
            return None
        return clear[0]

    def split_entries(self, keyset: frozenset[str]) -> tuple[Entry, ...]:
        """The ability phrases of two or more words starting with a word of these keys."""
        return tuple(
            e for e in self._entries_for(keyset) if e.kind == "ability" and len(e.words) > 1
        )

    def starts_phrase(self, keyset: frozenset[str]) -> bool:
        """Whether any phrase starts with a word of these keys."""
        return bool(self._entries_for(keyset))

    def phrases_from(self, keyset: frozenset[str]) -> tuple[Entry, ...]:
        """Every phrase whose first word has one of these keys, longest first."""
        return self._entries_for(keyset)

    def _entries_for(self, keyset: frozenset[str]) -> tuple[Entry, ...]:
        """Every phrase whose first word has one of these keys, longest first."""
        found = self._for_keys.get(keyset)
        if found is None:
            unique = {id(e): e for key in keyset for e in self._index.get(key, ())}
            found = tuple(sorted(unique.values(), key=lambda e: -len(e.words)))
            self._for_keys[keyset] = found
        return found

    def _candidates(
        self, entries: tuple[Entry, ...], keys: list[frozenset[str]], i: int
    ) -> Iterable[Entry]:
        """The entries among ``entries`` (those starting at token ``i``) of one word or
        whose second word the next token has, in their order (longest first): a common
        first word ("je", "i") starts hundreds of phrases, few go on with the next word."""
        if i + 1 >= len(keys):
            return [e for e in entries if len(e.words) == 1]
        held = self._by_second.get(id(entries))
        if held is None or held[0] is not entries:  # keyed by identity: hashing is slow
            held = self._by_second[id(entries)] = (entries, _second_word_index(entries))
        singles, second = held[1]
        if not keys[i + 1] & second.keys():
            return [entries[p] for p in singles]
        picked = set(singles).union(*(second.get(k, ()) for k in keys[i + 1]))
        return [entries[p] for p in sorted(picked)]

    def _match(
        self,
        entries: tuple[Entry, ...],
        keys: list[frozenset[str]],
        i: int,
        norms: list[str] | None,
        prefer: frozenset[str] | None,
        avoid: frozenset[str] | None,
        longest: int,
    ) -> Match | None:
        left = len(keys) - i
        found = [
            e for e in self._candidates(entries, keys, i)
            if (size := len(e.words)) <= left and size <= longest
            and all(keys[i + j] & e.words[j] for j in range(1, size))
        ]  # fmt: skip
        if prefer and any(e.kind == "ability" and e.value in prefer for e in found):
            found = [e for e in found if e.kind != "ability" or e.value in prefer]
        elif avoid:
            kept = [e for e in found if e.kind != "ability" or e.value not in avoid]
            if any(e.kind in TRIGGER_KINDS for e in kept):
                found = kept
        if norms:
            found = [e for e in found if not _bare_stem(e, norms, i)]
        if not found:
            return None
        best = max(len(e.words) for e in found)
        found = [e for e in found if len(e.words) == best]
        if norms and len(found) > 1:
            found = _most_exact(found, norms[i:])
        return Match(tuple(found), best)

    def name(self, kind: str, value: str) -> str:
        """The display name of a catalogue thing (``ability``, ``special_investigate``)."""
        return self.display.get((kind, value), value.replace("_", " "))


_MEMO_SIZE = 50_000  # one-word look-ups kept per parser
# Positions of one-word entries, and per key of a second word the positions of the
# entries whose second word has it.
_SecondIndex = tuple[tuple[int, ...], dict[str, tuple[int, ...]]]


def _second_word_index(entries: tuple[Entry, ...]) -> _SecondIndex:
    singles = tuple(p for p, e in enumerate(entries) if len(e.words) == 1)
    second: dict[str, list[int]] = defaultdict(list)
    for p, entry in enumerate(entries):
        for key in entry.words[1] if len(entry.words) > 1 else ():
            second[key].append(p)
    return singles, {k: tuple(v) for k, v in second.items()}


def effect_of(ability: Ability) -> str:
    """The effect an ability has for the words players use: its primitive, or what its
    parameters say when a hook carries it out (a ``question`` asked: an investigation)."""
    effect = str(ability.effect)
    if effect in grammar.EFFECT_WORDS:
        return effect
    params = ability.effect_params
    if "question" in params or "reveals" in params:
        return "investigate"
    if "method" in params or params.get("attack"):
        return "attack"
    return effect


# Kinds whose words are read by their written form when a much shorter word is their stem
# (and the only kinds :func:`refused` may refuse).
SURFACE_KINDS = frozenset({"hedge", "doubt"})
_STEM_GAP = 3  # "kidding" (7 letters) is not "kid" (3), its Snowball stem


def _bare_stem(entry: Entry, norms: list[str], i: int) -> bool:
    """ "the kid is getting too close": a hedge or doubt word ("kidding") met only through
    its stem by a much shorter word that is that stem ("kid", a noun) is another word."""
    if entry.kind not in SURFACE_KINDS:
        return False
    for j, written in enumerate(entry.norms):
        token = norms[i + j] if i + j < len(norms) else ""
        if token != written and len(written) - len(token) >= _STEM_GAP:
            return True
    return False


# Words before an inflected doubt word that refuse it ("no more waiting", "done waiting").
_REFUSE_BEFORE = frozenset({"no", "not", "done", "stop", "without", "longer"})


def refused(entry: Entry, norms: list[str], i: int) -> bool:
    """ "He checked suspicious, no more waiting": a hedge or doubt word in an inflected form
    ("waiting", not the written "wait") right after a refusing word is the player deciding;
    the written word stays a doubt ("no wait", "not kidding")."""
    if entry.kind not in SURFACE_KINDS or i == 0 or norms[i] == entry.norms[0]:
        return False
    before = norms[i - 2 : i] if norms[i - 1] == "more" else norms[i - 1 : i]
    return bool(before) and before[0] in _REFUSE_BEFORE


def _most_exact(found: list[Entry], surface: list[str]) -> list[Entry]:
    """Per kind, keep the entries whose words match the written forms most often."""
    exact = {id(e): sum(a == b for a, b in zip(e.norms, surface, strict=False)) for e in found}
    top: dict[str, int] = {}
    for entry in found:
        top[entry.kind] = max(top.get(entry.kind, 0), exact[id(entry)])
    return [e for e in found if exact[id(e)] == top[e.kind]]


def feminine_ru(phrase: str) -> str:
    """A Russian role phrase in its feminine form ("вербовщик мафии" → "вербовщица мафии",
    "мирный житель" → "мирная жительница"; ``grammar.FEMININE_RU``); words no ending fits
    stay as written."""
    words = []
    for word in phrase.split():
        low = word.casefold()
        ending = next((e for e in grammar.FEMININE_RU if low.endswith(e[0])), None)
        if ending is None or len(low) < 3:
            words.append(word)
        else:
            words.append(word[: len(word) - len(ending[0])] + ending[1])
    return " ".join(words)


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Iterable):
        return tuple(str(v) for v in value)
    return ()


def _phase_words(ruleset: Ruleset) -> dict[str, list[str]]:
    words: dict[str, list[str]] = defaultdict(list)
    for kind, per_lang in ruleset.phases.vocabulary.items():
        for forms in per_lang.values():
            words[kind].extend(_strings(forms))
    return words


def crimes_of(ruleset: Ruleset) -> dict[str, list[str]]:
    """Crime id -> the words for it: a ``crimes`` table if the ruleset has one, else the
    abilities tagged ``crime`` (none: the ruleset has no arrests for crimes).

    Args:
        ruleset: the loaded ruleset.

    Returns:
        The crime vocabulary (an ability's own words name the crime of using it).
    """
    extra = getattr(ruleset, "extra", None)  # a loader that keeps a "crimes" table
    declared = extra.get("crimes") if extra else None
    ids: list[str]
    if isinstance(declared, Mapping):
        ids = list(declared)
    elif isinstance(declared, list | tuple):
        ids = [str(c) for c in declared]
    else:
        ids = [a.id for a in ruleset.abilities.values() if "crime" in a.tags]
    out: dict[str, list[str]] = {}
    for crime in ids:
        words = [crime.replace("_", " ")]
        ability = ruleset.abilities.get(crime)
        if ability is not None:
            for forms in (*ability.name.values(), *ability.vocabulary.values()):
                words.extend(_strings(forms))
        if isinstance(declared, Mapping) and isinstance(declared[crime], Mapping):
            for forms in declared[crime].get("vocabulary", {}).values():
                words.extend(_strings(forms))
        out[crime] = words
    return out
