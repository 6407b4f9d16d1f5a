"""The running bot's backups on a schedule: with ``BACKUP_DIR`` set, one every
``BACKUP_EVERY_HOURS`` into that folder, the newest ``BACKUP_KEEP`` kept.

The next is due an interval after the newest backup already in the folder (none: at once), so a
restart neither puts it off nor takes an extra one. Each is taken off the event loop
(:func:`bot.storage.backup.back_up`: a worker thread on SQLite, ``pg_dump`` on PostgreSQL), so
games go on while it runs; one that fails is logged and tried again an interval later. Only
files named as the schedule names them (``ironcross-20261203T120000Z.db``, ``.dump`` on
PostgreSQL) are counted and removed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager, suppress
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.config import Settings
from bot.storage.backup import back_up
from bot.storage.in_use import sqlite_file

log = logging.getLogger(__name__)

STAMP = "ironcross-%Y%m%dT%H%M%SZ"


def suffix(database_url: str) -> str:
    """A SQLite backup is a database file; PostgreSQL's, a ``pg_dump`` archive."""
    return ".db" if sqlite_file(database_url) is not None else ".dump"


def taken(folder: Path, ending: str) -> list[tuple[datetime, Path]]:
    """The schedule's backups in ``folder``, oldest first."""
    found = []
    for path in folder.glob(f"ironcross-*{ending}"):
        with suppress(ValueError):
            found.append((datetime.strptime(path.name.removesuffix(ending), STAMP).replace(tzinfo=UTC), path))
    return sorted(found)


def next_due(folder: Path, ending: str, every: timedelta, now: datetime) -> datetime:
    backups = taken(folder, ending)
    return backups[-1][0] + every if backups else now


async def take_backup(database_url: str, folder: Path, keep: int, now: datetime) -> Path:
    """One backup, named for ``now``; then the oldest removed beyond ``keep``."""
    ending = suffix(database_url)
    path = folder / f"{now.strftime(STAMP)}{ending}"
    revision = await back_up(database_url, path)
    log.info("backed up the database", extra={"backup": str(path), "migration": revision})
    for _, old in taken(folder, ending)[:-keep]:
        old.unlink(missing_ok=True)
    return path


async def keep_backing_up(
    database_url: str,
    folder: Path,
    every: timedelta,
    keep: int,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> None:
    """Take a backup each time one falls due, until cancelled."""
    ending = suffix(database_url)
    while True:
        now = clock()
        due = next_due(folder, ending, every, now)
        if due > now:
            await asyncio.sleep((due - now).total_seconds())
            continue
        try:
            await finished_if_stopped(take_backup(database_url, folder, keep, now))
        except Exception as failure:  # the schedule outlives one failed backup
            log.error("backup failed: %s", failure, extra={"folder": str(folder)})
            await asyncio.sleep(every.total_seconds())


async def finished_if_stopped(backup: Coroutine[object, object, Path]) -> Path:
    """The backup; if the bot stops meanwhile, it is still finished (it runs in a thread or in
    pg_dump, which would go on writing anyway), and then the stop goes on."""
    taking = asyncio.ensure_future(backup)
    try:
        return await asyncio.shield(taking)
    except asyncio.CancelledError:
        await asyncio.gather(taking, return_exceptions=True)
        raise


@asynccontextmanager
async def backups_on_schedule(settings: Settings) -> AsyncIterator[None]:
    """While the block runs, the backups of ``BACKUP_DIR`` (none when it is unset)."""
    if settings.backup_dir is None:
        yield
        return
    folder = Path(settings.backup_dir)
    folder.mkdir(parents=True, exist_ok=True)
    schedule = keep_backing_up(settings.database_url, folder, settings.backup_every, settings.backup_keep)
    task = asyncio.create_task(schedule, name="backups")
    try:
        yield
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
