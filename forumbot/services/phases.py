"""The phase clock: open phases on schedule, freeze them at the deadline, resolve, draft.

Every step is idempotent and moves a phase forward only (PENDING -> OPEN -> FROZEN ->
RESOLVED -> PUBLISHED), so running ``tick`` twice, or after a crash, repeats nothing.
At the deadline the orders freeze: the last valid order before the orders deadline wins,
and an order received later is kept as LATE (shown to the GM, never applied).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from forumbot.db.enums import (
    DeliveryState,
    GameStatus,
    OrderStatus,
    OutboundKind,
    PhaseKind,
    PhaseStatus,
    PlayerStatus,
    ReviewKind,
    ReviewState,
)
from forumbot.db.models import Game, Order, Outbound, Phase, Player, ReviewItem
from forumbot.db.repo import append_events, draft_outbound, move_outbound
from forumbot.logging import event
from forumbot.runtime import schedule
from forumbot.runtime.context import Runtime
from forumbot.runtime.pipeline import ParsedOrder, PhaseInput, PhaseOutcome, phase_title
from forumbot.services import games

LIVE = (PhaseStatus.OPEN, PhaseStatus.FROZEN, PhaseStatus.RESOLVED)


def current(game: Game) -> Phase | None:
    """The phase being played or settled (the latest not merely pending)."""
    started = [p for p in game.phases if p.status is not PhaseStatus.PENDING]
    return started[-1] if started else None


def order_phases(game: Game) -> list[Phase]:
    """Phases an order PM may be for now: the open phase, then the one planned after it."""
    return [p for p in game.phases if p.status in (PhaseStatus.OPEN, PhaseStatus.PENDING)]


def orders_deadline(phase: Phase) -> datetime | None:
    """When orders for this phase stop counting (the ``orders`` inner deadline, if any)."""
    inner = phase.inner_deadlines.get(schedule.ORDERS_DEADLINE)
    return datetime.fromisoformat(inner) if inner else phase.deadline


def is_late(phase: Phase, sent_at: datetime) -> bool:
    """Whether an order sent at ``sent_at`` missed this phase."""
    if phase.status not in (PhaseStatus.OPEN, PhaseStatus.PENDING):
        return True
    deadline = orders_deadline(phase)
    return deadline is not None and sent_at > deadline


def is_alive(player: Player) -> bool:
    """Whether a player still plays (not dead, replaced or modkilled)."""
    return player.status is PlayerStatus.ALIVE


def open_first(rt: Runtime, game_id: int) -> None:
    """Open the game's first phase if it has none yet (before its first poll)."""
    with rt.sessions.begin() as session:
        game = session.get_one(Game, game_id)
        if game.status is GameStatus.RUNNING and current(game) is None:
            open_phase(session, game, schedule.first_plan(_schedule(game), rt.clock.now()))


def tick(rt: Runtime, game_id: int) -> str | None:
    """Move the game's clock one step if it is due; returns the current phase's name."""
    now = rt.clock.now()
    with rt.sessions.begin() as session:
        game = session.get_one(Game, game_id)
        if game.status is not GameStatus.RUNNING:
            return None
        phase = current(game)
        if phase is None:
            phase = open_phase(session, game, schedule.first_plan(_schedule(game), now))
        elif phase.status is PhaseStatus.OPEN and phase.deadline and now >= phase.deadline:
            freeze(session, game, phase)
        if phase.status is PhaseStatus.FROZEN and not _waits_for_gm(session, game, phase):
            resolve(rt, session, game, phase)
        if phase.status is PhaseStatus.RESOLVED and _all_sent(session, game, phase):
            phase.status = PhaseStatus.PUBLISHED
            event(rt.log, "phase.published", game=game_id, phase=phase.name)
        if phase.status is PhaseStatus.PUBLISHED:
            phase = _advance(rt, session, game, phase)
        if phase is not None and phase.status is PhaseStatus.OPEN:
            _vote_count_due(rt, session, game, phase)
            _reminders_due(rt, session, game, phase)
        return phase.name if phase else None


def open_phase(session: Session, game: Game, plan: schedule.PhasePlan) -> Phase:
    """Open a phase (promoting its pending row) and plan the one after it."""
    phase = _row(session, game, plan)
    phase.status = PhaseStatus.OPEN
    _fill(phase, plan)
    following = schedule.following_plan(_schedule(game), plan.name, plan.deadline)
    _fill(_row(session, game, following), following)
    session.flush()
    return phase


