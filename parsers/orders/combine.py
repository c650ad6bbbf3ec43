"""Several orders in one PM: cancellations, the last valid order wins, one status overall."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from parsers.orders.build import Piece, claims_allowed, rule_performer
from parsers.orders.context import Context
from parsers.orders.cues import conditional_outcome
from parsers.orders.model import Candidate, Kind, Order, ParseResult, Status, Value
from parsers.orders.validate import Verdict
from resolver.model import TargetKind

# An order is accepted only at or above this confidence (precision first: below it the
# GM confirms). Exact names and vocabulary give 1.0; a long unique prefix 0.9.
ACCEPT = 0.9


# A sentence taken back as a joke ("зарежу всех ахаха шучу", "kill everyone lol jk").
_JOKE = re.compile(
    r"(?<!\w)(?:jk|j/k|just kidding|kidding|je rigole|je plaisante|шучу|шутка)(?!\w)", re.I
)


# A sentence opening with "if" ("Если он что-то сделает — рублю"), and the words in one
# that keep it a doubt: an alternative ("если нет", "otherwise") or a hedge besides the "if".
_IF_FIRST = re.compile(r"^\W*(?:(?:а|и|ну|and|et)\s+)?(?:если|if|si|s['’]|в случае)(?!\w)", re.I)
_NOT_ONLY_IF = re.compile(
    r"(?<!\w)(?:если нет|если не|если же нет|иначе|или|либо|otherwise|if not|else|or|sinon|"
    r"si non|s'il ne|ou|может|наверное|maybe|perhaps|peut-être|peut-etre|not sure|"
    r"не уверен|не знаю|pas sûr)(?!\w)|\?",
    re.I,
)


# Words joining a second order to the first in one sentence.
_AND = re.compile(r"(?<!\w)(?:and|also|as well|plus|et|aussi|également|и|также|тоже|&)(?!\w)", re.I)


@dataclass(frozen=True, slots=True)
class Unread:
    """A sentence that names players but was not read as an order.

    ``plain``: no word that could change an order ("Nick ment, j'en suis sûr");
    ``postscript``: in a PS after the orders; ``remark``: a plain statement about a player
    ("Carl seems scummy"), nothing in it adds to or picks an order; ``chatter``: chat before
    the PM's first order ("Long day, half the thread is yelling at Noor again."), which nothing
    written later can depend on; ``clarifies``: "the player X" for a target X that is also a
    role word, any negation in it about the sender ("Oui, le joueur Celty, pas moi");
    ``recants``: a correction, then a plain remark ("ugh no, changed my mind, Q did nothing
    wrong."), which stands when it names only players whose orders a later one replaced.
    """

    text: str
    names: tuple[str, ...]
    plain: bool = False
    postscript: bool = False
    remark: bool = False
    chatter: bool = False
    clarifies: bool = False
    recants: bool = False


@dataclass(slots=True)
class _Tally:
    accepted: list[Order] = field(default_factory=list)
    superseded: list[Order] = field(default_factory=list)
    doubtful: list[tuple[Piece, str]] = field(default_factory=list)
    rejected: list[tuple[Order, str]] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    conflicts: list[Order] = field(default_factory=list)
    ignored_names: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    foreign: list[tuple[Order, str]] = field(default_factory=list)
    undone: list[Order] = field(default_factory=list)

    def cancel(self, order: Order) -> None:
        abilities = {str(s.value) for s in order.targets}
        keep = [o for o in self.accepted if abilities and o.ability not in abilities]
        self.superseded += [o for o in self.accepted if o not in keep]
        self.accepted = keep
        self.doubtful = [d for d in self.doubtful if d[0].other_phase
                         or (abilities and d[0].order.ability not in abilities)]  # fmt: skip
        self.rejected = [r for r in self.rejected if abilities and r[0].ability not in abilities]

    def withdraw(self, order: Order, ctx: Context, corrects: bool, refused: bool) -> None:
        """An order after "actually no," that is refused or unsure still takes back the
        accepted orders it replaces ("je vote A. Non, je vote B" with B refused): A never
        stands in its place. A later vote refused without such a word leaves the GM to say
        whether the earlier one stands."""
        gone = [o for o in self.accepted
                if o.kind is order.kind and (corrects or _replaces(order, o, ctx))]  # fmt: skip
        if corrects:
            self.superseded += gone
            self.accepted = [o for o in self.accepted if o not in gone]
        elif gone and refused and order.kind is Kind.VOTE:
            self.undone.append(order)

    def accept(self, order: Order, ctx: Context, corrects: bool = False) -> None:
        """Add an order; it replaces earlier ones it is incompatible with (last valid wins),
        or every earlier order after "actually no," (``corrects``)."""
        if corrects:
            replaced = [d for d in self.doubtful
                        if not d[0].other_phase and d[0].order.kind is order.kind]  # fmt: skip
            self.superseded += [o for o in self.accepted if o.kind is order.kind]
            self.superseded += [d[0].order for d in replaced]
            self.accepted = [o for o in self.accepted if o.kind is not order.kind]
            self.doubtful = [d for d in self.doubtful if d not in replaced]
        # "cancel my vote ... I vote Léa": the new order replaces; the cancel is spent
        key = "vote" if order.kind is Kind.VOTE else order.ability
        spent = [o for o in self.accepted if o.kind is Kind.CANCEL
                 and [str(s.value) for s in o.targets] == [key]]  # fmt: skip
        self.accepted = [o for o in self.accepted if o not in spent]
        same = [o for o in self.accepted if _replaces(order, o, ctx)]
        if any(o.render() == order.render() for o in same):
            return  # the same order written twice
        merged = _merged_claims(same, order, ctx)
        if merged is not None:  # "Investigate: 'A'. Investigate: 'B'." from Investigate 3
            self.accepted = [o for o in self.accepted if o not in same] + [merged]
            return
        if same and not corrects and order.kind is not Kind.VOTE:  # a vote may be changed
            # more orders than the sender may give ("protect A ... protect B", "douse X
            # then ignite" under one action a night): the GM picks, each is a candidate
            self.conflicts += [o for o in same if o not in self.conflicts] + [order]
            self.accepted = [o for o in self.accepted if o not in same]
            return
        earlier = [d for d in self.doubtful if _replaces(order, d[0].order, ctx)]
        settled = [d for d in earlier if _no_choice(d[0])]
        unsure = [d for d in earlier if d not in settled]
        self.doubtful = [d for d in self.doubtful if d not in settled]
        if unsure and not corrects and order.kind is not Kind.VOTE:
            self.conflicts += [d[0].order for d in unsure] + [order]  # "X kills A, Y kills B"
            self.doubtful = [d for d in self.doubtful if d not in unsure]
            return
        self.superseded += same
        self.accepted = [o for o in self.accepted if o not in same] + [order]
        self.doubtful = [d for d in self.doubtful if d not in unsure]


def _merged_claims(same: list[Order], order: Order, ctx: Context) -> Order | None:
    """One investigation order holding the claims of two, when the sender's "Investigate N"
    takes them all; None when they cannot be one order."""
    if len(same) != 1 or same[0].ability != order.ability or same[0].params != order.params:
        return None
    targets = (*same[0].targets, *order.targets)
    if not targets or any(s.kind != TargetKind.CLAIM for s in targets):
        return None
    ability = ctx.lexicon.ruleset.abilities.get(order.ability)
    if ability is None or len(targets) > claims_allowed(ability, ctx):
        return None
    source = f"{same[0].source} {order.source}"
    return replace(order, targets=targets, source=source)


def _no_choice(piece: Piece) -> bool:
    """An unsure reading that names no choice of its own: without a player ("je veux
    découvrir qui est Bacula") or negated ("I'm NOT shooting Jules"); a later order of the
    same ability settles it."""
    return any(d.startswith("no player given") or d.startswith("negated") for d in piece.doubts)


def _replaces(new: Order, old: Order, ctx: Context) -> bool:
    """Same ability (not a move the clan may repeat, for another member); or both ability
    orders when one action per phase is allowed; or two abilities of one "A OR B" line of
    the role sheet."""
    if new.kind is not old.kind:
        return False
    if new.ability == old.ability:
        return not _clan_repeats(new, old, ctx)
    if new.kind is Kind.ORDER and ctx.one_action:
        return True
    return any(new.ability in g and old.ability in g for g in ctx.exclusive)


def _clan_repeats(new: Order, old: Order, ctx: Context) -> bool:
    """Seed 004: a clan makes no two moves of one kind in a night "(за исключением поиска
    в клане полицейских)": an ability the ruleset's ``clan_repeated_moves`` lists may be
    given again for another member of the clan (``shoot`` may not)."""
    option = ctx.lexicon.ruleset.options.get("clan_repeated_moves")
    repeated = option.value if option is not None else ()
    if not isinstance(repeated, list | tuple) or new.ability not in repeated:
        return False
    return (new.performer or ctx.actor) != (old.performer or ctx.actor)


def combine(
    pieces: list[tuple[Piece, list[Piece]]],
    verdicts: list[Verdict],
    questions: list[str],
    ctx: Context,
    unread: list[Unread] | None = None,
) -> ParseResult:
    """Fold the PM's orders, in order, into one result.

    Anything that keeps the PM from being read whole sends it to the queue with the orders
    it did read as a candidate: a question to the GM, a line naming a player that was not
    read as an order, a part refused or only mentioned next to accepted orders, more orders
    than the sender may give in the phase.

    Args:
        pieces: each order's best reading and its other readings.
        verdicts: the validation verdict of each best reading.
        questions: sentences asked as questions.
        ctx: the parse context.
        unread: sentences that name a player but were not read as orders.

    Returns:
        The PM's result.
    """
    tally = _Tally()
    _crowded(pieces, verdicts)
    for (piece, others), verdict in zip(pieces, verdicts, strict=True):
        order = piece.order
        if _mention(piece, verdict, tally, len(pieces)) or _own_outcome(piece, tally, ctx):
            tally.ignored.append(order.source)
            tally.ignored_names.append((order.source, piece.names))
        elif order.kind is Kind.CANCEL and piece.confidence >= ACCEPT:
            tally.cancel(order)
            tally.accepted.append(order)
        elif verdict.rule and (piece.confidence >= ACCEPT or verdict.sender):
            # (a jailed or dead sender's order is refused however it reads)
            tally.withdraw(order, ctx, piece.corrects, refused=True)
            tally.rejected.append((order, verdict.rule))
            if piece.first and " has no " in verdict.rule:  # "heal Bob" from the sheriff
                tally.foreign.append((order, verdict.rule))
        elif verdict.doubt or piece.confidence < ACCEPT or others:
            why = verdict.doubt or "; ".join(piece.doubts) or "several readings"
            if verdict.rule:
                why = f"{why}; and {verdict.rule}"
            if not piece.other_phase and not any(d.startswith("negated") for d in piece.doubts):
                tally.withdraw(order, ctx, piece.corrects, refused=False)
            tally.doubtful.append((piece, why))
        else:
            tally.accept(order, ctx, piece.corrects)
    _lone_actions(tally, ctx)
    unread = [u for u in unread or [] if not _names_the_performer(u, tally, ctx)]
    return _result(tally, pieces, questions, unread, ctx.one_action)


def _names_the_performer(line: Unread, tally: _Tally, ctx: Context) -> bool:
    """ "We whack Priya tonight. Tomasz does the honours.": a plain line naming only the
    teammate who carries out an accepted team kill by the ruleset's own rule (its
    ``performer_tag``, the Mafioso), so it changes nothing; another teammate is the GM's."""
    if not line.plain or len(set(line.names)) != 1:
        return False
    return any(rule_performer(o.ability, ctx) == line.names[0] for o in tally.accepted)


