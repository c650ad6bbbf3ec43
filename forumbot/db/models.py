"""SQLAlchemy 2.0 models of everything forumbot stores. ORM objects never leave ``forumbot/``.

Raw posts and PMs are stored as fetched and never rewritten: a post fetched again with a
different body gets a new revision row, so parsing can always be re-run on what was seen.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship, validates

from forumbot.db.enums import (
    FORUM_ENGINES,
    DeliveryState,
    GameStatus,
    OrderStatus,
    OutboundKind,
    PhaseKind,
    PhaseStatus,
    PlayerStatus,
    ReviewKind,
    ReviewState,
    Visibility,
    VoteKind,
)
from forumbot.db.types import JSONType, UTCDateTime, choice_column, enum_column, utcnow

# Named constraints so that Alembic migrations are stable on every engine.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ID = BigInteger().with_variant(Integer(), "sqlite")  # SQLite autoincrements INTEGER only


class Base(DeclarativeBase):
    """Declarative base with the naming convention."""

    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        dict[str, Any]: JSONType,
        list[Any]: JSONType,
        datetime: UTCDateTime,
    }


class Forum(Base):
    """A board forumbot talks to."""

    __tablename__ = "forums"

    id: Mapped[int] = mapped_column(ID, primary_key=True)
    # The database CHECK lists the registry's engines (the same three as migration 0001).
    engine: Mapped[str] = mapped_column(choice_column(FORUM_ENGINES, "ck_engine"))
    base_url: Mapped[str] = mapped_column(String(500), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    games: Mapped[list[Game]] = relationship(back_populates="forum")

    @validates("engine")
    def _known_engine(self, _key: str, engine: str) -> str:
        """A forum row names an engine of the registry (``forum_adapters.ENGINES``)."""
        if engine not in FORUM_ENGINES:
            known = ", ".join(FORUM_ENGINES)
            raise ValueError(f"unknown forum engine {engine!r} (known: {known})")
        return engine


class Game(Base):
    """One game: a thread on a forum, a ruleset, a GM, a schedule."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(ID, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    forum_id: Mapped[int] = mapped_column(ForeignKey("forums.id"))
    topic_id: Mapped[str] = mapped_column(String(64))
    topic_url: Mapped[str] = mapped_column(String(1000))
    ruleset: Mapped[str] = mapped_column(String(100))
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[GameStatus] = mapped_column(enum_column(GameStatus), default=GameStatus.SETUP)
    gm_name: Mapped[str | None] = mapped_column(String(200))
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict)
    last_post_id: Mapped[str | None] = mapped_column(String(64))
    last_pm_id: Mapped[str | None] = mapped_column(String(64))
    # Runtime marks: the last stored PM turned into orders, pause and outage times, the winner.
    pm_row: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    paused_at: Mapped[datetime | None]
    outage_since: Mapped[datetime | None]
    winner: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    lease_owner: Mapped[str | None] = mapped_column(String(200))
    lease_until: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    forum: Mapped[Forum] = relationship(back_populates="games")
    players: Mapped[list[Player]] = relationship(
        back_populates="game", order_by="Player.slot", cascade="all, delete-orphan"
    )
    phases: Mapped[list[Phase]] = relationship(
        back_populates="game", order_by="Phase.sequence", cascade="all, delete-orphan"
    )


