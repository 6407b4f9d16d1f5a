"""Word search of the rules library on PostgreSQL, with its own full-text search.

SQLite searches the FTS5 table of 0004; PostgreSQL gets a ``search`` column on rule_sections,
kept by the database itself (a stored generated column), holding the section's words stemmed by
the English configuration and weighted as FTS5's bm25 weights them: the number (A), the title (B),
the text (D). A GIN index serves ``@@`` matches. On SQLite nothing changes.

Revision ID: 0017
Revises: 0016
"""

from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(
        "ALTER TABLE rule_sections ADD COLUMN search tsvector GENERATED ALWAYS AS ("
        "setweight(to_tsvector('english', number), 'A') || "
        "setweight(to_tsvector('english', title), 'B') || "
        "setweight(to_tsvector('english', body), 'D')) STORED"
    )
    op.execute("CREATE INDEX ix_rule_sections_search ON rule_sections USING gin (search)")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP INDEX ix_rule_sections_search")
    op.execute("ALTER TABLE rule_sections DROP COLUMN search")
