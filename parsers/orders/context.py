"""What the parser knows while reading one PM: vocabulary, names, the actor and the phase."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from parsers.orders.lexicon import SURFACE_KINDS, Entry, Lexicon, Match, refused
from parsers.orders.players import NameHit, PlayerFinder
from parsers.orders.text import Sentence
from parsers.phases import Phase, find_phase


@dataclass(frozen=True, slots=True)
class Context:
    """The fixed inputs of one parse.

    Attributes:
        lexicon: the ruleset's vocabulary.
        players: names of the roster.
        actor: the sender's slot name.
        phase: the phase the orders are for.
        abilities: ability ids the actor may order (role, items, faction), None if unknown.
        learned_abilities: written form -> ability id, taught by the GM.
        night_first: night N comes before day N in this ruleset.
        combos_unknown: the ruleset says neither how many actions a player gives a phase
            (``actions_per_phase``) nor which may not be combined (``exclusive_with``), and
            the sender is no clan head: two different orders in one PM go to the GM.
        words: per normal form of a word, what :meth:`Reading.of` needs of it, filled as
            the PM is read (it depends only on the lexicon, the players and the learned
            abilities, which the contexts made from this one keep).
    """

    lexicon: Lexicon
    players: PlayerFinder
    actor: str
    phase: Phase
    abilities: frozenset[str] | None
    learned_abilities: Mapping[str, str] = field(default_factory=dict)
    usable: frozenset[str] = frozenset()
    role: str | None = None
    night_first: bool = True
    one_action: bool = False
    exclusive: tuple[frozenset[str], ...] = ()
    combos_unknown: bool = False
    words: dict[str, _WordFacts] = field(default_factory=dict, compare=False, repr=False)


_UNSET = object()  # a look-up not made yet
# A word's keys, then for its name, phase and phrase look-ups _UNSET (to be made) or None
# (none can start at this word).
_WordFacts = tuple[frozenset[str], object, object, object]


def _facts(ctx: Context, norm: str) -> _WordFacts:
    """What :meth:`Reading.of` needs of a word, worked out once per parse (``ctx.words``)."""
    lexicon = ctx.lexicon
    keys = lexicon.morph.keys(norm)
    name = _UNSET if ctx.players.may_name(norm) else None
    phase = _UNSET if lexicon.may_start_phase(norm, keys) else None
    # a learned misspelling may be at any word
    match = _UNSET if ctx.learned_abilities or lexicon.starts_phrase(keys) else None
    found = ctx.words[norm] = (keys, name, phase, match)
    return found


def _role_over_other_ability(found: Match, abilities: frozenset[str]) -> Match:
    """ "Paranoid sounds fun": a word that names a role and is also the order word of an
    ability the sender does not have is the role, not another role's order."""
    kinds = found.kinds()
    if "role" not in kinds or "ability" not in kinds:
        return found
    if any(e.kind == "ability" and e.value in abilities for e in found.entries):
        return found
    return Match(tuple(e for e in found.entries if e.kind != "ability"), found.length)


_PREFERENCES: dict[tuple[frozenset[str] | None, frozenset[str]], tuple[frozenset[str], ...]] = {}


def _preferences(ctx: Context) -> tuple[frozenset[str], frozenset[str] | None]:
    """The sender's abilities unusable now (their phrases give way) and those usable
    (None when the abilities are unknown), made once per pair of sets."""
    key = (ctx.abilities, ctx.usable)
    if key not in _PREFERENCES:
        if len(_PREFERENCES) > 1024:
            _PREFERENCES.clear()
        _PREFERENCES[key] = ((ctx.abilities or frozenset()) - ctx.usable, ctx.usable)
    avoid, usable = _PREFERENCES[key]
    return avoid, usable if ctx.abilities is not None else None


_ARTICLES = frozenset({"the", "a", "an"})


