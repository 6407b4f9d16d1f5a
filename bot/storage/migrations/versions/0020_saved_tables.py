"""Tables the players of a server built, imported or generated: one of a name, in any case,
per server.

Revision ID: 0020
Revises: 0019
"""

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "saved_tables",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("guild_id", sa.String(), nullable=False, index=True),
        sa.Column("owner_id", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("layout", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    op.create_index("one_table_per_name", "saved_tables", ["guild_id", sa.text("lower(name)")], unique=True)


def downgrade() -> None:
    op.drop_index("one_table_per_name", "saved_tables")
    op.drop_table("saved_tables")