class Player(Base):
    """A slot in a game. A replacement is a new row pointing at the slot it took over."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("game_id", "display_name"),)

    id: Mapped[int] = mapped_column(ID, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    slot: Mapped[int] = mapped_column(Integer)
    forum_user_id: Mapped[str | None] = mapped_column(String(64))
    display_name: Mapped[str] = mapped_column(String(200))
    aliases: Mapped[list[Any]] = mapped_column(default=list)
    role: Mapped[str | None] = mapped_column(String(100))
    faction: Mapped[str | None] = mapped_column(String(100))
    status: Mapped[PlayerStatus] = mapped_column(
        enum_column(PlayerStatus), default=PlayerStatus.ALIVE
    )
    statuses: Mapped[list[Any]] = mapped_column(default=list)
    replaces_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))

    game: Mapped[Game] = relationship(back_populates="players")


class Phase(Base):
    """A day or a night, with its deadlines and, once resolved, the state after it."""

    __tablename__ = "phases"
    __table_args__ = (UniqueConstraint("game_id", "name"),)

    id: Mapped[int] = mapped_column(ID, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    sequence: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(50))  # night1, day2
    kind: Mapped[PhaseKind] = mapped_column(enum_column(PhaseKind))
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[PhaseStatus] = mapped_column(
        enum_column(PhaseStatus), default=PhaseStatus.PENDING
    )
    starts_at: Mapped[datetime | None]
    deadline: Mapped[datetime | None]
    inner_deadlines: Mapped[dict[str, Any]] = mapped_column(default=dict)
    resolved_at: Mapped[datetime | None]
    state_after: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    # Runtime marks: re-read at the deadline (edits), order reminders sent, re-resolutions.
    reread: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    reminded: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    game: Mapped[Game] = relationship(back_populates="phases")


class RawPost(Base):
    """A thread post as fetched. Never rewritten; an edit seen later is a new revision."""

    __tablename__ = "raw_posts"
    __table_args__ = (
        UniqueConstraint("forum_id", "post_id", "revision"),
        Index("ix_raw_posts_topic", "forum_id", "topic_id"),
    )

    id: Mapped[int] = mapped_column(ID, primary_key=True)
    forum_id: Mapped[int] = mapped_column(ForeignKey("forums.id"))
    topic_id: Mapped[str] = mapped_column(String(64))
    post_id: Mapped[str] = mapped_column(String(64))
    revision: Mapped[int] = mapped_column(Integer, default=0)
    author_user_id: Mapped[str | None] = mapped_column(String(64))
    author_name: Mapped[str] = mapped_column(String(200))
    posted_at: Mapped[datetime]
    edited_at: Mapped[datetime | None]
    body_html: Mapped[str] = mapped_column(Text)
    body_sha256: Mapped[str] = mapped_column(String(64))
    page_url: Mapped[str | None] = mapped_column(String(1000))
    fetched_at: Mapped[datetime] = mapped_column(default=utcnow)


class RawPM(Base):
    """A private message as fetched from the bot's inbox. Never rewritten."""

    __tablename__ = "raw_pms"
    __table_args__ = (UniqueConstraint("forum_id", "account", "pm_id"),)

    id: Mapped[int] = mapped_column(ID, primary_key=True)
    forum_id: Mapped[int] = mapped_column(ForeignKey("forums.id"))
    account: Mapped[str] = mapped_column(String(200))  # whose inbox it was read from
    pm_id: Mapped[str] = mapped_column(String(64))
    sender_user_id: Mapped[str | None] = mapped_column(String(64))
    sender_name: Mapped[str] = mapped_column(String(200))
    recipients: Mapped[list[Any]] = mapped_column(default=list)  # [{user_id, name}, ...]
    sent_at: Mapped[datetime]
    subject: Mapped[str] = mapped_column(String(500), default="")
    body_html: Mapped[str] = mapped_column(Text)
    fetched_at: Mapped[datetime] = mapped_column(default=utcnow)