def freeze(session: Session, game: Game, phase: Phase) -> None:
    """Stop taking orders: a parsed order whose PM came after the orders deadline is LATE.

    An order the GM decided stands as decided (the GM has the last word); its row's time is
    when the GM's queue item was created, not when the player sent the PM.
    """
    deadline = orders_deadline(phase)
    for order in session.scalars(
        select(Order).where(Order.phase_id == phase.id, Order.status == OrderStatus.ACCEPTED)
    ):
        by_gm = order.decided_by.startswith("gm:")
        if deadline is not None and not by_gm and order.received_at > deadline:
            order.status = OrderStatus.LATE
    phase.status = PhaseStatus.FROZEN
    session.flush()


def _waits_for_gm(session: Session, game: Game, phase: Phase) -> bool:
    """Whether an ambiguous order of this phase is still open in the queue: the GM decides
    it before the phase resolves (an unclear order is never guessed, nor silently dropped)."""
    unclear = select(Order.raw_pm_id).where(
        Order.phase_id == phase.id, Order.status == OrderStatus.AMBIGUOUS
    )
    waiting = session.scalar(
        select(func.count(ReviewItem.id)).where(
            ReviewItem.phase_id == phase.id,
            ReviewItem.kind == ReviewKind.ORDER,
            ReviewItem.state == ReviewState.OPEN,
            ReviewItem.raw_pm_id.in_(unclear),
        )
    )
    if waiting:
        _alert_once(session, game, phase, "queue",
                    f"{waiting} unclear order(s) need your decision (forumbot queue)")  # fmt: skip
    return bool(waiting)


def resolve(rt: Runtime, session: Session, game: Game, phase: Phase) -> None:
    """Resolve a frozen phase and draft its post and private results (once)."""
    if rt.pipeline.resolver is None:
        _alert_once(session, game, phase, "resolver", rt.pipeline.missing.get("resolver", ""))
        return
    outcome = rt.pipeline.resolver(_phase_input(rt, session, game, phase))
    phase.state_after = dict(outcome.state)
    phase.resolved_at = rt.clock.now()
    append_events(
        session, game_id=game.id, phase_id=phase.id, events=[dict(e) for e in outcome.events]
    )
    for player in game.players:
        if player.display_name in outcome.dead:
            player.status = PlayerStatus.DEAD
    if outcome.winner:
        games.set_runtime_state(game, winner=dict(outcome.winner))
    _draft(rt, session, game, phase, outcome)
    phase.status = PhaseStatus.RESOLVED
    event(rt.log, "phase.resolved", game=game.id, phase=phase.name, dead=len(outcome.dead))


def _phase_input(rt: Runtime, session: Session, game: Game, phase: Phase) -> PhaseInput:
    from forumbot.services import ingest  # ingest reads phases; import here to avoid a cycle

    previous = [p for p in game.phases if p.sequence < phase.sequence and p.state_after]
    names = {p.id: p.display_name for p in game.players}
    orders = session.scalars(
        select(Order)
        .where(
            Order.phase_id == phase.id,
            Order.status == OrderStatus.ACCEPTED,
            Order.ability.is_distinct_from("vote"),  # votes come from the vote count
        )
        .order_by(Order.received_at, Order.id)
    ).all()
    votes: dict[str, str] = {}
    if phase.kind is PhaseKind.DAY:
        tally = ingest.tally(rt, game.id)
        for target, voters in (tally.votes if tally else {}).items():
            votes.update({voter: target for voter in voters})
    config = games.config_of(game)
    return PhaseInput(
        ruleset=game.ruleset,
        phase=phase.name,
        seed=game.seed,
        state=previous[-1].state_after if previous else None,
        roster={p.display_name: p.role for p in game.players},
        orders=tuple(
            (names[o.player_id], ParsedOrder(o.ability or "", tuple(o.targets), o.params))
            for o in orders
        ),
        votes=votes,
        options=config.options,
    )


def _draft(rt: Runtime, session: Session, game: Game, phase: Phase, outcome: PhaseOutcome) -> None:
    """Draft the phase post and every private result; approve them when the game auto-posts."""
    renderer = rt.pipeline.renderer
    assert renderer is not None  # load_pipeline always provides one
    auto = games.config_of(game).publishing.mode == "auto"
    for message in renderer(game.ruleset, phase.name, outcome, game.name):
        recipients = [game.gm_name or "" if n == "@gm" else n for n in message.to]
        row, _new = draft_outbound(
            session,
            game_id=game.id,
            key=f"{_prefix(game, phase)}{message.key}",
            kind=OutboundKind.PM if message.to else OutboundKind.POST,
            body=message.body,
            recipients=recipients,
            subject=message.subject,
            phase_id=phase.id,
        )
        if auto and row.state is DeliveryState.DRAFT:
            move_outbound(session, row, DeliveryState.APPROVED, by="auto")
            if phase.deadline is not None and phase.deadline < game.created_at:
                from forumbot.runtime import receipts  # a fresh database: posted before?

                if receipts.ran_before(session, game):
                    receipts.check_forum_first(session, game, row, since=phase.deadline)


