"""Hand-offs of actions in the runtime (seed 000, "Handing off Actions").

"You must PM the GM stating so, in a PM also sent to the member(s) you're giving your power
to, along with the phases for which they have power over your actions. ... Once you hand
power over your actions to someone else, it is immediate, irreversible, and absolute. If you
give power of your actions to someone else, any and all orders they make for you will
override your own orders, even if you send in newer ones. ... Results of actions will still
be sent to the person actually performing the action, and the person who is given control of
the other's actions will not be told if their actions were valid or invalid."

How forumbot plays it (only in a ruleset with the ``handoff_requires_cc`` option):

- A hand-off is an accepted ``handoff`` order row (the parser checks the copy to the
  delegate); its ``params.phases`` are the phases handed. A hand-off of phases already handed
  is refused (irreversible); one naming no phase goes to the GM.
- The delegate writes the giver's orders under a header naming the giver, on its own line
  (``For Callid:``, ``As Callid:``, ``On behalf of Callid,``, ``Callid:``); what follows, up
  to the next header, is read as the giver's PM and stored as the giver's orders (the raw PM
  is the delegate's, which is how a delegated order is told apart). It replaces the giver's
  earlier orders of the same ability. Orders for a giver whose hand-off does not cover the
  phase are refused, with the reason, in the GM's queue.
- The giver's own later order of an ability the delegate ordered for him that phase is
  refused (option ``handoff_giver_orders``: ``overridden``, the default; ``refused`` refuses
  every own order of a handed phase).
- The delegate gets no receipt for the giver's orders (never told if they were valid); the
  giver gets the results, as the resolver addresses them to him.
- The GM report of the phase lists the hand-offs, the delegated orders and the refusals.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.db.enums import OrderStatus
from forumbot.db.models import Game, Order, Phase, Player, RawPM
from forumbot.services import domain
from parsers.orders import Order as ParsedOrder
from parsers.orders import ParseResult, Status
from parsers.orders.handoff import split_for

HANDOFF = "handoff"
MARK = "hand-off: "  # the reason prefix of the orders a hand-off gave or refused
_PREFIX = r"(?:for|as|on behalf of|in place of|instead of|from)\s+"
_SEPARATOR = r"\s*(?:[:,\-\u2013\u2014]|$)"
_BREAK = re.compile(r"<br\s*/?>|</p>|</div>|\n", re.IGNORECASE)
_TAG = re.compile(r"<[^>]+>")


@dataclass(frozen=True, slots=True)
class Grant:
    """A recorded hand-off: ``giver``'s actions are ``delegate``'s for ``phases``."""

    giver: str
    delegate: str
    phases: tuple[str, ...]
    phase: str  # the phase it was sent in

    def covers(self, phase: str) -> bool:
        """True when the hand-off holds for ``phase``."""
        return phase in self.phases


@dataclass(frozen=True, slots=True)
class Part:
    """A piece of a delegate's PM: the giver it is for, and its text."""

    giver: Player
    text: str


@dataclass(frozen=True, slots=True)
class Steps:
    """What the PM reader does with a piece (the ingest functions, so nothing is duplicated):
    ``read(player, text)`` parses it for the open phases; ``store`` and ``queue`` as in
    ``forumbot.services.ingest``."""

    read: Callable[[Player, str], tuple[Phase, ParseResult] | None]
    late: Callable[[Phase, Player, ParseResult], bool]
    store: Callable[[Phase, Player, ParseResult, OrderStatus], None]
    queue: Callable[[Phase | None, Player, str, list[object]], None]
    candidates: Callable[[ParseResult], list[object]]


def applies(game: Game) -> bool:
    """Whether the game's ruleset has the hand-off rule."""
    return "handoff_requires_cc" in domain.ruleset_of(game).options


