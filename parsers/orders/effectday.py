"""The next day named as an order's effect, not its phase.

A night ability whose effect lands on the next day's vote (the ruleset's ``vote_modifier``
abilities used at night: deprive a vote, accuse with a double vote; the items whose effect is
a vote modifier: the diploma) is often sent with the day it acts on: "Лишаю голоса Фаддея на
завтра", "Применяю диплом, хочу завтра голосовать двойным голосом". That "tomorrow" says when
the effect lands; the order is tonight's. "Heal X tomorrow night" (no such ability) or
"tomorrow night" (a night named) stays an order for a later phase.
"""

from __future__ import annotations

from parsers.orders.context import Context, Reading
from parsers.orders.lexicon import Match
from parsers.orders.text import Sentence

# The next day told alone (not "tomorrow night"); "завтрашнем голосовании" too.
_DAY_WORDS = frozenset({"tomorrow", "tomorrow's", "demain", "завтра"})
_DAY_STEMS = ("завтрашн",)
# A word before the day word that belongs to it ("for tomorrow", "pour demain", "на завтра").
_BEFORE = frozenset({"for", "pour", "на", "к", "de", "d'"})
# A word after it naming the vote it acts on ("на завтрашнем голосовании", "demain au vote").
_VOTE_NOUNS = frozenset(
    {"vote", "voting", "голосовании", "голосование", "голосованию", "голосования"}
)
# A night named right after the day word: a later night, not the effect's day.
_NIGHT_WORDS = frozenset(
    {"night", "evening", "nuit", "soir", "ночью", "ночь", "вечером", "вечер", "night's"}
)


def _is_day_word(norm: str) -> bool:
    return norm in _DAY_WORDS or norm.startswith(_DAY_STEMS)


def next_day_effects(ctx: Context) -> frozenset[str]:
    """The sender's night abilities whose effect is on the next day's vote."""
    known = ctx.lexicon.ruleset.abilities
    return frozenset(
        a
        for a in ctx.abilities or ()
        if a in known
        and str(known[a].effect) == "vote_modifier"
        and "night" in {str(p) for p in known[a].phases}
        and "day" not in {str(p) for p in known[a].phases}
    )


def _vote_items(ctx: Context) -> frozenset[str]:
    items = ctx.lexicon.ruleset.items
    return frozenset(i for i, d in items.items() if str(d.effect) == "vote_modifier")


def _acts_next_day(reading: Reading, ctx: Context) -> bool:
    """The sentence holds a next-day ability (or vote item) of the sender's and no other
    order of theirs; a vote word only where no player is named (the effect told: "хочу
    завтра голосовать двойным голосом", not "je vote Tanguy demain")."""
    effects, items = next_day_effects(ctx), _vote_items(ctx)
    own = ctx.abilities or frozenset()
    seen = voted = False
    j = 0
    while j < len(reading.norms):
        found: Match | None = reading.match(ctx, j)
        j += found.length if found is not None else 1
        if found is None:
            continue
        abilities = set(found.values("ability")) & own
        named_items = set(found.values("item"))
        if abilities - effects - {"use_item"} or named_items - items:
            return False
        seen = seen or bool(abilities & effects) or bool(named_items & items)
        voted = voted or "vote" in found.kinds()
    if voted and any(reading.name(ctx, j) is not None for j in range(len(reading.norms))):
        return False
    return seen


def _day_tokens(norms: list[str]) -> set[int]:
    """The day word, its preposition before and its vote noun after; none when a night
    word follows (a later night is named)."""
    dropped: set[int] = set()
    for i, norm in enumerate(norms):
        if not _is_day_word(norm):
            continue
        if i + 1 < len(norms) and norms[i + 1] in _NIGHT_WORDS:
            return set()
        dropped.add(i)
        if i > 0 and norms[i - 1] in _BEFORE:
            dropped.add(i - 1)
        if i + 1 < len(norms) and norms[i + 1] in _VOTE_NOUNS:
            dropped.add(i + 1)
    return dropped


def without_effect_day(reading: Reading, ctx: Context) -> Reading:
    """The sentence read without the next day it names when that day is the effect of the
    sender's next-day ability ordered in it; else the reading unchanged."""
    norms = reading.norms
    if ctx.phase.kind != "night" or not any(_is_day_word(n) for n in norms):
        return reading
    dropped = _day_tokens(norms)
    if not dropped or not _acts_next_day(reading, ctx):
        return reading
    sentence = reading.sentence
    tokens = tuple(t for k, t in enumerate(sentence.tokens) if k not in dropped)
    kept = Sentence(sentence.text, tokens, sentence.quotes, sentence.question, sentence.line)
    return Reading.of(kept, ctx)


def tells_the_effect(reading: Reading, ctx: Context, previous_abilities: set[str]) -> bool:
    """ "Обвиняю X. Завтра голосую двойным.": a sentence after an order of a next-day
    ability that only tells the sender's vote of the next day (a vote word, the day word,
    no player named, no other order word) is that order's effect told, not a vote."""
    if not previous_abilities or not previous_abilities <= next_day_effects(ctx):
        return False
    norms = reading.norms
    if ctx.phase.kind != "night" or not _day_tokens(norms) or reading.sentence.question:
        return False
    voted = False
    for j in range(len(norms)):
        if reading.name(ctx, j) is not None:
            return False
        found = reading.match(ctx, j)
        if found is None:
            continue
        abilities = set(found.values("ability")) & (ctx.abilities or frozenset())
        if abilities - previous_abilities:
            return False
        voted = voted or "vote" in found.kinds()
    return voted
