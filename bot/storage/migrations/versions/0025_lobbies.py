"""Lobbies: open games posted to a server's channel (/lfg), joined by a button, expiring by
themselves (claimed like every other deadline).

Revision ID: 0025
Revises: 0024
"""

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lobbies",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("guild_id", sa.String(), nullable=False),
        sa.Column("channel_id", sa.String(), nullable=False),
        sa.Column("message_id", sa.String(), nullable=True),
        sa.Column("forum_id", sa.String(), nullable=True),
        sa.Column("poster", sa.String(), nullable=False),
        sa.Column("poster_name", sa.String(), nullable=False),
        sa.Column("side", sa.String(), nullable=False),
        sa.Column("offer", sa.Text(), nullable=False),
        sa.Column("note", sa.String(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("joiner", sa.String(), nullable=True),
        sa.Column("joining_until", sa.String(), nullable=True),
        sa.Column("thread_id", sa.String(), nullable=True),
        sa.Column("created_at", sa.String(), nullable=False),
        sa.Column("expires_at", sa.String(), nullable=False),
        sa.Column("claimed_by", sa.String(), nullable=True),
        sa.Column("claimed_until", sa.String(), nullable=True),
    )
    op.create_index("ix_lobbies_guild_id", "lobbies", ["guild_id"])
    op.create_index("lobbies_open", "lobbies", ["status", "expires_at"])


def downgrade() -> None:
    op.drop_index("lobbies_open", "lobbies")
    op.drop_index("ix_lobbies_guild_id", "lobbies")
    op.drop_table("lobbies")
