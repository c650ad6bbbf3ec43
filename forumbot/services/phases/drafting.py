"""Drafting a phase's messages: its results, the day's vote counts, order reminders.

A result message is keyed by game, phase and (after the GM redid a resolution) revision, so
it is drafted once; reminders and vote counts are keyed by phase and period.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.db.enums import DeliveryState, OrderStatus, OutboundKind, PhaseKind
from forumbot.db.models import Game, Order, Outbound, Phase, Player
from forumbot.db.repo import draft_outbound, move_outbound
from forumbot.render import EventRenderer
from forumbot.services import domain, games
from forumbot.services.context import Runtime
from forumbot.services.phases import daycount, is_alive, orders_deadline, schedule_of
from forumbot.services.receipts import phase_title
from resolver.model import Event
from resolver.model.catalogue import Ruleset


@dataclass(frozen=True, slots=True)
class Message:
    """A message to draft: a public post (``to`` empty) or a PM."""

    key: str  # unique within the phase: "post", "pm:Ann", "gm-report"
    body: str
    to: tuple[str, ...] = ()
    subject: str = ""


def result_messages(game: Game, phase: Phase, events: Sequence[Event]) -> list[Message]:
    """The phase post, each player's result PM and the GM's report, from the templates.

    Only public events reach the post; a private event goes to its recipients alone.
    """
    renderer = EventRenderer.create(domain.ruleset_of(game))
    title = renderer.phase_name(phase.name)
    messages = [Message("post", renderer.phase_post(phase.name, list(events)))]
    for name, texts in renderer.private_messages(list(events)).items():
        messages.append(Message(f"pm:{name}", "\n\n".join(texts), (name,), f"{game.name}: {title}"))
    report = renderer.gm_report(phase.name, list(events))
    messages.append(Message("gm-report", report, (game.gm_name or "",),
                            f"{game.name}: {title} (GM report)"))  # fmt: skip
    return messages


def draft_results(session: Session, game: Game, phase: Phase, events: Sequence[Event]) -> None:
    """Draft the phase post and every private result; approve them when the game auto-posts."""
    auto = games.config_of(game).publishing.mode == "auto"
    for message in result_messages(game, phase, events):
        row, _new = draft_outbound(
            session,
            game_id=game.id,
            key=f"{result_prefix(game, phase)}{message.key}",
            kind=OutboundKind.PM if message.to else OutboundKind.POST,
            body=message.body,
            recipients=list(message.to),
            subject=message.subject,
            phase_id=phase.id,
        )
        if auto and row.state is DeliveryState.DRAFT:
            move_outbound(session, row, DeliveryState.APPROVED, by="auto")


def result_prefix(game: Game, phase: Phase) -> str:
    """Keys of the phase's result messages; a re-resolution drafts under a new prefix."""
    revision = phase.revision
    return f"game{game.id}:{phase.name}:" + (f"r{revision}:" if revision else "")


def all_sent(session: Session, game: Game, phase: Phase) -> bool:
    """Whether the phase's results are all out (vote counts never hold a phase back; the
    drafts of a resolution the GM redid do not count)."""
    rows = session.execute(
        select(Outbound.state, Outbound.idempotency_key).where(Outbound.phase_id == phase.id)
    ).all()
    current = [(state, key) for state, key in rows if is_result(game, phase, key)]
    return all(state is DeliveryState.SENT for state, _key in current)


def is_result(game: Game, phase: Phase, key: str) -> bool:
    prefix = result_prefix(game, phase)
    rest = key[len(prefix) :] if key.startswith(prefix) else None
    return rest is not None and VOTE_COUNT.strip(":") not in rest and not rest.startswith("r")


VOTE_COUNT = ":votecount:"
REMIND_BEFORE = timedelta(hours=3)


REMIND_BEFORE = timedelta(hours=3)


def reminders_due(rt: Runtime, session: Session, game: Game, phase: Phase) -> None:
    """Three hours before the orders deadline, remind each player who may act and has not."""
    deadline = orders_deadline(phase)
    now = rt.clock.now()
    if deadline is None or not deadline - REMIND_BEFORE <= now < deadline:
        return
    if phase.reminded:
        return
    sent = {o.player_id for o in session.scalars(select(Order).where(
        Order.phase_id == phase.id, Order.status == OrderStatus.ACCEPTED))}  # fmt: skip
    ids = {p.display_name: p.id for p in game.players}
    zone = schedule_of(game).timezone
    when = deadline.astimezone(zone).strftime("%a %d %b %H:%M")
    for name in _actors(domain.ruleset_of(game), game.players, phase.name):
        if ids[name] in sent:
            continue
        row, _new = draft_outbound(
            session, game_id=game.id, key=f"game{game.id}:{phase.name}:reminder:{name}",
            kind=OutboundKind.PM, recipients=[name], subject=f"{game.name}: your orders",
            body=f"A reminder: your orders for {phase_title(phase.name)} close on {when} "
            f"({zone.key}). "
            "Reply to this PM with them.",
        )  # fmt: skip
        if row.state is DeliveryState.DRAFT:
            move_outbound(session, row, DeliveryState.APPROVED, by="reminders")
    phase.reminded = True


def _actors(ruleset: Ruleset, players: Sequence[Player], phase: str) -> list[str]:
    """The living players whose role has an ability (not passive) usable in ``phase``."""
    kind = phase.rstrip("0123456789")
    found = []
    for player in players:
        role = ruleset.roles.get(player.role or "")
        if role is None or not is_alive(player):
            continue
        if any(not a.passive and a.allowed_in(kind) and phase not in a.not_on
               for a in role.abilities.values()):  # fmt: skip
            found.append(player.display_name)
    return found


def vote_count_due(rt: Runtime, session: Session, game: Game, phase: Phase) -> None:
    """Draft the day's vote count every ``publishing.vote_count_every`` (once per period)."""
    config = games.config_of(game)
    every = config.publishing.vote_count_every
    if every is None or phase.kind is not PhaseKind.DAY or phase.starts_at is None:
        return
    period = int((rt.clock.now() - phase.starts_at) / every)
    key = f"game{game.id}:{phase.name}{VOTE_COUNT}{period}"
    if period < 1 or session.scalar(select(Outbound.id).where(Outbound.idempotency_key == key)):
        return
    tally = daycount.tally(rt, game.id)
    if tally is None:
        return
    row, _new = draft_outbound(session, game_id=game.id, key=key, kind=OutboundKind.POST,
                               body=tally.post, phase_id=phase.id)  # fmt: skip
    if config.publishing.mode == "auto":
        move_outbound(session, row, DeliveryState.APPROVED, by="auto")
