"""Cues: what the words around a token say about how to read it (order word or name,
crime, condition, an order word inside another order). Predicates only; no state."""

from __future__ import annotations

import re

from parsers.orders.context import Context, Reading
from parsers.orders.draft import TRIGGERS, Draft
from parsers.orders.grammar import GOVERNMENT, VERB_CASE
from parsers.orders.lexicon import Match
from parsers.orders.model import Kind
from parsers.orders.players import NameHit

TRIGGER_RANK = ("handoff", "cancel", "will", "vote", "ability")
# The verb linking a vote to its player ("my vote is Saoirse"), which a ruleset may also
# list as an order word (DCTP's identify "Akonyl is Sonoko")
VOTE_LINKS = frozenset({"is", "est"})


def takes_role(ability_id: str, ctx: Context) -> bool:
    """A disguise-like ability: its object is a role, not a player."""
    ability = ctx.lexicon.ruleset.abilities.get(ability_id)
    kinds = {t.kind for t in ability.targets} if ability else set()
    return "role" in kinds and "player" not in kinds


def govern(reading: Reading, ctx: Context, i: int, hit: NameHit) -> NameHit:
    """Choose between names a Russian case form belongs to by the case the context needs.

    "к Тигре" (dative) is Тигра, "убиваю Тигру" (accusative after the verb) is Тигра too;
    when one reading is a name left undeclined ("лечу Тигра"), the GM still decides.
    """
    if len(hit.players) < 2 or i == 0:
        return hit
    norm = reading.norms[i]
    cases = {p: ctx.players.cases(norm, p) for p in hit.players}
    if any(not c or "nomn" in c for c in cases.values()):
        return hit
    before = reading.norms[i - 1]
    if before in GOVERNMENT:
        expected = frozenset(GOVERNMENT[before].split())
    elif is_kind(reading, ctx, i - 1, "ability") and ctx.lexicon.morph.is_verb(before):
        expected = frozenset({VERB_CASE})  # "убиваю Тигру"; not "меняю цель Тигру" (a noun)
    else:
        return hit
    keep = [p for p, c in cases.items() if c & expected]
    return NameHit((keep[0],), hit.length, 0.95, "case") if len(keep) == 1 else hit


TRIGGER_KINDS = frozenset(TRIGGERS)


def continues(reading: Reading, ctx: Context, carry: Draft | None) -> bool:
    """ "arrest Akonyl. Crime: killing CTU, Night 1." completes the crime of the draft before
    (only non-player slots: a bare name stays a correction for the GM to confirm); "j'utilise
    le PAD. Léopoldine est Shinra." gives an order still waiting for a player and a role
    both (``_player_is_role``)."""
    if _player_is_role(reading, ctx, carry):
        return True
    if carry is None or carry.kind is not Kind.ORDER or not carry.names:
        return False
    if carry.crimes and carry.crimes[-1].phase is not None:
        return False
    if not carry.wants(ctx, "crime") or reading.sentence.question:
        return False
    return not any(actor_trigger(reading, ctx, j) for j in range(len(reading.keys)))


_COPULAS = frozenset({"is", "est"})


def _player_is_role(reading: Reading, ctx: Context, carry: Draft | None) -> bool:
    """A sentence that is only "<player> is <role>" ("Léopoldine est Shinra.") right after
    an order word that named nothing yet and takes a player and a role."""
    if carry is None or carry.kind is not Kind.ORDER or reading.sentence.question:
        return False
    if carry.names or carry.roles or carry.claims or carry.hedged:
        return False
    if not (carry.wants(ctx, "player") and carry.wants(ctx, "role")):
        return False
    words = [j for j, t in enumerate(reading.sentence.tokens) if not t.is_punct]
    name = reading.name(ctx, 0)
    if name is None or len(name.players) != 1 or len(words) != name.length + 2:
        return False
    copula, role = words[name.length], words[name.length + 1]
    match = reading.match(ctx, role)
    return reading.norms[copula] in _COPULAS and bool(match and match.values("role"))


def condition_end(reading: Reading, ctx: Context, i: int) -> int:
    """End of "if <name> is lynched[, then]" starting at ``i``, or 0 when none starts there."""
    match = reading.match(ctx, i)
    if not match or "condition" not in match.kinds() or match.kinds() & TRIGGER_KINDS:
        return 0
    tokens = reading.sentence.tokens
    for j in range(i + match.length, min(i + match.length + 6, len(tokens))):
        gone = reading.match(ctx, j)
        if gone and "gone" in gone.kinds():
            end = j + gone.length
            while end < len(tokens) and (
                tokens[end].is_punct or is_kind(reading, ctx, end, "clause")
            ):
                end += 1
            return end
    return 0


def is_kind(reading: Reading, ctx: Context, i: int, kind: str) -> bool:
    match = reading.match(ctx, i)
    return bool(match and kind in match.kinds())


