"""Migration 0026: the state each game started from, kept in the game's row until then, becomes
the game's snapshot 0, on SQLite and PostgreSQL; its downgrade puts it back."""

from __future__ import annotations

import asyncio
from datetime import datetime

import pytest
from alembic import command
from sqlalchemy import inspect, text

from bot.storage.migrate import alembic_config
from bot.storage.store import COMMAND, EVENTS, GameStore
from engine.game import replay
from engine.scenarios.quick_battle import quick_battle
from tests.storage.game_writer import history

pytestmark = pytest.mark.both_databases
AT = datetime(2026, 1, 1)


async def columns_of_games(store: GameStore) -> list[str]:
    async with store.engine.connect() as connection:
        found = await connection.run_sync(lambda sync: inspect(sync).get_columns("games"))
    return [column["name"] for column in found]


async def test_the_upgrade_keeps_each_games_start_as_its_snapshot_0(new_empty_database):
    url = new_empty_database()
    await asyncio.to_thread(command.upgrade, alembic_config(url), "0025")
    start, log = quick_battle(), history(1)[:3]
    games = {"c1": (start, log), "c2": (start, log[:1])}
    old = GameStore(url)
    async with old.engine.begin() as connection:
        for channel, (first, played) in games.items():
            now = replay(first, played)[0]
            await connection.execute(
                text(
                    "INSERT INTO games (channel_id, version, initial_state, state, reaction_seconds, "
                    "created_at, updated_at) VALUES (:c, :v, :first, :now, 120, :at, :at)"
                ),
                {"c": channel, "v": len(played), "first": first.model_dump_json()}
                | {"now": now.model_dump_json(), "at": AT},
            )
            for seq, (done, events) in enumerate(played, start=1):
                await connection.execute(
                    text(
                        "INSERT INTO game_commands (channel_id, seq, user_id, command, events, created_at) "
                        "VALUES (:c, :seq, 'hot-seat', :command, :events, :at)"
                    ),
                    {"c": channel, "seq": seq, "command": COMMAND.dump_json(done).decode()}
                    | {"events": EVENTS.dump_json(events).decode(), "at": AT},
                )
    await old.close()

    store = await GameStore.open(url)
    assert "initial_state" not in await columns_of_games(store)
    for channel, (first, played) in games.items():
        assert await store.snapshot_seqs(channel) == [0]
        assert await store.history(channel) == (first, played)
        assert (await store.load(channel)).state == replay(first, played)[0]
    await store.close()

    await asyncio.to_thread(command.downgrade, alembic_config(url), "0025")
    back = GameStore(url)
    async with back.engine.connect() as connection:
        kept = dict((await connection.execute(text("SELECT channel_id, initial_state FROM games"))).all())
        snapshots = (await connection.execute(text("SELECT count(*) FROM game_snapshots"))).scalar()
    assert kept == {channel: first.model_dump_json() for channel, (first, _) in games.items()}
    assert snapshots == 0
    await back.close()
