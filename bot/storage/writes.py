"""Writes that hold when several tasks or processes write at once, on SQLite and PostgreSQL.

A read-modify-write reads a row with its version, decides, and writes only over that version
(``UPDATE ... WHERE version = :read``); a write that finds the row changed is retried on a
fresh read, after a short random wait (:func:`back_off`), at most ``TRIES`` times. A blind
write of a whole row is an upsert, so two writers creating the same row never collide."""

from __future__ import annotations

import asyncio
import random

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import SQLModel

TRIES = 10  # reads and writes of one change before it is refused as changing under the user
BACK_OFF = 0.005  # seconds: the longest wait after a first lost race, doubling with each
INSERTS = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}


async def upsert(session: AsyncSession, row: SQLModel, key: tuple[str, ...]) -> None:
    """Store ``row``, replacing the row with the same ``key`` columns if there is one."""
    values = row.model_dump()
    insert = INSERTS[session.bind.dialect.name](type(row)).values(values)
    changes = {column: value for column, value in values.items() if column not in key}
    await session.execute(insert.on_conflict_do_update(index_elements=list(key), set_=changes))


async def back_off(lost: int) -> None:
    """Before a read-modify-write: wait a random moment if it lost ``lost`` races already (none
    the first time), so two writers that keep meeting drift apart."""
    if lost:
        await asyncio.sleep(random.uniform(0, BACK_OFF * 2 ** (lost - 1)))
