"""Investigation claims: "Conia kills CTU", "Akonyl disguised as Shinichi", "X killed Y Night 1"."""

from __future__ import annotations

import re

from parsers.orders.context import Context, Reading
from parsers.orders.model import Claim
from parsers.orders.text import tokenize

_VERB_KINDS = ("ability", "crime")
_OR = frozenset({"or", "ou", "или", "/"})
# Between claims of one order: "A kills B, C protects D and E disguised as Ran".
_CLAIM_SEPARATORS = re.compile(r"\s*[;,]\s*|\s+(?:and|et|и)\s+", re.IGNORECASE)


def parse_claims(text: str, ctx: Context) -> list[Claim]:
    """Read one claim, or several when the text lists them ("A kills B, C protects D").

    The text is split only when at least two of its parts are whole claims; otherwise it is
    one claim (so "Conia kills CTU, Night 1" keeps its phase). Taking only the first of
    several listed claims would accept an order the player did not write.
    """
    parts = [part for part in _CLAIM_SEPARATORS.split(text) if part.strip()]
    if len(parts) > 1:
        claims = [parse_claim(part, ctx) for part in parts]
        if sum(claim_complete(claim) for claim in claims) > 1:
            return claims
    return [parse_claim(text, ctx)]


def parse_claim(text: str, ctx: Context) -> Claim:
    """Read a claim's subject, verb (an ability or crime id), object and phase.

    The subject is the first player named, the verb the first ability/crime word after it,
    the object the next player (or role, for disguises), the phase any phase reference.
    Parts that cannot be read stay None; the order is then queued for the GM. A claim with a
    name it has no place for, or an "or" ("Sabre kills Quill or Oskar"), is not read (its verb
    stays None) rather than read without them.

    Args:
        text: the claim as the player wrote it (without the quote marks).
        ctx: the parse context.

    Returns:
        The claim (``text`` always kept verbatim).
    """
    reading = Reading.of(tokenize(text), ctx)
    tokens = reading.sentence.tokens
    subject = verb = obj = phase = None
    i = 0
    while i < len(tokens):
        step = 1
        found_phase = reading.phase(ctx, i)
        name = reading.name(ctx, i)
        match = reading.match(ctx, i)
        if found_phase and (name is None or found_phase[1] >= name.length):
            phase, step = found_phase[0].id, found_phase[1]
        elif subject is None and name and len(name.players) == 1:
            subject, step = name.players[0], name.length
        elif verb is None and match and any(match.values(k) for k in _VERB_KINDS):
            verb = (match.values("ability") or match.values("crime"))[0]
            step = match.length
        elif (
            verb is not None
            and obj is None
            and match
            and match.values("role")
            and (name is None or _takes_role(verb, ctx))
        ):
            obj, step = match.values("role")[0], match.length
        elif verb is not None and obj is None and name and len(name.players) == 1:
            obj, step = name.players[0], name.length
        elif (
            name is not None or tokens[i].norm in _OR or (match and "alternative" in match.kinds())
        ):
            return Claim(text=text, subject=subject)  # "Sabre kills Quill or Oskar": unread
        i += step
    return Claim(text=text, subject=subject, verb=verb, object=obj, phase=phase)


def _takes_role(verb: str, ctx: Context) -> bool:
    """A disguise-like verb: its object is a role ("Akonyl disguised as Ran" means the role)."""
    ability = ctx.lexicon.ruleset.abilities.get(verb)
    kinds = {t.kind for t in ability.targets} if ability else set()
    return "role" in kinds and "player" not in kinds


def claim_complete(claim: Claim) -> bool:
    """True when the claim has a subject and a verb (the object is optional: "X chose costumes")."""
    return claim.subject is not None and claim.verb is not None
