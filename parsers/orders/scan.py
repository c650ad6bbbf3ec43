"""Reading one sentence left to right into drafts: a trigger word plus what follows it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from parsers.orders.claims import parse_claim, parse_claims
from parsers.orders.context import Context, Reading
from parsers.orders.cues import (
    TRIGGER_KINDS,
    absorbs,
    condition_end,
    conditional_outcome,
    continues,
    govern,
    is_crime,
    is_kind,
    prefers_trigger,
    role_wanted,
    trigger_kind,
)
from parsers.orders.draft import TRIGGERS, CrimeDraft, Draft
from parsers.orders.grammar import NEGATORS
from parsers.orders.lexicon import Match, effect_of
from parsers.orders.model import Claim, Kind
from parsers.orders.players import NameHit
from parsers.orders.text import normalize
from parsers.phases import Phase, is_previous

__all__ = ["CrimeDraft", "Draft", "scan"]

# Only these may sit between a name and the order word it belongs to ("Kyle - check",
# "Bob, please heal"); "Nick does the hit" is not Nick's order.
_FILLER_KINDS = frozenset({"greeting"})
_HANDED = frozenset({"handed"})
# Words that may sit between "don't" and its order word ("don't want to check").
_KEEPS_NEGATION = frozenset({"negation", "filler", "greeting", "vague"})


def scan(reading: Reading, ctx: Context, carry: Draft | None = None) -> tuple[list[Draft], bool]:
    """Read one sentence into drafts (one per trigger word).

    Args:
        reading: the sentence with its keys.
        ctx: the parse context.
        carry: the PM's previous draft; a sentence that opens with a condition ("If Akonyl
            is arrested, then Kleene.") adds ranked alternatives to it.

    Returns:
        The new drafts in order (words before the first trigger attach to it: ``Bob: heal``),
        and whether the sentence added to ``carry``.
    """
    tokens = reading.sentence.tokens
    drafts: list[Draft] = []
    loose: list[NameHit] = []
    flags: dict[str, Any] = {"negated": False, "hedged": False, "adjacent": False}
    i = 0
    carried = carry is not None and bool(carry.names) and bool(condition_end(reading, ctx, 0))
    carried = carried or continues(reading, ctx, carry)
    if carried and carry is not None:
        drafts.append(carry)
    while i < len(tokens):
        cur = drafts[-1] if drafts else None
        was_name = cur is not None and cur.last_was_name
        used = _step(reading, ctx, i, cur, drafts, loose, flags)
        if cur is not None and cur.last_was_name == was_name:
            cur.last_was_name = False  # the token was not a name (a name sets it)
        if cur is not None:
            cur.and_next = was_name and tokens[i].norm in AND_WORDS
        i += used
    if drafts and drafts[0] is carry:
        drafts.pop(0)
    for draft in drafts:
        if draft.lent is not None and not draft.names:  # "…, Isaure pour …": a target after all
            draft.lent[0].names.append([draft.lent[1]])
            draft.doer = None
    named = [d for d in drafts if d.names]
    if named and _closes_with_instead(reading, ctx):
        named[-1].corrects = True  # "tant pis, bloque Jérémie plutôt": replaces the earlier
    elif drafts and flags.get("replace") and not _affirms(flags.get("replace_at", ""), ctx):
        drafts[-1].hedged = True  # "Heal Ann... or maybe not": a correction to nobody
        drafts[-1].taken_back = flags.get("reason", False)
    if drafts and _closes_with_doubt(reading, ctx, drafts[-1].start):  # "je la sauve ou pas"
        drafts[-1].hedged = True  # "Heal Ann i guess", "Je soigne Ann je pense"
    if drafts:
        drafts[0].phases[:0] = flags.get("phases") or []  # "на третью ночь лечу Стаса"
    if drafts and _leads_untargeted(reading, ctx, drafts[0], loose, flags):
        drafts[0].doer = replace(loose[0], how=SUBJECT)  # "Бажен варит яд": who makes it
    elif drafts and loose and not drafts[0].names and flags["adjacent"]:
        drafts[0].names.extend([hit] for hit in loose)  # "Kyle - check", "Bob: heal"
    elif drafts and _resumed(reading, ctx, drafts[0], loose):
        drafts[0].names.append([loose[0]])  # "Noé, je le sauve", "Ann, heal her"
    elif drafts and _leads(reading, ctx, drafts[0], loose, flags):
        drafts[0].doer = loose[0]  # "Жанна стреляет в Богдана", "Kleene: kill Anna"
        if flags.get("loose_end", -1) == drafts[0].start:  # no mark: the verb's subject
            drafts[0].doer = replace(loose[0], how=SUBJECT)
    elif (  # "Akonyl, kill CTU": a name the order does not use; not one in the reason told
        drafts  # before "so" ("Gratien n'était pas Bacula, alors je regarde Josselin")
        and loose
        and not _told_before_so(reading, ctx, drafts[0], flags.get("loose_end", 0))
    ):
        targets = _sure_targets(drafts[0])  # "Dash is quiet, so check dash": its own target
        drafts[0].unknown += [
            h.players[0] for h in loose if h.players != (ctx.actor,) and h.players[0] not in targets
        ]
    if len(drafts) >= 2 and _performer_after_verb(reading, ctx, drafts[-2], drafts[-1]):
        drafts.pop()  # "стреляем в Евграфа, стреляет Евпраксия": who shoots, not a target
    for draft in drafts:
        _verb_first(reading, ctx, draft)
        draft.past = draft.doer is not None and _told_as_past(reading, ctx, draft)
    drafts = [d for d in drafts if not _someone_did(reading, ctx, d)]
    drafts = [
        d for d in drafts if not (_reported(reading, ctx, d) or _others_will(reading, ctx, d))
    ]
    drafts = [d for k, d in enumerate(drafts) if not _told_decision(reading, d, drafts[k + 1 :])]
    handed = reading.may_hold(ctx, _HANDED) and any(
        "handed" in m.kinds() for j in range(len(tokens)) if (m := reading.match(ctx, j))
    )
    if _tells_outcome(reading, ctx, drafts, flags):
        drafts.pop()  # "слежу за Баженом, если что — рублю": what the watch does
    else:
        for draft in drafts:
            draft.hedged = draft.hedged or flags["hedged"]
    for draft in drafts:
        draft.question = reading.sentence.question
        draft.handed = draft.handed or handed
    return drafts, carried


_OUTCOME_IF = frozenset({"если", "if", "si"})
_BACK = frozenset({"его", "её", "ее", "него", "неё", "him", "her", "them", "le", "la", "lui"})
_NOT_THE_OUTCOME = frozenset({"hedge", "doubt", "open_choice", "negation", "alternative"})


def _tells_outcome(reading: Reading, ctx: Context, drafts: list[Draft], flags: Any) -> bool:
    """An order with its player, then, in a clause opening with "if" at the sentence's end,
    the same order's word naming nobody, its ability's outcome conditional
    (:func:`conditional_outcome`): "слежу за Баженом, если что — рублю" tells what the watch
    does. Another hedge, a negation, an alternative or a name in that clause: not this."""
    if len(drafts) < 2 or flags.get("conditional") or reading.sentence.question:
        return False
    prev, last = drafts[-2], drafts[-1]
    if prev.kind is not Kind.ORDER or last.kind is not Kind.ORDER or not prev.names:
        return False
    if last.names or last.roles or last.items or last.crimes or last.claims or last.negated:
        return False
    if not last.abilities or not set(last.abilities) <= set(prev.abilities):
        return False
    tokens = reading.sentence.tokens
    opening = next((j for j in range(prev.end, last.start) if tokens[j].norm in _OUTCOME_IF), None)
    if opening is None or opening == 0 or not tokens[opening - 1].is_punct:
        return False
    if any(not t.is_punct and t.norm not in _BACK for t in tokens[last.end :]):
        return False  # "…, если грешен — в тюрьму его": the order's own target
    for j in range(opening, len(tokens)):
        match = reading.match(ctx, j)
        if reading.name(ctx, j) is not None or tokens[j].norm in NEGATORS:
            return False
        unsure = match.kinds() & _NOT_THE_OUTCOME if match is not None else set()
        if unsure - ({"hedge"} if j == opening else set()):  # "если нет": an alternative
            return False
    if any(m is not None and m.kinds() & _NOT_THE_OUTCOME
           for j in range(opening) if (m := reading.match(ctx, j))):  # fmt: skip
        return False  # another hedge before the "if"
    return all(conditional_outcome(ctx, a) for a in last.abilities)


# Words opening the consequence of what was just told ("…, donc je soigne Gildas").
_SO = frozenset({"so", "therefore", "donc", "alors", "поэтому", "значит"})


def _told_before_so(reading: Reading, ctx: Context, draft: Draft, loose_end: int) -> bool:
    """ "Gildas est visé depuis son résultat sur Léonce, donc je soigne Gildas", "Gratien
    n'était pas Bacula, alors je regarde Josselin": the players named before the order, in
    a clause of at least three other words that a "so" word closes, are the reason told for
    an order that names its own players: no target of it."""
    if not draft.names or draft.alt_next or draft.or_next or not 0 < loose_end <= draft.start:
        return False
    norms, tokens = reading.norms, reading.sentence.tokens
    so = next((k for k in range(loose_end, draft.start) if norms[k] in _SO), None)
    if so is None or any(reading.name(ctx, j) for j in range(so, draft.start)):
        return False
    told = [j for j in range(so) if not tokens[j].is_punct and reading.name(ctx, j) is None]
    if len(told) < 3:
        return False
    past = any(_past_or_not(reading, ctx, j) for j in told)  # "Gratien n'était pas Bacula"
    names = [j for j in range(so) if reading.name(ctx, j) is not None]
    return past or all(j > 0 and norms[j - 1] in _PREPOSITIONS for j in names)


# Words before a player who is then no subject ("son résultat sur Léonce").
_PREPOSITIONS = frozenset({"sur", "contre", "avec", "chez", "de", "d", "on", "against", "with",
                           "about", "at", "на", "против", "с", "со", "о", "об", "про"})  # fmt: skip


def _past_or_not(reading: Reading, ctx: Context, j: int) -> bool:
    """The word at ``j`` tells the past ("était", "a", "voted") or negates ("pas")."""
    norm = reading.norms[j]
    if norm in _PAST_COPULAS or norm in _PAST_AUXILIARIES or ctx.lexicon.morph.is_past(norm):
        return True
    return is_kind(reading, ctx, j, "negation")


def _verb_first(reading: Reading, ctx: Context, draft: Draft) -> None:
    """ "Стреляет Жанна в Богдана": an order verb in the third person singular, then right
    after it a player's name in the nominative, then the order's own targets in another
    case: the first player carries it out (the performer rules follow). In place."""
    if draft.kind is not Kind.ORDER or draft.doer is not None or len(draft.names) < 2:
        return
    if any(len(group) != 1 or len(group[0].players) != 1 for group in draft.names):
        return
    rules = ctx.lexicon.ruleset.abilities
    wanted = {sum(1 for s in rules[a].targets if s.kind == "player")
              for a in draft.abilities if a in rules}  # fmt: skip
    if wanted != {len(draft.names) - 1}:
        return
    if not ctx.lexicon.morph.is_third_singular(reading.norms[draft.start]):
        return
    first = draft.names[0][0]
    hit = reading.name(ctx, draft.end) if draft.end < len(reading.norms) else None
    if hit is None or hit.players != first.players or first.players == (ctx.actor,):
        return
    if not _nominative(reading, ctx, draft.end, first.players[0]):
        return
    after = range(draft.end + hit.length, len(reading.norms))
    rest = [(j, h) for j in after if (h := reading.name(ctx, j)) is not None]
    if len(rest) != len(draft.names) - 1 or any(
        _nominative(reading, ctx, j, h.players[0]) or not ctx.players.cases(reading.norms[j],
                                                                           h.players[0])
        for j, h in rest
    ):  # fmt: skip
        return  # a target in the nominative too ("Стреляет Жанна Богдан"): who is who?
    draft.doer = draft.names.pop(0)[0]


def _nominative(reading: Reading, ctx: Context, j: int, player: str) -> bool:
    """The name at token ``j`` is written as ``player``'s name is, or in the nominative."""
    if reading.sentence.tokens[j].text.casefold() == player.casefold():
        return True
    return "nomn" in ctx.players.cases(reading.norms[j], player)


