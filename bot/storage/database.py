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

**The hot path in one hand-off** (:class:`Transactions`): a game's load and an action's write are
each one plain function over a SQLAlchemy Core connection. On a SQLite file it runs whole in one
of the store's threads, on a synchronous connection of a second engine on the same file
(:func:`make_thread_engine`, with the transactions above): the event loop hands it over once,
however many statements it sends, instead of waiting on the driver's thread for each cursor,
execute and fetch. Elsewhere (PostgreSQL, a database in memory) the same function runs on the
async engine through ``run_sync``. Each of the store's threads keeps its own connection from one
transaction to the next (no pool check-out and reset each time), and the hot path's statements
go to the driver's cursor themselves (:mod:`bot.storage.prepared`), the BEGIN too.

- **One writer.** The store's writes on a SQLite file go through one thread, the store's writer,
  one after the other in the order they were asked: they queue in the process, not on SQLite's
  write lock, whose busy handler would have them poll it with sleeps of up to 100 ms. Reads
  run beside it on threads of their own (WAL: they never wait for it).
- **An action in one hand-off** (``read_then_write``): the reader that read its game and decided
  it hands its write to the writer itself, so the event loop hands it over once and hears back
  once, when it has committed: three crossings between threads instead of four, and the write
  never waits for a busy loop's turn before it goes to the writer. Measured on an idle loop
  (``benchmarks/first_response.py --storage``, tmpfs), the crossing saved was some 20-50 us of
  0.62-0.66 ms; each crossing left costs about as much, and the rest is the action's own work
  (the load, the command's checks, the state's JSON, the write).
- **A read of one statement opens no transaction** (``read``): one statement sees one snapshot
  by itself, on SQLite and PostgreSQL alike, so a BEGIN (and on PostgreSQL its ROLLBACK) would
  be round trips for nothing. On SQLite no BEGIN is sent (:data:`ALONE`); on PostgreSQL the
  connection is in autocommit.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import TypeVar

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import Session, SessionTransaction

from bot.storage.prepared import Prepared

BUSY_TIMEOUT_SECONDS = 30.0
WRITING = "ironcross_writing"  # the execution option that marks a write transaction
ALONE = "ironcross_alone"  # the execution option of a read of one statement: no BEGIN sent
AUTOCOMMIT = {"isolation_level": "AUTOCOMMIT"}  # the same on PostgreSQL: no transaction opened
READERS = 4  # the store's reading threads on a SQLite file, each with a connection of its own
BEGUN = {writing: Prepared(text("BEGIN IMMEDIATE" if writing else "BEGIN")) for writing in (True, False)}
Done = TypeVar("Done")
Read = TypeVar("Read")
Written = TypeVar("Written")


def make_engine(database_url: str) -> AsyncEngine:
    """The engine for ``database_url``; on SQLite, with the transactions described above."""
    if make_url(database_url).get_backend_name() != "sqlite":
        return create_async_engine(database_url)
    engine = create_async_engine(database_url, connect_args={"timeout": BUSY_TIMEOUT_SECONDS})
    event.listen(engine.sync_engine, "connect", _take_over_transactions)
    event.listen(engine.sync_engine, "begin", _begin)
    return engine


