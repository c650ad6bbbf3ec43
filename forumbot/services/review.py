"""The GM's review queue: list what needs a decision, accept, edit or reject, and learn from it.

Plain functions over an open ``Session`` (the caller commits), shared by ``forumbot queue``
and the GM web page. Every decision records who and when on the ``ReviewItem`` and as
``Order`` rows with ``decided_by="gm:<name>"``; what it teaches (a nickname, a misspelt
ability) becomes a ``LearnedMapping`` of the game.

Candidates are read as the order parser writes them (``Candidate.as_json()``: ``orders``,
``score``, ``why``); a flat order dict, a vote dict (``{"target": ..., "kind": ...}``) or a
bare name are accepted too. An order may carry ``written`` (``{"ability": "chek",
"targets": ["annie"]}``): the text as the player wrote it, which is what accepting teaches.

The legal choices an edit may pick from live in ``forumbot.services.choices``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.db.enums import OrderStatus, ReviewKind, ReviewState, VoteKind
from forumbot.db.models import (
    Game,
    LearnedMapping,
    Order,
    Player,
    RawPost,
    ReviewItem,
    VoteEvent,
)
from forumbot.db.types import utcnow
from forumbot.services.choices import (
    AbilityChoice,
    Choices,
    OrderInput,
    Picker,
    legal_choices,
    load_game_ruleset,
    planned_phase,
    validate_order,
)
from forumbot.services.queue_view import (
    DECIDED,
    CandidateView,
    InvalidDecision,
    Lesson,
    QueueEntry,
    candidate_orders,
    candidate_views,
    count_queue,
    get_entry,
    list_queue,
)

__all__ = [
    "DECIDED",
    "AbilityChoice",
    "CandidateView",
    "Choices",
    "Decision",
    "InvalidDecision",
    "Lesson",
    "OrderInput",
    "Picker",
    "QueueEntry",
    "accept_candidate",
    "accept_edit",
    "acknowledge",
    "choices_for",
    "count_queue",
    "get_entry",
    "legal_choices",
    "list_queue",
    "load_game_ruleset",
    "reject",
    "validate_order",
]


@dataclass(frozen=True, slots=True)
class Decision:
    """What a decision stored."""

    item_id: int
    state: ReviewState
    order_ids: tuple[int, ...]
    vote_ids: tuple[int, ...]
    lessons: tuple[Lesson, ...]
    by: str
    at: datetime


def choices_for(
    session: Session, item_id: int, ruleset: Any = None, phase: str | None = None
) -> Choices:
    """The legal choices for an edit of this item (abilities, targets, roles, crimes...) in
    ``phase`` (one of ``Choices.order_phases``; default: the phase the best reading fits)."""
    item = _item(session, item_id)
    return legal_choices(session, item, ruleset, candidate_orders(item), phase)


def accept_candidate(
    session: Session,
    item_id: int,
    index: int,
    *,
    gm: str,
    note: str = "",
    ruleset: Any = None,
    now: datetime | None = None,
    phase: str | None = None,
) -> Decision:
    """Accept the parser's candidate ``index`` (0 = best ranked) as the GM's decision, for
    ``phase`` (default: the offered phase the reading fits; a night order sent by day is
    the night's).

    Raises:
        InvalidDecision: the item is already decided, the index is wrong, or the
            candidate is no longer legal (a target died, the ability is spent...).
    """
    item = _open_item(session, item_id)
    views = candidate_views(item)
    if not 0 <= index < len(views):
        raise InvalidDecision(item_id, [f"there is no candidate {index + 1}"])
    chosen = views[index]
    resolution = {"action": "accept", "candidate": index, "label": chosen.label}
    return _apply(
        session, item, chosen.orders, chosen.lessons, ReviewState.ACCEPTED,
        resolution, gm=gm, note=note, ruleset=ruleset, now=now, phase=phase,
    )  # fmt: skip


def accept_edit(
    session: Session,
    item_id: int,
    orders: Sequence[OrderInput],
    *,
    gm: str,
    note: str = "",
    lessons: Sequence[Lesson] = (),
    ruleset: Any = None,
    now: datetime | None = None,
    phase: str | None = None,
) -> Decision:
    """Accept orders the GM wrote (from the pickers), validated like any order, for
    ``phase`` (one of ``Choices.order_phases``; default as ``accept_candidate``).

    Raises:
        InvalidDecision: the item is already decided or an order is not legal.
    """
    item = _open_item(session, item_id)
    if not orders and item.kind is not ReviewKind.ALERT:
        raise InvalidDecision(item_id, ["an edit needs at least one order"])
    resolution = {"action": "edit", "orders": [o.as_json() for o in orders]}
    return _apply(
        session, item, tuple(orders), tuple(lessons), ReviewState.EDITED,
        resolution, gm=gm, note=note, ruleset=ruleset, now=now, phase=phase,
    )  # fmt: skip


def acknowledge(
    session: Session, item_id: int, *, gm: str, note: str = "", now: datetime | None = None
) -> Decision:
    """Mark an alert as seen (alerts carry no order to accept).

    Raises:
        InvalidDecision: the item is decided already or is not an alert.
    """
    item = _open_item(session, item_id)
    if item.kind is not ReviewKind.ALERT:
        raise InvalidDecision(item_id, ["only alerts are acknowledged; accept or reject orders"])
    at, by = now or utcnow(), _by(gm)
    _close(item, ReviewState.ACCEPTED, {"action": "acknowledge"}, by, at, note)
    session.flush()
    return Decision(item.id, item.state, (), (), (), by, at)


def reject(
    session: Session, item_id: int, *, gm: str, note: str, now: datetime | None = None
) -> Decision:
    """Reject the item with a note saying why; an order item stores a rejected ``Order``.

    Raises:
        InvalidDecision: the item is already decided or the note is empty.
    """
    item = _open_item(session, item_id)
    if not note.strip():
        raise InvalidDecision(item_id, ["a rejection needs a note saying why"])
    at, by = now or utcnow(), _by(gm)
    order_ids: tuple[int, ...] = ()
    if item.kind is ReviewKind.ORDER and item.player_id and item.phase_id:
        _retire_parser_orders(session, item, OrderStatus.REJECTED, by)
        row = _order_row(item, OrderInput(ability=None), OrderStatus.REJECTED, by, at, note)
        session.add(row)
        session.flush()
        order_ids = (row.id,)
    _close(item, ReviewState.REJECTED, {"action": "reject"}, by, at, note)
    session.flush()
    return Decision(item.id, item.state, order_ids, (), (), by, at)


# --- applying a decision ------------------------------------------------------------------


def _apply(
    session: Session,
    item: ReviewItem,
    orders: Sequence[OrderInput],
    lessons: Sequence[Lesson],
    state: ReviewState,
    resolution: dict[str, Any],
    *,
    gm: str,
    note: str,
    ruleset: Any,
    now: datetime | None,
    phase: str | None = None,
) -> Decision:
    at, by = now or utcnow(), _by(gm)
    order_ids: list[int] = []
    vote_ids: list[int] = []
    if item.kind in (ReviewKind.VOTE, ReviewKind.EDIT):
        choices = legal_choices(session, item, None, ())
        problems = [p for o in orders for p in validate_order(o, choices)]
        if problems:
            raise InvalidDecision(item.id, problems)
        vote_ids = [_store_vote(session, item, o, by, at, note) for o in orders]
    elif item.kind is ReviewKind.ORDER:
        real = [o for o in orders if o.kind == "order"]
        choices = legal_choices(session, item, ruleset, candidate_orders(item), phase)
        problems = [p for o in real for p in validate_order(o, choices)]
        if choices.phase not in choices.order_phases:
            offered = ", ".join(choices.order_phases) or "none"
            problems.append(f"an order cannot be stored for {choices.phase} (phases: {offered})")
        if item.player_id is None:
            problems.append("the item names no sender")
        if problems:
            raise InvalidDecision(item.id, problems)
        _retire_parser_orders(session, item, OrderStatus.SUPERSEDED, by)
        game = session.get_one(Game, item.game_id)
        item.phase_id = planned_phase(session, game, str(choices.phase)).id
        resolution["phase"] = choices.phase
        for cancel in (o for o in orders if o.kind == "cancel"):
            _cancel_orders(session, item, cancel.ability, by)
        # A will, a question or a hand-off is recorded on the item only: no order to apply.
        rows = [_order_row(item, o, OrderStatus.ACCEPTED, by, at, note) for o in real]
        session.add_all(rows)
        session.flush()
        order_ids = [row.id for row in rows]
    learned = _learn(session, item.game_id, lessons, by)
    resolution["lessons"] = [[x.kind, x.text, x.value] for x in learned]
    _close(item, state, resolution, by, at, note)
    session.flush()
    return Decision(item.id, state, tuple(order_ids), tuple(vote_ids), learned, by, at)


def _by(gm: str) -> str:
    name = gm.strip()
    if not name:
        raise InvalidDecision(0, ["the GM's name is missing"])
    return name if name.startswith("gm:") else f"gm:{name}"


def _close(
    item: ReviewItem,
    state: ReviewState,
    resolution: dict[str, Any],
    by: str,
    at: datetime,
    note: str,
) -> None:
    item.state, item.resolution, item.note = state, resolution, note.strip()
    item.decided_by, item.decided_at = by, at


def _order_row(
    item: ReviewItem, order: OrderInput, status: OrderStatus, by: str, at: datetime, note: str
) -> Order:
    assert item.player_id is not None and item.phase_id is not None
    verdict = "rejected" if status is OrderStatus.REJECTED else "decided"
    return Order(
        game_id=item.game_id,
        phase_id=item.phase_id,
        player_id=item.player_id,
        raw_pm_id=item.raw_pm_id,
        ability=order.ability,
        targets=list(order.targets),
        params=dict(order.params),
        status=status,
        confidence=1.0,
        reason=f"{by} {verdict} review item {item.id}" + (f": {note.strip()}" if note else ""),
        decided_by=by,
        received_at=item.created_at or at,
        decided_at=at,
    )


def _retire_parser_orders(session: Session, item: ReviewItem, status: OrderStatus, by: str) -> None:
    """The parser's unsure rows for the same PM give way to the GM's decision."""
    if item.raw_pm_id is None:
        return
    rows = session.scalars(
        select(Order).where(
            Order.raw_pm_id == item.raw_pm_id,
            Order.status.in_((OrderStatus.AMBIGUOUS, OrderStatus.REJECTED)),
            Order.decided_by == "parser",
        )
    )
    for row in rows:
        row.status = status
        row.reason = f"{row.reason} [replaced by {by}, review item {item.id}]".strip()


def _cancel_orders(session: Session, item: ReviewItem, ability: str | None, by: str) -> None:
    """The sender's accepted orders of this phase (of ``ability``, if given) are cancelled."""
    query = select(Order).where(
        Order.phase_id == item.phase_id,
        Order.player_id == item.player_id,
        Order.status == OrderStatus.ACCEPTED,
    )
    if ability:
        query = query.where(Order.ability == ability)
    for row in session.scalars(query):
        row.status = OrderStatus.CANCELLED
        row.reason = f"{row.reason} [cancelled: {by}, review item {item.id}]".strip()


def _store_vote(
    session: Session, item: ReviewItem, order: OrderInput, by: str, at: datetime, note: str
) -> int:
    """A vote the GM decided: counted, with the GM named in its reason."""
    if item.player_id is None or item.phase_id is None:
        raise InvalidDecision(item.id, ["the vote names no voter or no phase"])
    kind = VoteKind(order.ability or VoteKind.VOTE)
    target_id = None
    if kind is VoteKind.VOTE:
        name = order.targets[0] if order.targets else None
        target_id = session.scalar(
            select(Player.id).where(Player.game_id == item.game_id, Player.display_name == name)
        )
        if target_id is None:
            raise InvalidDecision(item.id, [f"{name!r} is not a player of this game"])
    post = session.get(RawPost, item.raw_post_id) if item.raw_post_id else None
    row = VoteEvent(
        game_id=item.game_id, phase_id=item.phase_id, raw_post_id=item.raw_post_id,
        raw_pm_id=item.raw_pm_id, voter_id=item.player_id, target_id=target_id, kind=kind,
        cast_at=post.posted_at if post else (item.created_at or at), counted=True,
        reason=f"{by} decided review item {item.id}" + (f": {note}" if note else ""),
        review_item_id=item.id,
    )  # fmt: skip
    session.add(row)
    session.flush()
    return row.id


def _learn(
    session: Session, game_id: int, lessons: Sequence[Lesson], by: str
) -> tuple[Lesson, ...]:
    """Store each lesson once per game and text; a newer decision overrides an older one."""
    kept: list[Lesson] = []
    for lesson in lessons:
        text = " ".join(lesson.text.split()).casefold()
        if not text or not lesson.value or text == lesson.value.casefold():
            continue
        row = session.scalar(
            select(LearnedMapping).where(
                LearnedMapping.game_id == game_id,
                LearnedMapping.kind == lesson.kind,
                LearnedMapping.text == text,
            )
        )
        if row is None:
            session.add(
                LearnedMapping(
                    game_id=game_id, kind=lesson.kind, text=text, value=lesson.value, created_by=by
                )
            )
        else:
            row.value, row.created_by = lesson.value, by
        kept.append(Lesson(lesson.kind, text, lesson.value))
    return tuple(kept)


# --- reading items ------------------------------------------------------------------------


def _item(session: Session, item_id: int) -> ReviewItem:
    item = session.get(ReviewItem, item_id)
    if item is None:
        raise InvalidDecision(item_id, ["no such review item"])
    return item


def _open_item(session: Session, item_id: int) -> ReviewItem:
    """The item, locked for this decision (PostgreSQL: a second GM click waits, then sees it
    decided); refused unless it is still open."""
    item = session.get(ReviewItem, item_id, with_for_update=True, populate_existing=True)
    if item is None:
        raise InvalidDecision(item_id, ["no such review item"])
    if item.state is not ReviewState.OPEN:
        raise InvalidDecision(
            item_id, [f"already decided ({item.state.value}) by {item.decided_by or 'someone'}"]
        )
    return item