def not_counted(game: Game, sender: Player, raw: RawPM, reading: ParseResult) -> str:
    """Why a PM copied to other players does not count ("Multi-recipient PMs don't count"),
    or "" when it counts: the ruleset's ``multi_recipient_orders`` is ``ignore``, the PM
    went to another player of the game too, and it is not an accepted reading (the parser
    refuses such orders itself; this also catches a reading it sent to a later phase) nor a
    hand-off, the one PM the rule wants copied."""
    option = domain.ruleset_of(game).options.get("multi_recipient_orders")
    if option is None or option.value != "ignore" or reading.status is Status.ACCEPTED:
        return ""
    if any(o.ability == HANDOFF for c in reading.candidates for o in c.orders):
        return ""
    names = {n.casefold() for n in domain.recipients_of(raw)}
    copied = [p.display_name for p in game.players if p is not sender and _known(p) & names]
    if not copied:
        return ""
    return (
        f"orders in a PM sent to other players too ({', '.join(copied)}) do not count "
        "(seed 000: 'Multi-recipient PMs don't count')"
    )


def grants(session: Session, game: Game) -> list[Grant]:
    """The game's hand-offs in the order they were made (accepted ``handoff`` rows)."""
    names = {p.id: p.display_name for p in game.players}
    phase_names = {p.id: p.name for p in game.phases}
    rows = session.scalars(
        select(Order)
        .where(Order.game_id == game.id, Order.ability == HANDOFF)
        .where(Order.status.in_((OrderStatus.ACCEPTED, OrderStatus.SUPERSEDED)))
        .order_by(Order.received_at, Order.id)
    ).all()
    out = []
    for row in rows:
        phases = tuple(p for p in str((row.params or {}).get("phases") or "").split(",") if p)
        if row.targets:
            out.append(
                Grant(
                    names.get(row.player_id, ""),
                    str(row.targets[0]),
                    phases,
                    phase_names.get(row.phase_id, ""),
                )
            )
    return out


def split(session: Session, game: Game, sender: Player, text: str) -> tuple[str, list[Part]]:
    """The sender's own text and the parts written for givers who handed him their actions
    (any phase: a part for a phase not handed is refused later, with the reason)."""
    givers = {g.giver for g in grants(session, game) if g.delegate == sender.display_name}
    players = [p for p in game.players if p.display_name in givers]
    if not players:
        return text, []
    names = [(p.display_name, str(n)) for p in players for n in (p.display_name, *p.aliases)]
    own, parts = split_for(_lines(text), names)  # the parser's own split (parse-order agrees)
    if not parts:
        return text, []
    by_name = {p.display_name: p for p in players}
    return "\n".join(own), [Part(by_name[g], body) for g, body in parts]


def _lines(text: str) -> list[str]:
    plain = html.unescape(_TAG.sub("", _BREAK.sub("\n", text)))
    return [line.strip() for line in plain.split("\n") if line.strip()]


def handle_parts(
    session: Session, game: Game, sender: Player, parts: list[Part], steps: Steps
) -> None:
    """Read and store each part as its giver's orders, or refuse it with the reason."""
    given = grants(session, game)
    for part in parts:
        read = steps.read(part.giver, part.text)
        if read is None:
            steps.queue(
                None,
                part.giver,
                f"{sender.display_name} wrote orders for "
                f"{part.giver.display_name}: no phase is open for orders",
                [],
            )
            continue
        phase, reading = read
        covered = any(
            g.giver == part.giver.display_name
            and g.delegate == sender.display_name
            and g.covers(phase.name)
            for g in given
        )
        if not covered:
            why = (
                f"{MARK}{sender.display_name} sent orders for {part.giver.display_name}, "
                f"whose actions for {phase.name} were not handed to them"
            )
            steps.store(phase, part.giver, replace(reading, reason=why), OrderStatus.REJECTED)
            steps.queue(phase, part.giver, why, steps.candidates(reading))
        elif steps.late(phase, part.giver, reading):
            why = f"{MARK}{sender.display_name}'s orders for {part.giver.display_name}: late"
            steps.store(phase, part.giver, replace(reading, reason=why), OrderStatus.LATE)
        elif reading.status is Status.ACCEPTED:
            why = f"{MARK}ordered by {sender.display_name} for {part.giver.display_name}"
            steps.store(phase, part.giver, replace(reading, reason=why), OrderStatus.ACCEPTED)
        else:
            status = (
                OrderStatus.AMBIGUOUS
                if reading.status is Status.AMBIGUOUS
                else OrderStatus.REJECTED
            )
            why = f"{sender.display_name}'s orders for {part.giver.display_name}: {reading.reason}"
            steps.store(phase, part.giver, reading, status)
            steps.queue(phase, part.giver, why, steps.candidates(reading))