class VoteEvent(Base):
    """One vote, unvote or no-lynch vote read from a post or a PM, counted or not (and why)."""

    __tablename__ = "vote_events"

    id: Mapped[int] = mapped_column(ID, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    phase_id: Mapped[int] = mapped_column(ForeignKey("phases.id", ondelete="CASCADE"))
    raw_post_id: Mapped[int | None] = mapped_column(ForeignKey("raw_posts.id"))
    raw_pm_id: Mapped[int | None] = mapped_column(ForeignKey("raw_pms.id"))
    voter_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    target_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    kind: Mapped[VoteKind] = mapped_column(enum_column(VoteKind))
    cast_at: Mapped[datetime]
    counted: Mapped[bool] = mapped_column(Boolean, default=True)
    reason: Mapped[str] = mapped_column(Text, default="")
    # The GM's queue item this vote decides (None: read from the thread).
    review_item_id: Mapped[int | None] = mapped_column(
        ForeignKey("review_items.id", ondelete="SET NULL"), index=True
    )


class Order(Base):
    """A structured order from a PM (or entered by the GM) with its verdict."""

    __tablename__ = "orders"
    __table_args__ = (Index("ix_orders_phase_player", "phase_id", "player_id"),)

    id: Mapped[int] = mapped_column(ID, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    phase_id: Mapped[int] = mapped_column(ForeignKey("phases.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    raw_pm_id: Mapped[int | None] = mapped_column(ForeignKey("raw_pms.id"))
    ability: Mapped[str | None] = mapped_column(String(100))
    targets: Mapped[list[Any]] = mapped_column(default=list)
    params: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[OrderStatus] = mapped_column(enum_column(OrderStatus))
    confidence: Mapped[float] = mapped_column(Float, default=0.0)
    reason: Mapped[str] = mapped_column(Text, default="")
    decided_by: Mapped[str] = mapped_column(String(200), default="parser")
    received_at: Mapped[datetime]
    decided_at: Mapped[datetime] = mapped_column(default=utcnow)


class ReviewItem(Base):
    """Something the GM must decide: an ambiguous order, a doubtful vote, an alert."""

    __tablename__ = "review_items"
    __table_args__ = (
        Index("ix_review_items_open", "game_id", "state"),
        Index("ix_review_items_problem", "game_id", "problem_key"),
    )

    id: Mapped[int] = mapped_column(ID, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase_id: Mapped[int | None] = mapped_column(ForeignKey("phases.id", ondelete="CASCADE"))
    kind: Mapped[ReviewKind] = mapped_column(enum_column(ReviewKind))
    raw_post_id: Mapped[int | None] = mapped_column(ForeignKey("raw_posts.id"))
    raw_pm_id: Mapped[int | None] = mapped_column(ForeignKey("raw_pms.id"))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    reason: Mapped[str] = mapped_column(Text)
    candidates: Mapped[list[Any]] = mapped_column(default=list)
    state: Mapped[ReviewState] = mapped_column(enum_column(ReviewState), default=ReviewState.OPEN)
    resolution: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    note: Mapped[str] = mapped_column(Text, default="")
    decided_by: Mapped[str | None] = mapped_column(String(200))
    decided_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # What the item is about, so it is raised once: an alert's problem, a doubtful vote.
    problem_key: Mapped[str | None] = mapped_column(String(500))


class LearnedMapping(Base):
    """What a GM decision taught for one game: a nickname, a misspelt ability."""

    __tablename__ = "learned_mappings"
    __table_args__ = (UniqueConstraint("game_id", "kind", "text"),)

    id: Mapped[int] = mapped_column(ID, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(50))  # player | ability | role
    text: Mapped[str] = mapped_column(String(500))
    value: Mapped[str] = mapped_column(String(200))
    created_by: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Outbound(Base):
    """A post or PM forumbot will send: recorded before sending, confirmed after.

    ``idempotency_key`` is unique, so drafting the same message twice (a retried job, a
    restart) cannot create a second row, and a row in SENDING after a crash is looked for
    on the forum before it is sent again.
    """

    __tablename__ = "outbound"

    id: Mapped[int] = mapped_column(ID, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    phase_id: Mapped[int | None] = mapped_column(ForeignKey("phases.id", ondelete="CASCADE"))
    kind: Mapped[OutboundKind] = mapped_column(enum_column(OutboundKind))
    idempotency_key: Mapped[str] = mapped_column(String(200), unique=True)
    recipients: Mapped[list[Any]] = mapped_column(default=list)
    subject: Mapped[str] = mapped_column(String(500), default="")
    body: Mapped[str] = mapped_column(Text)
    state: Mapped[DeliveryState] = mapped_column(
        enum_column(DeliveryState), default=DeliveryState.DRAFT
    )
    forum_message_id: Mapped[str | None] = mapped_column(String(64))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    edited_by: Mapped[str | None] = mapped_column(String(200))  # the GM who last changed it
    edited_at: Mapped[datetime | None]
    approved_by: Mapped[str | None] = mapped_column(String(200))
    approved_at: Mapped[datetime | None]
    sent_at: Mapped[datetime | None]
    # Where to look for it on the forum after an interrupted send (recorded before sending).
    look_after_post: Mapped[str | None] = mapped_column(String(64))
    look_since: Mapped[datetime | None]
    # The GM's queue item on a PM that may have been sent already (held until decided).
    held_item_id: Mapped[int | None] = mapped_column(
        ForeignKey("review_items.id", ondelete="SET NULL")
    )


class PhaseEvent(Base):
    """One event of a resolved phase's log, with who may see it."""

    __tablename__ = "phase_events"
    __table_args__ = (UniqueConstraint("phase_id", "seq"),)

    id: Mapped[int] = mapped_column(ID, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    phase_id: Mapped[int] = mapped_column(ForeignKey("phases.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(100))
    visibility: Mapped[Visibility] = mapped_column(enum_column(Visibility))
    recipients: Mapped[list[Any]] = mapped_column(default=list)
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RosterChange(Base):
    """A change the GM made to the roster: a replacement, a modkill, a player leaving.

    ``player_id`` is the slot's account that left (or was modkilled); ``new_player_id`` the
    one that took the slot over (a replacement). ``at`` is when it took effect: a post or PM
    of the old account after it is not the slot's any more.
    """

    __tablename__ = "roster_changes"

    id: Mapped[int] = mapped_column(ID, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    phase_id: Mapped[int | None] = mapped_column(ForeignKey("phases.id", ondelete="SET NULL"))
    kind: Mapped[str] = mapped_column(String(20))  # replace | modkill | leave
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    new_player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    at: Mapped[datetime]
    by: Mapped[str] = mapped_column(String(200))
    note: Mapped[str] = mapped_column(Text, default="")
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)


ALL_MODELS: tuple[type[Base], ...] = (
    Forum,
    Game,
    Player,
    Phase,
    RawPost,
    RawPM,
    VoteEvent,
    Order,
    ReviewItem,
    LearnedMapping,
    Outbound,
    PhaseEvent,
    RosterChange,
)
