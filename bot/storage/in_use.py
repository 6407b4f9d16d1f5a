"""Whether a bot runs on a database: each running bot holds a shared mark on it for its whole
life, and a restore takes the mark exclusively, so it is refused while any bot runs there and a
bot started during a restore waits for it to finish.

- On a SQLite file the mark is a BSD ``flock`` on the database file itself (no extra file).
  On Linux ``flock`` locks are independent of the POSIX locks SQLite takes on the same file, so
  the mark neither blocks nor releases SQLite's own locking; the descriptor is closed only after
  the store is closed.
- On PostgreSQL it is a session advisory lock, held by a connection kept for the bot's life.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url

from bot.storage.database import make_engine

RUNNING = 0x1C_0003  # the advisory lock key of the running bots (shared) and of a restore


class BotRunning(Exception):
    """A bot runs on the database a restore would replace."""


def sqlite_file(database_url: str) -> Path | None:
    """The file of a SQLite database URL; None for PostgreSQL or a database in memory."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return Path(url.database)


@asynccontextmanager
async def bot_running_on(database_url: str) -> AsyncIterator[None]:
    """Mark the database as in use by this bot while the block runs (waiting for a restore in
    progress to finish). A SQLite file that does not exist yet is made empty, as SQLite would."""
    path = sqlite_file(database_url)
    if path is not None:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            await asyncio.to_thread(fcntl.flock, descriptor, fcntl.LOCK_SH)
            yield
        finally:
            os.close(descriptor)
        return
    if make_url(database_url).get_backend_name() != "postgresql":
        yield
        return
    engine = make_engine(database_url)
    try:
        async with engine.connect() as connection:
            connection = await connection.execution_options(isolation_level="AUTOCOMMIT")
            await connection.execute(text("SELECT pg_advisory_lock_shared(:key)"), {"key": RUNNING})
            yield
            await connection.execute(text("SELECT pg_advisory_unlock_shared(:key)"), {"key": RUNNING})
    finally:
        await engine.dispose()


@asynccontextmanager
async def no_bot_running_on(database_url: str) -> AsyncIterator[None]:
    """Hold the database exclusively while the block runs, or raise :class:`BotRunning` at once
    if a bot runs on it. A SQLite file not there yet has no bot on it."""
    path = sqlite_file(database_url)
    if path is not None:
        if not path.exists():
            yield
            return
        descriptor = os.open(path, os.O_RDWR)
        try:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise BotRunning(f"a bot is running on {path}: stop it first") from None
            yield
        finally:
            os.close(descriptor)
        return
    engine = make_engine(database_url)
    try:
        async with engine.connect() as connection:
            connection = await connection.execution_options(isolation_level="AUTOCOMMIT")
            taken = await connection.scalar(text("SELECT pg_try_advisory_lock(:key)"), {"key": RUNNING})
            if not taken:
                raise BotRunning("a bot is running on this database: stop every bot process on it first")
            yield
            await connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": RUNNING})
    finally:
        await engine.dispose()