def _lone_actions(tally: _Tally, ctx: Context) -> None:
    """An ability that must be the sender's only action of the phase ("Detention: the
    officer's only action that night"), given next to other orders: the GM picks."""
    orders = [o for o in tally.accepted if o.kind is Kind.ORDER]
    if len(orders) < 2:
        return
    if ctx.combos_unknown and len({o.ability for o in orders}) > 1:
        tally.conflicts += [o for o in orders if o not in tally.conflicts]  # tour + excursion
        tally.accepted = [o for o in tally.accepted if o not in orders]
        return
    for order in orders:
        ability = ctx.lexicon.ruleset.abilities.get(order.ability)
        role = ctx.lexicon.ruleset.roles.get(ctx.role or "")
        own = role.abilities.get(order.ability, ability) if role is not None else ability
        params = own.effect_params if own is not None else {}
        exclusive = params.get("exclusive_with") or ()
        if params.get("actor_only_action_that_night") or "all_other_actions" in exclusive:
            tally.conflicts += [o for o in orders if o not in tally.conflicts]
            tally.accepted = [o for o in tally.accepted if o not in orders]
            return


def _crowded(pieces: list[tuple[Piece, list[Piece]]], verdicts: list[Verdict]) -> None:
    """Another role's order word with a player in the same sentence ("heal Ann and kill
    Bob" from the doctor) may have taken a name meant for the sender's order: doubt it."""
    foreign = {
        p.order.source
        for (p, _), v in zip(pieces, verdicts, strict=True)
        if v.rule and " has no " in v.rule and any(s.kind == "player" for s in p.order.targets)
    }
    for (piece, _), verdict in zip(pieces, verdicts, strict=True):
        if piece.order.source in foreign and not verdict.rule:
            piece.doubt("crowded", "another role's order word in the same sentence")