def refusals(
    session: Session, game: Game, player: Player, phase: Phase, reading: ParseResult
) -> tuple[ParseResult, ParseResult | None]:
    """Split a player's own accepted reading into what stands and what a hand-off refuses
    (a hand-off of phases already handed; an own order the delegate's orders override)."""
    if not applies(game):
        return reading, None
    given = grants(session, game)
    kept: list[ParsedOrder] = []
    refused: list[tuple[ParsedOrder, str]] = []
    for order in reading.orders:
        why = _refusal(session, game, player, phase, order, given)
        if why:
            refused.append((order, why))
        else:
            kept.append(order)
    if not refused:
        return reading, None
    reason = "; ".join(dict.fromkeys(f"{MARK}{why}" for _, why in refused))
    out = replace(
        reading, orders=tuple(o for o, _ in refused), reason=reason, status=Status.REJECTED
    )
    return replace(reading, orders=tuple(kept)), out


def _refusal(
    session: Session,
    game: Game,
    player: Player,
    phase: Phase,
    order: ParsedOrder,
    given: list[Grant],
) -> str:
    me = player.display_name
    if order.ability == HANDOFF:
        phases = str(dict(order.params).get("phases") or "")
        wanted = [p for p in phases.split(",") if p]
        if not wanted:
            return "a hand-off must name its phases (seed 000: 'along with the phases')"
        taken = [p for p in wanted if any(g.giver == me and g.covers(p) for g in given)]
        if taken:
            to = next(g.delegate for g in given if g.giver == me and g.covers(taken[0]))
            return (
                f"a hand-off is immediate and irreversible: {me}'s actions for "
                f"{', '.join(taken)} are already {to}'s"
            )
        return ""
    mine = [g for g in given if g.giver == me and g.covers(phase.name)]
    if not mine or order.ability in ("will", "vote", "cancel", ""):
        return ""
    if domain.ruleset_of(game).option("handoff_giver_orders") == "refused":
        return f"{me} handed their actions for {phase.name} to {mine[0].delegate}"
    if _delegated(session, phase, player, order.ability):
        return (
            f"{mine[0].delegate}'s orders for {me} override {me}'s own for "
            f"{phase.name}, even newer ones"
        )
    return ""


def _delegated(session: Session, phase: Phase, player: Player, ability: str) -> bool:
    """Whether the player's delegate ordered this ability for him in this phase."""
    rows = session.execute(
        select(RawPM.sender_name)
        .join(Order, Order.raw_pm_id == RawPM.id)
        .where(Order.phase_id == phase.id, Order.player_id == player.id)
        .where(Order.ability == ability)
        .where(Order.status.in_((OrderStatus.ACCEPTED, OrderStatus.SUPERSEDED)))
    ).all()
    return any(sender.casefold() not in _known(player) for (sender,) in rows)


def _known(player: Player) -> set[str]:
    """A player's names, case-folded."""
    return {player.display_name.casefold(), *(str(a).casefold() for a in player.aliases)}


def report_lines(session: Session, game: Game, phase: Phase) -> list[str]:
    """The GM report's lines about hand-offs for this phase: the hand-offs that cover it,
    the orders delegates gave, and the orders the hand-off rule refused."""
    if not applies(game):
        return []
    lines = [
        f"[hand-off] {g.giver} → {g.delegate} for {', '.join(g.phases)} (sent {g.phase})"
        for g in grants(session, game)
        if g.covers(phase.name) or g.phase == phase.name
    ]
    names = {p.id: p.display_name for p in game.players}
    rows = session.execute(
        select(Order, RawPM.sender_name)
        .join(RawPM, Order.raw_pm_id == RawPM.id)
        .where(Order.phase_id == phase.id, Order.reason.startswith(MARK))
        .order_by(Order.received_at, Order.id)
    ).all()
    for row, sender in rows:
        what = " ".join([str(row.ability or "").replace("_", " "), *map(str, row.targets)])
        lines.append(
            f"[hand-off] {names.get(row.player_id, '?')}: {what.strip()} "
            f"(PM from {sender}): {row.status} — {row.reason[len(MARK) :]}"
        )
    return lines
