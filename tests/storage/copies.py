"""One working database that a test can save under a name and put back, cheaply, while the bot
has it open: on SQLite a file copied page by page, on PostgreSQL a schema of copied tables in the
same database (put back by one TRUNCATE and one INSERT a table, in one transaction).

``mark()`` is a cheap token that stays the same while nothing was written (the file's bytes; on
PostgreSQL the next transaction id, which moves whenever a transaction that wrote, or only
locked a row, ended); ``rows()`` reads every row of every table, to tell a real change.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any, Protocol

import asyncpg

Rows = dict[str, list[str]]


class Copies(Protocol):
    url: str

    async def keep(self, name: str) -> None: ...
    async def restore(self, name: str) -> None: ...
    async def rows(self) -> Rows: ...
    async def mark(self) -> Any: ...
    async def close(self) -> None: ...


def sqlite_rows(path: Path) -> Rows:
    """Every row of every table of a SQLite file."""
    with sqlite3.connect(path) as db:
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {table: sorted(map(repr, db.execute(f'SELECT * FROM "{table}"'))) for table in tables}


class SqliteCopies:
    """The working file ``work.db`` in ``folder``, each saved copy a file beside it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / "work.db"
        self.url = f"sqlite+aiosqlite:///{self.path}"

    def _copy(self, source: Path, to: Path) -> None:
        """Page by page through SQLite, which reads an open file's write-ahead log too and keeps
        the copy's consistent."""
        with sqlite3.connect(source) as original, sqlite3.connect(to) as copy:
            original.backup(copy)

    async def keep(self, name: str) -> None:
        self._copy(self.path, self.folder / f"{name}.db")

    async def restore(self, name: str) -> None:
        self._copy(self.folder / f"{name}.db", self.path)

    async def rows(self) -> Rows:
        return sqlite_rows(self.path)

    async def mark(self) -> list[bytes]:
        """The file's bytes, with its write-ahead log if it keeps one."""
        return [
            p.read_bytes() for p in (self.path, self.path.with_name(self.path.name + "-wal")) if p.exists()
        ]

    async def close(self) -> None:
        pass


class PostgresCopies:
    """The working database's ``public`` tables; each saved copy the same tables in a schema of
    its own. One connection, opened on the event loop that first uses it (``close`` before
    another loop uses it)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._dsn = url.replace("postgresql+asyncpg://", "postgresql://")
        self._db: asyncpg.Connection | None = None

    async def _connection(self) -> asyncpg.Connection:
        if self._db is None:
            self._db = await asyncpg.connect(self._dsn)
        return self._db

    async def _tables(self) -> list[str]:
        db = await self._connection()
        rows = await db.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
        return [row["tablename"] for row in rows]

    async def keep(self, name: str) -> None:
        db, tables = await self._connection(), await self._tables()
        async with db.transaction():
            await db.execute(f'DROP SCHEMA IF EXISTS "kept_{name}" CASCADE; CREATE SCHEMA "kept_{name}"')
            for table in tables:
                await db.execute(f'CREATE TABLE "kept_{name}"."{table}" AS TABLE public."{table}"')

    async def restore(self, name: str) -> None:
        """The kept tables' rows back in place of the working ones (sequences go on counting,
        so a new row never takes a kept row's id; generated columns are made again by the
        server); foreign keys are not checked meanwhile."""
        db, tables = await self._connection(), await self._tables()
        listed = ", ".join(f'public."{table}"' for table in tables)
        columns = await self._stored_columns()
        copies = "; ".join(
            f'INSERT INTO public."{table}" ({columns[table]}) OVERRIDING SYSTEM VALUE'
            f' SELECT {columns[table]} FROM "kept_{name}"."{table}"'
            for table in tables
        )
        async with db.transaction():
            await db.execute(f"SET LOCAL session_replication_role = replica; TRUNCATE {listed}; {copies}")

    async def _stored_columns(self) -> dict[str, str]:
        """Each public table's columns that are written, not generated, quoted and listed."""
        db = await self._connection()
        found = await db.fetch(
            "SELECT table_name, string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position)"
            " FROM information_schema.columns WHERE table_schema = 'public' AND is_generated = 'NEVER'"
            " GROUP BY table_name"
        )
        return {row[0]: row[1] for row in found}

    async def rows(self) -> Rows:
        db = await self._connection()
        return {
            table: sorted(row[0] for row in await db.fetch(f'SELECT t::text FROM public."{table}" t'))
            for table in await self._tables()
        }

    async def mark(self) -> int:
        db = await self._connection()
        return await db.fetchval("SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint")

    async def digest(self) -> list[tuple[Any, ...]]:
        """Each table's row count and a sum of its rows' hashes, reckoned by the server: equal
        digests, equal rows (short of a hash collision) without sending the rows over."""
        tables = await self._tables()
        db = await self._connection()
        sums = " UNION ALL ".join(
            f"SELECT '{table}', count(*), coalesce(sum(hashtextextended(t::text, 0)), 0)"
            f' FROM public."{table}" t'
            for table in tables
        )
        return [tuple(row) for row in await db.fetch(sums)]

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None
