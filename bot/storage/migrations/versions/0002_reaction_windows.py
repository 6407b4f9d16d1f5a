"""Open reaction windows with their deadlines, and each game's window length.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("reaction_seconds", sa.Integer(), nullable=False, server_default="120"))
    op.create_table(
        "reaction_windows",
        sa.Column("channel_id", sa.String(), sa.ForeignKey("games.channel_id"), primary_key=True),
        sa.Column("window", sa.Integer(), nullable=False),
        sa.Column("deadline", sa.String(), nullable=False),
        sa.Column("message_id", sa.String(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("reaction_windows")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("reaction_seconds")
