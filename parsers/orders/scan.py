"""Reading one sentence left to right into drafts: a trigger word plus what follows it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parsers.orders.claims import parse_claim
from parsers.orders.context import Context, Reading
from parsers.orders.lexicon import Match
from parsers.orders.model import Claim, Crime, Kind
from parsers.orders.players import NameHit
from parsers.phases import Phase, is_previous

# Phrase kinds that start a new draft, and the draft kind each starts.
TRIGGERS = {
    "ability": Kind.ORDER,
    "vote": Kind.VOTE,
    "cancel": Kind.CANCEL,
    "will": Kind.WILL,
    "handoff": Kind.HANDOFF,
}
_TRIGGER_RANK = ("handoff", "cancel", "will", "vote", "ability")
_TRIGGER_KINDS = frozenset(TRIGGERS)
_FILLER_KINDS = frozenset({"filler", "greeting"})
# Words that may sit between "don't" and its order word ("don't want to check").
_KEEPS_NEGATION = frozenset({"negation", "filler", "greeting", "vague"})


@dataclass(slots=True)
class CrimeDraft:
    """A crime being read: ``for killing Conia on Night 1``."""

    crime: str
    victim: str | None = None
    role: str | None = None
    phase: str | None = None

    def done(self) -> Crime:
        """The finished crime value."""
        return Crime(self.crime, self.victim, self.phase, self.role)


@dataclass(slots=True)
class Draft:
    """What one trigger word and the words after it say, before choosing an ability."""

    kind: Kind
    abilities: tuple[str, ...]
    trigger: str
    line: int
    names: list[list[NameHit]] = field(default_factory=list)
    roles: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    crimes: list[CrimeDraft] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    phases: list[Phase] = field(default_factory=list)
    text: str = ""
    unknown: list[str] = field(default_factory=list)
    negated: bool = False
    hedged: bool = False
    question: bool = False
    nobody: bool = False
    vague: bool = False
    guessed: str = ""
    corrects: bool = False
    trigger_first: bool = False
    alt_next: bool = False
    or_next: bool = False
    crime_link: bool = False
    source: str = ""

    def wants(self, ctx: Context, kind: str) -> bool:
        """True if an ability this draft may be has a target/param of ``kind``."""
        for ability_id in self.abilities:
            ability = ctx.lexicon.ruleset.abilities.get(ability_id)
            if ability is None:
                continue
            kinds = [t.kind for t in ability.targets] + [p.kind for p in ability.params.values()]
            if kind in kinds:
                return True
        return False

    def add_name(self, hit: NameHit) -> None:
        """A player name: a ranked alternative after "else", otherwise a new value."""
        if self.crimes and self.crimes[-1].victim is None and len(hit.players) == 1:
            self.crimes[-1].victim = hit.players[0]
        elif self.names and (self.alt_next or self.or_next):
            self.names[-1].append(hit)
            if self.or_next:
                self.unknown.append("or")
        else:
            self.names.append([hit])
        self.alt_next = self.or_next = False


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
    carried = carry is not None and bool(carry.names) and bool(_condition_end(reading, ctx, 0))
    carried = carried or _continues(reading, ctx, carry)
    if carried and carry is not None:
        drafts.append(carry)
    while i < len(tokens):
        cur = drafts[-1] if drafts else None
        i += _step(reading, ctx, i, cur, drafts, loose, flags)
    if drafts and drafts[0] is carry:
        drafts.pop(0)
    if drafts:
        drafts[0].phases[:0] = flags.get("phases") or []  # "на третью ночь лечу Стаса"
    if drafts and loose and not drafts[0].names and flags["adjacent"]:
        drafts[0].names.extend([hit] for hit in loose)  # "Kyle - check", "Bob: heal"
    elif drafts and loose:  # "Akonyl, kill CTU": a name the order does not use
        drafts[0].unknown += [h.players[0] for h in loose if h.players != (ctx.actor,)]
    for draft in drafts:
        draft.hedged = draft.hedged or flags["hedged"]
        draft.question = reading.sentence.question
    return drafts, carried


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
        return 1
    if cur is not None and cur.kind is Kind.WILL:
        cur.text = reading.sentence.text[token.start :].strip()
        return len(reading.sentence.tokens) - i
    found_phase = reading.phase(ctx, i)
    name = reading.name(ctx, i)
    match = reading.match(ctx, i)
    if not (match and match.kinds() & (_KEEPS_NEGATION | _TRIGGER_KINDS)):
        flags["negated"] = flags["negated"] and name is None and match is not None
    if loose and cur is None and name is None:
        between = match is not None and bool(match.kinds() & (_TRIGGER_KINDS | _FILLER_KINDS))
        flags["adjacent"] = flags["adjacent"] and between
    if found_phase and (name is None or found_phase[1] >= name.length):
        if is_previous(reading.norms, i) and not (cur and (cur.crimes or cur.claims)):
            return found_phase[1]  # "she posted a lot yesterday": not when the order is for
        if cur is None:
            flags.setdefault("phases", []).append(found_phase[0])  # type: ignore[attr-defined]
        _add_phase(cur, found_phase[0])
        return found_phase[1]
    end = _condition_end(reading, ctx, i)
    if end:
        if cur is not None and cur.names:
            cur.alt_next = True  # "if Conia is lynched, then CTU"
        flags["conditional"] = True  # an order given after the condition depends on it
        return end - i
    if cur is not None and match and _is_crime(cur, ctx, match, name):
        cur.crimes.append(CrimeDraft((match.values("crime") or match.values("ability"))[0]))
        cur.crime_link = False
        return match.length
    trigger = _trigger_kind(match, ctx) if match else None
    if trigger and match is not None:
        if name is None and cur is not None and _absorbs(cur, ctx, match, reading, i):
            return match.length
        if name is None or _prefers_trigger(reading, ctx, i, cur, match):
            return _start(reading, ctx, i, match, trigger, drafts, flags)
    if name is not None and not _role_wanted(cur, ctx, match):
        _add_name(cur, loose, name, flags)
        return name.length
    if match is not None:
        return _marker(ctx, cur, match, flags, loose)
    if cur is not None and cur.kind is not Kind.CANCEL:
        _unknown_word(ctx, cur, token.text, flags)
    return 1


def _continues(reading: Reading, ctx: Context, carry: Draft | None) -> bool:
    """ "arrest Akonyl. Crime: killing CTU, Night 1." completes the crime of the draft before
    (only non-player slots: a bare name stays a correction for the GM to confirm)."""
    if carry is None or carry.kind is not Kind.ORDER or not carry.names:
        return False
    if carry.crimes and carry.crimes[-1].phase is not None:
        return False
    if not carry.wants(ctx, "crime") or reading.sentence.question:
        return False
    return not any(_actor_trigger(reading, ctx, j) for j in range(len(reading.keys)))


def _condition_end(reading: Reading, ctx: Context, i: int) -> int:
    """End of "if <name> is lynched[, then]" starting at ``i``, or 0 when none starts there."""
    match = reading.match(ctx, i)
    if not match or "condition" not in match.kinds() or match.kinds() & _TRIGGER_KINDS:
        return 0
    tokens = reading.sentence.tokens
    for j in range(i + match.length, min(i + match.length + 6, len(tokens))):
        gone = reading.match(ctx, j)
        if gone and "gone" in gone.kinds():
            end = j + gone.length
            while end < len(tokens) and (
                tokens[end].is_punct or _is_kind(reading, ctx, end, "clause")
            ):
                end += 1
            return end
    return 0


def _is_kind(reading: Reading, ctx: Context, i: int, kind: str) -> bool:
    match = reading.match(ctx, i)
    return bool(match and kind in match.kinds())


def _absorbs(cur: Draft, ctx: Context, match: Match, reading: Reading, i: int) -> bool:
    """An order word inside an order: "order: Akonyl kills CTU", "identify Callid is Eisuke",
    "new leader vote: Kleene" (a trigger right after one that has nothing yet)."""
    if cur.kind is not Kind.ORDER:
        return False
    has_values = bool(cur.names or cur.roles or cur.claims or cur.crimes or cur.items)
    if not has_values:
        previous = reading.sentence.tokens[:i]
        adjacent = bool(previous) and not previous[-1].is_punct and _just_started(cur, reading, i)
        return adjacent and _missing(cur, ctx, "player")
    same = bool(set(match.values("ability")) & set(cur.abilities))
    return (same and _missing(cur, ctx, "role")) or _missing(cur, ctx, "player")


def _just_started(cur: Draft, reading: Reading, i: int) -> bool:
    tokens = reading.sentence.tokens
    text = " ".join(t.text for t in tokens[:i])
    return text.endswith(cur.trigger)


def _missing(cur: Draft, ctx: Context, kind: str) -> bool:
    """Every ability the draft may be still lacks a required slot of ``kind``."""
    if not cur.abilities:
        return False
    for ability_id in cur.abilities:
        ability = ctx.lexicon.ruleset.abilities.get(ability_id)
        if ability is None:
            return False
        need = sum(1 for t in ability.targets if t.kind == kind and not t.optional)
        have = len(cur.names) if kind == "player" else len(cur.roles)
        if have >= need:
            return False
    return True


def _is_crime(cur: Draft, ctx: Context, match: Match, name: NameHit | None) -> bool:
    """A crime word in an arrest; after "for", any ability word is read as the crime (the
    validator then says "Spy is not a crime")."""
    if not cur.wants(ctx, "crime"):
        return False
    if not match.values("crime") and not (cur.crime_link and match.values("ability")):
        return False
    filled = bool(cur.crimes) and (cur.crimes[-1].victim is not None)
    return (cur.crime_link or bool(cur.names)) and not filled and name is None


def _trigger_kind(match: Match, ctx: Context) -> str | None:
    """The sender's own ability first ("сижу дома" is a move where the ruleset has it), then
    hand-off, cancel, will, vote, and another role's ability last."""
    kinds = match.kinds()
    if ctx.abilities and set(match.values("ability")) & ctx.abilities:
        return "ability"
    if "target" in kinds:
        return None  # "cible" is the wolves' word, but from Shinra it names her target
    return next((k for k in _TRIGGER_RANK if k in kinds), None)