def _sure_targets(draft: Draft) -> frozenset[str]:
    """The players the draft names with one reading each."""
    return frozenset(g[0].players[0] for g in draft.names if len(g) == 1 and len(g[0].players) == 1)


# Marks that may sit between a performer's name and the order word ("Kleene: kill Anna",
# "Вера — вербует Женю"); never a comma ("Nick, kill Bob" speaks to Nick).
_PERFORMER_MARKS = frozenset({":", "-", "—", "–"})
# Words that open a clause inside a sentence ("…, Вера вербует Женю", "… а я проверяю").
_CLAUSE_OPENERS = frozenset({",", ";", "а"})


def _leads(
    reading: Reading, ctx: Context, draft: Draft, loose: list[NameHit], flags: dict[str, Any]
) -> bool:
    """ "Жанна стреляет в Богдана", "Kleene: kill Anna": one other player named right before
    an order word (no word but ":" or a dash between) whose order names its own target is
    who carries it out (the performer), not a target. Whether the sender may send it is
    for the rules (``rules.performer_finding``)."""
    if draft.kind is not Kind.ORDER or not draft.names or len(loose) != 1:
        return False
    hit, end = loose[0], flags.get("loose_end", -1)
    if len(hit.players) != 1 or hit.players == (ctx.actor,) or hit.quality < 0.95:
        return False
    tokens = reading.sentence.tokens
    between = tokens[end : draft.start] if 0 <= end <= draft.start else None
    return between is not None and all(t.is_punct and t.norm in _PERFORMER_MARKS for t in between)


def _leads_untargeted(
    reading: Reading, ctx: Context, draft: Draft, loose: list[NameHit], flags: dict[str, Any]
) -> bool:
    """ "Бажен варит яд", "Gus: stays home": one other player named right before the order
    word (no word but ":" or a dash between) of an ability that takes no target at all is
    who carries it out, not a target it cannot take. Whether the sender may send it is for
    the rules (``rules.performer_finding``)."""
    if draft.kind is not Kind.ORDER or draft.names or len(loose) != 1 or not draft.abilities:
        return False
    abilities = [ctx.lexicon.ruleset.abilities.get(a) for a in draft.abilities]
    if any(ability is None or ability.targets for ability in abilities):
        return False
    hit = loose[0]
    if len(hit.players) != 1 or hit.players == (ctx.actor,) or hit.quality < 0.95:
        return False
    return _leads(reading, ctx, replace(draft, names=[[hit]]), loose, flags)


def _clause_subject(
    reading: Reading, i: int, cur: Draft | None, flags: dict[str, Any]
) -> NameHit | None:
    """ "Олег стреляет в Кота, Вера вербует Женю", "…, а я проверяю Фёдора": a name that
    opens a clause right before an order word belongs to that order (who carries it out),
    not to the previous order, which keeps its own target. Taken off the previous draft."""
    span = flags.get("name_span")
    if cur is None or span is None or cur.kind is not Kind.ORDER or len(cur.names) < 2:
        return None
    start, end = int(span[0]), int(span[1])
    hit: NameHit = span[2]
    tokens = reading.sentence.tokens
    if start < 1 or tokens[start - 1].norm not in _CLAUSE_OPENERS or cur.names[-1] != [hit]:
        return None
    if not all(t.is_punct and t.norm in _PERFORMER_MARKS for t in tokens[end:i]):
        return None
    cur.names.pop()
    return hit


# Auxiliaries before an order word that tell what someone did ("Jules a tué Marc").
_PAST_AUXILIARIES = frozenset({"a", "ont", "avait", "avaient", "has", "had", "did"})


def _told_as_past(reading: Reading, ctx: Context, draft: Draft) -> bool:
    """ "Ганс стрелял в Машу прошлой ночью", "Jules a tué Marc", "Kleene killed Anna": a
    performer's move told in the past tense or next to "last night" is a report, not an
    order."""
    norms = reading.norms
    if any(is_previous(norms, j) for j in range(len(norms))):
        return True
    before = norms[draft.start - 1] if draft.start > 0 else ""
    return before in _PAST_AUXILIARIES or ctx.lexicon.morph.is_past(norms[draft.start])