@dataclass(slots=True)
class Reading:
    """A sentence with its word keys and per-token look-ups computed once."""

    sentence: Sentence
    keys: list[frozenset[str]]
    norms: list[str]
    phases: list[object] = field(default_factory=list)

    matches: list[object] = field(default_factory=list)
    names: list[object] = field(default_factory=list)
    holds: dict[frozenset[str], bool] = field(default_factory=dict)
    language: object = _UNSET  # the sentence's language, once looked at (None: unclear)
    every_key: frozenset[str] | None = None  # the keys of all its words, once needed
    all_names: list[NameHit] | None = None  # the names at every word, once needed
    first_named: int | None = None  # the index of the first name, once needed

    @classmethod
    def of(cls, sentence: Sentence, ctx: Context) -> Reading:
        """Compute keys and normal forms of every token. The look-ups (phrase, name,
        phase) are made when first asked, except at the words where none can start (most
        words of a long PM): those are None at once, from per-word tables."""
        norms = [t.norm for t in sentence.tokens]
        table = ctx.words
        facts = [table.get(n) or _facts(ctx, n) for n in norms]
        if not facts:
            return cls(sentence, [], norms, [], [], [])
        keys, names, phases, matches = map(list, zip(*facts, strict=True))
        return cls(sentence, keys, norms, phases, matches, names)

    def match(self, ctx: Context, i: int) -> Match | None:
        """The vocabulary phrase at token ``i`` (learned misspellings included)."""
        if not 0 <= i < len(self.keys):
            return None
        found = self.matches[i]
        if found is _UNSET:
            found = self.matches[i] = self._match(ctx, i)
        return found  # type: ignore[return-value]

    def may_start(self, ctx: Context, i: int, kinds: frozenset[str]) -> bool:
        """False when no phrase of ``kinds`` can start at token ``i`` (``Lexicon.kinds_at``;
        a learned misspelling is an ability phrase anywhere): a pre-check that spares the
        look-up of :meth:`match`, whose answer is the same."""
        found = self.matches[i]
        if found is None:
            return False
        if found is not _UNSET:
            return not kinds.isdisjoint(found.kinds())  # type: ignore[attr-defined]
        if ctx.learned_abilities:
            return True
        return not kinds.isdisjoint(ctx.lexicon.kinds_at(self.keys, i))

    def _match(self, ctx: Context, i: int) -> Match | None:
        if not ctx.lexicon.starts_phrase(self.keys[i]) and not ctx.learned_abilities:
            return None  # most words of a PM start no phrase
        avoid, prefer = _preferences(ctx)
        found = ctx.lexicon.match_at(self.keys, i, self.norms, prefer, avoid)
        if found and found.length > 1 and avoid & set(found.values("ability")):
            # "je tranche Manon" at night: the Ripper's "tranche" (charm) inside the day's
            # "je tranche" (tie break) wins; the shorter reading at ``i`` stands.
            inner = [ctx.lexicon.match_at(self.keys, j, self.norms, prefer)
                     for j in range(i + 1, i + found.length)]  # fmt: skip
            if any(m and set(m.values("ability")) & (prefer or set()) for m in inner):
                found = ctx.lexicon.match_at(self.keys, i, self.norms, prefer, avoid, 1)
        if found is not None and found.length == 1:
            found = self._without_false_friends(ctx, found)
        if found is not None and found.length == 1:
            found = self._without_small_words(ctx, i, found)
        surface = found is not None and not SURFACE_KINDS.isdisjoint(found.kinds())
        if found is not None and surface and any(refused(e, self.norms, i) for e in found.entries):
            kept = tuple(e for e in found.entries if not refused(e, self.norms, i))
            found = Match(kept, found.length) if kept else None  # "no more waiting": decided
        if found is not None and ctx.abilities is not None:
            found = _role_over_other_ability(found, ctx.abilities)
        if found is not None and self._opens_own_phrase(ctx, i, found):
            kept = tuple(e for e in found.entries if e.kind != "ability")
            found = Match(kept, found.length) if kept else None
        learned = ctx.learned_abilities.get(self.norms[i])
        if learned and (found is None or "ability" not in found.kinds()):
            entry = Entry("ability", learned, (self.keys[i],), self.norms[i])
            return Match((entry,), 1)
        return found

    def _opens_own_phrase(self, ctx: Context, i: int, found: Match) -> bool:
        """ "Запираю Назара на карантин" from the nurse: a word that is only another role's
        order word ("запираю", the house spirit's block) but opens one of the sender's own
        phrases ("запираю на карантин") whose rest follows after one to three words (the
        player) is the sender's order split by its target: the word is set aside and the
        rest ("на карантин") carries the order."""
        mine = ctx.abilities or frozenset()
        if found.length != 1 or "ability" not in found.kinds():
            return False
        theirs = set(found.values("ability"))
        if not theirs or theirs & mine:
            return False
        return any(
            e.kind == "ability" and e.value in mine and self._follows(e.words[1:], i + 2)
            for e in ctx.lexicon.phrases_from(self.keys[i])
            if len(e.words) > 1
        )

    def _follows(self, words: tuple[frozenset[str], ...], start: int) -> bool:
        """Whether ``words`` stand in a row starting one to three tokens after ``start - 1``."""
        for j in range(start, start + 3):
            if j + len(words) > len(self.keys):
                return False
            if all(self.keys[j + k] & w for k, w in enumerate(words)):
                return True
        return False

    def _without_small_words(self, ctx: Context, i: int, found: Match) -> Match | None:
        """ "so I vote Keturah", "The town is going to lynch him": a one-word order phrase of
        at most two letters that is also a word of its own language's grammar (DCTP's "so"
        for stake-out, "is" of identify), written in small letters, is that order word only
        before a player's name or a role, an article allowed between ("so Keturah",
        "Absalom is Gin", "X is a Vodka"); "SO Keturah" in capitals always is."""
        lexicon = ctx.lexicon
        if not any(lexicon.short_grammar_word(e) for e in found.entries):
            return found
        if not self.sentence.tokens[i].text.islower():
            return found
        j = i + 1
        if j < len(self.norms) and self.norms[j] in _ARTICLES:
            j += 1
        nxt = self.match(ctx, j) if j < len(self.norms) else None
        if self.name(ctx, j) is not None or (nxt is not None and "role" in nxt.kinds()):
            return found
        kept = tuple(e for e in found.entries if not lexicon.short_grammar_word(e))
        return Match(kept, found.length) if kept else None

    def _without_false_friends(self, ctx: Context, found: Match) -> Match | None:
        """ "Il a pris des risques pour moi": in a sentence clearly in one language, a word
        of that language's grammar is not another language's one-word order phrase."""
        lexicon = ctx.lexicon
        if not lexicon.has_false_friend(found):
            return found
        if self.language is _UNSET:
            self.language = lexicon.sentence_language(self.norms)
        kept = tuple(e for e in found.entries if lexicon.false_friend(e) != self.language)
        if len(kept) == len(found.entries):
            return found
        return Match(kept, found.length) if kept else None

    def may_hold(self, ctx: Context, kinds: frozenset[str]) -> bool:
        """False when no phrase of ``kinds`` can be in the sentence: no word has a key of
        the longest word of one (``Lexicon.anchor_keys``; a learned misspelling is an
        ability phrase); a quick pre-check before looking at every word."""
        found = self.holds.get(kinds)
        if found is None:
            anchors = ctx.lexicon.anchor_keys(kinds)
            learned = "ability" in kinds and bool(ctx.learned_abilities)
            if self.every_key is None:
                self.every_key = frozenset().union(*self.keys)
            found = self.holds[kinds] = learned or not anchors.isdisjoint(self.every_key)
        return found

    def name(self, ctx: Context, i: int) -> NameHit | None:
        """An exact player name at token ``i``."""
        if not 0 <= i < len(self.keys):
            return None
        found = self.names[i]
        if found is _UNSET:
            found = self._own_alias(ctx, i, ctx.players.exact_at(self.sentence.tokens, i))
            self.names[i] = found
        return found  # type: ignore[return-value]

    def _own_alias(self, ctx: Context, i: int, hit: NameHit | None) -> NameHit | None:
        """ "Ro" alone in its sentence, signed by Rowena whose alias it is: the sender, though
        Romilly's name also begins with it (elsewhere the word fits both)."""
        tokens = self.sentence.tokens
        if (
            hit is None
            or hit.length != 1
            or any(not t.is_punct for j, t in enumerate(tokens) if j != i)
        ):
            return hit
        if ctx.players.alias_owner(tokens[i].norm) != ctx.actor:
            return hit
        return replace(hit, players=(ctx.actor,))

    def names_at_every_word(self, ctx: Context) -> list[NameHit]:
        """:meth:`name` at every word, in order, the words with none left out."""
        if self.all_names is None:
            self.all_names = [
                hit
                for i, known in enumerate(self.names)
                if known is not None and (hit := self.name(ctx, i)) is not None
            ]
        return self.all_names

    def first_name(self, ctx: Context) -> int:
        """The index of the first token where :meth:`name` finds a name (the number of
        tokens when there is none), once looked for."""
        if self.first_named is None:
            self.first_named = next(
                (i for i, known in enumerate(self.names)
                 if known is not None and self.name(ctx, i) is not None),
                len(self.keys),
            )  # fmt: skip
        return self.first_named

    def phase(self, ctx: Context, i: int) -> tuple[Phase, int] | None:
        """A phase reference at token ``i``."""
        if not 0 <= i < len(self.keys):
            return None
        found = self.phases[i]
        if found is _UNSET:
            found = self.phases[i] = find_phase(self.norms, i, ctx.lexicon.phases, ctx.phase)
        return found  # type: ignore[return-value]
