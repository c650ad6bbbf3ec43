"""Orders carried out by another player than the sender: "Жанна стреляет в Богдана" from
the clan's Boss, "Юлиан вызывает на допрос Жанну" from the Sheriff.

The draft names the performer (``Draft.doer``); the order is read and checked as the
performer's own (their abilities, statuses, uses, history), then the sender's right to send
it is checked (``rules.performer_finding``). Anything short of a clear right queues it.
"""

from __future__ import annotations

from dataclasses import replace

from parsers.orders.build import Piece, build
from parsers.orders.context import Context
from parsers.orders.model import Slot
from parsers.orders.players import NameHit
from parsers.orders.rules import OUT_STATUSES, performer_finding
from parsers.orders.scan import SUBJECT, VISITOR, Draft
from parsers.orders.validate import BLOCKING_STATUSES, Situation, Verdict, validate
from resolver.model import TargetKind


def performer_pieces(
    draft: Draft, ctx: Context, own: Context | None, sit: Situation
) -> tuple[list[Piece], Verdict | None]:
    """The readings of a draft that names its performer, and their verdict.

    Args:
        draft: the draft, with ``doer`` set.
        ctx: the sender's context.
        own: the performer's context (their abilities and role), None when the roster does
            not give the performer a role of the ruleset.
        sit: the sender's situation (roster, recipients, history).

    Returns:
        The readings (each order carrying ``performer``) and the verdict of the best; no
        readings when the draft gives none.
    """
    assert draft.doer is not None
    name = draft.doer.players[0]
    pieces = build(draft, own or ctx)
    for piece in pieces:
        piece.order = replace(piece.order, performer=name)
        piece.alternatives = [replace(o, performer=name) for o in piece.alternatives]
    if not pieces:
        return pieces, None
    order = pieces[0].order
    if draft.past:
        return pieces, Verdict(doubt=f"told as what {name} did, not as an order: the GM reads it")
    ability = ctx.lexicon.ruleset.abilities.get(order.ability)
    if ability is not None and "common" in ability.tags:  # staying home, items, a stake hunt
        return pieces, Verdict(doubt=f"{ctx.lexicon.name('ability', order.ability)} is every "
                               f"player's own move, sent for {name}: the GM checks")  # fmt: skip
    found = performer_finding(ctx.lexicon.ruleset, sit.roster, ctx.actor, name, sit.history,
                              ctx.phase.id)  # fmt: skip
    if found is not None:
        return pieces, Verdict(doubt=found)
    if own is None:
        return pieces, Verdict(doubt=f"{name}'s role is not known: the GM checks")
    verdict = validate(order, own, Situation(sit.roster, sit.recipients, {}, sit.history))
    if verdict.rule:  # the performer may not: the sender's clan move, the GM decides
        return pieces, Verdict(doubt=f"{verdict.rule} (sent by {ctx.actor})")
    return pieces, verdict


def one_move_each(pieces: list[tuple[Piece, list[Piece]]], verdicts: list[Verdict]) -> None:
    """A performer named for two moves of the PM ("Ганс стреляет в Машу, Ганс травит Кота"):
    whether a member may carry out two of the clan's moves is the GM's (in place)."""
    doers = [piece.order.performer for piece, _ in pieces if piece.order.performer]
    for k, (piece, _) in enumerate(pieces):
        who = piece.order.performer
        if who and doers.count(who) > 1 and not verdicts[k].rule:
            verdicts[k] = Verdict(doubt=f"{who} carries out two moves of the PM: the GM checks")


def kill_order(draft: Draft, ctx: Context, sit: Situation) -> tuple[list[Piece], Verdict] | None:
    """Seed 000: the BO leader's kill order names who kills whom ("Kleene kills Anna"): a
    team kill written with its performer, from a sender holding an ability whose first slot
    is the killer (``target_rules.slot0.role: killer``: DCTP's ``order_kill``), is that
    order, ``order_kill Kleene Anna``, checked as the sender's. The killer must be a living,
    free teammate of the sender; else, or with no such ability, None (the performer rules)."""
    rules = ctx.lexicon.ruleset
    ordering = [a for a in sorted(ctx.abilities or ()) if a in rules.abilities and
                (rules.abilities[a].effect_params.get("target_rules") or {})
                .get("slot0", {}).get("role") == "killer"]  # fmt: skip
    team_kill = [a for a in draft.abilities if _team_kill(ctx, a)]
    if draft.doer is None or len(ordering) != 1 or not team_kill:
        return None
    pieces = build(draft, replace(ctx, abilities=frozenset(team_kill)))
    if not pieces or len(pieces[0].order.targets) != 1:
        return None
    name = draft.doer.players[0]
    for piece in pieces:
        targets = (Slot(TargetKind.PLAYER, name), *piece.order.targets)
        piece.order = replace(piece.order, ability=ordering[0], targets=targets)
    verdict = validate(pieces[0].order, ctx, sit)
    doubt = _teammate_doubt(sit, ctx, name)
    if draft.past:
        doubt = f"told as what {name} did, not as an order: the GM reads it"
    return pieces, Verdict(verdict.rule, doubt or verdict.doubt)