# Third persons telling what someone did ("he voted weird", "elle a voté contre moi").
_THIRD_PERSONS = frozenset({"he", "she", "they", "il", "elle", "ils", "elles", "он", "она", "они"})


def _someone_did(reading: Reading, ctx: Context, draft: Draft) -> bool:
    """ "Carl seems sus, he voted weird", "elle a voté contre moi hier": an order word in the
    past tense right after a third-person pronoun (or its auxiliary) tells what someone
    did; it is no order of the sender's (the line's names are then read as a remark)."""
    if draft.doer is not None or draft.kind not in (Kind.ORDER, Kind.VOTE) or draft.start < 1:
        return False
    norms, start = reading.norms, draft.start
    if norms[start - 1] in _PAST_AUXILIARIES:
        return start >= 2 and norms[start - 2] in _THIRD_PERSONS
    return norms[start - 1] in _THIRD_PERSONS and ctx.lexicon.morph.is_past(norms[start])


# Words before an ability's noun that make it someone else's ("Berenike's stake-out",
# "his investigation"), and nouns after it that make it a report ("the heal result").
_OTHERS_POSSESSIVES = frozenset(
    {"his", "her", "their", "your", "son", "sa", "ses", "leur", "его", "её", "ее", "их"}
)
_REPORT_NOUNS = frozenset(
    {"report", "reports", "result", "results", "findings", "outcome", "résultat", "résultats",
     "rapport", "результат", "результаты", "отчёт", "отчет"}
)  # fmt: skip


def _reported(reading: Reading, ctx: Context, draft: Draft) -> bool:
    """ "Berenike's stake-out report from night 1", "his investigation result", "the heal
    last night": an ability's noun owned by another player (a player's name with "'s", a
    third person's possessive), followed by a report noun, or after "the" and followed by a
    past phase, tells what happened; it is no order of the sender's ("Leader's orders:" is
    a header, no player's)."""
    if draft.kind is not Kind.ORDER or draft.doer is not None:
        return False
    norms, start, end = reading.norms, draft.start, draft.end
    before = norms[start - 1] if start > 0 else ""
    if before in _OTHERS_POSSESSIVES:
        return True
    if before.endswith(("'s", "’s")) and reading.name(ctx, start - 1) is not None:
        return True
    if end < len(norms) and norms[end] in _REPORT_NOUNS:
        return True
    return before == "the" and is_previous(norms, end)


# Someone else's plan: a third-person subject, then a word of intent before the order word
# ("The town is about to lynch Zephyr", "they're going to kill Bob", "le village va lyncher").
_OTHER_SUBJECTS = frozenset(
    {"he", "she", "they", "town", "village", "everyone", "everybody", "people", "someone",
     "somebody", "mafia", "scum", "wolves", "il", "elle", "ils", "elles", "он", "она", "они"}
)  # fmt: skip
_INTENT = frozenset({"about", "going", "gonna", "will", "wants", "want", "plans", "planning",
                     "trying", "tries", "va", "vont", "veut", "veulent", "vouloir", "voulait",
                     "хочет", "хотят", "собирается", "собираются"})  # fmt: skip
_FIRST_PERSONS = frozenset({"i", "i'm", "i'll", "im", "we", "we're", "we'll", "me", "my", "let's",
                            "us", "our", "je", "j", "nous", "moi", "я", "мы"})  # fmt: skip
_CONTRACTED = ("'s", "’s", "'re", "’re", "'ll", "’ll")


def _others_will(reading: Reading, ctx: Context, draft: Draft) -> bool:
    """ "The town is about to lynch Zephyr", "Everyone's gonna vote Zephyr", "they're going
    to kill Bob": an order or vote word after a word of intent in a clause whose subject is
    a third person or the crowd (for a vote, also another player: nobody votes for someone
    else) tells what others will do; it is no order of the sender's."""
    if draft.doer is not None or draft.kind not in (Kind.ORDER, Kind.VOTE):
        return False
    norms, tokens = reading.norms, reading.sentence.tokens
    begin = draft.start
    while begin > 0 and not tokens[begin - 1].is_punct:
        begin -= 1
    words = [_uncontracted(n) for n in norms[begin : draft.start]]
    if not words or _INTENT.isdisjoint(words) or not _FIRST_PERSONS.isdisjoint(words):
        return False
    subject = next((k for k, w in enumerate(words) if w not in ("the", "and", "but", "so")), 0)
    if words[subject] in _OTHER_SUBJECTS:
        return True
    named = reading.name(ctx, begin + subject)
    return draft.kind is Kind.VOTE and named is not None and named.players != (ctx.actor,)


def _uncontracted(norm: str) -> str:
    """The word without its contracted verb ("everyone's" is "everyone")."""
    for end in _CONTRACTED:
        if norm.endswith(end):
            return norm[: -len(end)]
    return norm


# First-person auxiliaries of a past tense ("on a décidé", "j'ai choisi", "we have decided").
_OWN_AUXILIARIES = frozenset({"a", "ai", "avons", "have", "'ve", "had"})


def _told_decision(reading: Reading, draft: Draft, later: list[Draft]) -> bool:
    """ "avec Clothaire on a décidé : on mange Prosper": an order word in the past after an
    auxiliary, naming nobody, with an order naming a player after it in the sentence, tells
    how the order came about; it is no order of its own."""
    if draft.kind is not Kind.ORDER or draft.names or draft.start < 1:
        return False
    if reading.norms[draft.start - 1] not in _OWN_AUXILIARIES:
        return False
    return any(d.kind is Kind.ORDER and d.names for d in later)


_CLITICS = frozenset({"le", "la", "l"})
_SUBJECTS = frozenset({"je", "j", "on", "nous"})  # "je le sauve", not "le prochain maire"


def _resumed(reading: Reading, ctx: Context, draft: Draft, loose: list[NameHit]) -> bool:
    """ "Noé, je le sauve", "Ann, heal her", "Нину — лечу её": one player named before an
    order that names nobody, taken up by a pronoun (a French clitic before the order word,
    a pronoun after it)."""
    if draft.names or len(loose) != 1 or len(loose[0].players) != 1 or draft.unknown or draft.vague:
        return False
    if loose[0].players == (ctx.actor,) or not draft.wants(ctx, "player"):
        return False
    norms, keys = reading.norms, reading.keys
    start = draft.end - len(draft.trigger.split())
    clitic = start >= 2 and norms[start - 1] in _CLITICS and norms[start - 2] in _SUBJECTS
    return clitic or any(k & ctx.lexicon.pronoun_keys for k in keys[draft.end :])


_DOUBT = frozenset({"doubt"})


def _closes_with_doubt(reading: Reading, ctx: Context, order_at: int = 0) -> bool:
    """The sentence ends with a doubt about it ("i guess", "je pense", "думаю"), nothing after."""
    tokens = reading.sentence.tokens
    for j in range(1, len(tokens)):
        match = reading.match(ctx, j) if reading.may_start(ctx, j, _DOUBT) else None
        if match is None or "doubt" not in match.kinds() or reading.name(ctx, j) is not None:
            continue
        if reading.norms[j - 1] in NEGATORS:
            continue  # "…, не сомневаюсь": the player says he is sure
        if all(t.is_punct for t in tokens[j + match.length :]):
            return not _own_clause(reading, ctx, j, order_at)
    return False


def _own_clause(reading: Reading, ctx: Context, j: int, order_at: int = 0) -> bool:
    """Token ``j`` is in a clause of its own after the sentence's last name: a mark, then a
    new subject before ``j`` ("frame carl pls, he's the vig I think": the doubt is about
    what he is); not when that clause holds the order word (``order_at``: "Hortensia, je
    la sauve ou pas")."""
    last = next((k for k in range(j - 1, -1, -1) if reading.name(ctx, k) is not None), None)
    if last is None:
        return False
    norms = reading.norms
    marks = [k for k in range(last + 1, j) if norms[k] in _CLAUSE_MARKS]
    if marks and marks[0] < order_at < j:
        return False
    return bool(marks) and any(norms[k] in _CLAUSE_SUBJECTS for k in range(marks[0] + 1, j))


