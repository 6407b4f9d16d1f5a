"""Writes that hold when several tasks or processes write at once, on SQLite and PostgreSQL.

A read-modify-write reads a row with its version, decides, and writes only over that version
(``UPDATE ... WHERE version = :read``); a write that finds the row changed is retried on a
fresh read, after a short random wait (:func:`back_off`), at most ``TRIES`` times. A change
made in one transaction first holds the rows it reads (:func:`hold`), or the name it replaces
(:func:`take_name`). A blind write of a whole row is an upsert, so two writers creating the
same row never collide."""

from __future__ import annotations

import asyncio
import random

from sqlalchemy import false, func, select, update
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


async def hold(session: AsyncSession, table: type[SQLModel], *where) -> None:
    """Keep the rows ``where`` finds from other writers until the transaction ends, before it
    reads them: a write that changes nothing, which locks the rows on PostgreSQL and makes the
    transaction SQLite's one writer (so nothing it reads next changes before it commits)."""
    key = next(iter(table.__table__.primary_key.columns))  # type: ignore[attr-defined]
    await session.execute(update(table).where(*where).values({key.name: key}))


async def take_name(session: AsyncSession, table: type[SQLModel], *name: str) -> None:
    """Make this transaction the one writer of ``name`` (its parts: a server and a deck's name,
    say) in ``table`` until it ends, before it reads: a row replaced by name is then never
    replaced twice at once. On PostgreSQL an advisory lock on the name (a row lock would miss a
    name nobody holds yet); on SQLite the write lock, which lets one writer in at a time."""
    if session.bind.dialect.name == "postgresql":
        key = "\x1f".join((table.__tablename__, *name))  # type: ignore[attr-defined]
        await session.execute(select(func.pg_advisory_xact_lock(func.hashtextextended(key, 0))))
    else:
        await hold(session, table, false())
