"""Processes started alike share the shards through PostgreSQL: each claims a free one, a spare
waits and takes over a freed one, and a process whose claim connection fails stops."""

import asyncio

import pytest
from sqlalchemy import text

from bot.shard_claim import ClaimLost, claimed_shard, shards_to_run
from bot.startup import engine_for


@pytest.fixture
def postgres_url(postgres_server) -> str:
    return postgres_server.create_database()


async def test_processes_claim_different_shards_and_a_spare_takes_a_freed_one(postgres_url):
    first = claimed_shard(postgres_url, 2, wait_seconds=0.05)
    second = claimed_shard(postgres_url, 2, wait_seconds=0.05)
    shards = [await first.__aenter__(), await second.__aenter__()]
    assert sorted(shards) == [0, 1]

    async def spare() -> int:
        async with claimed_shard(postgres_url, 2, wait_seconds=0.05) as shard:
            return shard

    waiting = asyncio.create_task(spare())
    await asyncio.sleep(0.3)
    assert not waiting.done()  # both shards are held: the spare waits
    await second.__aexit__(None, None, None)
    assert await asyncio.wait_for(waiting, 10) == shards[1]
    await first.__aexit__(None, None, None)


async def test_a_process_whose_claim_connection_dies_stops(postgres_url):
    engine = engine_for(postgres_url)
    with pytest.raises(ClaimLost, match="^the database connection holding shard 0 failed$"):
        async with claimed_shard(postgres_url, 1, check_seconds=0.05):
            async with engine.begin() as connection:
                await connection.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM pg_locks "
                        "WHERE locktype = 'advisory' AND pid <> pg_backend_pid()"
                    )
                )
            await asyncio.sleep(10)  # the bot at work, until stopped
    await engine.dispose()


async def test_a_process_claims_a_shard_only_on_postgresql_when_given_a_count_and_no_shards(postgres_url):
    async with shards_to_run(postgres_url, None, 3) as claimed, shards_to_run(postgres_url, None, 3) as other:
        assert sorted(claimed + other) == [0, 1]
    async with shards_to_run(postgres_url, [2], 3) as given:
        assert given == [2]
    async with shards_to_run(postgres_url, None, None) as every:
        assert every is None
    async with shards_to_run("sqlite+aiosqlite:///games.db", None, 3) as every:
        assert every is None  # one process on SQLite runs them all
