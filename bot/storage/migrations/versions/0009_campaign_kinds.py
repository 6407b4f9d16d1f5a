"""Campaigns of more than one kind: Red Barricades campaigns and linked Iron Cross battles share
the ``campaigns`` table, told apart by ``kind``.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "campaigns", sa.Column("kind", sa.String(), nullable=False, server_default="red_barricades")
    )


def downgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_column("kind")