def _own_outcome(piece: Piece, tally: _Tally, ctx: Context) -> bool:
    """ "Слежу за Ювеналием. Если он что-то враждебное сделает - рублю.": a sentence of its
    own, opening with "if", naming nobody, with the word of an order already accepted whose
    ability has a conditional outcome (the Executioner's ``then: behead``, the Jailer's
    ``if_sinful``, ``on_false``...): it tells what the order does, it is no new order.
    With another player, an alternative ("если нет") or a hedge in it, the GM reads it."""
    order = piece.order
    doubts = set(piece.doubts)
    if doubts - {f"no player given for {order.ability}", "the player sounds unsure"}:
        return False
    if any(s.kind == "player" for s in order.targets) or not _IF_FIRST.search(order.source):
        return False
    if _NOT_ONLY_IF.search(order.source) or not conditional_outcome(ctx, order.ability):
        return False
    return any(o.ability == order.ability and o.kind is Kind.ORDER and o.targets
               and o.source != order.source for o in tally.accepted)  # fmt: skip


def _mention(piece: Piece, verdict: Verdict, tally: _Tally, count: int) -> bool:
    """Words that name an ability without ordering it: "Nick does the hit" after the kill
    order, "if Frank is protected" from a player who cannot protect, or, next to other
    orders, an order word with no player that the phase refuses ("c'est voté dans l'antre"
    at night) or that the player takes back as a joke before any order ("зарежу всех ахаха
    шучу. Мучаю Ефима.")."""
    if piece.confidence >= ACCEPT or count == 1:
        return False
    if verdict.rule and " has no " in verdict.rule:
        return True
    earlier = [*tally.accepted, *(o for o, _ in tally.rejected)]
    unsure = "the player sounds unsure" in piece.doubts
    if unsure and earlier:
        return False  # "Shoot Nick. Not sure I should shoot at all": about the orders
    targetless = any(d.startswith("no player given") for d in piece.doubts)
    if not targetless:
        return False
    if "asked as a question" in piece.doubts:
        return True  # "how much sleeping pill do I have left?": the question is kept
    if verdict.rule:
        return True  # "(c'est voté dans l'antre)" at night: no order of this phase
    if unsure:  # "зарежу всех ахаха шучу. Мучаю Ефима.": taken back before any order
        return bool(_JOKE.search(piece.order.source))
    # "I vote Tansy and I'm using Voice of Accusation on that vote", "heal Ann and protect
    # too": an ability with no player joined by "and" to another order of its sentence, or
    # in a vote's sentence, may be an add-on, never set aside
    joined = bool(_AND.search(piece.order.source))
    return any(o.ability == piece.order.ability
               or (o.source == piece.order.source and piece.order.kind is not Kind.ORDER)
               or (o.source == piece.order.source and o.kind is not Kind.VOTE and not joined)
               for o in earlier)  # fmt: skip


