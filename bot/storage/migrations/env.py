"""Alembic environment: runs the migrations on the project's engine, all in one transaction.

The whole upgrade (every pending revision and its version stamp) is one write transaction
(``bot.storage.database``): a start-up killed part-way leaves the database at the revision it
had, and the next start simply runs the upgrade again. On SQLite the write lock is taken before
the current revision is read, so two processes starting together upgrade one after the other;
on PostgreSQL a transaction-level advisory lock, taken before the revision is read, does the same
(several bot processes started at once on one new database).
"""

import asyncio

from alembic import context
from sqlalchemy import text
from sqlmodel import SQLModel

from bot.storage import tables  # noqa: F401  (registers the tables on the metadata)
from bot.storage.database import make_engine, write_transaction

config = context.config
target_metadata = SQLModel.metadata


MIGRATING = 0x1C_0001  # the advisory lock key that migrations on PostgreSQL wait their turn on


def run(connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATING})
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():  # inside ours: Alembic leaves committing to us
        context.run_migrations()


async def main() -> None:
    engine = make_engine(config.get_main_option("sqlalchemy.url"))
    try:
        async with write_transaction(engine) as connection:
            await connection.run_sync(run)
    finally:
        await engine.dispose()


asyncio.run(main())