def _affirms(phrase: str, ctx: Context) -> bool:
    """A correction phrase that confirms when nothing follows it ("for real", "final answer")."""
    return any(
        ctx.lexicon.affirm_keys & ctx.lexicon.morph.keys(w.casefold()) for w in phrase.split()
    )


def _closes_with_instead(reading: Reading, ctx: Context) -> bool:
    """ "instead" / "plutôt" / "лучше" right after a name, closing the sentence or its first
    clause ("Block Zephyrine instead, she's been redirecting everyone")."""
    tokens = reading.sentence.tokens
    for at in range(1, len(tokens)):
        if tokens[at].is_punct or not reading.keys[at] & ctx.lexicon.instead_keys:
            continue
        after = at + 1
        if after < len(tokens) and not tokens[after].is_punct:
            continue  # "instead of Lemuel": no correction word
        if _name_ends_at(reading, ctx, at - 1):
            return True
    return False


def _name_ends_at(reading: Reading, ctx: Context, end: int) -> bool:
    """A player's name ends at token ``end``."""
    for j in range(end + 1):
        hit = reading.name(ctx, j)
        if hit is not None and j + hit.length - 1 == end:
            return True
    return False


def _step(
    reading: Reading,
    ctx: Context,
    i: int,
    cur: Draft | None,
    drafts: list[Draft],
    loose: list[NameHit],
    flags: dict[str, Any],
) -> int:
    """Consume what starts at token ``i``; return how many tokens were used."""
    token = reading.sentence.tokens[i]
    if token.quote is not None and cur is not None and cur.wants(ctx, "claim"):
        return _quote(reading, ctx, i, cur)
    if token.is_punct:
        if token.norm in ("/", "|") and cur is not None:
            cur.or_next = True
        flags["negated"] = flags["negated"] and token.norm != ","  # "хотя нет, стреляю"
        if token.norm in (":", ";") and cur is not None and cur.negated:
            flags["negated"] = False  # "je ne charme pas : je libère V": "pas" was cur's
        if token.norm in (",", ")", "]", ";"):  # "(…for no reason), My vote: X": "no" ends
            flags.pop("skip_name", None)  # before the mark ("protect Carl, not Bob" after it)
        return 1
    if cur is not None and cur.kind is Kind.WILL:
        cur.text = reading.sentence.text[token.start :].strip()
        return len(reading.sentence.tokens) - i
    name = reading.name(ctx, i)
    match = reading.match(ctx, i)
    _carry_flags(flags, name, match, bool(loose) and cur is None)
    found_phase = reading.phase(ctx, i)
    if found_phase and (name is None or found_phase[1] >= name.length):
        return _phase_at(reading, ctx, i, found_phase, cur, flags)
    end = condition_end(reading, ctx, i)
    if end:
        if cur is not None and cur.names:
            cur.alt_next = True  # "if Conia is lynched, then CTU"
        flags["conditional"] = True  # an order given after the condition depends on it
        return end - i
    if cur is not None and match and is_crime(cur, ctx, match, name):
        cur.crimes.append(CrimeDraft((match.values("crime") or match.values("ability"))[0]))
        cur.crime_link = False
        return match.length
    trigger = trigger_kind(match, ctx) if match else None
    if trigger and match is not None:
        if name is None and cur is not None and absorbs(cur, ctx, match, reading, i):
            return match.length
        if name is None or prefers_trigger(reading, ctx, i, cur, match):
            return _start(reading, ctx, i, match, trigger, drafts, flags)
    if name is not None and not role_wanted(cur, ctx, match):
        if cur is None and match and ctx.role and ctx.role in match.values("role"):
            return name.length  # "Шериф стреляет…" from the sheriff: himself, not a player
        carried_out = _carries_it_out(reading, ctx, i, name.length, cur)
        if carried_out and cur is not None:
            hit = govern(reading, ctx, i, name)  # "…, Crispin makes the visit"
            cur.doer = replace(hit, how=VISITOR)
            return carried_out
        if cur is not None and _in_remark_clause(reading, ctx, i, cur):
            return name.length  # "check Ophélie, elle a défendu Léandre": what she did
        if cur is not None and _past_copula_before(reading, ctx, i, cur):
            cur.guessed = _TOLD_PAST  # "Ma cible était Urbain", "My target was Nell"
        if cur is not None and _thing_then_and(reading, ctx, i, cur):
            cur.guessed = "'<order word> the <thing> and <player>': the player no target?"
        hit = govern(reading, ctx, i, name)
        _add_name(cur, loose, hit, flags)
        flags["name_span"] = (i, i + name.length, hit) if cur is not None else None
        if cur is None:
            flags["loose_end"] = i + name.length
        if cur is not None:
            cur.last_was_name = True
            role_like = _role_like(reading, i, match) and _role_elsewhere(ctx, name, match)
            if role_like and not said_player(reading, ctx, i, name.length):
                cur.role_named = token.text  # "heal the doctor": the player Doctor or a role?
        return name.length
    if match is not None:
        flags["aside"] = token.aside
        flags["at"] = i
        flags["role_for"] = i > 0 and reading.norms[i - 1] in _ROLE_FOR
        if cur is not None and "vague" in match.kinds() and _described_aside(reading, ctx, i, cur):
            return match.length
        if cur is not None and "hedge" in match.kinds() and _asked_result(reading, ctx, i, match):
            return match.length  # "check Mike and tell me if he's scum": what to report
        if cur is not None and match.kinds() & _TO_REPORT and _to_report(reading, ctx, i, cur):
            return match.length  # "shadow Jess, if anybody goes after her I want to know who"
        if (cur is None or cur.names) and _just_in_case(reading, i, match):
            return match.length  # "nettoyage sur Victoire, au cas où": why, not a doubt
        if cur is not None and _searched_for(reading, ctx, i, match, cur):
            return match.length  # "je cherche si Gontran est Bacula": what to find out
        if cur is not None and match.kinds() & _UNSURE and _about_a_third(reading, ctx, i, cur):
            return match.length  # "Heal CTU tonight, she's probably getting targeted"
        if (
            cur is not None
            and cur.names
            and "negation" in match.kinds()
            and _opens_correction(reading, ctx, i + match.length)
        ):
            return match.length  # "Елисея... нет, лучше Митрофана": the correction's "no"
        if cur is not None and cur.names and "negation" in match.kinds():
            _no_then_name(reading, ctx, i + match.length, cur)
            if _after_interjection(reading, i):  # "Тур Нонне... ой, нет, она устала"
                flags["correction"] = flags["replace"] = True
                flags["replace_at"] = match.entries[0].text
                rest = reading.sentence.tokens[i + match.length :]
                flags["reason"] = sum(not t.is_punct for t in rest) >= _REASON_MIN
                return match.length
        return _marker(ctx, cur, match, flags, loose)
    if (
        cur is not None
        and cur.kind is not Kind.CANCEL
        and not _in_third_clause(reading, ctx, i, cur)
    ):
        _unknown_word(ctx, cur, token.text, flags)
    flags["self_ok"] = False  # "tell me": a "me" after another verb is not a target
    return 1


def _no_then_name(reading: Reading, ctx: Context, j: int, cur: Draft) -> None:
    """ "Охраняю Зиновия... нет, Эмилию", "heal Osgood... no, Tilda": a "no" and a comma
    after the order's target, then a player: a correction or "not" that player, for the GM."""
    tokens = reading.sentence.tokens
    if j + 1 < len(tokens) and tokens[j].norm == "," and reading.name(ctx, j + 1) is not None:
        cur.guessed = "'no, <player>' after the order: a correction?"


def _opens_correction(reading: Reading, ctx: Context, j: int) -> bool:
    """The first word from token ``j`` on, past punctuation, starts a correction ("нет,
    лучше Х", "no, make it X"): the "no" before it is that correction's, not "not X"."""
    tokens = reading.sentence.tokens
    while j < len(tokens) and tokens[j].is_punct:
        j += 1
    match = reading.match(ctx, j) if j < len(tokens) else None
    return match is not None and "correction" in match.kinds() and reading.name(ctx, j) is None


def _carry_flags(
    flags: dict[str, Any], name: NameHit | None, match: Match | None, loose: bool
) -> None:
    """How far "don't" reaches, and whether a name before the order word stays adjacent."""
    if not (match and match.kinds() & (_KEEPS_NEGATION | TRIGGER_KINDS)):
        flags["negated"] = flags["negated"] and name is None and match is not None
    if loose and name is None:
        between = match is not None and bool(match.kinds() & (TRIGGER_KINDS | _FILLER_KINDS))
        flags["adjacent"] = flags["adjacent"] and between