def make_thread_engine(database_url: str) -> Engine | None:
    """On a SQLite file, a synchronous engine on the same file for the store's worker threads,
    with the same transactions as :func:`make_engine`'s; elsewhere None."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    engine = create_engine(
        url.set(drivername="sqlite"),
        connect_args={"timeout": BUSY_TIMEOUT_SECONDS, "check_same_thread": False},
        pool_size=READERS + 1,  # and the writer's
        max_overflow=0,
    )
    event.listen(engine, "connect", _take_over_transactions)
    event.listen(engine, "begin", _begin)
    return engine


def _take_over_transactions(dbapi_connection, _record) -> None:
    """A new SQLite connection: no implicit transactions from the driver, and WAL mode."""
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


def _begin(connection: Connection) -> None:
    """Open the transaction SQLAlchemy is starting: a write one takes the write lock at once; a
    read of one statement needs none."""
    options = connection.get_execution_options()
    if not options.get(ALONE, False):
        BEGUN[options.get(WRITING, False)].run(connection, {})


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


Body = Callable[[Connection], Done]


class Transactions:
    """A store's transactions, each a plain function over a Core connection (see the module's
    notes): :meth:`read` of one statement, outside any transaction; :meth:`write` in a write
    transaction, on the store's writer; :meth:`read_then_write`, a read and the write decided on
    it, handed from one to the other off the event loop."""

    def __init__(self, engine: AsyncEngine, database_url: str) -> None:
        self.engine = engine
        self.threaded = make_thread_engine(database_url)  # None: everything through ``engine``
        self._readers = ThreadPoolExecutor(READERS, "store-reader") if self.threaded else None
        self._writer = ThreadPoolExecutor(1, "store-writer") if self.threaded else None
        self._held = threading.local()  # each worker thread's connection (see :meth:`_run`)
        self._opened: list[Connection] = []
        self._opening = threading.Lock()

    async def read(self, body: Body[Read], then: Callable[[Read], Done] | None = None) -> Read | Done:
        """``body``'s one statement, alone (a second one might see another snapshot); and what
        ``then`` makes of what it read, in the same worker thread on a SQLite file (one hand-off
        for both), in a thread of its own elsewhere (never on the event loop)."""
        if self.threaded is not None:
            read = body if then is None else lambda connection: then(body(connection))
            return await self._in_thread(self._readers, read, writing=False)
        async with self.engine.connect() as connection:
            alone = {ALONE: True} if self.engine.dialect.name == "sqlite" else AUTOCOMMIT
            await connection.execution_options(**alone)
            found = await connection.run_sync(body)
        return found if then is None else await asyncio.to_thread(then, found)

    async def read_then_write(
        self, body: Body[Read], then: Callable[[Read], tuple[Done, Body[Written] | None]]
    ) -> tuple[Done, Written | None]:
        """``body``'s one statement, what ``then`` makes of what it read, and the write ``then``
        asks for (None: none), committed; what ``then`` made and what the write returned. On a SQLite
        file the reader that read hands the write straight to the store's writer: the event loop
        hands the whole over once and is handed it back once, when the write has committed (or
        anything failed). Elsewhere a :meth:`read` with ``then``, then a :meth:`write`. Either
        way, a caller that stops waiting (cancelled) before its write has begun (while it is read,
        decided, or queued behind other writes) has it not written at all; one that stops once
        the write has begun may have it committed, and hears nothing of it."""
        if self.threaded is None:
            made, write = await self.read(body, then)
            return made, (None if write is None else await self.write(write))
        done: Future[tuple[Done, Written | None]] = Future()
        abandoned = threading.Event()
        read = lambda connection: then(body(connection))  # noqa: E731
        self._readers.submit(self._read_then_write, read, done, abandoned)
        try:
            return await asyncio.wrap_future(done)
        except asyncio.CancelledError:
            abandoned.set()
            raise

    def _read_then_write(
        self, read: Body[tuple[Done, Body[Written] | None]], done: Future, abandoned: threading.Event
    ) -> None:
        """On a reader: :meth:`read_then_write`'s read, its write handed to the writer unless
        its caller has stopped waiting."""
        if not done.set_running_or_notify_cancel():
            return
        try:
            made, write = self._run(read, writing=False)
            if abandoned.is_set():
                done.set_exception(asyncio.CancelledError())
                return
            if write is None:
                done.set_result((made, None))
                return

            def written() -> None:
                if abandoned.is_set():  # given up while it waited behind the other writes
                    done.set_exception(asyncio.CancelledError())
                    return
                try:
                    done.set_result((made, self._run(write, writing=True)))
                except BaseException as error:
                    done.set_exception(error)

            self._writer.submit(written)
        except BaseException as error:
            done.set_exception(error)

    async def write(self, body: Body[Done]) -> Done:
        """``body``'s writes committed together, on the store's writer."""
        if self.threaded is not None:
            return await self._in_thread(self._writer, body, writing=True)
        async with write_transaction(self.engine) as connection:
            return await connection.run_sync(body)

    async def _in_thread(self, threads: ThreadPoolExecutor | None, body: Body[Done], writing: bool) -> Done:
        return await asyncio.get_running_loop().run_in_executor(threads, self._run, body, writing)

    def _run(self, body: Body[Done], writing: bool) -> Done:
        """``body`` on the worker thread's connection: a write in one transaction, committed if
        it returns; a read of one statement alone (what SQLAlchemy began for it, which sent no
        BEGIN, ended after it)."""
        connection = self._connection(writing)
        if writing:
            with connection.begin():
                return body(connection)
        try:
            return body(connection)
        finally:
            if connection.in_transaction():
                connection.rollback()

    def _connection(self, writing: bool) -> Connection:
        """The worker thread's own connection, opened at its first transaction and kept while
        it works (a thread does one thing at a time): checking one out of the pool and handing
        it back (with its reset) for each transaction cost more than a statement."""
        connection = getattr(self._held, "connection", None)
        if connection is None or connection.closed or connection.invalidated:
            connection = self.threaded.connect()
            connection.execution_options(**{WRITING: True} if writing else {ALONE: True})
            self._held.connection = connection
            with self._opening:
                self._opened.append(connection)
        return connection

    async def close(self) -> None:
        if self.threaded is not None:
            # the reads and writes still queued are finished first, the event loop free meanwhile
            await asyncio.to_thread(self._readers.shutdown)
            await asyncio.to_thread(self._writer.shutdown)
            for connection in self._opened:  # their threads have ended
                connection.close()
            self.threaded.dispose()
