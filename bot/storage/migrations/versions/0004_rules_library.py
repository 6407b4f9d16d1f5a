"""The rules library: documents, their sections, and an FTS5 index over the sections.

The index is an external-content FTS5 table kept in step with rule_sections by triggers, with
the porter stemmer so "dissipate" finds "dissipates". FTS5 is SQLite's: on another database
the tables are created without the index, and the library says that word search needs SQLite.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

FTS_STATEMENTS = (
    "CREATE VIRTUAL TABLE rule_search USING fts5("
    "number, title, body, content='rule_sections', content_rowid='id', tokenize='porter unicode61')",
    "CREATE TRIGGER rule_sections_ai AFTER INSERT ON rule_sections BEGIN "
    "INSERT INTO rule_search(rowid, number, title, body) "
    "VALUES (new.id, new.number, new.title, new.body); END",
    "CREATE TRIGGER rule_sections_ad AFTER DELETE ON rule_sections BEGIN "
    "INSERT INTO rule_search(rule_search, rowid, number, title, body) "
    "VALUES ('delete', old.id, old.number, old.title, old.body); END",
    "CREATE TRIGGER rule_sections_au AFTER UPDATE ON rule_sections BEGIN "
    "INSERT INTO rule_search(rule_search, rowid, number, title, body) "
    "VALUES ('delete', old.id, old.number, old.title, old.body); "
    "INSERT INTO rule_search(rowid, number, title, body) "
    "VALUES (new.id, new.number, new.title, new.body); END",
)


def upgrade() -> None:
    op.create_table(
        "rule_sources",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("guild_id", sa.String(), nullable=False, index=True),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("filename", sa.String(), nullable=False),
        sa.Column("checksum", sa.String(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("sections", sa.Integer(), nullable=False),
        sa.Column("imported_by", sa.String(), nullable=False),
        sa.Column("imported_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("guild_id", "name"),
    )
    op.create_table(
        "rule_sections",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("source_id", sa.Integer(), sa.ForeignKey("rule_sources.id"), nullable=False, index=True),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("number", sa.String(), nullable=False),
        sa.Column("number_key", sa.String(), nullable=False, index=True),
        sa.Column("title", sa.String(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
    )
    if op.get_bind().dialect.name == "sqlite":
        for statement in FTS_STATEMENTS:
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TABLE rule_search")
    op.drop_table("rule_sections")
    op.drop_table("rule_sources")
