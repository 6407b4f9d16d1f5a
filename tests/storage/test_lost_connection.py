"""A connection the PostgreSQL server ended (an administrator's pg_terminate_backend, a server
restart, a network cut) is dropped by the store when a statement of its hot path meets it, the
way SQLAlchemy drops one its own statements meet (bot.storage.prepared): the action that met it
fails and stores nothing; the next is stored on a fresh connection, and nothing committed before
is lost."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest
from sqlalchemy.exc import DBAPIError

from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.dice import ScriptedDice
from engine.scenarios.quick_battle import quick_battle
from tests.storage.game_writer import history


@pytest.fixture
async def store(postgres_server, postgres_template):
    store = GameStore(postgres_server.create_database(template=postgres_template))
    yield store
    await store.close()


async def end_every_connection(store: GameStore) -> int:
    """Have the server end every connection to the store's database (but the one asking); how many."""
    url = store.engine.url
    asking = await asyncpg.connect(host=url.host, port=url.port, user=url.username, database="postgres")
    try:
        others = "FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()"
        ended = await asking.fetch(f"SELECT pg_terminate_backend(pid) {others}", url.database)
        while await asking.fetchval(f"SELECT count(*) {others}", url.database):
            await asyncio.sleep(0.01)  # the backends end a moment after they are told to
    finally:
        await asking.close()
    return len(ended)


async def act(store: GameStore, n: int) -> None:
    """The ``n``-th command of a recorded game (counting from 1), with the dice it rolled."""
    command, events = history(1)[n - 1]
    rolls = [roll for event in events for roll in event.rolls]
    await GameService(store, dice=lambda: ScriptedDice(rolls)).act("c", "hot-seat", command)


async def test_the_action_after_the_server_ended_the_connections_is_stored_on_a_fresh_one(store):
    await GameService(store).new_game("c", quick_battle())
    for n in (1, 2):
        await act(store, n)
    assert await end_every_connection(store) >= 1

    with pytest.raises(DBAPIError) as met:  # met by the action's load, a statement of the hot path
        await act(store, 3)
    assert met.value.connection_invalidated
    assert (await store.load("c")).version == 2  # nothing of it stored

    for n in (3, 4):
        await act(store, n)
    _, log = await store.history("c")
    assert [command for command, _ in log] == [command for command, _ in history(1)[:4]]
    assert (await store.load("c")).version == 4


async def test_a_write_that_met_an_ended_connection_stores_nothing_and_the_next_is_stored(store, monkeypatch):
    """The server ends the connections once the action is decided (its game read on one of them),
    before it is written: its write meets the dead connection."""
    await GameService(store).new_game("c", quick_battle())
    await act(store, 1)
    appending, loop, ended = store.appending, asyncio.get_running_loop(), []

    def after_the_server_ended_them(*args, **kwargs):  # where the action was decided, off the loop
        if not ended:
            ended.append(asyncio.run_coroutine_threadsafe(end_every_connection(store), loop).result(10))
        return appending(*args, **kwargs)

    monkeypatch.setattr(store, "appending", after_the_server_ended_them)
    with pytest.raises(DBAPIError) as met:
        await act(store, 2)
    assert ended[0] >= 1 and met.value.connection_invalidated
    assert (await store.load("c")).version == 1  # nothing of it stored

    await act(store, 2)
    _, log = await store.history("c")
    assert [command for command, _ in log] == [command for command, _ in history(1)[:2]]