def _prefix(game: Game, phase: Phase) -> str:
    """Keys of the phase's result messages; a re-resolution drafts under a new prefix."""
    revision = int(games.runtime_state(game).get(f"revision:{phase.name}", 0))
    return f"game{game.id}:{phase.name}:" + (f"r{revision}:" if revision else "")


def _all_sent(session: Session, game: Game, phase: Phase) -> bool:
    """Whether the phase's results are all out (vote counts never hold a phase back; the
    drafts of a resolution the GM redid do not count)."""
    rows = session.execute(
        select(Outbound.state, Outbound.idempotency_key).where(Outbound.phase_id == phase.id)
    ).all()
    current = [(state, key) for state, key in rows if _is_result(game, phase, key)]
    return all(state is DeliveryState.SENT for state, _key in current)


def _is_result(game: Game, phase: Phase, key: str) -> bool:
    prefix = _prefix(game, phase)
    rest = key[len(prefix) :] if key.startswith(prefix) else None
    return rest is not None and VOTE_COUNT.strip(":") not in rest and not rest.startswith("r")


VOTE_COUNT = ":votecount:"
REMIND_BEFORE = timedelta(hours=3)


def _reminders_due(rt: Runtime, session: Session, game: Game, phase: Phase) -> None:
    """Three hours before the orders deadline, remind each player who may act and has not."""
    deadline = orders_deadline(phase)
    actors = rt.pipeline.actors
    now = rt.clock.now()
    if actors is None or deadline is None or not deadline - REMIND_BEFORE <= now < deadline:
        return
    if games.runtime_state(game).get(f"reminded:{phase.name}"):
        return
    alive = {p.display_name: p.role for p in game.players if is_alive(p)}
    sent = {o.player_id for o in session.scalars(select(Order).where(
        Order.phase_id == phase.id, Order.status == OrderStatus.ACCEPTED))}  # fmt: skip
    ids = {p.display_name: p.id for p in game.players}
    zone = _schedule(game).timezone
    when = deadline.astimezone(zone).strftime("%a %d %b %H:%M")
    for name in actors(game.ruleset, alive, phase.name):
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
    games.set_runtime_state(game, **{f"reminded:{phase.name}": True})


def _vote_count_due(rt: Runtime, session: Session, game: Game, phase: Phase) -> None:
    """Draft the day's vote count every ``publishing.vote_count_every`` (once per period)."""
    from forumbot.services import ingest  # ingest reads phases; import here to avoid a cycle

    config = games.config_of(game)
    every = config.publishing.vote_count_every
    if every is None or phase.kind is not PhaseKind.DAY or phase.starts_at is None:
        return
    period = int((rt.clock.now() - phase.starts_at) / every)
    key = f"game{game.id}:{phase.name}{VOTE_COUNT}{period}"
    if period < 1 or session.scalar(select(Outbound.id).where(Outbound.idempotency_key == key)):
        return
    tally = ingest.tally(rt, game.id)
    if tally is None or not tally.post:
        return
    row, _new = draft_outbound(session, game_id=game.id, key=key, kind=OutboundKind.POST,
                               body=tally.post, phase_id=phase.id)  # fmt: skip
    if config.publishing.mode == "auto":
        move_outbound(session, row, DeliveryState.APPROVED, by="auto")


def _advance(rt: Runtime, session: Session, game: Game, phase: Phase) -> Phase | None:
    """After a published phase: end the game on a win, else open the next phase."""
    if games.runtime_state(game).get("winner"):
        game.status = GameStatus.FINISHED
        event(rt.log, "game.finished", game=game.id)
        return phase
    following = schedule.following_plan(_schedule(game), phase.name, _end_of(phase, rt))
    return open_phase(session, game, following)


def _end_of(phase: Phase, rt: Runtime) -> datetime:
    return phase.deadline or rt.clock.now()


def _row(session: Session, game: Game, plan: schedule.PhasePlan) -> Phase:
    for phase in game.phases:
        if phase.name == plan.name:
            return phase
    phase = Phase(game_id=game.id, sequence=len(game.phases) + 1, name=plan.name,
                  kind=PhaseKind(plan.kind), number=plan.number)  # fmt: skip
    game.phases.append(phase)
    return phase


def _fill(phase: Phase, plan: schedule.PhasePlan) -> None:
    phase.starts_at, phase.deadline = plan.starts_at, plan.deadline
    phase.inner_deadlines = {k: v.isoformat() for k, v in plan.inner_deadlines.items()}


def _schedule(game: Game) -> schedule.Schedule:
    return games.config_of(game).schedule


