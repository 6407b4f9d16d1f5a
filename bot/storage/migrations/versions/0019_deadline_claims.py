"""Deadlines claimed from the database, so that several bot processes on one PostgreSQL share
them and each fires once: a claim (who holds it, and until when: a lease that another process
may take over once it has run out) on reaction windows, referee deadlines, turn pings and
campaigns; each campaign's next alarm, so the due ones are found without reading every
campaign; and the "window closed" posts still to make, written with the close that needs them.

Revision ID: 0019
Revises: 0018
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

CLAIMED = ("reaction_windows", "player_deadlines", "turn_pings", "campaigns")
DUE = {
    "reaction_windows": "deadline",
    "player_deadlines": "deadline",
    "turn_pings": "due",
    "campaigns": "due",
}


def upgrade() -> None:
    op.add_column("campaigns", sa.Column("due", sa.String(), nullable=True))
    for table in CLAIMED:
        op.add_column(table, sa.Column("claimed_by", sa.String(), nullable=True))
        op.add_column(table, sa.Column("claimed_until", sa.String(), nullable=True))
        op.create_index(f"{table}_due", table, [DUE[table]])
    op.create_table(
        "window_notices",
        sa.Column("channel_id", sa.String(), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("message_id", sa.String(), nullable=True),
        sa.Column("claimed_by", sa.String(), nullable=True),
        sa.Column("claimed_until", sa.String(), nullable=True),
    )
    op.create_index("window_notices_claimed_until", "window_notices", ["claimed_until"])


def downgrade() -> None:
    op.drop_table("window_notices")
    for table in CLAIMED:
        op.drop_index(f"{table}_due", table)
        with op.batch_alter_table(table) as batch:
            batch.drop_column("claimed_until")
            batch.drop_column("claimed_by")
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_column("due")
