"""Finished games kept with their logs when a channel starts a new one.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "archived_games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("channel_id", sa.String(), nullable=False, index=True),
        sa.Column("result", sa.String(), nullable=False),
        sa.Column("log", sa.Text(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("archived_games")
