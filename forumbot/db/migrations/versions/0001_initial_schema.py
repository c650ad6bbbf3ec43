"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import forumbot.db.types

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:

    op.create_table(
        "forums",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column(
            "engine",
            sa.Enum(
                "smf",
                "phpbb",
                "file",
                name="ck_engine",
                native_enum=False,
                create_constraint=True,
                length=13,
            ),
            nullable=False,
        ),
        sa.Column("base_url", sa.String(length=500), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("created_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_forums")),
        sa.UniqueConstraint("base_url", name=op.f("uq_forums_base_url")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("forum_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("topic_id", sa.String(length=64), nullable=False),
        sa.Column("topic_url", sa.String(length=1000), nullable=False),
        sa.Column("ruleset", sa.String(length=100), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "setup",
                "running",
                "paused",
                "finished",
                name="ck_gamestatus",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("gm_name", sa.String(length=200), nullable=True),
        sa.Column(
            "settings",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("last_post_id", sa.String(length=64), nullable=True),
        sa.Column("last_pm_id", sa.String(length=64), nullable=True),
        sa.Column("lease_owner", sa.String(length=200), nullable=True),
        sa.Column("lease_until", forumbot.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("created_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["forum_id"], ["forums.id"], name=op.f("fk_games_forum_id_forums")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("name", name=op.f("uq_games_name")),
    )
    op.create_table(
        "raw_pms",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("forum_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("account", sa.String(length=200), nullable=False),
        sa.Column("pm_id", sa.String(length=64), nullable=False),
        sa.Column("sender_user_id", sa.String(length=64), nullable=True),
        sa.Column("sender_name", sa.String(length=200), nullable=False),
        sa.Column(
            "recipients",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("sent_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("subject", sa.String(length=500), nullable=False),
        sa.Column("body_html", sa.Text(), nullable=False),
        sa.Column("fetched_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["forum_id"], ["forums.id"], name=op.f("fk_raw_pms_forum_id_forums")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_raw_pms")),
        sa.UniqueConstraint(
            "forum_id", "account", "pm_id", name=op.f("uq_raw_pms_forum_id_account_pm_id")
        ),
    )
    op.create_table(
        "raw_posts",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("forum_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("topic_id", sa.String(length=64), nullable=False),
        sa.Column("post_id", sa.String(length=64), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("author_user_id", sa.String(length=64), nullable=True),
        sa.Column("author_name", sa.String(length=200), nullable=False),
        sa.Column("posted_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("edited_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("body_html", sa.Text(), nullable=False),
        sa.Column("body_sha256", sa.String(length=64), nullable=False),
        sa.Column("page_url", sa.String(length=1000), nullable=True),
        sa.Column("fetched_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["forum_id"], ["forums.id"], name=op.f("fk_raw_posts_forum_id_forums")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_raw_posts")),
        sa.UniqueConstraint(
            "forum_id", "post_id", "revision", name=op.f("uq_raw_posts_forum_id_post_id_revision")
        ),
    )
    with op.batch_alter_table("raw_posts", schema=None) as batch_op:
        batch_op.create_index("ix_raw_posts_topic", ["forum_id", "topic_id"], unique=False)

    op.create_table(
        "learned_mappings",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("game_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("kind", sa.String(length=50), nullable=False),
        sa.Column("text", sa.String(length=500), nullable=False),
        sa.Column("value", sa.String(length=200), nullable=False),
        sa.Column("created_by", sa.String(length=200), nullable=False),
        sa.Column("created_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_learned_mappings_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_learned_mappings")),
        sa.UniqueConstraint(
            "game_id", "kind", "text", name=op.f("uq_learned_mappings_game_id_kind_text")
        ),
    )
    op.create_table(
        "phases",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("game_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("sequence", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=50), nullable=False),
        sa.Column(
            "kind",
            sa.Enum(
                "day",
                "night",
                "signup",
                name="ck_phasekind",
                native_enum=False,
                create_constraint=True,
                length=14,
            ),
            nullable=False,
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "pending",
                "open",
                "frozen",
                "resolved",
                "published",
                name="ck_phasestatus",
                native_enum=False,
                create_constraint=True,
                length=17,
            ),
            nullable=False,
        ),
        sa.Column("starts_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("deadline", forumbot.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column(
            "inner_deadlines",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("resolved_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column(
            "state_after",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=True,
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_phases_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_phases")),
        sa.UniqueConstraint("game_id", "name", name=op.f("uq_phases_game_id_name")),
    )
    with op.batch_alter_table("phases", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_phases_game_id"), ["game_id"], unique=False)

    op.create_table(
        "players",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("game_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=False),
        sa.Column("forum_user_id", sa.String(length=64), nullable=True),
        sa.Column("display_name", sa.String(length=200), nullable=False),
        sa.Column(
            "aliases",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("role", sa.String(length=100), nullable=True),
        sa.Column("faction", sa.String(length=100), nullable=True),
        sa.Column(
            "status",
            sa.Enum(
                "alive",
                "dead",
                "replaced",
                "modkilled",
                name="ck_playerstatus",
                native_enum=False,
                create_constraint=True,
                length=17,
            ),
            nullable=False,
        ),
        sa.Column(
            "statuses",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column(
            "replaces_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_players_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["replaces_id"], ["players.id"], name=op.f("fk_players_replaces_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint(
            "game_id", "display_name", name=op.f("uq_players_game_id_display_name")
        ),
    )
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_players_game_id"), ["game_id"], unique=False)

    op.create_table(
        "orders",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("game_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("phase_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column(
            "player_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False
        ),
        sa.Column("raw_pm_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("ability", sa.String(length=100), nullable=True),
        sa.Column(
            "targets",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column(
            "params",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column(
            "status",
            sa.Enum(
                "accepted",
                "ambiguous",
                "rejected",
                "superseded",
                "cancelled",
                "late",
                name="ck_orderstatus",
                native_enum=False,
                create_constraint=True,
                length=18,
            ),
            nullable=False,
        ),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("decided_by", sa.String(length=200), nullable=False),
        sa.Column("received_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("decided_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_orders_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["phase_id"], ["phases.id"], name=op.f("fk_orders_phase_id_phases"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_orders_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["raw_pm_id"], ["raw_pms.id"], name=op.f("fk_orders_raw_pm_id_raw_pms")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_orders")),
    )
    with op.batch_alter_table("orders", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_orders_game_id"), ["game_id"], unique=False)
        batch_op.create_index("ix_orders_phase_player", ["phase_id", "player_id"], unique=False)

    op.create_table(
        "outbound",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("game_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("phase_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column(
            "kind",
            sa.Enum(
                "post",
                "pm",
                name="ck_outboundkind",
                native_enum=False,
                create_constraint=True,
                length=12,
            ),
            nullable=False,
        ),
        sa.Column("idempotency_key", sa.String(length=200), nullable=False),
        sa.Column(
            "recipients",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("subject", sa.String(length=500), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column(
            "state",
            sa.Enum(
                "draft",
                "held",
                "approved",
                "sending",
                "sent",
                "failed",
                name="ck_deliverystate",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("forum_message_id", sa.String(length=64), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("approved_by", sa.String(length=200), nullable=True),
        sa.Column("approved_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("sent_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_outbound_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["phase_id"],
            ["phases.id"],
            name=op.f("fk_outbound_phase_id_phases"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbound")),
        sa.UniqueConstraint("idempotency_key", name=op.f("uq_outbound_idempotency_key")),
    )
    with op.batch_alter_table("outbound", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_outbound_game_id"), ["game_id"], unique=False)

    op.create_table(
        "phase_events",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("game_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("phase_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=100), nullable=False),
        sa.Column(
            "visibility",
            sa.Enum(
                "public",
                "private",
                "gm",
                name="ck_visibility",
                native_enum=False,
                create_constraint=True,
                length=15,
            ),
            nullable=False,
        ),
        sa.Column(
            "recipients",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column(
            "data",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("created_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_phase_events_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["phase_id"],
            ["phases.id"],
            name=op.f("fk_phase_events_phase_id_phases"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_phase_events")),
        sa.UniqueConstraint("phase_id", "seq", name=op.f("uq_phase_events_phase_id_seq")),
    )
    with op.batch_alter_table("phase_events", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_phase_events_game_id"), ["game_id"], unique=False)

    op.create_table(
        "review_items",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("game_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("phase_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column(
            "kind",
            sa.Enum(
                "order",
                "vote",
                "edit",
                "alert",
                name="ck_reviewkind",
                native_enum=False,
                create_constraint=True,
                length=13,
            ),
            nullable=False,
        ),
        sa.Column(
            "raw_post_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True
        ),
        sa.Column("raw_pm_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("player_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column(
            "candidates",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column(
            "state",
            sa.Enum(
                "open",
                "accepted",
                "edited",
                "rejected",
                name="ck_reviewstate",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column(
            "resolution",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=True,
        ),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("decided_by", sa.String(length=200), nullable=True),
        sa.Column("decided_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("created_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_review_items_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["phase_id"],
            ["phases.id"],
            name=op.f("fk_review_items_phase_id_phases"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_review_items_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["raw_pm_id"], ["raw_pms.id"], name=op.f("fk_review_items_raw_pm_id_raw_pms")
        ),
        sa.ForeignKeyConstraint(
            ["raw_post_id"], ["raw_posts.id"], name=op.f("fk_review_items_raw_post_id_raw_posts")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_review_items")),
    )
    with op.batch_alter_table("review_items", schema=None) as batch_op:
        batch_op.create_index("ix_review_items_open", ["game_id", "state"], unique=False)

    op.create_table(
        "vote_events",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("game_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("phase_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column(
            "raw_post_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True
        ),
        sa.Column("raw_pm_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("voter_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("target_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column(
            "kind",
            sa.Enum(
                "vote",
                "unvote",
                "no_lynch",
                name="ck_votekind",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("cast_at", forumbot.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("counted", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_vote_events_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["phase_id"],
            ["phases.id"],
            name=op.f("fk_vote_events_phase_id_phases"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["raw_pm_id"], ["raw_pms.id"], name=op.f("fk_vote_events_raw_pm_id_raw_pms")
        ),
        sa.ForeignKeyConstraint(
            ["raw_post_id"], ["raw_posts.id"], name=op.f("fk_vote_events_raw_post_id_raw_posts")
        ),
        sa.ForeignKeyConstraint(
            ["target_id"], ["players.id"], name=op.f("fk_vote_events_target_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["voter_id"], ["players.id"], name=op.f("fk_vote_events_voter_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vote_events")),
    )
    with op.batch_alter_table("vote_events", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_vote_events_game_id"), ["game_id"], unique=False)


def downgrade() -> None:

    with op.batch_alter_table("vote_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_vote_events_game_id"))

    op.drop_table("vote_events")
    with op.batch_alter_table("review_items", schema=None) as batch_op:
        batch_op.drop_index("ix_review_items_open")

    op.drop_table("review_items")
    with op.batch_alter_table("phase_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_phase_events_game_id"))

    op.drop_table("phase_events")
    with op.batch_alter_table("outbound", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_outbound_game_id"))

    op.drop_table("outbound")
    with op.batch_alter_table("orders", schema=None) as batch_op:
        batch_op.drop_index("ix_orders_phase_player")
        batch_op.drop_index(batch_op.f("ix_orders_game_id"))

    op.drop_table("orders")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_players_game_id"))

    op.drop_table("players")
    with op.batch_alter_table("phases", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_phases_game_id"))

    op.drop_table("phases")
    op.drop_table("learned_mappings")
    with op.batch_alter_table("raw_posts", schema=None) as batch_op:
        batch_op.drop_index("ix_raw_posts_topic")

    op.drop_table("raw_posts")
    op.drop_table("raw_pms")
    op.drop_table("games")
    op.drop_table("forums")
