"""Typed runtime state: ``Game.settings["runtime"]`` becomes columns; votes point at their item.

The free keys of the JSON bag move to columns of the rows they are about (the game, a phase,
an outbound message, a review item); a vote decided by the GM gets a foreign key to its
review item, which its reason used to name in free text. An existing database is upgraded
in place: every mark is carried over, and downgrading puts them back in the bag.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

import forumbot.db.types

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

JSON = forumbot.db.types.JSONType
WHEN = forumbot.db.types.UTCDateTime(timezone=True)
ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

games = sa.table(
    "games",
    sa.column("id", sa.Integer),
    sa.column("settings", JSON),
    sa.column("pm_row", sa.Integer),
    sa.column("paused_at", WHEN),
    sa.column("outage_since", WHEN),
    sa.column("winner", JSON),
)
phases = sa.table(
    "phases",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("reread", sa.Boolean),
    sa.column("reminded", sa.Boolean),
    sa.column("revision", sa.Integer),
)
items = sa.table(
    "review_items",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.Integer),
    sa.column("kind", sa.String),
    sa.column("problem_key", sa.String),
)
outbound = sa.table(
    "outbound",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.Integer),
    sa.column("idempotency_key", sa.String),
    sa.column("look_after_post", sa.String),
    sa.column("look_since", WHEN),
    sa.column("held_item_id", sa.Integer),
)
votes = sa.table(
    "vote_events",
    sa.column("id", sa.Integer),
    sa.column("reason", sa.Text),
    sa.column("review_item_id", sa.Integer),
)

# How ``services/review.py`` named the item in a decided vote's reason ("gm:Ann decided
# review item 12: ..."); the digits end at a word boundary, so item 1 never matches 12.
DECIDED = re.compile(r"\bdecided review item (\d+)\b")


def upgrade() -> None:
    _add_columns()
    bind = op.get_bind()
    known_items = set(bind.scalars(sa.select(items.c.id)))
    for game_id, settings in bind.execute(sa.select(games.c.id, games.c.settings)).all():
        bag = dict((settings or {}).get("runtime") or {})
        _move_game_marks(bind, game_id, bag)
        _move_phase_marks(bind, game_id, bag)
        _move_item_keys(bind, bag, known_items)
        _move_outbound_marks(bind, bag, known_items)
        rest = {k: v for k, v in (settings or {}).items() if k != "runtime"}
        bind.execute(games.update().where(games.c.id == game_id).values(settings=rest))
    for vote_id, reason in bind.execute(sa.select(votes.c.id, votes.c.reason)).all():
        found = DECIDED.search(reason or "")
        if found and int(found.group(1)) in known_items:
            bind.execute(
                votes.update()
                .where(votes.c.id == vote_id)
                .values(review_item_id=int(found.group(1)))
            )


def _add_columns() -> None:
    # Plain ALTER TABLE ADD COLUMN, never a batch copy of these tables: on SQLite a copy
    # drops the old table, and its implicit delete would cascade to every phase's votes,
    # orders and review items. Only outbound and vote_events (referenced by no table) are
    # copied, to add their foreign keys.
    op.add_column("games", sa.Column("pm_row", sa.Integer(), server_default="0", nullable=False))
    op.add_column("games", sa.Column("paused_at", WHEN, nullable=True))
    op.add_column("games", sa.Column("outage_since", WHEN, nullable=True))
    op.add_column("games", sa.Column("winner", JSON, nullable=True))
    for flag in ("reread", "reminded"):
        op.add_column(
            "phases", sa.Column(flag, sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    op.add_column("phases", sa.Column("revision", sa.Integer(), server_default="0", nullable=False))
    op.add_column("review_items", sa.Column("problem_key", sa.String(length=500), nullable=True))
    op.create_index("ix_review_items_problem", "review_items", ["game_id", "problem_key"])
    with op.batch_alter_table("outbound", schema=None) as batch_op:
        batch_op.add_column(sa.Column("look_after_post", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("look_since", WHEN, nullable=True))
        batch_op.add_column(sa.Column("held_item_id", ID, nullable=True))
        batch_op.create_foreign_key(
            "fk_outbound_held_item_id_review_items",
            "review_items",
            ["held_item_id"],
            ["id"],
            ondelete="SET NULL",
        )
    with op.batch_alter_table("vote_events", schema=None) as batch_op:
        batch_op.add_column(sa.Column("review_item_id", ID, nullable=True))
        batch_op.create_index("ix_vote_events_review_item_id", ["review_item_id"], unique=False)
        batch_op.create_foreign_key(
            "fk_vote_events_review_item_id_review_items",
            "review_items",
            ["review_item_id"],
            ["id"],
            ondelete="SET NULL",
        )


def _when(value: Any) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _move_game_marks(bind: sa.Connection, game_id: int, bag: dict[str, Any]) -> None:
    bind.execute(
        games.update()
        .where(games.c.id == game_id)
        .values(
            pm_row=int(bag.get("pm_row") or 0),
            paused_at=_when(bag.get("paused_at")),
            outage_since=_when(bag.get("outage_since")),
            winner=bag.get("winner") or None,
        )
    )


def _move_phase_marks(bind: sa.Connection, game_id: int, bag: dict[str, Any]) -> None:
    for column in ("reread", "reminded", "revision"):
        for key, value in bag.items():
            if key.startswith(f"{column}:") and value:
                bind.execute(
                    phases.update()
                    .where(phases.c.game_id == game_id, phases.c.name == key.split(":", 1)[1])
                    .values({column: value if column == "revision" else True})
                )


def _move_item_keys(bind: sa.Connection, bag: dict[str, Any], known: set[int]) -> None:
    """Alerts and doubtful votes were found by key -> item id: the key goes on the item."""
    for key, item_id in {**bag.get("vote_items", {}), **bag.get("alerts", {})}.items():
        if item_id in known:
            bind.execute(items.update().where(items.c.id == item_id).values(problem_key=key))


def _move_outbound_marks(bind: sa.Connection, bag: dict[str, Any], known: set[int]) -> None:
    for key, marks in bag.get("sending", {}).items():
        bind.execute(
            outbound.update()
            .where(outbound.c.idempotency_key == key)
            .values(look_after_post=marks.get("after_post"), look_since=_when(marks.get("since")))
        )
    for key, item_id in bag.get("held", {}).items():
        if item_id in known:
            bind.execute(
                outbound.update()
                .where(outbound.c.idempotency_key == key)
                .values(held_item_id=item_id)
            )


def downgrade() -> None:
    bind = op.get_bind()
    for game_id in list(bind.scalars(sa.select(games.c.id))):
        _restore_bag(bind, game_id)
    with op.batch_alter_table("vote_events", schema=None) as batch_op:
        batch_op.drop_constraint("fk_vote_events_review_item_id_review_items", type_="foreignkey")
        batch_op.drop_index("ix_vote_events_review_item_id")
        batch_op.drop_column("review_item_id")
    with op.batch_alter_table("outbound", schema=None) as batch_op:
        batch_op.drop_constraint("fk_outbound_held_item_id_review_items", type_="foreignkey")
        for column in ("held_item_id", "look_since", "look_after_post"):
            batch_op.drop_column(column)
    op.drop_index("ix_review_items_problem", table_name="review_items")
    op.drop_column("review_items", "problem_key")  # SQLite 3.35+ drops a column in place
    for column in ("revision", "reminded", "reread"):
        op.drop_column("phases", column)
    for column in ("winner", "outage_since", "paused_at", "pm_row"):
        op.drop_column("games", column)


def _restore_bag(bind: sa.Connection, game_id: int) -> None:
    """The columns' marks back into ``settings["runtime"]`` (what 0002's code reads)."""
    game = bind.execute(sa.select(games).where(games.c.id == game_id)).one()
    bag: dict[str, Any] = {"pm_row": game.pm_row}
    for key in ("paused_at", "outage_since"):
        if getattr(game, key) is not None:
            bag[key] = getattr(game, key).isoformat()
    if game.winner:
        bag["winner"] = game.winner
    for row in bind.execute(sa.select(items).where(items.c.game_id == game_id)):
        if row.problem_key:
            which = "alerts" if row.kind == "alert" else "vote_items"
            bag.setdefault(which, {})[row.problem_key] = row.id
    for row in bind.execute(sa.select(outbound).where(outbound.c.game_id == game_id)):
        if row.look_since is not None or row.look_after_post is not None:
            since = row.look_since.isoformat() if row.look_since else None
            bag.setdefault("sending", {})[row.idempotency_key] = {
                "after_post": row.look_after_post,
                "since": since,
            }
        if row.held_item_id is not None:
            bag.setdefault("held", {})[row.idempotency_key] = row.held_item_id
    for row in bind.execute(sa.select(phases).where(phases.c.game_id == game_id)):
        bag.update({f"reread:{row.name}": True} if row.reread else {})
        bag.update({f"reminded:{row.name}": True} if row.reminded else {})
        bag.update({f"revision:{row.name}": row.revision} if row.revision else {})
    bind.execute(
        games.update()
        .where(games.c.id == game_id)
        .values(settings={**(game.settings or {}), "runtime": bag})
    )