def _prefers_trigger(
    reading: Reading, ctx: Context, i: int, cur: Draft | None, match: Match
) -> bool:
    """A word that is both a name and an order word ("Kill") is the order word at the start
    of a clause, unless another word of the sentence is one of the sender's order words;
    after an order word still waiting for its target, it is the name."""
    if cur is not None and cur.kind is not Kind.CANCEL and not cur.names:
        return False
    if not _player_only(ctx, match):
        return True
    return not any(_actor_trigger(reading, ctx, j) for j in range(len(reading.keys)) if j != i)


def _actor_trigger(reading: Reading, ctx: Context, j: int) -> bool:
    match = reading.match(ctx, j)
    return bool(match and set(match.values("ability")) & (ctx.abilities or set()))


def _player_only(ctx: Context, match: Match) -> bool:
    """True when the only order words the match holds are abilities the actor lacks."""
    ids = match.values("ability")
    return bool(ids) and ctx.abilities is not None and not (set(ids) & ctx.abilities)


def _role_wanted(cur: Draft | None, ctx: Context, match: Match | None) -> bool:
    """A name that is also a role word fills a role slot once the player slot is filled."""
    return (
        cur is not None
        and match is not None
        and bool(match.values("role"))
        and bool(cur.names)
        and cur.wants(ctx, "role")
        and not cur.roles
    )


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
    if cur is not None and cur.kind is Kind.CANCEL and not cur.abilities and abilities:
        cur.abilities = abilities  # "cancel my protect"
        return match.length
    if cur is not None and cur.kind is Kind.CANCEL and not cur.abilities and trigger == "vote":
        cur.abilities = ("vote",)  # "j'annule mon vote"
        return match.length
    draft = Draft(TRIGGERS[trigger], abilities, " ".join(t.text for t in tokens[i:end]),
                  reading.sentence.line, negated=flags["negated"])  # fmt: skip
    draft.source = reading.sentence.text
    draft.hedged = flags.get("conditional", False)
    draft.corrects = flags.pop("correction", False)
    draft.trigger_first = all(
        tokens[j].is_punct or _is_kind(reading, ctx, j, "greeting") for j in range(i)
    )
    self_word = any(_is_kind(reading, ctx, j, "self") for j in range(i, end))
    if self_word and draft.wants(ctx, "player"):
        draft.add_name(NameHit((ctx.actor,), 1, 1.0, "self"))  # "лечу себя" is one phrase
    flags["negated"] = False
    if draft.kind is Kind.ORDER and draft.wants(ctx, "claim") and not reading.sentence.quotes:
        rest = " ".join(t.text for t in tokens[end:])
        if rest:
            draft.claims.append(parse_claim(rest, ctx))
            drafts.append(draft)
            return len(tokens) - i
    drafts.append(draft)
    return match.length


