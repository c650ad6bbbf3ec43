"""The GM's review queue: list what needs a decision, accept, edit or reject, and learn from it.

Plain functions over an open ``Session`` (the caller commits), shared by ``forumbot queue``
and the GM web page. Every decision records who and when on the ``ReviewItem`` and as
``Order`` rows with ``decided_by="gm:<name>"``; what it teaches (a nickname, a misspelt
ability) becomes a ``LearnedMapping`` of the game.

Candidates are read as the order parser writes them (``Candidate.as_json()``: ``orders``,
``score``, ``why``); a flat order dict, a vote dict (``{"target": ..., "kind": ...}``) or a
bare name are accepted too. An order may carry ``written`` (``{"ability": "chek",
"targets": ["annie"]}``): the text as the player wrote it, which is what accepting teaches.

This module is longer than the house target because the review service owns exactly this
file; the legal-choice pickers at the bottom would be ``services/choices.py`` otherwise.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from lxml import html as lxml_html
from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from forumbot.db.enums import OrderStatus, ReviewKind, ReviewState, VoteKind
from forumbot.db.models import (
    Game,
    LearnedMapping,
    Order,
    Phase,
    Player,
    RawPM,
    RawPost,
    ReviewItem,
    VoteEvent,
)
from forumbot.db.types import utcnow
from forumbot.errors import ForumbotError

__all__ = [
    "DECIDED",
    "CandidateView",
    "Decision",
    "InvalidDecision",
    "Lesson",
    "OrderInput",
    "QueueEntry",
    "accept_candidate",
    "accept_edit",
    "acknowledge",
    "choices_for",
    "count_queue",
    "get_entry",
    "list_queue",
    "reject",
]


States = ReviewState | Collection[ReviewState] | None
DECIDED = frozenset({ReviewState.ACCEPTED, ReviewState.EDITED, ReviewState.REJECTED})


class InvalidDecision(ForumbotError, ValueError):
    """A GM decision that cannot be applied; ``problems`` says why, in GM words."""

    def __init__(self, item_id: int, problems: Sequence[str]) -> None:
        self.item_id = item_id
        self.problems = tuple(problems)
        super().__init__(f"review item {item_id}: " + "; ".join(self.problems))


@dataclass(frozen=True, slots=True)
class Lesson:
    """Something a decision teaches: ``text`` as written means ``value`` (a player, ability...)."""

    kind: str  # player | ability | role
    text: str
    value: str


@dataclass(frozen=True, slots=True)
class CandidateView:
    """One ranked reading of the item, ready to show and to accept."""

    index: int
    label: str
    orders: tuple[OrderInput, ...]
    score: float | None
    why: str
    lessons: tuple[Lesson, ...] = ()


@dataclass(frozen=True, slots=True)
class QueueEntry:
    """A review item with everything the GM needs to decide it."""

    id: int
    game_id: int
    kind: ReviewKind
    state: ReviewState
    reason: str
    phase_id: int | None
    phase_name: str | None
    player_id: int | None
    sender: str
    source: str  # pm | post | none
    subject: str
    text: str  # the message as plain text (escape when showing it)
    raw_html: str
    link: str | None  # the forum post, when it is a post
    received_at: datetime | None
    candidates: tuple[CandidateView, ...]
    note: str = ""
    decided_by: str | None = None
    decided_at: datetime | None = None
    resolution: Mapping[str, Any] = field(default_factory=dict)
    sender_role: str | None = None  # the GM may see roles; players never see this page
    recipients: tuple[str, ...] = ()  # everyone a PM was sent to (a hand-off names others)


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


def list_queue(
    session: Session,
    game_id: int,
    *,
    state: States = ReviewState.OPEN,
    offset: int = 0,
    limit: int | None = None,
) -> list[QueueEntry]:
    """The game's review items (open ones by default), oldest first, with their context.

    Args:
        state: only items in this state (or these states); None for every item.
        offset: skip this many (paging).
        limit: at most this many.
    """
    query = _queue_query(game_id, state).order_by(ReviewItem.created_at, ReviewItem.id)
    items = session.scalars(query.offset(offset).limit(limit)).all()
    return _entries(session, game_id, items)


def count_queue(session: Session, game_id: int, *, state: States = ReviewState.OPEN) -> int:
    """How many items ``list_queue`` would list without paging."""
    query = _queue_query(game_id, state).with_only_columns(func.count(ReviewItem.id))
    return int(session.scalar(query) or 0)


def _queue_query(game_id: int, state: States) -> Select[Any]:
    query = select(ReviewItem).where(ReviewItem.game_id == game_id)
    if state is None:
        return query
    wanted = (state,) if isinstance(state, ReviewState) else tuple(state)
    return query.where(ReviewItem.state.in_(wanted))


def get_entry(session: Session, item_id: int) -> QueueEntry:
    """One review item with its context; raises ``InvalidDecision`` if there is none."""
    item = session.get(ReviewItem, item_id)
    if item is None:
        raise InvalidDecision(item_id, ["no such review item"])
    return _entries(session, item.game_id, [item])[0]


def choices_for(session: Session, item_id: int, ruleset: Any = None) -> Choices:
    """The legal choices for an edit of this item (abilities, targets, roles, crimes...)."""
    item = _item(session, item_id)
    return legal_choices(session, item, ruleset, _candidate_orders(item))


def accept_candidate(
    session: Session,
    item_id: int,
    index: int,
    *,
    gm: str,
    note: str = "",
    ruleset: Any = None,
    now: datetime | None = None,
) -> Decision:
    """Accept the parser's candidate ``index`` (0 = best ranked) as the GM's decision.

    Raises:
        InvalidDecision: the item is already decided, the index is wrong, or the
            candidate is no longer legal (a target died, the ability is spent...).
    """
    item = _open_item(session, item_id)
    views = _candidates(item)
    if not 0 <= index < len(views):
        raise InvalidDecision(item_id, [f"there is no candidate {index + 1}"])
    chosen = views[index]
    resolution = {"action": "accept", "candidate": index, "label": chosen.label}
    return _apply(
        session, item, chosen.orders, chosen.lessons, ReviewState.ACCEPTED,
        resolution, gm=gm, note=note, ruleset=ruleset, now=now,
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
) -> Decision:
    """Accept orders the GM wrote (from the pickers), validated like any order.

    Raises:
        InvalidDecision: the item is already decided or an order is not legal.
    """
    item = _open_item(session, item_id)
    if not orders and item.kind is not ReviewKind.ALERT:
        raise InvalidDecision(item_id, ["an edit needs at least one order"])
    resolution = {"action": "edit", "orders": [o.as_json() for o in orders]}
    return _apply(
        session, item, tuple(orders), tuple(lessons), ReviewState.EDITED,
        resolution, gm=gm, note=note, ruleset=ruleset, now=now,
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
        choices = legal_choices(session, item, ruleset, _candidate_orders(item))
        problems = [p for o in real for p in validate_order(o, choices)]
        if item.player_id is None or item.phase_id is None:
            problems.append("the item names no sender or no phase")
        if problems:
            raise InvalidDecision(item.id, problems)
        _retire_parser_orders(session, item, OrderStatus.SUPERSEDED, by)
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


def _entries(session: Session, game_id: int, items: Sequence[ReviewItem]) -> list[QueueEntry]:
    """Build entries with a handful of batched queries (the queue may hold hundreds)."""
    players = {p.id: p for p in session.scalars(select(Player).where(Player.game_id == game_id))}
    phases = {p.id: p.name for p in session.scalars(select(Phase).where(Phase.game_id == game_id))}
    pm_ids = {i.raw_pm_id for i in items if i.raw_pm_id}
    post_ids = {i.raw_post_id for i in items if i.raw_post_id}
    pms = {p.id: p for p in session.scalars(select(RawPM).where(RawPM.id.in_(pm_ids)))}
    posts = {p.id: p for p in session.scalars(select(RawPost).where(RawPost.id.in_(post_ids)))}
    return [_entry(item, players, phases, pms, posts) for item in items]


def _entry(
    item: ReviewItem,
    players: Mapping[int, Player],
    phases: Mapping[int, str],
    pms: Mapping[int, RawPM],
    posts: Mapping[int, RawPost],
) -> QueueEntry:
    pm = pms.get(item.raw_pm_id) if item.raw_pm_id else None
    post = posts.get(item.raw_post_id) if item.raw_post_id else None
    player = players.get(item.player_id) if item.player_id else None
    body, source, sender, subject, when, link = "", "none", "", "", None, None
    if pm is not None:
        body, source, sender, when = pm.body_html, "pm", pm.sender_name, pm.sent_at
        subject = pm.subject
    elif post is not None:
        body, source, sender, when = post.body_html, "post", post.author_name, post.posted_at
        link = _post_link(post)
    return QueueEntry(
        id=item.id, game_id=item.game_id, kind=item.kind, state=item.state, reason=item.reason,
        phase_id=item.phase_id, phase_name=phases.get(item.phase_id) if item.phase_id else None,
        player_id=item.player_id, sender=player.display_name if player else sender,
        source=source, subject=subject, text=html_to_text(body), raw_html=body, link=link,
        received_at=when, candidates=_candidates(item), note=item.note,
        decided_by=item.decided_by, decided_at=item.decided_at,
        resolution=dict(item.resolution or {}), sender_role=player.role if player else None,
        recipients=tuple(
            str(r.get("name", r)) if isinstance(r, Mapping) else str(r)
            for r in (pm.recipients if pm is not None else [])
        ),
    )  # fmt: skip


def _post_link(post: RawPost) -> str | None:
    """The post on the forum, only for http(s) pages (never a ``javascript:`` URL)."""
    url = (post.page_url or "").strip()
    if not url.lower().startswith(("http://", "https://")):
        return None
    return url if "#" in url else f"{url}#msg{post.post_id}"


def html_to_text(body: str) -> str:
    """A post or PM body as plain text, line breaks kept (markup and scripts dropped)."""
    if not body.strip():
        return ""
    try:
        root = lxml_html.fragment_fromstring(body, create_parent="div")
    except (ValueError, TypeError):  # lxml refuses some control characters
        return body
    for br in root.iter("br"):
        br.tail = "\n" + (br.tail or "")
    for bad in root.xpath("//script|//style"):
        bad.drop_tree()
    return str(root.text_content()).strip()


def _candidates(item: ReviewItem) -> tuple[CandidateView, ...]:
    return tuple(_candidate(i, raw, item.kind) for i, raw in enumerate(item.candidates or []))


def _candidate_orders(item: ReviewItem) -> tuple[OrderInput, ...]:
    return tuple(o for c in _candidates(item) for o in c.orders)


def _candidate(index: int, raw: Any, kind: ReviewKind) -> CandidateView:
    """Read one stored candidate in any of the shapes the module docstring lists."""
    if isinstance(raw, str):
        raw = {"target": raw} if kind is not ReviewKind.ORDER else {"ability": raw}
    if not isinstance(raw, Mapping):
        raw = {"why": repr(raw)}
    if "orders" in raw:
        order_dicts = [o for o in raw["orders"] if isinstance(o, Mapping)]
    elif "target" in raw or ("kind" in raw and "ability" not in raw):
        target, written = raw.get("target"), raw.get("written")  # a vote: "Vote: Akonly"
        order_dicts = [{
            "ability": raw.get("kind", "vote"), "targets": [target] if target else [],
            "written": {"targets": [written]} if isinstance(written, str) else None,
        }]  # fmt: skip
    else:
        order_dicts = [raw]
    orders = tuple(OrderInput.from_json(o) for o in order_dicts)
    lessons = tuple(lesson for o in order_dicts for lesson in _written_lessons(o))
    score = raw.get("score")
    return CandidateView(
        index=index,
        label="; ".join(o.label() for o in orders) or "(nothing)",
        orders=orders,
        score=float(score) if isinstance(score, int | float) else None,
        why=str(raw.get("why", "")),
        lessons=lessons,
    )


def _written_lessons(order: Mapping[str, Any]) -> list[Lesson]:
    """What the player wrote for the ability and each player target (``written``)."""
    written = order.get("written")
    if not isinstance(written, Mapping):
        return []
    parsed = OrderInput.from_json(order)
    lessons: list[Lesson] = []
    if isinstance(written.get("ability"), str) and parsed.ability:
        lessons.append(Lesson("ability", written["ability"], parsed.ability))
    for text, value in zip(written.get("targets") or [], parsed.targets, strict=False):
        if isinstance(text, str) and isinstance(value, str):
            lessons.append(Lesson("player", text, value))
    return lessons


# --- legal choices: what an accepted or edited order may contain ----------------------------
# Kept in this module (not a sibling) because the review service owns exactly this file.


@dataclass(frozen=True, slots=True)
class OrderInput:
    """A structured order as the GM decides it: ability id, targets, named parameters."""

    ability: str | None
    targets: tuple[Any, ...] = ()
    params: Mapping[str, Any] = field(default_factory=dict)
    kind: str = "order"  # or the parser's other kinds: cancel, will, vote, handoff...

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OrderInput:
        """Read a parser order (``{"ranked": [...]}`` slots keep their first choice)."""
        targets = []
        for slot in data.get("targets") or []:
            if isinstance(slot, Mapping) and "ranked" in slot:
                slot = (slot["ranked"] or [None])[0]
            targets.append(slot)
        ability = data.get("ability")
        params = data.get("params")
        return cls(
            ability=str(ability) if ability else None,
            targets=tuple(targets),
            params=dict(params) if isinstance(params, Mapping) else {},
            kind=str(data.get("kind") or "order"),
        )

    def as_json(self) -> dict[str, Any]:
        """The JSON stored in a review item's resolution."""
        return {
            "kind": self.kind,
            "ability": self.ability,
            "targets": list(self.targets),
            "params": dict(self.params),
        }

    def label(self) -> str:
        """``shoot Bob`` / ``arrest Carl crime=kill:Conia:night1``."""
        head = [] if self.kind == "order" else [self.kind]
        if self.ability or self.kind == "order":
            head.append(self.ability or "?")
        parts = [*head, *(_show(t) for t in self.targets)]
        parts += [f"{k}={_show(v)}" for k, v in self.params.items()]
        return " ".join(parts)


