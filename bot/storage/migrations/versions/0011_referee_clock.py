"""The referee's clock: games whose timers are paused, and deadlines for absent sides.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "paused_clocks",
        sa.Column("channel_id", sa.String(), primary_key=True),
        sa.Column("paused_at", sa.String(), nullable=False),
    )
    op.create_table(
        "player_deadlines",
        sa.Column("channel_id", sa.String(), primary_key=True),
        sa.Column("side", sa.String(), primary_key=True),
        sa.Column("deadline", sa.String(), nullable=False),
        sa.Column("referee", sa.String(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("player_deadlines")
    op.drop_table("paused_clocks")
