"""The hot path's statements sent to the driver itself (bot.storage.prepared): the values go in
and come back as SQLAlchemy Core converts them, a driver's error is SQLAlchemy's, and each
statement is heard where Core's are, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from bot.services.game_service import GameService
from bot.storage.store import COMMANDS, GAMES, LOGGED, NEXT_VERSION
from engine.scenarios.quick_battle import quick_battle
from tests.storage.statements import listening

pytestmark = pytest.mark.both_databases
MOMENT = datetime(2026, 12, 3, 18, 30, 15, 123456, tzinfo=UTC)


def logged(seq: int) -> dict[str, object]:
    return {"channel_id": "c", "seq": seq, "user_id": "u", "command": "{}", "events": "[]"} | {
        "created_at": MOMENT,
        "interaction_id": None,
    }


async def test_a_moment_written_comes_back_as_core_reads_it(store):
    await GameService(store).new_game("c", quick_battle())

    def write(connection):
        values = {"channel": "c", "read": 0, "version": 1, "state": "{}", "updated_at": MOMENT}
        returned = NEXT_VERSION.first(connection, values)
        LOGGED.run(connection, logged(1))
        return returned

    returned = await store.transactions.write(write)

    def read(connection):
        return connection.execute(select(GAMES.c.updated_at, COMMANDS.c.created_at).join(COMMANDS)).one()

    stored = await store.transactions.read(read)
    assert returned.updated_at == stored.updated_at == stored.created_at
    assert stored.updated_at.replace(tzinfo=UTC) == MOMENT


async def test_a_driver_s_error_is_sqlalchemy_s_and_the_transaction_stores_nothing(store):
    await GameService(store).new_game("c", quick_battle())

    def twice(connection):
        LOGGED.run(connection, logged(1))
        LOGGED.run(connection, logged(1))

    with listening(store) as sent, pytest.raises(IntegrityError):
        await store.transactions.write(twice)
    assert sent.statements == ["INSERT INTO game_commands"] * 2
    assert sent.committed == 0

    def entries(connection):
        return connection.execute(select(COMMANDS.c.seq)).all()

    assert await store.transactions.read(entries) == []
