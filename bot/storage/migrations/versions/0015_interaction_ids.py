"""Each game command remembers the Discord interaction that sent it, so a re-sent interaction is
recognised and never applied twice.

Revision ID: 0015
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_commands") as batch:
        batch.add_column(sa.Column("interaction_id", sa.String(), nullable=True))
    op.create_index("ix_game_commands_interaction", "game_commands", ["interaction_id"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_game_commands_interaction", "game_commands")
    with op.batch_alter_table("game_commands") as batch:
        batch.drop_column("interaction_id")
