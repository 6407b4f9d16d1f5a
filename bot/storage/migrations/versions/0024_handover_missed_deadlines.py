"""The deadlines each side of a game has missed in a row, after which a daily game hands the
side to the bot (bot.services.stand_in_service).

Revision ID: 0024
Revises: 0023
"""

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "missed_deadlines",
        sa.Column("channel_id", sa.String(), primary_key=True),
        sa.Column("side", sa.String(), primary_key=True),
        sa.Column("missed", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("missed_deadlines")
