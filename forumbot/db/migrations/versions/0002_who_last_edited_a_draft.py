"""Who last edited a draft, and when (Outbound.edited_by, Outbound.edited_at).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import forumbot.db.types

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbound", schema=None) as batch_op:
        batch_op.add_column(sa.Column("edited_by", sa.String(length=200), nullable=True))
        batch_op.add_column(
            sa.Column("edited_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=True)
        )


def downgrade() -> None:
    with op.batch_alter_table("outbound", schema=None) as batch_op:
        batch_op.drop_column("edited_at")
        batch_op.drop_column("edited_by")