def absorbs(cur: Draft, ctx: Context, match: Match, reading: Reading, i: int) -> bool:
    """An order word inside an order: "order: Akonyl kills CTU", "identify Callid is Eisuke",
    "new leader vote: Kleene" (a trigger right after one that has nothing yet), "my vote is
    Saoirse" (the vote's linking verb, not an order word)."""
    if cur.kind is Kind.VOTE and _links_vote(cur, reading, match, i):
        return True
    if cur.kind is not Kind.ORDER or not match.kinds() & {"ability", "vote"}:
        return False  # a will, a cancel or a hand-off always starts its own draft
    if match.kinds() & {"will", "cancel", "handoff"}:
        return False
    has_values = bool(cur.names or cur.roles or cur.claims or cur.crimes or cur.items)
    if not has_values:
        previous = reading.sentence.tokens[:i]
        adjacent = bool(previous) and not previous[-1].is_punct and _just_started(cur, reading, i)
        if adjacent and missing(cur, ctx, "player"):
            return True
        # "Detect: is Kid in the game?": another role's word ("is") that is also a word of
        # this order's own phrases ("is in the game"), while it waits for a value
        own = set().union(*(ctx.lexicon.ability_words.get(a, set()) for a in cur.abilities))
        words = set(reading.norms[i : i + match.length])
        return player_only(ctx, match) and bool(cur.abilities) and words <= own
    same = bool(set(match.values("ability")) & set(cur.abilities))
    if (same and missing(cur, ctx, "role")) or missing(cur, ctx, "player"):
        return True
    # "Control Bob, make him heal Doctor": the same order word again, or another role's,
    # inside an order that still has an (optional) player slot open
    return (same or player_only(ctx, match)) and missing(cur, ctx, "player", optional=True)


def _links_vote(cur: Draft, reading: Reading, match: Match, i: int) -> bool:
    """A linking verb right after a vote word that has no player yet ("vote is Saoirse")."""
    if cur.names or match.length != 1 or reading.norms[i] not in VOTE_LINKS:
        return False
    start = i
    while start > 0 and _PHASE_WORD.match(reading.norms[start - 1]):
        start -= 1  # "my vote today is Thackeray", "my vote for day 2 is …"
    previous = reading.sentence.tokens[:start]
    return bool(previous) and not previous[-1].is_punct and _just_started(cur, reading, start)


# The words of a phase between a vote word and its linking verb.
_PHASE_WORD = re.compile(r"^(?:today|tonight|for|on|this|day|night|[nd]?\d{1,2})$")


def _just_started(cur: Draft, reading: Reading, i: int) -> bool:
    tokens = reading.sentence.tokens
    text = " ".join(t.text for t in tokens[:i])
    return text.endswith(cur.trigger)


def missing(cur: Draft, ctx: Context, kind: str, *, optional: bool = False) -> bool:
    """Every ability the draft may be still lacks a required slot of ``kind``."""
    if not cur.abilities:
        return False
    for ability_id in cur.abilities:
        ability = ctx.lexicon.ruleset.abilities.get(ability_id)
        if ability is None:
            return False
        need = sum(1 for t in ability.targets if t.kind == kind and (optional or not t.optional))
        have = len(cur.names) if kind == "player" else len(cur.roles)
        if have >= need:
            return False
    return True


def is_crime(cur: Draft, ctx: Context, match: Match, name: NameHit | None) -> bool:
    """A crime word in an arrest; after "for", any ability word is read as the crime (the
    validator then says "Spy is not a crime")."""
    if not cur.wants(ctx, "crime"):
        return False
    if not match.values("crime") and not (cur.crime_link and match.values("ability")):
        return False
    filled = bool(cur.crimes) and (cur.crimes[-1].victim is not None)
    return (cur.crime_link or bool(cur.names)) and not filled and name is None


def trigger_kind(match: Match, ctx: Context) -> str | None:
    """The sender's own ability first ("сижу дома" is a move where the ruleset has it), then
    hand-off, cancel, will, vote, and another role's ability last."""
    kinds = match.kinds()
    if ctx.abilities and "ability" in kinds and set(match.values("ability")) & ctx.abilities:
        return "ability"
    if "target" in kinds:
        return None  # "cible" is the wolves' word, but from Shinra it names her target
    return next((k for k in TRIGGER_RANK if k in kinds), None)


def prefers_trigger(
    reading: Reading, ctx: Context, i: int, cur: Draft | None, match: Match
) -> bool:
    """A word that is both a name and an order word ("Kill") is the order word at the start
    of a clause, unless another word of the sentence is one of the sender's order words;
    after an order word still waiting for its target, it is the name."""
    if cur is not None and cur.kind is not Kind.CANCEL and not cur.names:
        return False
    if not player_only(ctx, match):
        return True
    return not any(actor_trigger(reading, ctx, j) for j in range(len(reading.keys)) if j != i)


def actor_trigger(reading: Reading, ctx: Context, j: int) -> bool:
    match = reading.match(ctx, j)
    return bool(match and "ability" in match.kinds()
                and set(match.values("ability")) & (ctx.abilities or set()))  # fmt: skip


def player_only(ctx: Context, match: Match) -> bool:
    """True when the only order words the match holds are abilities the actor lacks."""
    ids = match.values("ability")
    return bool(ids) and ctx.abilities is not None and not (set(ids) & ctx.abilities)


def role_wanted(cur: Draft | None, ctx: Context, match: Match | None) -> bool:
    """A name that is also a role word fills a role slot once the player slot is filled."""
    if cur is not None and match is not None and match.values("role") and cur.crimes:
        crime = cur.crimes[-1]
        if crime.role is None and crime.victim is None and takes_role(crime.crime, ctx):
            return True  # "arrest Akonyl for disguising as Ran": the role, not the player
    return (
        cur is not None
        and match is not None
        and bool(match.values("role"))
        and (bool(cur.names) or not cur.wants(ctx, "player"))  # "Detect: is Kid in the game?"
        and cur.wants(ctx, "role")
        and not cur.roles
    )


def conditional_outcome(ctx: Context, ability_id: str) -> bool:
    """The ability's effect depends on what the target does or is (``then``, ``if_*``,
    ``on_*`` effect parameters: the Executioner beheads a target who acts hostile, the
    Jailer's check for sin jails the sinful): "if ..., I behead" tells what it does."""
    ability = ctx.lexicon.ruleset.abilities.get(ability_id)
    keys = ability.effect_params if ability is not None else {}
    return any(k == "then" or k.startswith(("if_", "on_")) for k in keys)
