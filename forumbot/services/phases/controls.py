"""The GM's commands on the phase clock: extend or end a phase, pause, resume, redo one."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.db.enums import DeliveryState, GameStatus, PhaseStatus, PlayerStatus
from forumbot.db.models import Game, Outbound, Phase
from forumbot.db.repo import move_outbound
from forumbot.errors import ForumbotError
from forumbot.services import games
from forumbot.services.context import Runtime
from forumbot.services.phases import current, drafting


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
            game.paused_at = rt.clock.now()
        return game.status.value


def resume(rt: Runtime, ref: str | int) -> str:
    """Resume a paused game; the open phase's deadlines move by the time spent paused."""
    with rt.sessions.begin() as session:
        game = games.find(session, ref)
        since = game.paused_at
        if game.status is GameStatus.PAUSED:
            game.status = GameStatus.RUNNING
            game.paused_at = None
            phase = current(game)
            if since and phase is not None and phase.status is PhaseStatus.OPEN:
                shift = rt.clock.now() - since
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
    with rt.sessions.begin() as session:
        game = games.find(session, ref)
        phase = current(game)
        if phase is None or phase.status is not PhaseStatus.RESOLVED:
            raise ForumbotError("only a resolved phase whose messages are unsent can be redone")
        rows = [r for r in session.scalars(select(Outbound).where(Outbound.phase_id == phase.id))
                if drafting.is_result(game, phase, r.idempotency_key)]  # fmt: skip
        if any(r.state not in (DeliveryState.DRAFT, DeliveryState.HELD) for r in rows):
            raise ForumbotError(f"{phase.name}'s messages are approved or sent: too late")
        for row in rows:
            if row.state is DeliveryState.DRAFT:
                move_outbound(session, row, DeliveryState.HELD, by="reresolve")
        _revive(game, phase)
        phase.revision += 1
        game.winner = None
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
    game = games.find(session, ref)
    phase = current(game)
    if phase is None or phase.status is not PhaseStatus.OPEN:
        raise ForumbotError(f"game {game.name!r} has no open phase")
    return phase
