"""Migrated databases for the tests, without running the migration chain for every test.

The SQLite template is migrated once per test run and copied for each test; a PostgreSQL
template database is migrated once per server and each test's database is created from it. A
second SQLite template also holds the bot's own rules documents, indexed as a bot's first
start-up leaves them, for the tests that start a bot or a console table (which index them again
only when one has changed: the copy saves each such test the indexing, not the check).
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sqlalchemy.engine import make_url

from bot.services.rules_service import RulesService
from bot.storage.store import GameStore
from tests.storage.upgrade_kills import upgrade


@functools.cache
def sqlite_template() -> Path:
    """A SQLite file at the latest revision (made on first use, removed at exit)."""
    folder = Path(tempfile.mkdtemp(prefix="ironcross-template-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    template = folder / "template.db"
    migrate(f"sqlite+aiosqlite:///{template}")
    return template


@functools.cache
def shipped_sqlite_template() -> Path:
    """A copy of :func:`sqlite_template` with the bot's own rules documents indexed."""
    shipped = sqlite_template().with_name("shipped.db")
    shutil.copyfile(sqlite_template(), shipped)
    with ThreadPoolExecutor(1) as worker:
        worker.submit(asyncio.run, _ship(f"sqlite+aiosqlite:///{shipped}")).result()
    return shipped


async def _ship(database_url: str) -> None:
    store = GameStore(database_url)
    await RulesService(store).ship()
    await store.close()


def migrate(database_url: str) -> None:
    """Upgrade to head from anywhere, also inside a running event loop (as a first test's is)."""
    with ThreadPoolExecutor(1) as worker:
        worker.submit(upgrade, database_url).result()


def seed_sqlite(database_url: str, shipped: bool = False) -> str:
    """A SQLite URL whose file does not exist yet starts as a copy of the migrated template (with
    the bot's rules documents indexed, if ``shipped``)."""
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite" and url.database and not Path(url.database).exists():
        shutil.copyfile(shipped_sqlite_template() if shipped else sqlite_template(), url.database)
    return database_url