def _team_kill(ctx: Context, ability_id: str) -> bool:
    """A kill any member of the sender's team carries out (tag ``faction_kill``, or granted
    by the faction: DCTP's BO ``kill``)."""
    ability = ctx.lexicon.ruleset.abilities.get(ability_id)
    if ability is None:
        return False
    source = str(ability.effect_params.get("grant_source") or "")
    return "faction_kill" in ability.tags or source.startswith("faction.")


def _teammate_doubt(sit: Situation, ctx: Context, name: str) -> str | None:
    """Why ``name`` may not be the killer the sender orders (None when a free teammate)."""
    slots = {s.name: s for s in sit.roster.slots}
    doer, sender = slots.get(name), slots.get(ctx.actor)
    roles = ctx.lexicon.ruleset.roles
    if doer is None or sender is None or doer.role not in roles or sender.role not in roles:
        return f"who {name} is in the game is not known: the GM checks"
    if not doer.alive or doer.statuses & (OUT_STATUSES | BLOCKING_STATUSES):
        return f"{name} may not carry out a kill now: the GM checks"
    if roles[str(doer.role)].faction != roles[str(sender.role)].faction:
        return f"{name} is not of {ctx.actor}'s team: the GM checks"
    return None


def rule_performer_named(draft: Draft, ctx: Context) -> None:
    """ "The family hits Nell tonight, Crispin makes the visit", "Nick kills Ann" from the
    Godfather: the performer named after the order (``scan.VISITOR``) or as its verb's
    subject (``scan.SUBJECT``; not "Nick: kill Ann", which speaks to him) is the one teammate
    who carries out the sender's own team ability by the ruleset's rule (its
    ``performer_tag``: Failheap's Mafioso), so the order is the sender's own, as if he were
    not named (in place)."""
    if draft.doer is None or draft.doer.how not in (VISITOR, SUBJECT) or draft.past:
        return
    name = draft.doer.players[0]
    own = [a for a in draft.abilities if a in (ctx.abilities or ())]
    if own and all(_sole_rule_performer(a, ctx) == name for a in own):
        draft.doer = None


def _sole_rule_performer(ability_id: str, ctx: Context) -> str | None:
    """The teammate who carries out ``ability_id`` by its ``performer_tag`` when exactly one
    living, free player of the sender's team has the tag, else None."""
    rules = ctx.lexicon.ruleset
    ability = rules.abilities.get(ability_id)
    tag = ability.effect_params.get("performer_tag") if ability is not None else None
    slots = {s.name: s for s in ctx.players.roster.slots}
    sender = slots.get(ctx.actor)
    if not tag or sender is None or sender.role not in rules.roles:
        return None
    team, roles = rules.roles[str(sender.role)].faction, rules.roles
    doers = [s.name for s in slots.values() if s.alive and s.role in roles
             and not s.statuses & (OUT_STATUSES | BLOCKING_STATUSES)
             and roles[str(s.role)].faction == team and tag in roles[str(s.role)].tags]  # fmt: skip
    return doers[0] if len(doers) == 1 else None


def role_performer(draft: Draft, ctx: Context, sit: Situation) -> None:
    """ "Вербовщик вербует Злату", "our Recruiter recruits Boris" from the clan head: a role
    named as the performer is the one living player of that role on the sender's side
    (``Draft.doer``, then the performer rules); none or several leave the doubt (in place).
    A role whose one living holder is the order's own target says who the target is."""
    if draft.doer is not None or not draft.doer_roles or not draft.names:
        return
    roles = ctx.lexicon.ruleset.roles
    sender = next((s for s in sit.roster.slots if s.name == ctx.actor), None)
    side = roles[str(sender.role)].faction if sender and sender.role in roles else None
    holders = [s.name for s in sit.roster.slots if s.alive and s.role in draft.doer_roles
               and roles[str(s.role)].faction == side]  # fmt: skip
    targets = {p for group in draft.names for hit in group for p in hit.players}
    anyone = [s.name for s in sit.roster.slots if s.alive and s.role in draft.doer_roles]
    if len(anyone) == 1 and anyone[0] in targets:
        draft.performer, draft.doer_roles = "", ()  # "c'est lui Bacula : je veux découvrir
        return  # Sigismond" (Bacula): the role names the order's own target, no performer
    if side is not None and len(holders) == 1 and holders[0] != ctx.actor:
        draft.doer = NameHit((holders[0],), 1, 1.0, "role")
        draft.performer = ""