def _will_marker(reading: Reading, i: int, match: Match, cur: Draft | None) -> bool:
    """ "Will:" / "My will" at the start of a sentence; never the English modal "I will"."""
    tokens = reading.sentence.tokens
    after = tokens[i + match.length] if i + match.length < len(tokens) else None
    multiword = match.length > 1 or tokens[i].norm in ("testament", "завещание")
    at_start = cur is None and all(t.is_punct for t in tokens[:i])
    return at_start and (multiword or (after is not None and after.norm in (":", "-", "=")))


def _quote(reading: Reading, ctx: Context, i: int, cur: Draft) -> int:
    tokens = reading.sentence.tokens
    index = tokens[i].quote
    j = i
    while j < len(tokens) and tokens[j].quote == index:
        j += 1
    if index is not None:
        cur.claims.append(parse_claim(reading.sentence.quotes[index], ctx))
    return j - i


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
        cur.add_name(NameHit((ctx.actor,), 1, 1.0, "self"))
    elif "negation" in kinds:
        if cur is not None and cur.names and cur.kind is not Kind.CANCEL:
            flags["skip_name"] = True  # "protect Carl, not Bob"
        else:
            flags["negated"] = True
    elif "hedge" in kinds:
        flags["hedged"] = True
    elif "correction" in kinds:
        flags["correction"] = True  # the next order replaces the PM's earlier ones
    elif cur is None:
        return match.length
    elif "alternative" in kinds:
        cur.alt_next = True
    elif "no_target" in kinds:
        cur.nobody = True
    elif "vague" in kinds:
        cur.vague = True
    elif "crime_link" in kinds:
        cur.crime_link = True
    elif match.values("role"):
        _add_role(cur, match.values("role")[0])
    elif match.values("item"):
        cur.items.append(match.values("item")[0])
    return match.length


def _add_role(cur: Draft, role: str) -> None:
    if cur.crimes and cur.crimes[-1].role is None:
        cur.crimes[-1].role = role
    else:
        cur.roles.append(role)


def _unknown_word(ctx: Context, cur: Draft, word: str, flags: dict[str, Any]) -> None:
    """A word of no vocabulary: "or", a fuzzy player name, or noise the GM should see."""
    if word.casefold() in ("or", "ou", "или"):
        cur.or_next = True
        return
    if not word[:1].isalnum():
        return
    looks_like_name = not cur.names or word[:1].isupper()
    wants_player = cur.kind in (Kind.VOTE, Kind.HANDOFF) or cur.wants(ctx, "player")
    hit = ctx.players.fuzzy(word) if len(word) >= 2 and looks_like_name and wants_player else None
    if hit is not None:
        _add_name(cur, [], hit, flags)
    elif word.casefold() not in ctx.lexicon.known_words:
        cur.unknown.append(word)
