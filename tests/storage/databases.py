"""Migrated databases for the tests, without running the migration chain for every test.

The SQLite template is migrated once per test run and copied for each test; a PostgreSQL
template database is migrated once per server and each test's database is created from it.
"""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sqlalchemy.engine import make_url

from tests.storage.upgrade_kills import upgrade


@functools.cache
def sqlite_template() -> Path:
    """A SQLite file at the latest revision (made on first use, removed at exit)."""
    folder = Path(tempfile.mkdtemp(prefix="ironcross-template-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    template = folder / "template.db"
    migrate(f"sqlite+aiosqlite:///{template}")
    return template


def migrate(database_url: str) -> None:
    """Upgrade to head from anywhere, also inside a running event loop (as a first test's is)."""
    with ThreadPoolExecutor(1) as worker:
        worker.submit(upgrade, database_url).result()


def seed_sqlite(database_url: str) -> str:
    """A SQLite URL whose file does not exist yet starts as a copy of the migrated template."""
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite" and url.database and not Path(url.database).exists():
        shutil.copyfile(sqlite_template(), url.database)
    return database_url
