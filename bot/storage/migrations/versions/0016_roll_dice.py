"""The dice of each logged roll, kept beside what was shown, so /stats reads them instead of
working them out again from the text.

Revision ID: 0016
Revises: 0015
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rolls", sa.Column("dice", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rolls") as batch:
        batch.drop_column("dice")
