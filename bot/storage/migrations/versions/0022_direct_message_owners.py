"""A direct message with the bot belongs to its user: the tables and forces kept under the one
"dm" every direct message shared move to their maker's own, "dm:<user id>"
(bot.discord_adapter.common.owner_scope). A name stays unique there, as it was in "dm". No card
deck or rules document was ever kept under "dm": writing one in a direct message was refused.

Revision ID: 0022
Revises: 0021
"""

from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None

MADE_IN_A_DM = ("saved_tables", "forces")


def upgrade() -> None:
    for table in MADE_IN_A_DM:
        op.execute(f"UPDATE {table} SET guild_id = 'dm:' || owner_id WHERE guild_id = 'dm'")


def downgrade() -> None:
    """Back under "dm": every force (one of a name per player there), and the first-made table
    of each name (one of a name there); a later table of the same name stays its maker's."""
    op.execute("UPDATE forces SET guild_id = 'dm' WHERE guild_id = 'dm:' || owner_id")
    op.execute(
        "UPDATE saved_tables SET guild_id = 'dm' WHERE guild_id = 'dm:' || owner_id AND id = ("
        "SELECT min(first.id) FROM saved_tables AS first "
        "WHERE (first.guild_id = 'dm' OR first.guild_id LIKE 'dm:%') "
        "AND lower(first.name) = lower(saved_tables.name))"
    )
