"""The SQLite engine's write path (``bot.storage.database``): WAL, reads beside a write, writes
that wait their turn, across two stores as across two processes."""

import asyncio

from sqlalchemy import func, select, text

from bot.storage.store import GameStore
from bot.storage.tables import RollRow


def roll(user: str) -> RollRow:
    return RollRow(channel_id="c1", user_id=user, asked="1d6", result="4", secret=False)


async def rolls(store: GameStore) -> int:
    async with store.sessions() as session:
        return (await session.execute(select(func.count()).select_from(RollRow))).scalar_one()


async def test_the_database_file_is_in_wal_mode(store):
    async with store.engine.connect() as connection:
        assert (await connection.execute(text("PRAGMA journal_mode"))).scalar_one() == "wal"


async def test_a_read_beside_an_open_write_sees_the_last_commit_and_a_second_write_waits(store, database_url):
    other = GameStore(database_url)  # another bot process on the same file
    async with store.sessions() as session, session.begin():
        session.add(roll("ann"))
        await session.flush()
        assert await rolls(other) == 0  # not blocked, and not shown the uncommitted roll
        waiting = asyncio.create_task(add_roll(other, "otto"))
        await asyncio.sleep(0.2)
        assert not waiting.done()  # the second writer waits for the lock instead of failing
    await waiting
    assert await rolls(store) == 2
    await other.close()


async def add_roll(store: GameStore, user: str) -> None:
    async with store.sessions() as session, session.begin():
        session.add(roll(user))