# The Russian preposition of a check for a role ("проверяю Мефодия на шерифа").
_ROLE_FOR = frozenset({"на"})
_ARTICLES = frozenset({"the", "le", "la", "l", "les", "our", "notre", "my", "mon", "ma"})


_TOLD_PAST = "a past phase or 'was' between the order word and its player: told, not sent?"
# Past forms of "to be" ("ma cible était Urbain": a target told, not given).
_PAST_COPULAS = frozenset({"was", "were", "etait", "etaient", "ete", "fut", "был", "была",
                           "было", "были"})  # fmt: skip


def told_past(reading: Reading) -> str:
    """ "My target last night was Nell", "Ma cible était Urbain": a sentence naming a past
    phase or with a past "to be" tells a target; the doubt to record ("" if neither)."""
    norms = reading.norms
    past = any(n in _PAST_COPULAS or is_previous(norms, j) for j, n in enumerate(norms))
    return _TOLD_PAST if past else ""


def _past_copula_before(reading: Reading, ctx: Context, i: int, cur: Draft) -> bool:
    """A past form of "to be" between the order word and its first player at ``i``."""
    return _awaits_player(ctx, cur) and any(
        reading.norms[j] in _PAST_COPULAS for j in range(cur.end, i)
    )


def _awaits_player(ctx: Context, cur: Draft) -> bool:
    """A vote or an order taking a player, none named yet."""
    wants = cur.kind is Kind.VOTE or (cur.kind is Kind.ORDER and cur.wants(ctx, "player"))
    return wants and not cur.names


_THING_ARTICLES = _ARTICLES | {"un", "une", "des", "a", "an"}


def _thing_then_and(reading: Reading, ctx: Context, i: int, cur: Draft) -> bool:
    """ "Je vérifie le fil et Josselin ment", "I check the thread and Josselin lies": an
    order word whose object is a thing (an article, then a word that is no player), then
    "and" and the player at ``i``: that player is no target the order gave."""
    if cur.kind is not Kind.ORDER or cur.names or i < 1 or reading.norms[i - 1] not in AND_WORDS:
        return False
    tokens = reading.sentence.tokens
    return any(
        reading.norms[j] in _THING_ARTICLES
        and not tokens[j + 1].is_punct
        and reading.name(ctx, j + 1) is None
        for j in range(cur.end, i - 2)
    )


def said_player(reading: Reading, ctx: Context, i: int, length: int) -> bool:
    """ "le joueur Celty", "shinra (le joueur hein, pas moi)": the word "player" right before
    the name at ``i``, or among the three words after it, with no other name and no negation
    between ("shinra, pas le joueur" means the role)."""
    keys = ctx.lexicon.player_keys
    if i > 0 and reading.keys[i - 1] & keys:
        return not any(is_kind(reading, ctx, j, "negation") for j in range(max(i - 4, 0), i))
    for j in range(i + length, min(i + length + 4, len(reading.keys))):
        if reading.name(ctx, j) is not None or is_kind(reading, ctx, j, "negation"):
            return False  # "shinra, pas le joueur": the role
        if reading.keys[j] & keys:
            return True
    return False


def _role_like(reading: Reading, i: int, match: Match | None) -> bool:
    """A player's name that is also a role word, written as the role is: in lower case
    ("лечу шерифа") or after an article ("the Doctor")."""
    if match is None or not match.values("role"):
        return False
    token = reading.sentence.tokens[i]
    after_article = i > 0 and reading.norms[i - 1] in _ARTICLES
    return after_article or token.text[:1].islower()


def _role_elsewhere(ctx: Context, name: NameHit, match: Match | None) -> bool:
    """The role a name also means is held by another player (or unknown): two readings.
    "roleblock pyro" when Pyro is the arsonist has one."""
    roles = set(match.values("role")) if match is not None else set()
    slots = ctx.players.roster.slots
    if any(s.role is None for s in slots):
        return True
    holders = {s.name for s in slots if s.role in roles}
    return not holders <= set(name.players)


def _phase_at(
    reading: Reading,
    ctx: Context,
    i: int,
    found: tuple[Phase, int],
    cur: Draft | None,
    flags: dict[str, Any],
) -> int:
    """A phase reference: the crime's, the claim's, the order's, or chat ("yesterday")."""
    phase, length = found
    if is_previous(reading.norms, i) and not (cur and (cur.crimes or cur.claims)):
        if cur is not None and _awaits_player(ctx, cur):
            cur.guessed = _TOLD_PAST  # "My target last night: Nell": what was done
        return length  # "she posted a lot yesterday": not when the order is for
    if cur is not None and not (cur.crimes or cur.claims) and _told_past(reading, ctx, i, cur):
        return length  # "Тур Осипу… ой, нет, он уже ездил в первую ночь": history
    if cur is None:
        flags.setdefault("phases", []).append(phase)
    _add_phase(cur, phase)
    return length


def _start(
    reading: Reading,
    ctx: Context,
    i: int,
    match: Match,
    trigger: str,
    drafts: list[Draft],
    flags: dict[str, Any],
) -> int:
    tokens = reading.sentence.tokens
    end = i + match.length
    abilities = match.values("ability") if trigger == "ability" else ()
    cur = drafts[-1] if drafts else None
    if trigger == "will" and not _will_marker(reading, i, match, cur):
        return match.length
    if trigger == "cancel" and cur is not None and cur.kind in (Kind.ORDER, Kind.VOTE):
        # "Mon vote contre Kévin est annulé": the cancel is about the order just written
        abilities = cur.abilities if cur.kind is Kind.ORDER else ("vote",)
    if cur is not None and cur.kind is Kind.CANCEL and not cur.abilities and abilities:
        cur.abilities = abilities  # "cancel my protect"
        return match.length
    if cur is not None and cur.kind is Kind.CANCEL and not cur.abilities and trigger == "vote":
        between = range(cur.end, i)
        if all(is_kind(reading, ctx, j, "filler") for j in between):
            cur.abilities = ("vote",)  # "j'annule mon vote"; not "annulé, je vote Léa"
            return match.length
    subject = _clause_subject(reading, i, cur, flags) if trigger == "ability" else None
    draft = Draft(TRIGGERS[trigger], abilities, " ".join(t.text for t in tokens[i:end]),
                  reading.sentence.line, negated=flags["negated"])  # fmt: skip
    draft.start = i
    if subject is not None and cur is not None:
        draft.lent = (cur, subject)  # given back to ``cur`` if this order names nobody
        if subject.players != (ctx.actor,):
            draft.doer = subject  # "…, Вера вербует Женю"; "…, а я проверяю": the sender's
    draft.source = reading.sentence.text
    draft.hedged = flags.get("conditional", False)
    flags["self_ok"] = True
    draft.corrects = flags.pop("correction", False)
    draft.performer = flags.pop("performer", "")
    draft.doer_roles = flags.pop("performer_roles", ())
    draft.end = end
    draft.trigger_first = all(
        tokens[j].is_punct or is_kind(reading, ctx, j, "greeting") for j in range(i)
    )
    self_word = any(is_kind(reading, ctx, j, "self") for j in range(i, end))
    if self_word and draft.wants(ctx, "player"):
        draft.add_name(NameHit((ctx.actor,), 1, 1.0, "self"))  # "лечу себя" is one phrase
    flags["negated"] = False
    if draft.kind is Kind.ORDER and draft.wants(ctx, "claim") and not reading.sentence.quotes:
        rest = " ".join(t.text for t in tokens[end:])
        if rest:
            draft.claims.extend(parse_claims(rest, ctx))
            draft.hedged = draft.hedged or _unsure_words(reading, ctx, end)
            drafts.append(draft)
            return len(tokens) - i
    drafts.append(draft)
    return match.length


_UNSURE_KINDS = frozenset({"hedge", "doubt", "open_choice"})


# Interjections that make the "no" after them a take-back ("ой, нет", "oh, no", "oups, non").
_OOPS = frozenset({"ой", "упс", "oh", "oops", "oups"})
_REASON_MIN = 2  # words after the take-back's "no": its reason ("она устала")


