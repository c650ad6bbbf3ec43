"""Roster changes: a replacement, a modkill, a player leaving, recorded as the game's history.

Each row is one change the GM made to the roster (``forumbot player ...`` or the GM page):
which slot, the account that left it, the one that took it (a replacement), when, by whom,
and the phase that was open. Votes and the vote counter read the time of a replacement from
here (a post by the old account after it is not the slot's any more).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import forumbot.db.types

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Create ``roster_changes``."""
    op.create_table(
        "roster_changes",
        sa.Column("id", ID, nullable=False),
        sa.Column("game_id", ID, nullable=False),
        sa.Column("phase_id", ID, nullable=True),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("new_player_id", ID, nullable=True),
        sa.Column("at", forumbot.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("by", sa.String(length=200), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("data", forumbot.db.types.JSONType, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_roster_changes_game_id_games"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["phase_id"], ["phases.id"],
                                name=op.f("fk_roster_changes_phase_id_phases"),
                                ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_roster_changes_player_id_players")),
        sa.ForeignKeyConstraint(["new_player_id"], ["players.id"],
                                name=op.f("fk_roster_changes_new_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_roster_changes")),
    )  # fmt: skip
    op.create_index(op.f("ix_roster_changes_game_id"), "roster_changes", ["game_id"])


def downgrade() -> None:
    """Drop ``roster_changes``."""
    op.drop_index(op.f("ix_roster_changes_game_id"), table_name="roster_changes")
    op.drop_table("roster_changes")