def _result(
    tally: _Tally,
    pieces: list[tuple[Piece, list[Piece]]],
    questions: list[str],
    unread: list[Unread],
    one_action: bool = False,
) -> ParseResult:
    asked = tuple(questions)
    notes = tuple(f"refused: {o.render()} ({rule})" for o, rule in tally.rejected)
    texts = [*tally.ignored, *(u.text for u in unread)]
    notes += tuple(f"not read as an order: '{text}'" for text in texts)
    superseded = tuple(tally.superseded)
    whole = _unread_parts(tally, asked, unread, one_action)
    if whole is not None and not tally.doubtful:
        cands = tuple(Candidate((*tally.accepted, o), 0.5, "one of several orders")
                      for o in tally.conflicts)  # fmt: skip
        if tally.accepted and not cands:
            cands = (Candidate(tuple(tally.accepted), 0.6, "the orders read"),)
        return ParseResult(Status.AMBIGUOUS, (), whole, 0.5, cands, questions=asked,
                           superseded=superseded, notes=notes)  # fmt: skip
    if tally.doubtful:
        cands = _candidates(tally, pieces)
        piece, why = tally.doubtful[0]
        reason = f"unsure about '{piece.order.source}': {why}"
        return ParseResult(Status.AMBIGUOUS, tuple(tally.accepted), reason,
                           min(p.confidence for p, _ in tally.doubtful), cands,
                           questions=asked, superseded=superseded, notes=notes)  # fmt: skip
    if tally.accepted:
        reason = "; ".join(o.render() for o in tally.accepted)
        if tally.rejected:
            reason += " (also refused: " + "; ".join(r for _, r in tally.rejected) + ")"
        conf = min((p.confidence for p, _ in pieces if p.order in tally.accepted), default=1.0)
        return ParseResult(Status.ACCEPTED, tuple(tally.accepted), reason, conf,
                           rule=tally.rejected[-1][1] if tally.rejected else None,
                           questions=asked, superseded=superseded, notes=notes)  # fmt: skip
    if tally.rejected:
        order, rule = tally.rejected[-1]
        return ParseResult(Status.REJECTED, (), f"refused {order.render()}: {rule}", 0.95,
                           rule=rule, questions=asked, superseded=superseded,
                           notes=notes)  # fmt: skip
    if asked:
        return ParseResult(Status.AMBIGUOUS, (), f"question to the GM: {asked[0]}", 0.0,
                           questions=asked)  # fmt: skip
    return ParseResult(Status.AMBIGUOUS, (), "no order found in this PM", 0.0)


