"""Writes that hold when several tasks or processes write at once, on SQLite and PostgreSQL.

A read-modify-write reads a row with its version, decides, and writes only over that version
(``UPDATE ... WHERE version = :read``); a write that finds the row changed is retried on a
fresh read, after a short random wait (:func:`back_off`), at most ``TRIES`` times. A change
made in one transaction first holds the rows it reads (:func:`hold`). A blind write of a whole
row is an upsert, so two writers creating the same row never collide."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import TypeVar

from sqlalchemy import update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import SQLModel

T = TypeVar("T")
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


async def hold(session: AsyncSession, table: type[SQLModel], *where) -> None:
    """Keep the rows ``where`` finds from other writers until the transaction ends, before it
    reads them: a write that changes nothing, which locks the rows on PostgreSQL and makes the
    transaction SQLite's one writer (so nothing it reads next changes before it commits)."""
    key = next(iter(table.__table__.primary_key.columns))  # type: ignore[attr-defined]
    await session.execute(update(table).where(*where).values({key.name: key}))


async def replacing(write: Callable[[], Awaitable[T]], tries: int = TRIES) -> T:
    """Run ``write``, a transaction that replaces a row by its name, again when the schema
    refuses its insert because another writer stored that name at the same moment (on
    PostgreSQL; SQLite lets one writer in at a time). The IntegrityError after ``tries``."""
    for lost in range(tries):
        await back_off(lost)
        try:
            return await write()
        except IntegrityError:
            if lost == tries - 1:
                raise
    raise AssertionError("unreachable")