def _after_interjection(reading: Reading, i: int) -> bool:
    """Whether the word before token ``i`` (past a comma) is an interjection (``_OOPS``)."""
    j = i - 1
    while j >= 0 and reading.sentence.tokens[j].is_punct:
        j -= 1
    return j >= 0 and reading.norms[j] in _OOPS


def _unsure_words(reading: Reading, ctx: Context, start: int) -> bool:
    """A hedge, doubt or open choice among the claims read from token ``start`` on ("and
    maybe 'nightowl kills Oskar'", "not sure about the third yet")."""
    for j in range(start, len(reading.sentence.tokens)):
        match = reading.match(ctx, j)
        if match is not None and match.kinds() & _UNSURE_KINDS and reading.name(ctx, j) is None:
            return True
    return False


def _will_marker(reading: Reading, i: int, match: Match, cur: Draft | None) -> bool:
    """ "Will:" / "My will" at the start of a sentence or of a clause before a short header
    ("…, mon testament de maire :"); never the English modal "I will"."""
    tokens = reading.sentence.tokens
    after = tokens[i + match.length] if i + match.length < len(tokens) else None
    multiword = match.length > 1 or tokens[i].norm in ("testament", "завещание")
    at_start = cur is None and all(t.is_punct for t in tokens[:i])
    colon = after is not None and after.norm in (":", "-", "=")
    # "Et pendant que j'y suis, mon testament de maire : …": a new clause, a short header
    clause = cur is None and i > 0 and tokens[i - 1].norm == ","
    header = any(t.norm == ":" for t in tokens[i + match.length : i + match.length + 3])
    return (
        (at_start and (multiword or colon))
        or (match.length > 1 and colon)
        or (clause and multiword and header)
    )


def _quote(reading: Reading, ctx: Context, i: int, cur: Draft) -> int:
    tokens = reading.sentence.tokens
    index = tokens[i].quote
    j = i
    while j < len(tokens) and tokens[j].quote == index:
        j += 1
    if index is not None:
        cur.claims.append(parse_claim(reading.sentence.quotes[index], ctx))
    return j - i


def _told_past(reading: Reading, ctx: Context, i: int, cur: Draft) -> bool:
    """An earlier phase than the PM's ("в первую ночь" on night 3), after an order that
    named all its players and a verb in the past tense after them ("он уже ездил"), tells
    what happened then: it is not the phase the order is for."""
    phase, now = reading.phase(ctx, i), ctx.phase
    if phase is None or cur.kind is not Kind.ORDER or not _has_its_players(ctx, cur):
        return False
    earlier = phase[0].number < now.number - (phase[0].kind != now.kind)
    last = next((j for j in range(i - 1, cur.start, -1) if reading.name(ctx, j)), None)
    if not earlier or last is None:
        return False
    return any(ctx.lexicon.morph.is_past(reading.norms[j]) for j in range(last + 1, i))


def _add_phase(cur: Draft | None, phase: Phase) -> None:
    if cur is None:
        return
    if cur.crimes and cur.crimes[-1].phase is None:
        cur.crimes[-1].phase = phase.id
    elif cur.claims and cur.claims[-1].phase is None and len(cur.claims) == 1:
        claim = cur.claims[-1]
        cur.claims[-1] = Claim(claim.text, claim.subject, claim.verb, claim.object, phase.id)
    else:
        cur.phases.append(phase)


def _add_name(
    cur: Draft | None, loose: list[NameHit], name: NameHit, flags: dict[str, Any]
) -> None:
    if flags.pop("skip_name", False):
        return
    if flags.pop("replace", False) and cur is not None and cur.kind is not Kind.CANCEL:
        cur.names.clear()
        cur.alt_next = cur.or_next = False
        flags.pop("correction", None)
    if cur is None:
        loose.append(name)
        flags["adjacent"] = True
    elif cur.kind is not Kind.CANCEL:
        cur.add_name(name)


def _marker(
    ctx: Context, cur: Draft | None, match: Match, flags: dict[str, Any], loose: list[NameHit]
) -> int:
    """Grammar words and catalogue words that are not triggers."""
    kinds = match.kinds()
    if "self" in kinds and cur is None:
        _add_name(None, loose, NameHit((ctx.actor,), 1, 1.0, "self"), flags)
    elif "self" in kinds and cur is not None and cur.kind is not Kind.CANCEL:
        if flags.get("self_ok", True):  # not "tell me who visits"
            hit = NameHit((ctx.actor,), 1, 1.0, "self")
            cur.add_name(hit)
            flags["name_span"] = (flags.get("at", -1), flags.get("at", -1) + match.length, hit)
    elif "negation" in kinds:
        if cur is not None and cur.names and cur.kind is not Kind.CANCEL:
            flags["skip_name"] = True  # "protect Carl, not Bob"
        else:
            flags["negated"] = True
    elif "open_choice" in kinds:
        flags["hedged"] = True  # "heal Frank (up to you)": the GM is asked to choose
    elif "hedge" in kinds:  # not "(she might…)"; but "(not 100% sure)" is about the order
        aside = flags.get("aside", False) and "doubt" not in kinds
        flags["hedged"] = flags["hedged"] or not aside
    elif "correction" in kinds:
        flags["correction"] = True  # the next order replaces the PM's earlier ones
        if cur is not None and cur.names and cur.kind is not Kind.CANCEL:
            flags["replace"] = True  # "charme Manon, enfin non, plutôt Lucas": Lucas
            flags["replace_at"] = match.entries[0].text
    elif cur is None:
        roles = match.values("role")
        if roles and ctx.role not in roles and not flags["negated"]:  # "X n'était pas Bacula"
            flags["performer"] = match.entries[0].text  # "our mafioso kills Iris"
            flags["performer_roles"] = tuple(roles)
        return match.length
    elif "alternative" in kinds:
        cur.alt_next = True
    elif "no_target" in kinds:
        _no_target(cur)
    elif "vague" in kinds:
        cur.vague = True
    elif "crime_link" in kinds:
        cur.crime_link = True
    elif match.values("role"):
        _add_role(cur, match.values("role")[0])
        if flags.get("role_for"):
            cur.role_sought = match.entries[0].text
    elif match.values("item"):
        cur.items.append(match.values("item")[0])
    return match.length


def _no_target(cur: Draft) -> None:
    """ "je vote blanc": nobody. After the order's player, "Je vote Anastase, il n'a aucune
    preuve" / "…, personne ne le croit" is a remark about that player, not the target; "Anastase
    ou personne" leaves the choice open (queued)."""
    if not cur.names:
        cur.nobody = True
    elif cur.alt_next or cur.or_next:
        cur.hedged = True


# Subjects that open a clause of their own after the order ("…, I have a feeling someone…").
_CLAUSE_SUBJECTS = frozenset({"i", "i'm", "im", "i've", "je", "j", "he", "she", "they", "il",
                              "elle", "ils", "elles", "я", "он", "она", "они", "he's", "she's",
                              "they're", "it's"})  # fmt: skip
_CLAUSE_MARKS = frozenset({",", ";", ":", "-", "—", "–"})
# Conjunctions that open a clause of its own before its subject ("… so I have an alibi").
_SO_BECAUSE = frozenset({"so", "because", "since", "cause", "coz"})


def _has_its_players(ctx: Context, cur: Draft) -> bool:
    """The draft names every player its abilities need, with no alternative pending."""
    if not cur.names or cur.alt_next or cur.or_next:
        return False
    for ability_id in cur.abilities:
        ability = ctx.lexicon.ruleset.abilities.get(ability_id)
        wanted = (
            [t for t in ability.targets if t.kind == "player" and not t.optional] if ability else []
        )
        if ability is None or len(wanted) > len(cur.names):
            return False
    return True


# How a performer named by a clause of its own after the order was found (``NameHit.how``).
VISITOR = "visitor"
# How a performer named as the subject of the order's verb was found ("Nick kills Ann").
SUBJECT = "subject"
# Marks and words that open the clause naming who carries an order out.
_VISITOR_OPENERS = frozenset({",", ";", "-", "—", "–", "and", "et", "и", "а"})