def _unread_parts(
    tally: _Tally, asked: tuple[str, ...], unread: list[Unread], one_action: bool
) -> str | None:
    """Why a PM whose orders were read cannot be taken whole, or None."""
    if tally.conflicts:
        orders = "; ".join(o.render() for o in tally.conflicts)
        return f"more orders than the sender may give in this phase: {orders}"
    if not (tally.accepted or tally.rejected):
        return None
    if tally.undone and tally.accepted:  # "Je vote A. Je vote B." with B refused
        return f"a later {tally.undone[0].render()} is refused: the GM decides what stands"
    # "SI: did X kill Y?" is the order; "je bloque Killian... il me tue ?" is replaced by
    # the correction after it ("tant pis, bloque Jérémie plutôt"): neither is left to answer
    read = {o.source for o in [*tally.accepted, *tally.superseded]}
    asked = tuple(q for q in asked if q not in read)
    if asked:
        return f"question to the GM: {asked[0]}"
    targets = {str(v) for o in tally.accepted for s in o.targets
               for v in (s.value, *s.alternatives)}  # fmt: skip
    replaced = {str(v) for o in tally.superseded for s in o.targets
                for v in (s.value, *s.alternatives)}  # fmt: skip
    unread = [u for u in unread if not _remark(u, targets, replaced)]
    if unread:
        return f"a line names a player but was not read as an order: '{unread[0].text}'"
    sources = {o.source for o in [*tally.accepted, *(o for o, _ in tally.rejected)]}
    for text, names in tally.ignored_names:
        if text not in sources and set(names) - targets - replaced:  # "Nick does the hit."
            return f"a line mentions an order but was not read as one: '{text}'"
    if tally.foreign and tally.accepted:
        order, rule = tally.foreign[-1]
        return f"a line is not the sender's order ({order.render()}: {rule}): the GM reads it"
    if one_action and tally.rejected and tally.accepted:
        order, rule = tally.rejected[-1]
        return f"two actions where one is allowed ({order.render()} refused: {rule})"
    return None


