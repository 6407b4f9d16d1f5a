"""Shared database fixtures.

``database_url`` is a fresh database at the latest revision, ``store`` a ``GameStore`` on it.
They are cheap: the migrations run once per test run into a template that every test copies
(SQLite) or clones (PostgreSQL). A test marked ``both_databases`` runs twice, on SQLite and on
a real local PostgreSQL server started for the run; the PostgreSQL run is skipped only when
the server's binaries are not installed (``apt-get install postgresql``).
"""

from __future__ import annotations

import itertools

import pytest

from bot.storage.store import GameStore
from tests.storage.databases import migrate, seed_sqlite
from tests.storage.postgres import PostgresServer, binaries

BACKENDS = ("sqlite", "postgresql")


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "both_databases: run on SQLite and on PostgreSQL")


@pytest.fixture(autouse=True)
def discord_accepts_every_request():
    """A test fails if the bot sent Discord anything Discord would refuse (the harness's check
    against Discord's published schema and documented limits, :mod:`tests.bot.discord_rules`). A
    test that breaks a rule on purpose takes the violations it expects off the list."""
    from tests.bot.discord_harness import HARNESSES

    HARNESSES.clear()
    yield
    broken = [rule for harness in HARNESSES for rule in harness.violations]
    HARNESSES.clear()
    if broken:
        pytest.fail("Discord would refuse what the bot sent:\n" + "\n".join(dict.fromkeys(broken)))


def pytest_generate_tests(metafunc) -> None:
    marked = metafunc.definition.get_closest_marker("both_databases")
    if marked and "database_backend" in metafunc.fixturenames:
        metafunc.parametrize("database_backend", BACKENDS, indirect=True)


@pytest.fixture
def database_backend(request) -> str:
    """``sqlite``, or ``postgresql`` in the second run of a ``both_databases`` test."""
    return getattr(request, "param", "sqlite")


@pytest.fixture(scope="session")
def postgres_server():
    """A local PostgreSQL server for the whole run (skips the test when it is not installed)."""
    if binaries() is None:
        pytest.skip("PostgreSQL's server binaries are not installed")
    server = PostgresServer.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def postgres_template(postgres_server) -> str:
    """The name of a PostgreSQL database at the latest revision, to clone."""
    name = "ironcross_template"
    postgres_server.create_database(name=name)
    migrate(postgres_server.url(name))
    return name


@pytest.fixture
def new_empty_database(database_backend, tmp_path, request):
    """Makes new databases with no tables yet (each call another), on the test's backend."""
    if database_backend == "postgresql":
        server = request.getfixturevalue("postgres_server")
        return server.create_database
    files = itertools.count()
    return lambda: f"sqlite+aiosqlite:///{tmp_path / f'empty{next(files)}.db'}"


@pytest.fixture
def new_database(database_backend, tmp_path, request):
    """Makes new databases at the latest revision (each call another), on the test's backend."""
    if database_backend == "postgresql":
        server = request.getfixturevalue("postgres_server")
        template = request.getfixturevalue("postgres_template")
        return lambda: server.create_database(template=template)
    files = itertools.count()
    return lambda: seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / f'games{next(files)}.db'}")


@pytest.fixture
def database_url(new_database) -> str:
    """A fresh database at the latest revision, on the test's backend."""
    return new_database()


@pytest.fixture
async def store(database_url):
    """A ``GameStore`` on a fresh database (already migrated, so opened without migrating)."""
    store = GameStore(database_url)
    yield store
    await store.close()
