"""From a draft to orders: choose the ability, fill its slots, score how sure we are."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from parsers.orders import grammar
from parsers.orders.claims import claim_complete
from parsers.orders.context import Context
from parsers.orders.model import Claim, Kind, Order, Slot, Value
from parsers.orders.players import NameHit
from parsers.orders.scan import Draft
from parsers.orders.text import normalize
from resolver.model import Ability, TargetKind

# Penalties: the confidence an order keeps when the draft shows this doubt (precision first).
PENALTY = {
    "hedged": 0.5,
    "question": 0.5,
    "negated": 0.4,
    "or": 0.5,
    "missing": 0.4,
    "extra_names": 0.5,
    "extra_claims": 0.5,
    "extra_role": 0.5,
    "unknown_capital": 0.85,
    "other_phase": 0.6,
    "claim": 0.6,
    "several_abilities": 0.5,
    "vague": 0.4,
    "guess": 0.5,
    "unranked": 0.6,
    "no_rule": 0.5,
    "crowded": 0.8,
}
# Effects whose targets may be ranked ("give the suitcase to A, else B": seed 000 lets the
# holder of an item name ordered alternatives). Other abilities take one target.
RANKED_EFFECTS = frozenset({"item", "grant"})
_VOTE = Ability(id="vote", phases=frozenset({"day"}), targets=())


@dataclass(slots=True)
class Piece:
    """One reading of a draft: the order, how sure we are, and why not surer."""

    order: Order
    confidence: float
    doubts: list[str] = field(default_factory=list)
    alternatives: list[Order] = field(default_factory=list)
    corrects: bool = False
    guesses: list[tuple[str, str, str]] = field(default_factory=list)
    names: tuple[str, ...] = ()
    first: bool = False
    other_phase: bool = False  # for another phase: no cancel or correction of this one drops it
    remark: bool = False  # "not my kill tonight, boss has it": a cancel only if it undoes one

    def doubt(self, key: str, why: str) -> None:
        """Lower the confidence for one reason and remember it for the GM."""
        self.confidence *= PENALTY[key]
        self.doubts.append(why)


_OTHERS_TURN = re.compile(
    r"(?<!\w)(?:"
    + "|".join(map(re.escape, sorted({p for ps in grammar.OTHERS_TURN.values() for p in ps},
                                     key=len, reverse=True)))
    + r")(?!\w)"
)  # fmt: skip


def build(draft: Draft, ctx: Context) -> list[Piece]:
    """All readings of a draft, best first (one when the draft is clear).

    Args:
        draft: what one trigger and its words said.
        ctx: the parse context.

    Returns:
        Readings; the caller validates the best and queues the rest as candidates.
    """
    pieces = _pieces(draft, ctx)
    named = tuple(p for group in draft.names for hit in group for p in hit.players)
    named += draft.mentions
    for piece in pieces:
        piece.corrects = draft.corrects
        piece.names = tuple(n for n in named if n != ctx.actor)
        piece.first = draft.trigger_first
        if draft.guessed_word and piece.order.kind is Kind.ORDER:
            piece.guesses.append(("ability", draft.guessed_word, piece.order.ability))
        if piece.guesses:  # what a GM teaches by confirming this reading (Learned.taught_by)
            piece.order = replace(piece.order, guesses=tuple(piece.guesses))
    return pieces


def rule_performer(ability_id: str, ctx: Context) -> str | None:
    """The teammate of the sender who carries out a team ability by the ruleset's own rule
    (its ``performer_tag``: Failheap's Mafioso for the mafia kill), or None."""
    rules = ctx.lexicon.ruleset
    ability = rules.abilities.get(ability_id)
    tag = ability.effect_params.get("performer_tag") if ability is not None else None
    if not tag:
        return None
    slots = [s for s in ctx.players.roster.slots if s.alive and s.role in rules.roles]
    roles = {s.name: rules.roles[str(s.role)] for s in slots}
    team = roles[ctx.actor].faction if ctx.actor in roles else None
    doers = [n for n, role in roles.items() if role.faction == team and tag in role.tags]
    return doers[0] if team is not None and doers else None


def _pieces(draft: Draft, ctx: Context) -> list[Piece]:
    if draft.negated and not draft.names and draft.kind is Kind.VOTE:
        draft.abilities = ("vote",)  # "je ne vote pas aujourd'hui"
    if draft.kind is Kind.CANCEL or (draft.negated and not draft.names and draft.abilities):
        remark = draft.kind is not Kind.CANCEL and bool(
            _OTHERS_TURN.search(draft.source.casefold().replace("’", "'")))  # fmt: skip
        piece = Piece(_cancel(draft, ctx), 0.97 if not draft.hedged else 0.5, remark=remark)
        if draft.question:  # "Can I cancel my heal?", "no action from me, can I skip?"
            piece.doubt("question", "asked as a question")
        return [piece]
    if draft.kind is Kind.WILL:
        will = Order("will", (Slot("text", draft.text.strip(" :-")),), kind=Kind.WILL,
                     phase=ctx.phase.id, source=draft.source)  # fmt: skip
        piece = Piece(will, 0.95)
        if "wills" not in ctx.lexicon.ruleset.options:  # DCTP has wills; seed 004 has none
            piece.doubt("no_rule", "this ruleset has no will rule: the GM decides")
        if draft.hedged:  # a will naming a successor among other words: which is the order?
            piece.doubt("hedged", "the will also gives an order (a successor?): the GM reads it")
        return [piece]
    if draft.kind in (Kind.VOTE, Kind.HANDOFF):
        return [_simple(draft, ctx)]
    return _ability_pieces(draft, ctx)


def _cancel(draft: Draft, ctx: Context) -> Order:
    mine = ctx.abilities if ctx.abilities is not None else frozenset(draft.abilities)
    targets = tuple(Slot("ability", a) for a in draft.abilities if a in mine or a == "vote")
    return Order("cancel", targets, kind=Kind.CANCEL, phase=ctx.phase.id, source=draft.source)


def _simple(draft: Draft, ctx: Context) -> Piece:
    """A vote or a hand-off: one player (or nobody), plus phases for a hand-off."""
    ability = "vote" if draft.kind is Kind.VOTE else "handoff"
    targets: tuple[Slot, ...] = ()
    piece = Piece(Order(ability, kind=draft.kind, phase=ctx.phase.id, source=draft.source), 1.0)
    if draft.nobody and draft.kind is Kind.VOTE:
        targets = (Slot("player", "nobody"),)
    elif draft.names:
        targets, quality = _player_slots(draft.names[:1], piece)
        piece.confidence *= quality
        if len(draft.names) > 1:
            piece.doubt("extra_names", "more than one player named")
    else:
        piece.doubt("missing", f"no player given for {ability}")
    params: tuple[tuple[str, Value], ...] = ()
    if draft.kind is Kind.HANDOFF and draft.phases:
        params = (("phases", ",".join(p.id for p in draft.phases)),)
    piece.order = Order(ability, targets, params, draft.kind, ctx.phase.id, draft.source)
    _common_doubts(draft, piece)
    return piece


def _ability_pieces(draft: Draft, ctx: Context) -> list[Piece]:
    mine = ctx.abilities if ctx.abilities is not None else frozenset(draft.abilities)
    ids = [a for a in draft.abilities if a in mine] or list(draft.abilities[:1])
    if len(ids) > 1:
        usable = [a for a in ids if _ability(ctx, a).allowed_in(ctx.phase.kind)]
        ids = usable or ids
    pieces = [_fill(draft, ctx, _ability(ctx, a)) for a in ids]
    pieces.sort(key=lambda p: -p.confidence)
    if len(pieces) > 1 and pieces[0].confidence - pieces[1].confidence < 0.2:
        pieces[0].doubt("several_abilities", f"'{draft.trigger}' may mean " +
                        " or ".join(p.order.ability for p in pieces))  # fmt: skip
        pieces[0].alternatives = [p.order for p in pieces[1:]]
    return pieces


def _ability(ctx: Context, ability_id: str) -> Ability:
    return ctx.lexicon.ruleset.abilities.get(ability_id) or Ability(id=ability_id)


def _fill(draft: Draft, ctx: Context, ability: Ability) -> Piece:
    """Put the draft's values into the ability's target slots and parameters, by kind."""
    piece = Piece(Order(ability.id), 1.0)
    pools: dict[str, list[object]] = {
        TargetKind.PLAYER: list(draft.names),
        TargetKind.ROLE: list(draft.roles),
        TargetKind.ITEM: list(draft.items),
        TargetKind.CRIME: [c.done() for c in draft.crimes],
        TargetKind.CLAIM: list(draft.claims),
        TargetKind.PHASE: [p.id for p in draft.phases],
        TargetKind.TEXT: [draft.text] if draft.text else [],
    }
    implied = [x.phase for x in (*pools[TargetKind.CRIME], *draft.claims) if x.phase]  # type: ignore[attr-defined]
    pools["implied_phase"] = implied[:1]
    targets: list[Slot] = []
    for spec in ability.targets:
        slot = _take(pools, spec.kind, piece)
        if slot is not None:
            targets.append(slot)
        elif not spec.optional:
            piece.doubt("missing", f"no {spec.kind} given for {ability.id}")
        elif spec.kind == TargetKind.PLAYER and str(ability.effect) == "redirect":
            piece.doubt("missing", f"no new target given for {ability.id}")  # "control Carl"
    params: list[tuple[str, Value]] = []
    for name, param in ability.params.items():
        if _words_of(ability, name):
            pools[TargetKind.PLAYER] = _not_self(pools[TargetKind.PLAYER], ctx)  # "я согласен"
            if (choice := _worded(ability, name, draft, piece)) is not None:
                params.append((name, choice))
            continue
        slot = _take(pools, param.kind, piece)
        if slot is not None:
            params.append((name, slot.value))
        elif not param.optional:
            piece.doubt("missing", f"no {param.kind} given ({name})")
    extra_claims = pools[TargetKind.CLAIM]
    if extra_claims and any(s.kind == TargetKind.CLAIM for s in targets):
        targets += [Slot(TargetKind.CLAIM, c) for c in extra_claims if isinstance(c, Claim)]
        for claim in extra_claims:  # "…, Sabre kills Quill, not sure about the third yet"
            if isinstance(claim, Claim) and not claim_complete(claim):
                piece.doubt("claim", f"claim not understood: '{claim.text}'")
        pools[TargetKind.CLAIM] = []
    for slot in targets:  # "Investigate Halloran and interrogate Sable": two orders
        if isinstance(slot.value, Claim) and _own_verb(slot.value, ability, ctx):
            piece.doubt("claim", f"'{slot.value.verb}' in the claim is the sender's own order")
    claims = sum(1 for s in targets if s.kind == TargetKind.CLAIM)
    if claims > claims_allowed(ability, ctx):
        piece.doubt("extra_claims", f"{claims} claims given; {ability.id} takes fewer")
    if pools[TargetKind.PLAYER]:
        piece.doubt("extra_names", "more players named than the ability takes")
    roles = [s for s in ability.targets if s.kind == TargetKind.ROLE]
    if roles and draft.unread_first and not any(s.kind == TargetKind.ROLE for s in targets):
        piece.doubt("missing", f"unrecognised where a role may be named: {draft.unread_first[0]}")
    if draft.role_sought and not any(s.kind == TargetKind.ROLE for s in ability.targets):
        piece.doubt("extra_role", f"checks for a role ('{draft.role_sought}'): "
                    f"{ability.id} takes none")  # fmt: skip
    ranked = ability.effect in RANKED_EFFECTS or "ranked" in ability.tags
    ranked = ranked or bool(ability.effect_params.get("ranked_alternatives"))
    if not ranked and any(s.alternatives for s in targets):
        piece.doubt("unranked", f"{ability.id} takes one target, not ranked alternatives")
    phases = [p for p in pools[TargetKind.PHASE] if p != ctx.phase.id]
    if phases:
        piece.doubt("other_phase", f"names {', '.join(map(str, phases))}, not {ctx.phase.id}")
        piece.other_phase = True
    piece.order = Order(ability.id, tuple(targets), tuple(params), Kind.ORDER, ctx.phase.id,
                        draft.source)  # fmt: skip
    _common_doubts(draft, piece)
    return piece


def _words_of(ability: Ability, name: str) -> Mapping[str, list[str]]:
    """A choice parameter's words per choice (``effect_params.param_words``), if any."""
    table = ability.effect_params.get("param_words")
    words = table.get(name) if isinstance(table, Mapping) else None
    return words if isinstance(words, Mapping) else {}


def _worded(ability: Ability, name: str, draft: Draft, piece: Piece) -> str | None:
    """The one choice whose words the sentence holds (longest words first: "не согласен"
    is a refusal, not "согласен"); none, or the words of two choices, is a doubt."""
    text = " " + " ".join(normalize(w) for w in re.findall(r"\w+", draft.source)) + " "
    phrases = [(c, " ".join(normalize(w) for w in str(p).split()))
               for c, ps in _words_of(ability, name).items() for p in ps]  # fmt: skip
    found: list[str] = []
    for choice, phrase in sorted(phrases, key=lambda cp: -len(cp[1])):
        if f" {phrase} " in text:
            text = text.replace(f" {phrase} ", "  ")
            found += [] if choice in found else [choice]
    if len(found) == 1:
        return found[0]
    if found:
        piece.doubt("or", f"words of several answers ({name}: {', '.join(sorted(found))})")
    else:
        piece.doubt("missing", f"no {name} given: none of its words")
    return None


def _own_verb(claim: Claim, ability: Ability, ctx: Context) -> bool:
    """The claim's verb is another ability the sender may use now, written after "and"
    ("Investigate Halloran and interrogate Sable"): a second order, not a claim."""
    if claim.verb is None or claim.verb == ability.id or claim.verb not in ctx.usable:
        return False
    return bool(_AND.search(claim.text))


_AND = re.compile(r"(?i)(?:^|\W)(?:and|et|и|also|aussi|puis|then|потом)(?:\W|$)")


def _not_self(hits: list[object], ctx: Context) -> list[object]:
    """Name hits other than the sender himself ("я")."""
    return [h for h in hits if not (isinstance(h, list) and all(
        isinstance(n, NameHit) and n.players == (ctx.actor,) for n in h))]  # fmt: skip


def claims_allowed(ability: Ability, ctx: Context) -> int:
    """How many claims one order may carry: the sender's "Investigate N" (the role's
    ``per_phase`` for this ability), an item's ``investigate_count``, else its claim slots."""
    slots = sum(1 for spec in ability.targets if spec.kind == TargetKind.CLAIM)
    declared = ability.effect_params.get("investigate_count")
    own = _role_ability(ctx, ability.id)
    per_phase = own.per_phase if own is not None else ability.per_phase
    counts = [slots, per_phase if slots else 0]
    if isinstance(declared, int):
        counts.append(declared)
    return max(counts)


def _role_ability(ctx: Context, ability_id: str) -> Ability | None:
    """The sender's own version of an ability (a role may override its uses per phase)."""
    roles = ctx.lexicon.ruleset.roles
    role = roles.get(ctx.role) if ctx.role else None
    return role.abilities.get(ability_id) if role is not None else None


def _take(pools: dict[str, list[object]], kind: str, piece: Piece) -> Slot | None:
    pool = pools.get(kind) or []
    if not pool and kind == TargetKind.PHASE:
        # the phase an arrest or a Special Investigate needs is the crime's or the claim's
        pool = pools.get("implied_phase") or []
    if not pool:
        return None
    value = pool.pop(0)
    if kind == TargetKind.PLAYER:
        slots, quality = _player_slots([value], piece)  # type: ignore[list-item]  # NameHits
        piece.confidence *= quality
        return slots[0]
    if isinstance(value, Claim) and not claim_complete(value):
        piece.doubt("claim", f"claim not understood: '{value.text}'")
    return Slot(kind, value)  # type: ignore[arg-type]


def _player_slots(groups: list[list[NameHit]], piece: Piece) -> tuple[tuple[Slot, ...], float]:
    """Player slots from name hits; an ambiguous name keeps its first candidate, doubted."""
    slots: list[Slot] = []
    quality = 1.0
    for group in groups:
        chosen: list[str] = []
        for hit in group:
            players = hit.players
            quality = min(quality, hit.quality)
            if len(players) > 1:
                piece.doubt("or", "'" + "' or '".join(players) + "'")
            if hit.written:  # a fuzzy match: "Frnak" read as Frank
                piece.guesses.append(("name", hit.written, players[0]))
            chosen.append(players[0])
        slots.append(Slot(TargetKind.PLAYER, chosen[0], tuple(chosen[1:])))
    return tuple(slots), quality


def _common_doubts(draft: Draft, piece: Piece) -> None:
    if draft.later:
        piece.doubt("other_phase", f"for a later phase than {piece.order.phase}")
        piece.other_phase = True
    if draft.hedged:
        piece.doubt("hedged", "the player sounds unsure")
    if draft.question and not (draft.claims and draft.trigger_first):
        # "SI: did Callid kill Sebolains on night 2?" is a claim, asked as claims are
        piece.doubt("question", "asked as a question")
    if draft.negated:
        piece.doubt("negated", "negated ('don't', 'not')")
    if draft.vague:
        piece.doubt("vague", "the target is described, not named")
    if draft.handed:
        piece.doubt("vague", "sent for another player who handed over their actions: the GM checks")
    if draft.performer:
        piece.doubt("vague", f"given for another player ('{draft.performer}'): who may send it?")
    if draft.role_named:
        piece.doubt("vague", f"'{draft.role_named}' names a player and a role")
    if draft.guessed:
        piece.doubt("guess", draft.guessed)
    if "or" in draft.unknown:
        piece.doubt("or", "several choices joined by 'or'")
    if draft.joined:  # "je charme toto et lulu": a second name the roster did not give
        piece.doubt("unknown_capital", "unrecognised after 'and': " + ", ".join(draft.joined[:3]))
    capitals = [w for w in draft.unknown if w[:1].isupper() and w != draft.trigger]
    if capitals:
        piece.doubt("unknown_capital", "unrecognised: " + ", ".join(capitals[:3]))