def _carries_it_out(reading: Reading, ctx: Context, i: int, length: int, cur: Draft | None) -> int:
    """ "The family hits Nell tonight, Crispin makes the visit", "La famille tue Bérangère
    ce soir, Aymeric s'en charge": one player named in a clause of its own at the end of an
    order's sentence, doing nothing but carry it out (``grammar.CARRY_OUT``), is who carries
    it out (the draft's performer), not a target. Returns the tokens the clause spans
    (0: not such a clause)."""
    if cur is None or cur.kind is not Kind.ORDER or cur.doer is not None or i < 1:
        return 0
    name = reading.name(ctx, i)
    if name is None or len(name.players) != 1 or name.players == (ctx.actor,):
        return 0
    tokens = reading.sentence.tokens
    gap = reading.sentence.text[tokens[i - 1].start + len(tokens[i - 1].text) : tokens[i].start]
    opened = reading.norms[i - 1] in _VISITOR_OPENERS or any(d in gap for d in "-—–")
    if not opened or not _has_its_players(ctx, cur):  # "kill Dina - Tobin handles it"
        return 0
    size = ctx.lexicon.phrase_at(reading.keys, i + length, ctx.lexicon.carry_out)
    if not size:
        return 0
    j = i + length + size
    while j < len(tokens):
        found = reading.phase(ctx, j)
        if found is not None and not is_previous(reading.norms, j):
            j += found[1]  # "…, Crispin makes the visit tonight"
        elif tokens[j].is_punct or is_kind(reading, ctx, j, "greeting"):
            j += 1
        else:
            return 0
    return len(tokens) - i


# Russian third person singular endings of a present or future verb ("стреляет", "убьёт",
# in normal form: "ё" is "е").
_THIRD_PERSON_ENDINGS = ("ет", "ит")


def _performer_after_verb(reading: Reading, ctx: Context, first: Draft, last: Draft) -> bool:
    """ "Ход клана: стреляем в Евграфа, стреляет Евпраксия": after a team order that named
    its players, a clause of the same order word in the third person singular followed by
    one player written as in the roster (the nominative: the subject, not the object, whose
    form would be declined) and nothing else names who carries the order out (set on
    ``first`` as ``VISITOR``). Returns whether ``last`` is that clause."""
    if first.doer is not None or not set(last.abilities) <= set(first.abilities):
        return False
    if first.kind is not Kind.ORDER or not _has_its_players(ctx, first):
        return False
    tokens, norms, verb = reading.sentence.tokens, reading.norms, last.start
    if verb < 1 or [len(g) for g in last.names] != [1]:
        return False
    before = tokens[verb - 1]
    gap = reading.sentence.text[before.start + len(before.text) : tokens[verb].start]
    if norms[verb - 1] not in _CLAUSE_MARKS and not any(d in gap for d in "-—–"):
        return False
    if not norms[verb].endswith(_THIRD_PERSON_ENDINGS):
        return False
    name = reading.name(ctx, verb + 1)
    if name is None or len(name.players) != 1 or name.players == (ctx.actor,):
        return False
    player = name.players[0]
    if name.length != 1 or norms[verb + 1] != normalize(player) or player in _sure_targets(first):
        return False
    if any(not t.is_punct for t in tokens[verb + 2 :]):
        return False
    first.doer = replace(govern(reading, ctx, verb + 1, name), how=VISITOR)
    return True


_OR_WORDS = frozenset({"or", "ou", "или", "либо"})
# Kinds that make a clause more than a remark: it may add to, change or doubt the order.
_NOT_REMARK = TRIGGER_KINDS | {"hedge", "doubt", "open_choice", "correction", "alternative",
                               "negation", "condition", "vague"}  # fmt: skip


def carries_out_sentence(reading: Reading, ctx: Context, cur: Draft, found: list[Draft]) -> bool:
    """ "Kill for tonight: Branwen. Ignatz does the visiting as usual, she's been sniffing
    around": a sentence after an order that named its players, opening with one other player
    who does nothing but carry it out (``grammar.CARRY_OUT``), the rest a remark (no name, no
    word that could add to, doubt or change an order), names the order's performer (set on
    ``cur`` as ``VISITOR``; the performer rules check it). ``found``, the drafts read in the
    sentence, may only start inside the carry-out phrase ("the visiting")."""
    if cur.kind is not Kind.ORDER or cur.doer is not None or not _has_its_players(ctx, cur):
        return False
    name = reading.name(ctx, 0)
    if name is None or len(name.players) != 1 or name.players == (ctx.actor,):
        return False
    size = ctx.lexicon.phrase_at(reading.keys, name.length, ctx.lexicon.carry_out)
    if not size or reading.sentence.question:
        return False
    if any(not name.length <= d.start < name.length + size for d in found):
        return False
    tokens = reading.sentence.tokens
    for j in range(name.length + size, len(tokens)):
        match = reading.match(ctx, j)
        if reading.name(ctx, j) is not None or (match and match.kinds() & _NOT_REMARK):
            return False
        if tokens[j].norm in _OR_WORDS or tokens[j].text[:1].isupper():
            return False  # "…, or Nick": another performer; a capital may be a misspelt name
    cur.doer = replace(govern(reading, ctx, 0, name), how=VISITOR)
    return True


def _in_remark_clause(reading: Reading, ctx: Context, i: int, cur: Draft) -> bool:
    """ "Ce soir je check Ophélie stp, elle a défendu Léandre bizarrement": a name in a
    clause of its own after an order that named all its players (a mark, then a third
    person as subject), telling what that person did or is (a past tense or a remark
    word), with no word that could add to, pick or change an order, is chat."""
    if cur.kind is not Kind.ORDER or not _has_its_players(ctx, cur):
        return False
    norms, keys, lexicon = reading.norms, reading.keys, ctx.lexicon
    mark = next((j for j in range(i - 1, cur.start, -1) if norms[j] in _CLAUSE_MARKS), None)
    if mark is None or any(reading.name(ctx, j) for j in range(mark, i)):
        return False
    subject = next((j for j in range(mark + 1, i) if norms[j] in _THIRDS), None)
    if subject is None:
        return False
    end = next((j for j in range(i + 1, len(norms)) if norms[j] in _CLAUSE_MARKS), len(norms))
    told = False
    for j in range(subject + 1, end):
        if reading.name(ctx, j) is not None and j != i:
            return False
        found = reading.match(ctx, j)
        if found is not None and found.kinds() & _NOT_REMARK:
            return False
        if keys[j] & (lexicon.preference_keys | lexicon.pick_keys | lexicon.sequence_keys):
            return False
        told = told or bool(keys[j] & lexicon.remark_keys) or norms[j] in _PAST_AUXILIARIES
        told = told or lexicon.morph.is_past(norms[j])
    return told


def _described_aside(reading: Reading, ctx: Context, i: int, cur: Draft) -> bool:
    """ "Shadow Rosalind, I have a feeling someone is going to visit her", "shoot Piotr
    instead of whoever he picked": a described person after the order named all the players
    it takes, in a clause of its own (a mark, then a new subject) or as the target it
    replaces ("instead of", "au lieu de", "вместо") or in a wish of its own ("пусть …"), is
    no doubt about the order's target."""
    if not _has_its_players(ctx, cur):
        return False
    named = (j for j in range(i - 1, -1, -1)
             if reading.name(ctx, j) is not None or is_kind(reading, ctx, j, "self"))  # fmt: skip
    last = next(named, None)
    if last is None:
        return False
    norms, keys = reading.norms, reading.keys
    if any(
        keys[j] & ctx.lexicon.instead_keys or norms[j] in _INSTEAD_OF
        for j in range(max(last + 1, i - 2), i)
    ):
        return True
    if _wished(reading, ctx, max(last + 1, i - 2), i):
        return True  # "Дарю Нестору турпутёвку, пусть отправит кого-нибудь отдохнуть"
    marks = [j for j in range(last + 1, i) if norms[j] in _CLAUSE_MARKS
             or (norms[j] in _SO_BECAUSE and norms[j + 1] in _CLAUSE_SUBJECTS)]  # fmt: skip
    return bool(marks) and any(norms[j] in _CLAUSE_SUBJECTS for j in range(marks[0] + 1, i))


# Words opening a wish about what someone else will do ("пусть отправит кого-нибудь").
_WISHES = frozenset({"пусть", "пускай"})


