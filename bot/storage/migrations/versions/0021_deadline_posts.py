"""Every post a deadline makes goes through one outbox, ``deadline_posts``, written with the
firing: the "window closed" posts of ``window_notices`` (moved there, named by their command's
seq as before, so their Discord nonce is unchanged), and now the turn pings, the referee's
deadline texts and the campaigns' reminders and reveals.

Revision ID: 0021
Revises: 0020
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

CLAIM = ("claimed_by", "claimed_until")


def upgrade() -> None:
    posts = op.create_table(
        "deadline_posts",
        sa.Column("channel_id", sa.String(), primary_key=True),
        sa.Column("post", sa.String(), primary_key=True),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("claimed_by", sa.String(), nullable=True),
        sa.Column("claimed_until", sa.String(), nullable=True),
    )
    op.create_index("deadline_posts_claimed_until", "deadline_posts", ["claimed_until"])
    notices = op.get_bind().execute(
        sa.text("SELECT channel_id, seq, message_id, claimed_by, claimed_until FROM window_notices")
    )
    rows = [
        {
            "channel_id": channel_id,
            "post": str(seq),
            "kind": "window_closed",
            "payload": json.dumps({"message_id": message_id}),
            **dict(zip(CLAIM, claim, strict=True)),
        }
        for channel_id, seq, message_id, *claim in notices
    ]
    if rows:
        op.bulk_insert(posts, rows)
    op.drop_table("window_notices")


def downgrade() -> None:
    notices = op.create_table(
        "window_notices",
        sa.Column("channel_id", sa.String(), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("message_id", sa.String(), nullable=True),
        sa.Column("claimed_by", sa.String(), nullable=True),
        sa.Column("claimed_until", sa.String(), nullable=True),
    )
    op.create_index("window_notices_claimed_until", "window_notices", ["claimed_until"])
    posts = op.get_bind().execute(
        sa.text(
            "SELECT channel_id, post, payload, claimed_by, claimed_until FROM deadline_posts "
            "WHERE kind = 'window_closed'"
        )
    )
    rows = [
        {
            "channel_id": channel_id,
            "seq": int(post),
            "message_id": json.loads(payload).get("message_id"),
            **dict(zip(CLAIM, claim, strict=True)),
        }
        for channel_id, post, payload, *claim in posts
    ]
    if rows:
        op.bulk_insert(notices, rows)
    op.drop_table("deadline_posts")