def _show(value: Any) -> str:
    if isinstance(value, Mapping):
        if "crime" in value:
            victim = value.get("victim") or value.get("role")
            parts = (value.get("crime"), victim, value.get("phase"))
            return ":".join(str(p or "") for p in parts).rstrip(":")
        return str(value.get("text", value))
    return str(value)


@dataclass(frozen=True, slots=True)
class Picker:
    """One field of an order form: what kind of value, and the legal options (empty: free).

    Claims and texts have options only when the ruleset lists choices for them.
    """

    name: str
    kind: str
    optional: bool
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AbilityChoice:
    """An ability the sender may use now, with pickers for its targets and parameters."""

    id: str
    name: str
    targets: tuple[Picker, ...]
    params: tuple[Picker, ...]


@dataclass(frozen=True, slots=True)
class Choices:
    """Everything an edit may pick from; ``from_ruleset`` says where abilities came from."""

    sender: str | None
    phase: str | None
    abilities: tuple[AbilityChoice, ...]
    living: tuple[str, ...]
    players: tuple[str, ...]
    roles: tuple[str, ...]
    crimes: tuple[str, ...]
    phases: tuple[str, ...]
    from_ruleset: bool

    def ability(self, ability_id: str | None) -> AbilityChoice | None:
        """The choice for ``ability_id``, or None if it is not legal now."""
        return next((a for a in self.abilities if a.id == ability_id), None)


