"""The one place the bot's database engine is made: the store and the migrations both use it.

SQLite, as the bot uses it (several channels at once, perhaps a second process on the file):

- **Transactions are real.** Python's sqlite3 driver (under aiosqlite) opens transactions by
  itself, and only before INSERT/UPDATE/DELETE: DDL ran outside any transaction, so a
  migration killed half-way left tables behind without its version stamp. Following
  SQLAlchemy's recipe ("Serializable isolation / Savepoints / Transactional DDL" for pysqlite),
  the driver's own handling is switched off (``isolation_level = None``) and SQLAlchemy emits
  BEGIN itself whenever a transaction starts. A migration and its stamp therefore commit
  together or not at all.
- **Readers never block writers, nor writers readers:** the file is in WAL mode, where a reader
  keeps the snapshot it started with while one writer appends.
- **One writer path.** SQLite has one writer at a time. A write transaction (every
  ``session.begin()`` of the store's sessions, and the migrations) starts with
  ``BEGIN IMMEDIATE``: it takes the write lock before it reads anything, so it can never find
  mid-way that another writer changed its snapshot (WAL's ``SQLITE_BUSY_SNAPSHOT``, which no
  amount of waiting cures and which surfaced as "database is locked"). Reads outside
  ``session.begin()`` start with a plain, deferred BEGIN and take no lock. So every write goes
  inside ``async with sessions() as session, session.begin():``; a session that reads and then
  commits a write without it could still meet that error.
- **A write waits its turn.** Writers queue on the lock through SQLite's busy timeout, in this
  process and across processes alike; the wait happens in the driver's thread, not on the event
  loop. Only a writer stuck longer than ``BUSY_TIMEOUT_SECONDS`` would fail.

PostgreSQL needs none of this: its DDL is transactional and its writers queue on row locks.
"""

from __future__ import annotations

from contextlib import asynccontextmanager

from sqlalchemy import event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.orm import Session, SessionTransaction

BUSY_TIMEOUT_SECONDS = 30.0
WRITING = "ironcross_writing"  # the execution option that marks a write transaction


def make_engine(database_url: str) -> AsyncEngine:
    """The engine for ``database_url``; on SQLite, with the transactions described above."""
    if make_url(database_url).get_backend_name() != "sqlite":
        return create_async_engine(database_url)
    engine = create_async_engine(database_url, connect_args={"timeout": BUSY_TIMEOUT_SECONDS})
    event.listen(engine.sync_engine, "connect", _take_over_transactions)
    event.listen(engine.sync_engine, "begin", _begin)
    return engine


def _take_over_transactions(dbapi_connection, _record) -> None:
    """A new SQLite connection: no implicit transactions from the driver, and WAL mode."""
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


def _begin(connection: Connection) -> None:
    """Open the transaction SQLAlchemy is starting: a write one takes the write lock at once."""
    writing = connection.get_execution_options().get(WRITING, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")


class _Session(Session):
    """A session whose explicit ``begin()`` opens a write transaction (see the module's notes);
    without it, the session's transaction only reads."""

    def begin(self, nested: bool = False) -> SessionTransaction:
        transaction = super().begin(nested)
        if not nested:
            self.connection(execution_options={WRITING: True})
        return transaction


def make_sessions(engine: AsyncEngine) -> async_sessionmaker:
    """The store's session factory: ``async with sessions() as s, s.begin():`` writes."""
    return async_sessionmaker(engine, expire_on_commit=False, sync_session_class=_Session)


@asynccontextmanager
async def write_transaction(engine: AsyncEngine):
    """A connection in one write transaction, committed when the block ends without error."""
    async with engine.connect() as connection:
        connection: AsyncConnection = await connection.execution_options(**{WRITING: True})
        async with connection.begin():
            yield connection
