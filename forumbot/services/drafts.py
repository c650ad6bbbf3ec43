"""Drafted phase posts and private result PMs: list, edit, approve (hand to the publisher), hold.

Plain functions over an open ``Session`` (the caller commits). State moves go through
``forumbot.db.repo.move_outbound`` only, so a message can be approved once and is then sent
exactly once by the publisher; approving again is a harmless no-op, never a second send.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.db.enums import DeliveryState, OutboundKind
from forumbot.db.models import Outbound, Phase
from forumbot.db.repo import move_outbound
from forumbot.db.types import utcnow
from forumbot.errors import ForumbotError

__all__ = [
    "EDITABLE",
    "DraftError",
    "DraftView",
    "approve_draft",
    "approve_phase",
    "edit_draft",
    "get_draft",
    "hold_draft",
    "list_drafts",
    "release_draft",
]

EDITABLE = frozenset({DeliveryState.DRAFT, DeliveryState.HELD})
"""States in which the GM may still change a message."""

_ALREADY_APPROVED = frozenset(
    {DeliveryState.APPROVED, DeliveryState.SENDING, DeliveryState.SENT, DeliveryState.FAILED}
)


class DraftError(ForumbotError, ValueError):
    """A draft action that cannot be done (unknown message, already sent, empty body)."""

    def __init__(self, outbound_id: int, problem: str) -> None:
        self.outbound_id = outbound_id
        self.problem = problem
        super().__init__(f"message {outbound_id}: {problem}")


@dataclass(frozen=True, slots=True)
class DraftView:
    """An outbound message as the GM sees it."""

    id: int
    game_id: int
    phase_id: int | None
    phase_name: str | None
    kind: OutboundKind
    key: str
    recipients: tuple[str, ...]
    subject: str
    body: str
    state: DeliveryState
    edited_by: str | None
    edited_at: datetime | None
    approved_by: str | None
    approved_at: datetime | None
    sent_at: datetime | None
    last_error: str | None

    @property
    def editable(self) -> bool:
        """True while the GM may still edit, approve or hold it."""
        return self.state in EDITABLE


def list_drafts(
    session: Session,
    game_id: int,
    *,
    phase_id: int | None = None,
    states: Sequence[DeliveryState] | None = None,
) -> list[DraftView]:
    """The game's messages, phase posts before PMs, newest phase first.

    Args:
        session: an open session.
        game_id: the game.
        phase_id: only this phase's messages.
        states: only messages in these states (default: all).
    """
    query = select(Outbound).where(Outbound.game_id == game_id)
    if phase_id is not None:
        query = query.where(Outbound.phase_id == phase_id)
    if states is not None:
        query = query.where(Outbound.state.in_(tuple(states)))
    rows = session.scalars(query.order_by(Outbound.id)).all()
    phases = {
        p.id: (p.sequence, p.name)
        for p in session.scalars(select(Phase).where(Phase.game_id == game_id))
    }
    kind_rank = {OutboundKind.POST: 0, OutboundKind.PM: 1}
    rows = sorted(
        rows,
        key=lambda r: (-phases.get(r.phase_id or -1, (-1, ""))[0], kind_rank[r.kind], r.id),
    )
    return [_view(row, phases.get(row.phase_id or -1, (0, None))[1]) for row in rows]


def get_draft(session: Session, outbound_id: int) -> DraftView:
    """One message; raises ``DraftError`` if there is none."""
    row = _row(session, outbound_id)
    phase = session.get(Phase, row.phase_id) if row.phase_id else None
    return _view(row, phase.name if phase else None)


def edit_draft(
    session: Session, outbound_id: int, *, body: str, subject: str | None = None, gm: str
) -> DraftView:
    """Change a draft's text (and a PM's subject) before it is approved.

    Raises:
        DraftError: the message is approved or sent already, or the body is empty.
    """
    row = _row(session, outbound_id)
    if row.state not in EDITABLE:
        raise DraftError(outbound_id, f"it is {row.state.value}; only drafts can be edited")
    if not body.strip():
        raise DraftError(outbound_id, "the text is empty")
    row.body = body.replace("\r\n", "\n")
    if subject is not None and row.kind is OutboundKind.PM:
        row.subject = subject.strip()
    row.edited_by, row.edited_at = _by(gm), utcnow()
    session.flush()
    return get_draft(session, outbound_id)


def approve_draft(session: Session, outbound_id: int, *, gm: str) -> tuple[DraftView, bool]:
    """Approve a draft: the publisher will send it, once.

    Returns:
        The message and whether this call approved it (False: it was approved already).

    Raises:
        DraftError: no such message.
    """
    row = _row(session, outbound_id)
    if row.state in _ALREADY_APPROVED:
        return get_draft(session, outbound_id), False
    move_outbound(session, row, DeliveryState.APPROVED, by=_by(gm))
    return get_draft(session, outbound_id), True


def approve_phase(session: Session, game_id: int, phase_id: int, *, gm: str) -> list[DraftView]:
    """Approve every draft of one phase (held messages stay held); returns those approved."""
    rows = session.scalars(
        select(Outbound).where(
            Outbound.game_id == game_id,
            Outbound.phase_id == phase_id,
            Outbound.state == DeliveryState.DRAFT,
        )
    ).all()
    return [approve_draft(session, row.id, gm=gm)[0] for row in rows]


def hold_draft(session: Session, outbound_id: int, *, gm: str) -> DraftView:
    """Hold a draft (or an approved message not yet being sent) so it is not published.

    Raises:
        DraftError: it is being sent or was sent already.
    """
    row = _row(session, outbound_id)
    if row.state is DeliveryState.HELD:
        return get_draft(session, outbound_id)
    if row.state not in (DeliveryState.DRAFT, DeliveryState.APPROVED):
        raise DraftError(outbound_id, f"it is {row.state.value}; it can no longer be held")
    move_outbound(session, row, DeliveryState.HELD, by=_by(gm))
    return get_draft(session, outbound_id)


def release_draft(session: Session, outbound_id: int, *, gm: str) -> DraftView:
    """Put a held message back among the drafts (it still needs approval)."""
    row = _row(session, outbound_id)
    if row.state is not DeliveryState.HELD:
        raise DraftError(outbound_id, f"it is {row.state.value}, not held")
    move_outbound(session, row, DeliveryState.DRAFT, by=_by(gm))
    return get_draft(session, outbound_id)


def _by(gm: str) -> str:
    name = gm.strip() or "gm"
    return name if name.startswith("gm:") else f"gm:{name}"


def _row(session: Session, outbound_id: int) -> Outbound:
    """The message, locked until the caller commits (a publisher or a second click waits)."""
    row = session.get(Outbound, outbound_id, with_for_update=True, populate_existing=True)
    if row is None:
        raise DraftError(outbound_id, "no such message")
    return row


def _view(row: Outbound, phase_name: str | None) -> DraftView:
    recipients = tuple(
        str(r.get("name", r)) if isinstance(r, dict) else str(r) for r in row.recipients or []
    )
    return DraftView(
        id=row.id,
        game_id=row.game_id,
        phase_id=row.phase_id,
        phase_name=phase_name,
        kind=row.kind,
        key=row.idempotency_key,
        recipients=recipients,
        subject=row.subject,
        body=row.body,
        state=row.state,
        edited_by=row.edited_by,
        edited_at=row.edited_at,
        approved_by=row.approved_by,
        approved_at=row.approved_at,
        sent_at=row.sent_at,
        last_error=row.last_error,
    )