def load_game_ruleset(game: Game) -> Any:
    """The game's ruleset, or None while the loader or the file is not usable."""
    try:
        from resolver.ruleset import load_ruleset
    except (ImportError, ValueError, TypeError, AttributeError):  # loader not landed / broken
        return None
    options = (game.settings or {}).get("options") or None
    try:
        return load_ruleset(game.ruleset, options=options)
    except (ValueError, OSError):  # RulesetError is a ValueError
        return None


def legal_choices(
    session: Session, item: ReviewItem, ruleset: Any, candidates: Sequence[OrderInput]
) -> Choices:
    """What an order for this item may be: the sender's abilities in this phase, legal targets."""
    game = session.get(Game, item.game_id)
    assert game is not None
    players = session.scalars(select(Player).where(Player.game_id == game.id)).all()
    phases = session.scalars(select(Phase).where(Phase.game_id == game.id)).all()
    phase = next((p for p in phases if p.id == item.phase_id), None)
    sender = next((p for p in players if p.id == item.player_id), None)
    living = tuple(p.display_name for p in players if p.status.value == "alive")
    names = tuple(p.display_name for p in players)
    phase_names = tuple(p.name for p in phases)
    crimes: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    if item.kind in (ReviewKind.VOTE, ReviewKind.EDIT):
        abilities, ruleset = _vote_abilities(living), None
    else:
        ruleset = ruleset if ruleset is not None else load_game_ruleset(game)
        crimes = _crimes(ruleset, candidates)
        roles = tuple(sorted(ruleset.roles)) if ruleset is not None else ()
        ctx = _Ctx(sender, living, names, roles, crimes, phase_names, ruleset)
        if ruleset is not None and sender is not None and sender.role in ruleset.roles:
            held = _usable(ruleset, ruleset.roles[sender.role], _state_of(phases, sender))
            abilities = _ruleset_abilities(held, phase, ctx)
        else:
            ruleset, abilities = None, _candidate_abilities(candidates, ctx)
    return Choices(
        sender=sender.display_name if sender else None,
        phase=phase.name if phase else None,
        abilities=abilities, living=living, players=names, roles=roles, crimes=crimes,
        phases=phase_names, from_ruleset=ruleset is not None,
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Ctx:
    sender: Player | None
    living: tuple[str, ...]
    players: tuple[str, ...]
    roles: tuple[str, ...]
    crimes: tuple[str, ...]
    phases: tuple[str, ...]
    ruleset: Any

    def options(self, kind: str, alive: bool | None = True, me: bool = True) -> tuple[str, ...]:
        """Legal values of a slot of this kind (a dead player is never a living target)."""
        if kind == "player":
            pool = self.living if alive else self.players
            if alive is False:
                pool = tuple(p for p in self.players if p not in self.living)
            mine = self.sender.display_name if self.sender else None
            return tuple(p for p in pool if me or p != mine)
        table = {"role": self.roles, "crime": self.crimes, "phase": self.phases}
        if self.ruleset is not None:
            table["faction"] = tuple(sorted(self.ruleset.factions))
            table["item"] = tuple(sorted(self.ruleset.items))
        return table.get(kind, ())


def _vote_abilities(living: tuple[str, ...]) -> tuple[AbilityChoice, ...]:
    target = (Picker("target", "player", False, living),)
    return (
        AbilityChoice(VoteKind.VOTE.value, "vote", target, ()),
        AbilityChoice(VoteKind.UNVOTE.value, "unvote", (), ()),
        AbilityChoice(VoteKind.NO_LYNCH.value, "no lynch", (), ()),
    )


def _state_of(phases: Sequence[Phase], player: Player) -> Mapping[str, Any]:
    """The player's resolver state after the last resolved phase (encoded ``PlayerState``)."""
    ordered = sorted(phases, key=lambda p: p.sequence)
    latest = next((p.state_after for p in reversed(ordered) if p.state_after), None) or {}
    for entry in latest.get("players", []) if isinstance(latest, Mapping) else []:
        if isinstance(entry, Mapping) and entry.get("name") == player.display_name:
            return entry
    return {}


def _usable(ruleset: Any, role: Any, state: Mapping[str, Any]) -> list[Any]:
    """The role's abilities with uses left, plus those granted by items still held."""
    left = {str(k): int(n) for k, n in (state.get("uses") or []) if isinstance(n, int)}
    found = [a for a in role.abilities.values() if left.get(a.id, 1) > 0]
    for item_id, count in state.get("items") or []:
        item = ruleset.items.get(item_id)
        granted = ruleset.abilities.get(item.ability) if item and item.ability else None
        if granted is not None and count and all(a.id != granted.id for a in found):
            found.append(granted)
    return found


def _ruleset_abilities(
    usable: Sequence[Any], phase: Phase | None, ctx: _Ctx
) -> tuple[AbilityChoice, ...]:
    if ctx.sender is None or ctx.sender.status.value != "alive":
        return ()
    found = []
    for ability in usable:
        if ability.passive:
            continue
        if phase is not None and (
            not ability.allowed_in(phase.kind.value) or phase.name in ability.not_on
        ):
            continue
        targets = tuple(
            Picker(
                f"target {i + 1}",
                spec.kind.value,
                spec.optional,
                ctx.options(spec.kind.value, spec.alive, spec.self or not spec.others),
            )
            for i, spec in enumerate(ability.targets)
        )
        if any(not spec.others for spec in ability.targets) and ctx.sender is not None:
            targets = tuple(
                Picker(t.name, t.kind, t.optional, (ctx.sender.display_name,))
                if t.kind == "player" and not s.others
                else t
                for t, s in zip(targets, ability.targets, strict=True)
            )
        params = tuple(
            Picker(p.name, p.kind.value, p.optional, p.choices or ctx.options(p.kind.value))
            for p in ability.params.values()
        )
        name = next(iter(ability.name.values()), ability.id) if ability.name else ability.id
        found.append(AbilityChoice(ability.id, str(name), targets, params))
    return tuple(found)


def _candidate_abilities(candidates: Sequence[OrderInput], ctx: _Ctx) -> tuple[AbilityChoice, ...]:
    """Without a ruleset: the abilities the parser saw, with living players as targets."""
    seen: dict[str, AbilityChoice] = {}
    for order in candidates:
        if not order.ability:
            continue
        old = seen.get(order.ability)
        count = max(len(order.targets), len(old.targets) if old else 0)
        params = {p.name: p for p in (old.params if old else ())}
        for key, value in order.params.items():
            kind = "crime" if isinstance(value, Mapping) and "crime" in value else "text"
            params.setdefault(key, Picker(key, kind, True, ctx.options(kind)))
        targets = tuple(
            Picker(f"target {i + 1}", "player", False, ctx.options("player")) for i in range(count)
        )
        seen[order.ability] = AbilityChoice(
            order.ability, order.ability, targets, tuple(params.values())
        )
    return tuple(seen.values())


def _crimes(ruleset: Any, candidates: Sequence[OrderInput]) -> tuple[str, ...]:
    crimes: set[str] = set()
    for order in candidates:
        for value in order.params.values():
            if isinstance(value, Mapping) and value.get("crime"):
                crimes.add(str(value["crime"]))
    if ruleset is not None:
        crimes.update(ruleset.abilities)
        for ability in ruleset.abilities.values():
            for param in ability.params.values():
                if param.kind.value == "crime":
                    crimes.update(param.choices)
    return tuple(sorted(crimes))


def validate_order(order: OrderInput, choices: Choices) -> list[str]:
    """Why ``order`` is not legal for this sender now (empty when it is)."""
    who = choices.sender or "the sender"
    ability = choices.ability(order.ability)
    if ability is None:
        legal = ", ".join(a.id for a in choices.abilities) or "none"
        return [f"{who} cannot use {order.ability!r} in {choices.phase} (legal: {legal})"]
    problems: list[str] = []
    if len(order.targets) > len(ability.targets):
        problems.append(f"{ability.id} takes {len(ability.targets)} target(s)")
    for i, picker in enumerate(ability.targets):
        value = order.targets[i] if i < len(order.targets) else None
        problems += _check_value(picker, value, choices)
    known = {p.name for p in ability.params}
    problems += [f"{ability.id} has no parameter {k!r}" for k in order.params if k not in known]
    for picker in ability.params:
        problems += _check_value(picker, order.params.get(picker.name), choices)
    return problems


def _check_value(picker: Picker, value: Any, choices: Choices) -> list[str]:
    if value in (None, "", {}):
        return [] if picker.optional else [f"{picker.name} is missing"]
    if picker.kind == "crime" and isinstance(value, Mapping):
        problems = []
        if picker.options and value.get("crime") not in picker.options:
            problems.append(f"{value.get('crime')!r} is not a crime of this ruleset")
        if value.get("victim") and value["victim"] not in choices.players:
            problems.append(f"{value['victim']!r} is not a player")
        if value.get("phase") and value["phase"] not in choices.phases:
            problems.append(f"{value['phase']!r} is not a phase of this game")
        return problems
    if isinstance(value, Mapping):  # a quoted claim ({"text": ...}) is free text
        value = value.get("text", "")
    if picker.options and str(value) not in picker.options:
        why = " (dead, or not in the game)" if picker.kind == "player" else ""
        return [f"{value!r} is not a legal {picker.kind} for {picker.name}{why}"]
    return []