def _alert_once(session: Session, game: Game, phase: Phase, what: str, why: str) -> None:
    """One alert per phase and problem, so a person knows the game waits for them."""
    from forumbot.runtime.alerts import raise_alert

    reason = f"{phase.name} is frozen and waits for you: {why or what + ' unavailable'}"
    raise_alert(session, game, f"{phase.name}:{what}", reason)


# --- GM commands ------------------------------------------------------------------------------


def extend(rt: Runtime, ref: str | int, by: timedelta) -> datetime:
    """Push the open phase's deadline (and its inner deadlines) back by ``by``."""
    with rt.sessions.begin() as session:
        phase = _open_phase(session, ref)
        assert phase.deadline is not None
        phase.deadline = phase.deadline + by
        phase.inner_deadlines = {
            k: (datetime.fromisoformat(v) + by).isoformat()
            for k, v in phase.inner_deadlines.items()
        }
        return phase.deadline


def end_now(rt: Runtime, ref: str | int) -> str:
    """End the open phase now: it freezes on the next tick."""
    with rt.sessions.begin() as session:
        phase = _open_phase(session, ref)
        phase.deadline = rt.clock.now()
        return phase.name


def pause(rt: Runtime, ref: str | int) -> str:
    """Pause a running game: the clock stops, polling goes on."""
    with rt.sessions.begin() as session:
        game = games.find(session, ref)
        if game.status is GameStatus.RUNNING:
            game.status = GameStatus.PAUSED
            games.set_runtime_state(game, paused_at=rt.clock.now().isoformat())
        return game.status.value


def resume(rt: Runtime, ref: str | int) -> str:
    """Resume a paused game; the open phase's deadlines move by the time spent paused."""
    with rt.sessions.begin() as session:
        game = games.find(session, ref)
        since = games.runtime_state(game).get("paused_at")
        if game.status is GameStatus.PAUSED:
            game.status = GameStatus.RUNNING
            games.set_runtime_state(game, paused_at=None)
            phase = current(game)
            if since and phase is not None and phase.status is PhaseStatus.OPEN:
                shift = rt.clock.now() - datetime.fromisoformat(since)
                phase.deadline = (phase.deadline or rt.clock.now()) + shift
                phase.inner_deadlines = {
                    k: (datetime.fromisoformat(v) + shift).isoformat()
                    for k, v in phase.inner_deadlines.items()
                }
        return game.status.value


def reresolve(rt: Runtime, ref: str | int) -> str:
    """Resolve the current phase again (after a late GM decision), if nothing of it is out.

    Its drafts are held, the players it killed come back, and the next cycle resolves it
    again with the orders as they now stand and drafts new messages.

    Raises:
        ForumbotError: the phase is not resolved, or some of its messages are approved or
            sent already.
    """
    from forumbot.errors import ForumbotError

    with rt.sessions.begin() as session:
        game = games.find(session, ref)
        phase = current(game)
        if phase is None or phase.status is not PhaseStatus.RESOLVED:
            raise ForumbotError("only a resolved phase whose messages are unsent can be redone")
        rows = [r for r in session.scalars(select(Outbound).where(Outbound.phase_id == phase.id))
                if _is_result(game, phase, r.idempotency_key)]  # fmt: skip
        if any(r.state not in (DeliveryState.DRAFT, DeliveryState.HELD) for r in rows):
            raise ForumbotError(f"{phase.name}'s messages are approved or sent: too late")
        for row in rows:
            if row.state is DeliveryState.DRAFT:
                move_outbound(session, row, DeliveryState.HELD, by="reresolve")
        _revive(game, phase)
        revision = int(games.runtime_state(game).get(f"revision:{phase.name}", 0)) + 1
        games.set_runtime_state(game, winner=None, **{f"revision:{phase.name}": revision})
        phase.status, phase.state_after, phase.resolved_at = PhaseStatus.FROZEN, None, None
        return phase.name


def _revive(game: Game, phase: Phase) -> None:
    """Players alive before the phase are alive again (the phase will be resolved anew)."""
    earlier = [p for p in game.phases if p.sequence < phase.sequence and p.state_after]
    before = earlier[-1].state_after if earlier else None
    alive = ({p["name"] for p in before["players"] if p.get("alive")} if before
             else {p.display_name for p in game.players})  # fmt: skip
    for player in game.players:
        if player.status is PlayerStatus.DEAD and player.display_name in alive:
            player.status = PlayerStatus.ALIVE


def _open_phase(session: Session, ref: str | int) -> Phase:
    from forumbot.errors import ForumbotError

    game = games.find(session, ref)
    phase = current(game)
    if phase is None or phase.status is not PhaseStatus.OPEN:
        raise ForumbotError(f"game {game.name!r} has no open phase")
    return phase