def _remark(line: Unread, targets: set[str], replaced: set[str]) -> bool:
    """A line that cannot change the orders read: a plain line in a postscript, a remark
    about players ("Carl seems scummy"), or one naming only the orders' targets and the
    targets they replaced ("oui Yann, définitif", "Ann can take care of herself" after
    "make it Ollie")."""
    if line.chatter or (line.clarifies and set(line.names) <= targets):
        return True
    if line.recants and set(line.names) <= replaced - targets:
        return True  # "ugh no, changed my mind, Q did nothing wrong. vote Bramble."
    if not line.plain:
        return False
    return line.postscript or line.remark or set(line.names) <= targets | replaced


def _candidates(tally: _Tally, pieces: list[tuple[Piece, list[Piece]]]) -> tuple[Candidate, ...]:
    cands: list[Candidate] = []
    for piece, why in tally.doubtful:
        cands.append(
            Candidate((*tally.accepted, _first_choice(piece.order)), piece.confidence, why)
        )
        for alt in piece.alternatives:
            cands.append(Candidate((*tally.accepted, alt), piece.confidence * 0.9, "other reading"))
        for slot in piece.order.targets:
            for alt_value in slot.alternatives:
                cands.append(_swap(tally, piece, slot.value, alt_value))
        for best, others in pieces:
            if best is piece:
                cands += [Candidate((*tally.accepted, o.order), o.confidence, "; ".join(o.doubts))
                          for o in others]  # fmt: skip
    cands.sort(key=lambda c: -c.score)
    return tuple(cands[:6])


def _first_choice(order: Order) -> Order:
    """The order with every 'or' choice taken the first way (alternatives dropped)."""
    return replace(order, targets=tuple(replace(s, alternatives=()) for s in order.targets))


def _swap(tally: _Tally, piece: Piece, first: Value, alt: Value) -> Candidate:
    """The reading where an 'or' choice is taken the other way round."""
    targets = tuple(
        replace(s, value=alt, alternatives=()) if s.value == first and s.alternatives else s
        for s in piece.order.targets
    )
    guesses = tuple((k, w, str(alt) if v == first else v) for k, w, v in piece.order.guesses)
    order = replace(piece.order, targets=targets, guesses=guesses)
    return Candidate((*tally.accepted, order), piece.confidence * 0.8, f"'{alt}' instead")
