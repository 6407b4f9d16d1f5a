"""Backups of the bot's store, taken while it runs, and their restore (``python -m bot --backup
PATH`` / ``--restore PATH``, and the schedule of :mod:`bot.backup_schedule`).

- **SQLite**: SQLite's online backup API copies every page in one step, so in one read
  transaction: the copy is the snapshot of one moment, while the bot's writers go on appending
  to the WAL. It is written beside its name and renamed when whole (a failed backup leaves no
  file), as one self-contained file (journal mode DELETE). A restore checks the copy, migrates a
  working copy of it to the newest schema, and writes that into the database file through the
  same API, so SQLite's own locks and WAL see a normal write.
- **PostgreSQL**: ``pg_dump --format=custom`` (a consistent snapshot of its own) and
  ``pg_restore --clean --if-exists --no-owner --single-transaction``: all of the backup or, if
  it fails, nothing; then the migrations to the newest schema.

Either checks first that the copy is a store of this bot (its tables and a migration stamp this
version knows), that no bot runs on the database (:mod:`bot.storage.in_use`) and that a store
holding games is replaced only when asked; a refusal changes nothing.
"""

from __future__ import annotations

import asyncio
import glob
import os
import re
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from urllib.parse import quote

from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import SQLAlchemyError

from bot.storage.database import BUSY_TIMEOUT_SECONDS, make_engine
from bot.storage.in_use import BotRunning, no_bot_running_on, sqlite_file
from bot.storage.migrate import alembic_config, upgrade_to_head

STORE_TABLES = {"alembic_version", "games", "game_commands"}  # every store has these
HELD = (  # what players made that a store may hold: table, what it holds, which rows
    ("games", "games", ""),
    ("archived_games", "finished games", ""),
    ("forces", "forces", ""),
    ("campaigns", "campaigns", ""),
    ("saved_tables", "saved tables", ""),
    ("card_decks", "card decks", ""),
    ("rule_sources", "rules documents", " WHERE guild_id <> ''"),  # the server's, not the bot's own
)


class BackupError(Exception):
    """A backup or restore refused or failed: the one line to tell the operator."""


def check_revision(revision: str | None, what: str) -> str:
    """``revision`` if this version of the bot knows that migration, else why ``what`` cannot be used."""
    if revision is None:
        raise BackupError(f"{what} is not a store of the Iron Cross bot (it has no migration stamp)")
    try:
        known = ScriptDirectory.from_config(alembic_config("sqlite://")).get_revision(revision)
    except CommandError:
        known = None
    if known is None:
        raise BackupError(
            f"{what} is at migration {revision}, unknown to this version of the bot (a newer one's?)"
        )
    return revision


def check_new_file(path: Path) -> None:
    """A backup is written to a new file in a folder that exists."""
    if path.exists():
        raise BackupError(f"{path} exists already: a backup never overwrites, give a new file name")
    if not path.parent.is_dir():
        raise BackupError(f"there is no folder {path.parent} to write {path.name} in")


def check_backup_file(path: Path) -> None:
    if not path.is_file():
        raise BackupError(f"there is no backup file at {path}")


def held(tables: set[str], count: Callable[[str], int]) -> str:
    """What players made that a store of these ``tables`` holds ("games: 2, forces: 1"), counted
    by ``count(sql)``; "" when nothing."""
    counted = [
        (name, count(f"SELECT count(*) FROM {table}{rows}")) for table, name, rows in HELD if table in tables
    ]
    return ", ".join(f"{name}: {n}" for name, n in counted if n)


def check_replacing(holding: str, database: object, replace: bool) -> None:
    """A store holding what players made is replaced only when asked (``--yes``)."""
    if holding and not replace:
        raise BackupError(
            f"the database {database} holds what players made ({holding}): add --yes to replace it "
            "with the backup"
        )


def writing(path: Path) -> Path:
    """A new empty file beside ``path`` to write it in before it is renamed (so a failed write
    leaves nothing under its name), or why ``path``'s folder cannot be written."""
    part = path.with_name(f".{path.name}.part")
    try:
        part.touch(exist_ok=False)
    except OSError as error:
        raise BackupError(f"cannot write {path}: {error.strerror}") from None
    return part


@contextmanager
def written_whole(path: Path) -> Iterator[Path]:
    """A file to write ``path`` in (:func:`writing`), given that name once the block is done,
    removed if the block fails."""
    part = writing(path)
    try:
        yield part
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    os.replace(part, path)


