"""The state a game started from is kept as its snapshot 0, not in the game's row: the row is
rewritten by every action, and carried the starting state along each time unchanged.

Revision ID: 0026
Revises: 0025
"""

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "INSERT INTO game_snapshots (channel_id, seq, state) SELECT channel_id, 0, initial_state FROM games"
    )
    with op.batch_alter_table("games") as batch:
        batch.drop_column("initial_state")


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("initial_state", sa.Text(), nullable=False, server_default=""))
    op.execute(
        "UPDATE games SET initial_state = (SELECT state FROM game_snapshots "
        "WHERE game_snapshots.channel_id = games.channel_id AND game_snapshots.seq = 0)"
    )
    op.execute("DELETE FROM game_snapshots WHERE seq = 0")
    with op.batch_alter_table("games") as batch:
        batch.alter_column("initial_state", server_default=None)
