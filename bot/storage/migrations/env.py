"""Alembic environment: runs the migrations on the project's engine, all in one transaction.

The whole upgrade (every pending revision and its version stamp) is one write transaction
(``bot.storage.database``): a start-up killed part-way leaves the database at the revision it
had, and the next start simply runs the upgrade again. On SQLite the write lock is taken before
the current revision is read, so two processes starting together upgrade one after the other.
"""

import asyncio

from alembic import context
from sqlmodel import SQLModel

from bot.storage import tables  # noqa: F401  (registers the tables on the metadata)
from bot.storage.database import make_engine, write_transaction

config = context.config
target_metadata = SQLModel.metadata


def run(connection) -> None:
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
