"""Each channel's pinned game card: the message the bot edits after every action of its game.

Revision ID: 0023
Revises: 0022
"""

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pinned_cards",
        sa.Column("channel_id", sa.String(), primary_key=True),
        sa.Column("message_id", sa.String(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("pinned_cards")