def _wished(reading: Reading, ctx: Context, start: int, i: int) -> bool:
    """A wish word at most two words before token ``i`` with only plain words between
    ("пусть отправит кого-нибудь": no mark, name or grammar word; not "пусть ведущий
    решит, может кого-нибудь")."""
    norms = reading.norms
    for j in range(start, i):
        if norms[j] in _WISHES:
            between = range(j + 1, i)
            return not any(reading.sentence.tokens[k].is_punct or reading.match(ctx, k)
                           or reading.name(ctx, k) for k in between)  # fmt: skip
    return False


_INSTEAD_OF = frozenset({"lieu", "вместо"})  # "au lieu de", "вместо"


_UNSURE = frozenset({"hedge", "doubt"})
_THIRDS = frozenset({"he", "she", "they", "he's", "she's", "they're", "il", "elle", "ils",
                     "elles", "он", "она", "они"})  # fmt: skip


def _about_a_third(reading: Reading, ctx: Context, i: int, cur: Draft) -> bool:
    """ "Heal CTU tonight, she's probably getting targeted": a hedge after the order's
    players, in a clause of its own whose subject is a third person, is about that person."""
    if not cur.names or cur.alt_next or cur.or_next:
        return False
    for j in range(i - 1, -1, -1):
        norm = reading.norms[j]
        if norm in _CLAUSE_MARKS:
            return False
        if norm in _THIRDS:  # a clause mark before it, and a name before that mark
            norms = reading.norms
            mark = next((k for k in range(j - 1, -1, -1) if norms[k] in _CLAUSE_MARKS), None)
            return mark is not None and reading.first_name(ctx) < mark
    return False


_IF = frozenset({"if", "si", "whether", "ли"})


def _searched_for(reading: Reading, ctx: Context, i: int, match: Match, cur: Draft) -> bool:
    """ "Je cherche si Gontran est Bacula", "check whether Mike is mafia": an "if" between
    an investigation's order word and its player says what to find out, not a doubt."""
    abilities = ctx.lexicon.ruleset.abilities
    if match.length != 1 or not _is_if(match) or cur.kind is not Kind.ORDER:
        return False
    if reading.name(ctx, i + 1) is None:  # "je cherche si tu veux Gontran": a doubt
        return False
    if cur.end != i or cur.names or not cur.abilities:
        return False
    return all(a in abilities and effect_of(abilities[a]) == "investigate" for a in cur.abilities)


def _is_if(match: Match) -> bool:
    """The match is the word "if" of one of the three languages."""
    return any(e.norms == (word,) for e in match.entries for word in _IF)


def _in_third_clause(reading: Reading, ctx: Context, i: int, cur: Draft) -> bool:
    """ "je cherche si Gontran est Bacula, il a une tête d'Echarpe Jaune": a word in a clause
    of its own about a third person, after an order that named its players, is no part of
    the order (an unknown capital there is no misspelt target)."""
    return _has_its_players(ctx, cur) and _about_a_third(reading, ctx, i, cur)


def _asked_result(reading: Reading, ctx: Context, i: int, match: Match) -> bool:
    """ "tell me if he's scum", "dis-moi si elle ment": an "if" right after a request for
    the result is what to report, not a doubt about the order."""
    if match.length != 1 or reading.norms[i] not in _IF:
        return False
    for j in range(max(i - 3, 0), i):
        found = reading.match(ctx, j)
        if found is not None and "tell_me" in found.kinds() and j + found.length == i:
            return True
    return False


_TO_REPORT = frozenset({"hedge", "vague"})
# "I want to know who": the sender asks what the info ability reports.
_KNOW = (("want", "to", "know"), ("wanna", "know"), ("like", "to", "know"))


def _to_report(reading: Reading, ctx: Context, i: int, cur: Draft) -> bool:
    """ "I'll shadow Jessamine tonight, if anybody goes after her I want to know who",
    "Shadow X, tell me if anybody visits her": after an info ability's order that named all
    its players, an "if" or a described person in a later clause that asks for the result
    (a "tell me" or "I want to know" after the order's players) is what to report, not a
    condition or a target; no other name may follow."""
    abilities = ctx.lexicon.ruleset.abilities
    if not cur.abilities or not all(
        a in abilities and (
            "info" in abilities[a].tags or "reveals" in abilities[a].effect_params
            or abilities[a].effect.value == "investigate"
        )
        for a in cur.abilities
    ):  # fmt: skip
        return False
    rest = range(i, len(reading.norms))
    if not _has_its_players(ctx, cur) or any(
        reading.name(ctx, j) is not None
        or reading.keys[j] & ctx.lexicon.preference_keys
        or reading.norms[j] in _OTHER_CHOICE
        for j in rest
    ):
        return False  # "…, let me know if anyone else would be better": another target?
    norms = reading.norms
    ask = next((j for j in range(cur.end, len(norms)) if _asks_who(reading, ctx, j)), None)
    if ask is None:
        return False
    if ask < i:  # "tell me if anybody goes after her": the "if" of the request, then a player
        return i - ask <= _REQUEST_SPAN and any(norms[j] in _IF for j in range(ask, i))
    return any(norms[j] in _PRONOUNS_3 for j in range(i, ask))  # "if anybody visits her"


# Third persons the clause of what to report refers to the order's target by.
_PRONOUNS_3 = frozenset({"her", "him", "them", "she", "he", "they", "she's", "he's"})
_WHO = frozenset({"who", "whom", "what", "whether", "if", "where"})
_OTHER_CHOICE = frozenset({"else", "instead", "better", "rather", "other"})
_REQUEST_SPAN = 4  # "tell me if anybody": the request's words, then the "if", then the player


def _asks_who(reading: Reading, ctx: Context, j: int) -> bool:
    """A request for the result at token ``j`` ("I want to know", "tell me") followed by
    "who", "what", "if"…"""
    norms = reading.norms
    for know in _KNOW:
        end = j + len(know)
        if tuple(norms[j:end]) == know and end < len(norms) and norms[end] in _WHO:
            return True
    found = reading.match(ctx, j)
    if found is None or "tell_me" not in found.kinds():
        return False
    end = j + found.length
    return end < len(norms) and norms[end] in _WHO


# "au cas où", "just in case" ending the sentence after the order's player: its purpose.
_IN_CASE = frozenset({("au", "cas", "ou"), ("in", "case"), ("на", "случай")})


def _just_in_case(reading: Reading, i: int, match: Match) -> bool:
    """ "Clean Gethin, just in case.", "nettoyage sur Victoire, au cas où": a "just in case"
    with nothing after it in the sentence (no condition of its own) is why the order is
    given, not a doubt about it; "au cas où il meurt, sinon X" keeps its condition."""
    words = tuple(reading.norms[i : i + match.length])
    if words not in _IN_CASE:
        return False  # before the rest of the sentence is copied: no rescan at each word
    rest = reading.sentence.tokens[i + match.length :]
    return (bool(rest) and rest[0].norm == ":") or all(not t.norm.isalnum() for t in rest)


def _add_role(cur: Draft, role: str) -> None:
    if cur.crimes and cur.crimes[-1].role is None:
        cur.crimes[-1].role = role
    else:
        cur.roles.append(role)


AND_WORDS = frozenset({"and", "et", "и", "&"})
"""Words joining a target to another: an unread word after one may be a second target."""


def _unknown_word(ctx: Context, cur: Draft, word: str, flags: dict[str, Any]) -> None:
    """A word of no vocabulary: "or", a fuzzy player name, or noise the GM should see."""
    if word.casefold() in ("or", "ou", "или"):
        cur.or_next = True
        return
    if not word[:1].isalnum():
        return
    joined = cur.and_next  # "charme toto et lulu": the word after 'and' may be a second target
    looks_like_name = not cur.names or word[:1].isupper()
    wants_player = cur.kind in (Kind.VOTE, Kind.HANDOFF) or cur.wants(ctx, "player")
    hit = ctx.players.fuzzy(word) if len(word) >= 2 and looks_like_name and wants_player else None
    if hit is not None:
        _add_name(cur, [], hit, flags)
    elif word.casefold() not in ctx.lexicon.known_words:
        cur.unknown.append(word)
        if not cur.names and not cur.roles:
            cur.unread_first.append(word)  # "Ищу шерифиню - Дарья": a role not read?
        if joined:
            cur.joined.append(word)
