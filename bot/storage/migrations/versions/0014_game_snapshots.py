"""Snapshots of each game's state every few commands, so an undo need not replay the whole log.

Revision ID: 0014
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_snapshots",
        sa.Column("channel_id", sa.String(), sa.ForeignKey("games.channel_id"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("state", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("game_snapshots")
