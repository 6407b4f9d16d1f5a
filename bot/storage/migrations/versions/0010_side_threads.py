"""Each game's private Discord threads: one per side and one for the referees.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "side_threads",
        sa.Column("channel_id", sa.String(), primary_key=True),
        sa.Column("side", sa.String(), primary_key=True),
        sa.Column("thread_id", sa.String(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("side_threads")
