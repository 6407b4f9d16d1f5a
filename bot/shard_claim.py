"""One Discord shard per process, claimed from PostgreSQL, so that N processes started alike
(``SHARD_COUNT=N docker compose up --scale bot=N``) share the shards without being told which.

A process takes a session advisory lock on the first shard number no other process holds, on
a connection it keeps for its whole life: the lock is the claim. A process that dies (or loses
its connection) frees its shard with its session; one started beyond N waits for a shard to
come free, and so stands by to take over the shard of one that dies. A process whose claim
connection fails stops (:class:`ClaimLost`), as it may no longer be the only one on its shard.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.startup import engine_for

log = logging.getLogger(__name__)

SHARDS = 0x1C_0002  # the advisory lock class of the shard claims (the second key is the shard)


class ClaimLost(Exception):
    """The connection holding this process's shard failed: the process must stop."""


@asynccontextmanager
async def shards_to_run(
    database_url: str, shard_ids: list[int] | None, shard_count: int | None
) -> AsyncIterator[list[int] | None]:
    """The shards this process runs while the block lasts: those it was given (``SHARD_IDS``);
    else, with ``SHARD_COUNT`` on PostgreSQL, the one it claims; else None (one process runs
    them all)."""
    on_postgresql = make_url(database_url).get_backend_name() == "postgresql"
    if shard_ids is not None or shard_count is None or not on_postgresql:
        yield shard_ids
        return
    async with claimed_shard(database_url, shard_count) as shard:
        yield [shard]


@asynccontextmanager
async def claimed_shard(
    database_url: str, shard_count: int, *, wait_seconds: float = 5.0, check_seconds: float = 15.0
) -> AsyncIterator[int]:
    """Claim a free shard of ``shard_count`` (waiting ``wait_seconds`` between tries while all
    are held) and hold it while the block runs; the claim connection is checked every
    ``check_seconds``, and the block is stopped with :class:`ClaimLost` if it fails."""
    engine = engine_for(database_url)
    try:
        async with engine.connect() as connection:
            connection = await connection.execution_options(isolation_level="AUTOCOMMIT")
            shard = await claim(connection, shard_count, wait_seconds)
            log.info("claimed a shard", extra={"shard": shard, "shard_count": shard_count})
            holder = asyncio.current_task()
            watching = asyncio.create_task(watch(connection, holder, check_seconds))
            try:
                yield shard
            except asyncio.CancelledError:
                if watching.done() and watching.result():
                    raise ClaimLost(f"the database connection holding shard {shard} failed") from None
                raise
            finally:
                watching.cancel()
            await connection.execute(text("SELECT pg_advisory_unlock(:kind, :shard)"), _key(shard))
    finally:
        await engine.dispose()


async def claim(connection: AsyncConnection, shard_count: int, wait_seconds: float) -> int:
    """The first shard this session could lock, trying again until one is free."""
    while True:
        for shard in range(shard_count):
            taken = await connection.scalar(text("SELECT pg_try_advisory_lock(:kind, :shard)"), _key(shard))
            if taken:
                return shard
        log.info("every shard is claimed: waiting", extra={"shard_count": shard_count})
        await asyncio.sleep(wait_seconds)


async def watch(connection: AsyncConnection, holder: asyncio.Task, check_seconds: float) -> bool:
    """Check the claim connection until it fails; then stop ``holder`` and return True."""
    while True:
        await asyncio.sleep(check_seconds)
        try:
            await connection.scalar(text("SELECT 1"))
        except Exception:
            log.exception("lost the connection holding this process's shard")
            holder.cancel()
            return True


def _key(shard: int) -> dict[str, int]:
    return {"kind": SHARDS, "shard": shard}
