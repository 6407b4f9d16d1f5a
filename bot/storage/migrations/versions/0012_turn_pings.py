"""Turn pings: each channel's delay and pending ping, and how each user likes to be told.

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "turn_pings",
        sa.Column("channel_id", sa.String(), primary_key=True),
        sa.Column("minutes", sa.Integer(), nullable=False, server_default="10"),
        sa.Column("players", sa.String(), nullable=False, server_default=""),
        sa.Column("due", sa.String(), nullable=True),
    )
    op.create_table(
        "ping_choices",
        sa.Column("user_id", sa.String(), primary_key=True),
        sa.Column("how", sa.String(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ping_choices")
    op.drop_table("turn_pings")