# SQLite


def sqlite_revision(database: sqlite3.Connection, what: str) -> str:
    """The migration a SQLite file's store is at, or why it is not a (whole) store."""
    try:
        tables = {name for (name,) in database.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not STORE_TABLES <= tables:
            raise BackupError(f"{what} is not a store of the Iron Cross bot (it lacks its tables)")
        (verdict,) = database.execute("PRAGMA quick_check").fetchone()
        if verdict != "ok":
            raise BackupError(f"{what} is damaged: {verdict}")
        stamp = database.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{what} is not a store of the Iron Cross bot ({error})") from None
    return check_revision(stamp[0] if stamp else None, what)


def open_sqlite(path: Path, mode: str = "rw") -> sqlite3.Connection:
    """A connection on an existing file (``mode`` ``rw`` or ``ro``), waiting on its writers."""
    try:
        return sqlite3.connect(f"file:{quote(str(path))}?mode={mode}", uri=True, timeout=BUSY_TIMEOUT_SECONDS)
    except sqlite3.OperationalError as error:
        raise BackupError(f"cannot open {path}: {error}") from None


def copy_pages(source: sqlite3.Connection, target: Path) -> None:
    """Every page of ``source``, in one step (one read transaction), into the file ``target``,
    left in rollback-journal mode."""
    with closing(sqlite3.connect(target, isolation_level=None)) as copy:
        source.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")


def back_up_sqlite(live: Path, target: Path) -> str:
    """A consistent copy of the live store ``live`` at ``target``; the copy's migration."""
    if not live.is_file():
        raise BackupError(f"there is no database file at {live}")
    check_new_file(target)
    with closing(open_sqlite(live)) as database:
        sqlite_revision(database, f"the database {live}")
        with written_whole(target) as part:
            copy_pages(database, part)
            with closing(open_sqlite(part, "ro")) as copy:
                revision = sqlite_revision(copy, f"the copy {part}")
    return revision


def held_in_sqlite(path: Path) -> str:
    """What players made that the store at ``path`` holds ("": nothing, or no file)."""
    if not path.exists() or path.stat().st_size == 0:
        return ""
    with closing(open_sqlite(path)) as database:
        sqlite_revision(database, f"the database {path}")
        tables = {name for (name,) in database.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        return held(tables, lambda sql: database.execute(sql).fetchone()[0])


async def restore_sqlite(backup: Path, database_url: str, target: Path, replace: bool) -> str:
    check_backup_file(backup)
    with closing(open_sqlite(backup)) as copy:
        revision = sqlite_revision(copy, f"{backup}")
    if not target.parent.is_dir():
        raise BackupError(f"there is no folder {target.parent} for the database {target.name}")
    async with no_bot_running_on(database_url):
        check_replacing(held_in_sqlite(target), target, replace)
        part = writing(target)
        try:
            with closing(open_sqlite(backup)) as copy:
                copy_pages(copy, part)
            await upgrade_to_head(f"sqlite+aiosqlite:///{part}")
            with closing(open_sqlite(part)) as migrated, closing(sqlite3.connect(target)) as database:
                migrated.execute("PRAGMA journal_mode=DELETE")  # the migrations left it in WAL mode
                migrated.backup(database)
        finally:
            for left in (part, *(part.with_name(part.name + end) for end in ("-wal", "-shm"))):
                left.unlink(missing_ok=True)
    return revision


# PostgreSQL


def postgresql_tool(name: str) -> str:
    """``pg_dump`` or ``pg_restore``: on the PATH, else the newest of Debian's PostgreSQL installs."""
    found = shutil.which(name) or next(
        reversed(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=_major)), None
    )
    if found is None:
        raise BackupError(
            f"{name} is not installed (PostgreSQL's client programs, e.g. apt-get install postgresql-client)"
        )
    return found


def _major(path: str) -> int:
    return int(Path(path).parts[-3])


def libpq(database_url: str) -> tuple[str, dict[str, str]]:
    """The URL as PostgreSQL's own programs take it, and their environment: the password is
    passed in ``PGPASSWORD``, not on the command line (where ``ps`` would show it)."""
    url = make_url(database_url)
    environment = dict(os.environ)
    if url.password is not None:
        environment["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), environment


async def run_tool(name: str, *arguments: str, environment: dict[str, str] | None = None) -> str:
    """Run ``pg_dump`` or ``pg_restore``; its output, or its first error line as a BackupError."""
    process = await asyncio.create_subprocess_exec(
        postgresql_tool(name),
        *arguments,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=environment,
    )
    out, err = await process.communicate()
    if process.returncode:
        lines = err.decode(errors="replace").strip().splitlines() or [f"exit {process.returncode}"]
        raise BackupError(f"{name} failed: {lines[0]}")
    return out.decode(errors="replace")


async def dumped_revision(dump: Path, what: str) -> str:
    """The migration the store in a ``pg_dump`` archive is at, or why it is not a store."""
    try:
        listing = await run_tool("pg_restore", "--list", str(dump))
    except BackupError as error:
        raise BackupError(f"{what} is not a PostgreSQL backup of the Iron Cross bot ({error})") from None
    tables = set(re.findall(r" TABLE \S+ (\w+) ", listing))
    if not STORE_TABLES <= tables:
        raise BackupError(f"{what} is not a store of the Iron Cross bot (it lacks its tables)")
    data = await run_tool("pg_restore", "--data-only", "--table=alembic_version", "--file=-", str(dump))
    stamp = re.search(r"^COPY \S*alembic_version .*FROM stdin;\n(\w+)$", data, re.MULTILINE)
    return check_revision(stamp[1] if stamp else None, what)


async def back_up_postgresql(database_url: str, target: Path) -> str:
    check_new_file(target)
    url, environment = libpq(database_url)
    with written_whole(target) as part:
        await run_tool(
            "pg_dump", "--format=custom", f"--file={part}", f"--dbname={url}", environment=environment
        )
        revision = await dumped_revision(part, f"the dump of {named(database_url)}")
    return revision


def named(database_url: str) -> str:
    """A PostgreSQL database as the messages name it: its name (never its password)."""
    return make_url(database_url).database or "(unnamed)"


def held_in_postgresql(connection: Connection) -> str:
    tables = set(inspect(connection).get_table_names())
    return held(tables, lambda sql: connection.execute(text(sql)).scalar_one())


async def restore_postgresql(backup: Path, database_url: str, replace: bool) -> str:
    check_backup_file(backup)
    revision = await dumped_revision(backup, f"{backup}")
    async with no_bot_running_on(database_url):
        engine = make_engine(database_url)
        try:
            async with engine.connect() as connection:
                holding = await connection.run_sync(held_in_postgresql)
        finally:
            await engine.dispose()
        check_replacing(holding, named(database_url), replace)
        url, environment = libpq(database_url)
        await run_tool(
            "pg_restore",
            *("--clean", "--if-exists", "--no-owner", "--single-transaction", "--exit-on-error"),
            f"--dbname={url}",
            str(backup),
            environment=environment,
        )
        await upgrade_to_head(database_url)
    return revision


# either


async def back_up(database_url: str, target: Path) -> str:
    """A consistent copy of the store at ``target``, taken while the bot may be writing, off the
    event loop; the copy's migration."""
    path = sqlite_file(database_url)
    if path is not None:
        try:
            return await asyncio.to_thread(back_up_sqlite, path, target)
        except sqlite3.Error as error:
            raise BackupError(f"copying {path} failed: {error}") from None
    if make_url(database_url).get_backend_name() == "postgresql":
        return await back_up_postgresql(database_url, target)
    raise BackupError("only a SQLite file or a PostgreSQL database can be backed up")


async def restore(backup: Path, database_url: str, *, replace: bool = False) -> str:
    """Replace the store with the backup at ``backup``, migrated to the newest schema; refused
    while a bot runs on it, and for a store holding games unless ``replace``. The backup's
    migration."""
    path = sqlite_file(database_url)
    try:
        if path is not None:
            return await restore_sqlite(backup, database_url, path, replace)
        if make_url(database_url).get_backend_name() == "postgresql":
            return await restore_postgresql(backup, database_url, replace)
    except BotRunning as running:
        raise BackupError(str(running)) from None
    except sqlite3.Error as error:
        raise BackupError(f"restoring into {path} failed: {error}") from None
    except (OSError, SQLAlchemyError) as error:
        raise BackupError(f"the database {named(database_url)} is unreachable: {error}") from None
    raise BackupError("only a SQLite file or a PostgreSQL database can be restored")
