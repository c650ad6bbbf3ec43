"""The GM review queue as the GM reads it: open items with their context and candidates.

The read side of ``forumbot.services.review`` (which records decisions): each item with the
sender, the phase, the raw PM or post (as text and as stored), every recipient, a link to
the forum, the parser's ranked candidates and its reason.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from lxml import html as lxml_html
from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from forumbot.db.enums import ReviewKind, ReviewState
from forumbot.db.models import Phase, Player, RawPM, RawPost, ReviewItem
from forumbot.errors import ForumbotError
from forumbot.services.choices import OrderInput

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


def written_lessons(order: Mapping[str, Any]) -> list[Lesson]:
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
        received_at=when, candidates=candidate_views(item), note=item.note,
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


def candidate_views(item: ReviewItem) -> tuple[CandidateView, ...]:
    return tuple(_candidate(i, raw, item.kind) for i, raw in enumerate(item.candidates or []))


def candidate_orders(item: ReviewItem) -> tuple[OrderInput, ...]:
    return tuple(o for c in candidate_views(item) for o in c.orders)


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
    lessons = tuple(lesson for o in order_dicts for lesson in written_lessons(o))
    score = raw.get("score")
    return CandidateView(
        index=index,
        label="; ".join(o.label() for o in orders) or "(nothing)",
        orders=orders,
        score=float(score) if isinstance(score, int | float) else None,
        why=str(raw.get("why", "")),
        lessons=lessons,
    )
