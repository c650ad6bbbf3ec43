"""Drafting a phase's messages: its results, the day's vote counts, order reminders.

A result message is keyed by game, phase and (after the GM redid a resolution) revision, so
it is drafted once; reminders and vote counts are keyed by phase and period.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.db.enums import DeliveryState, OrderStatus, OutboundKind, PhaseKind
from forumbot.db.models import Game, Order, Outbound, Phase, Player
from forumbot.db.repo import draft_outbound, move_outbound
from forumbot.render import EventRenderer
from forumbot.services import domain, games, handoffs, receipts
from forumbot.services.context import Runtime
from forumbot.services.phases import daycount, is_alive, order_deadline, schedule_of
from forumbot.services.receipts import phase_title
from resolver.engine import resolve_phase
from resolver.model import Event, EventKind
from resolver.model.catalogue import Ruleset
from resolver.rng import PurposeRng


@dataclass(frozen=True, slots=True)
class Message:
    """A message to draft: a public post (``to`` empty) or a PM."""

    key: str  # unique within the phase: "post", "pm:Ann", "gm-report"
    body: str
    to: tuple[str, ...] = ()
    subject: str = ""


def result_messages(
    game: Game, phase: Phase, events: Sequence[Event], report_extra: Sequence[str] = ()
) -> list[Message]:
    """The phase post, each player's result PM and the GM's report, from the templates
    (``report_extra``: more lines for the GM's report, such as the phase's hand-offs).

    Only public events reach the post; a private event goes to its recipients alone.
    """
    renderer = EventRenderer.create(domain.ruleset_of(game))
    title = renderer.phase_name(phase.name)
    messages = [Message("post", renderer.phase_post(phase.name, list(events)))]
    for name, texts in renderer.private_messages(list(events)).items():
        messages.append(Message(f"pm:{name}", "\n\n".join(texts), (name,), f"{game.name}: {title}"))
    report = "\n".join([renderer.gm_report(phase.name, list(events)), *report_extra])
    messages.append(Message("gm-report", report, (game.gm_name or "",),
                            f"{game.name}: {title} (GM report)"))  # fmt: skip
    return messages


def draft_results(session: Session, game: Game, phase: Phase, events: Sequence[Event]) -> None:
    """Draft the phase post and every private result; approve them when the game auto-posts."""
    auto = games.config_of(game).publishing.mode == "auto"
    extra = handoffs.report_lines(session, game, phase)
    for message in result_messages(game, phase, events, extra):
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
            ended = phase.deadline
            if (
                ended is not None and ended < game.created_at and receipts.ran_before(session, game)
            ):  # a fresh database reads an old phase again: was its post sent before?
                receipts.check_forum_first(session, row, since=ended)


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
    """Three hours before his orders deadline (his abilities' own, such as the wolves' 19:00,
    else the phase's), remind each player who may act and has not, once (the reminder's
    key is unique: drafting it again changes nothing)."""
    now = rt.clock.now()
    sent = {o.player_id for o in session.scalars(select(Order).where(
        Order.phase_id == phase.id, Order.status == OrderStatus.ACCEPTED))}  # fmt: skip
    ids = {p.display_name: p.id for p in game.players}
    zone = schedule_of(game).timezone
    for name, abilities in _actors(domain.ruleset_of(game), game.players, phase.name).items():
        deadlines = [d for a in abilities if (d := order_deadline(phase, a)) is not None]
        deadline = min(deadlines, default=None)
        if ids[name] in sent or deadline is None or not deadline - REMIND_BEFORE <= now < deadline:
            continue
        local = deadline.astimezone(zone)
        body = receipts.message(game, "reminder", phase=phase_title(phase.name),
                                phase_id=phase.name, when=local.strftime("%a %d %b %H:%M"),
                                when_fr=local.strftime("%d/%m à %H:%M"), zone=zone.key)  # fmt: skip
        row, new = draft_outbound(
            session, game_id=game.id, key=f"game{game.id}:{phase.name}:reminder:{name}",
            kind=OutboundKind.PM, recipients=[name], subject=_subject(game, "orders"),
            body=body,
        )  # fmt: skip
        if new and row.state is DeliveryState.DRAFT:
            move_outbound(session, row, DeliveryState.APPROVED, by="reminders")
            phase.reminded = True  # at least one reminder of the phase went out


def victim_notice_due(rt: Runtime, session: Session, game: Game, phase: Phase) -> None:
    """Once a team vote's own deadline passed (the wolves' 19:00), tell each living holder of
    an ability with ``learns_victim`` and a use left whom the team chose (seed 003: Shinra
    decides from 19:00 whether to save). The choice is the resolver's, on the team's orders."""
    ruleset = domain.ruleset_of(game)
    kind = phase.kind.value
    team = {a.id for a in ruleset.abilities.values()
            if a.effect_params.get("team_vote") and a.allowed_in(kind)}  # fmt: skip
    learners = [a.id for a in ruleset.abilities.values()
                if a.effect_params.get("learns_victim") is True and a.allowed_in(kind)]  # fmt: skip
    key = f"game{game.id}:{phase.name}:victim"
    deadlines = [d for a in team if (d := order_deadline(phase, a)) is not None]
    if not team or not learners or not deadlines or rt.clock.now() < min(deadlines):
        return
    told = select(Outbound.id).where(Outbound.idempotency_key.like(f"{key}:%")).limit(1)
    if session.scalar(told) is not None:
        return
    rows = session.scalars(select(Order).where(
        Order.phase_id == phase.id, Order.status == OrderStatus.ACCEPTED,
        Order.ability.in_(sorted(team))).order_by(Order.received_at, Order.id)).all()  # fmt: skip
    before = domain.state_before(game, phase, ruleset)
    orders = domain.resolver_orders(rows, {p.id: p.display_name for p in game.players})
    trial = resolve_phase(before, orders, ruleset, rng=PurposeRng(game.seed), phase=phase.name)
    victims = [t for e in trial.events if e.kind is EventKind.OUTCOME
               and e.data.get("ability") in team and e.data.get("outcome") == "done"
               and not e.data.get("reason") for t in e.data.get("final_targets", ())]  # fmt: skip
    for p in before.players:
        role = ruleset.roles[p.role]
        if not p.alive or not any(a in role.abilities and p.uses_left(a) != 0 for a in learners):
            continue
        body = receipts.message(game, "victim", phase=phase_title(phase.name),
                                phase_id=phase.name, victims=victims)  # fmt: skip
        row, _new = draft_outbound(
            session, game_id=game.id, key=f"{key}:{p.name}",
            kind=OutboundKind.PM, recipients=[p.name], subject=_subject(game, "tonight"), body=body,
        )  # fmt: skip
        if row.state is DeliveryState.DRAFT:
            move_outbound(session, row, DeliveryState.APPROVED, by="victim_notice")


def tie_break_notice(
    session: Session,
    game: Game,
    phase: Phase,
    holders: Sequence[str],
    tied: Sequence[str],
    until: datetime,
) -> None:
    """Tell the tie-breaker (the mayor) once that the day is tied and until when he decides."""
    local = until.astimezone(schedule_of(game).timezone)
    for name in holders:
        body = receipts.message(game, "tie_break", phase=phase_title(phase.name),
                                phase_id=phase.name, tied=list(tied),
                                when=local.strftime("%a %d %b %H:%M"),
                                when_fr=local.strftime("%d/%m à %H:%M"))  # fmt: skip
        row, _new = draft_outbound(
            session, game_id=game.id, key=f"game{game.id}:{phase.name}:tie_break:{name}",
            kind=OutboundKind.PM, recipients=[name], subject=_subject(game, "tie"), body=body,
        )  # fmt: skip
        if row.state is DeliveryState.DRAFT:
            move_outbound(session, row, DeliveryState.APPROVED, by="tie_break")


def _subject(game: Game, what: str) -> str:
    """``ikebukuro: vos ordres``: a runtime PM's subject in the game's language."""
    return f"{game.name}: {receipts.message(game, 'subject', what=what)}"


def _actors(ruleset: Ruleset, players: Sequence[Player], phase: str) -> dict[str, list[str]]:
    """The living players whose role has an ability (not passive) usable in ``phase``, with
    those abilities; an ability kept for another phase (``effect_params.only_on``) or for a
    status holder (``requires_status``: the mayor's) reminds nobody."""
    kind = phase.rstrip("0123456789")
    found = {}
    for player in players:
        role = ruleset.roles.get(player.role or "")
        if role is None or not is_alive(player):
            continue
        usable = [a.id for a in role.abilities.values()
                  if not a.passive and a.allowed_in(kind) and phase not in a.not_on
                  and a.effect_params.get("only_on", phase) == phase
                  and "requires_status" not in a.effect_params]  # fmt: skip
        if usable:
            found[player.display_name] = usable
    return found


def vote_count_due(rt: Runtime, session: Session, game: Game, phase: Phase) -> None:
    """Draft the day's vote count every ``publishing.vote_count_every`` (once per period)."""
    config = games.config_of(game)
    every = config.publishing.vote_count_every
    if every is None or phase.kind is not PhaseKind.DAY or phase.starts_at is None:
        return
    now = rt.clock.now()
    period = int((now - phase.starts_at) / every)
    key = f"game{game.id}:{phase.name}{VOTE_COUNT}{period}"
    if period < 1 or session.scalar(select(Outbound.id).where(Outbound.idempotency_key == key)):
        return
    tally = daycount.tally(rt, game.id)
    if tally is None or tally.result.decision.ended is not None:
        return  # the Day is over (hammer or deadline): no more vote counts
    retire_vote_counts(session, game, phase)  # a newer count replaces an unapproved one
    row, _new = draft_outbound(session, game_id=game.id, key=key, kind=OutboundKind.POST,
                               body=tally.post, phase_id=phase.id)  # fmt: skip
    if config.publishing.mode == "auto":
        move_outbound(session, row, DeliveryState.APPROVED, by="auto")


def retire_vote_counts(session: Session, game: Game, phase: Phase) -> int:
    """Hold the phase's vote-count drafts that are not out yet (a newer count replaces them,
    and none is posted once the Day has ended); returns how many."""
    rows = session.scalars(
        select(Outbound).where(
            Outbound.game_id == game.id,
            Outbound.phase_id == phase.id,
            Outbound.idempotency_key.contains(VOTE_COUNT),
            Outbound.state.in_((DeliveryState.DRAFT, DeliveryState.APPROVED)),
        )
    ).all()
    for row in rows:
        move_outbound(session, row, DeliveryState.HELD, by="superseded")
    return len(rows)
