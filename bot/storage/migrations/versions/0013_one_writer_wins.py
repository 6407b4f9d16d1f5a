"""One writer wins: a version on forces and turn pings, so an edit never overwrites one made
since it read; a channel runs one unfinished campaign of each kind; a player's forces, a
server's decks and its rule documents each have one of a name, in any case.

Rows that two writers racing each other created before these rules existed are cleaned first,
so the upgrade never fails on them: of campaigns the newest (the one the bot went on reading),
of names the oldest.

Revision ID: 0013
Revises: 0012
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

NOT_FINISHED = sa.text("NOT finished")


def upgrade() -> None:
    for table in ("forces", "turn_pings"):
        op.add_column(table, sa.Column("version", sa.Integer(), nullable=False, server_default="0"))
    _one_running_campaign()
    _one_of_a_name("forces", "guild_id, owner_id", "one_force_per_name")
    _one_of_a_name("card_decks", "guild_id", "one_deck_per_name")
    op.execute(
        "DELETE FROM rule_sections WHERE source_id NOT IN "
        "(SELECT MIN(id) FROM rule_sources GROUP BY guild_id, lower(name))"
    )
    _one_of_a_name("rule_sources", "guild_id", "one_rule_source_per_name")


def _one_running_campaign() -> None:
    """Mark each stored campaign finished or not, keep the newest unfinished one of each kind in
    a channel (the one the bot read), and let no second one in."""
    op.add_column("campaigns", sa.Column("finished", sa.Boolean(), nullable=False, server_default=sa.false()))
    bind = op.get_bind()
    campaigns = sa.table(
        "campaigns", sa.column("id"), sa.column("kind"), sa.column("campaign"), sa.column("finished")
    )
    done = [
        row.id
        for row in bind.execute(sa.select(campaigns.c.id, campaigns.c.kind, campaigns.c.campaign))
        if _finished(row.kind, json.loads(row.campaign))
    ]
    if done:
        bind.execute(campaigns.update().where(campaigns.c.id.in_(done)).values(finished=True))
    op.execute(
        "DELETE FROM campaigns WHERE NOT finished AND id NOT IN "
        "(SELECT MAX(id) FROM campaigns WHERE NOT finished GROUP BY channel_id, kind)"
    )
    op.create_index(
        "one_running_campaign",
        "campaigns",
        ["channel_id", "kind"],
        unique=True,
        sqlite_where=NOT_FINISHED,
        postgresql_where=NOT_FINISHED,
    )


def _finished(kind: str, campaign: dict) -> bool:
    """As the campaign models have it, read from their JSON as stored at this revision."""
    if kind == "linked":
        return bool(campaign.get("ended"))
    return all(phase.get("state") == "revealed" for phase in campaign.get("phases", []))


def _one_of_a_name(table: str, owner: str, index: str) -> None:
    """Keep the oldest row of each name (in any case) per owner, then index the names."""
    op.execute(
        f"DELETE FROM {table} WHERE id NOT IN (SELECT MIN(id) FROM {table} GROUP BY {owner}, lower(name))"
    )
    columns = [*(column.strip() for column in owner.split(",")), sa.text("lower(name)")]
    op.create_index(index, table, columns, unique=True)


def downgrade() -> None:
    op.drop_index("one_rule_source_per_name", "rule_sources")
    op.drop_index("one_deck_per_name", "card_decks")
    op.drop_index("one_force_per_name", "forces")
    op.drop_index("one_running_campaign", "campaigns")
    for table, column in (("campaigns", "finished"), ("turn_pings", "version"), ("forces", "version")):
        with op.batch_alter_table(table) as batch:
            batch.drop_column(column)
