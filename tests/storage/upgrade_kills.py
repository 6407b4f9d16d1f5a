"""Kill an Alembic upgrade part-way in a real child process, then start the app again.

The child process runs the upgrade and ends itself with ``os._exit`` right before or right after
its N-th SQL statement: no rollback, no cleanup, the database file or server left as a kill
leaves it. The restart then runs the same start-up as the bot (``GameStore.open``) and sets up a
game, as the first command after a restart would.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable
from dataclasses import dataclass

from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import event, text
from sqlalchemy.engine import Engine

from bot.services.game_service import GameService
from bot.storage.migrate import alembic_config
from bot.storage.store import GameStore

KILLED = 77  # the child's exit status when it ended itself at the chosen statement
HOOKS = ("before_cursor_execute", "after_cursor_execute")


@dataclass(frozen=True)
class Kill:
    """Where one upgrade is killed: at its ``statement``-th statement, before or after it runs."""

    statement: int
    hook: str


def upgrade(database_url: str, revision: str = "head") -> None:
    """Run the migrations up to ``revision``, as the bot's start-up does."""
    command.upgrade(alembic_config(database_url), revision)


def statements_in_upgrade(database_url: str) -> dict[str, int]:
    """How many SQL statements an upgrade of this database to head runs (the database is upgraded),
    as each hook counts them: on SQLite the write transaction's ``BEGIN IMMEDIATE`` is seen before it
    runs but not after, so a kill drawn from the first count could never fire after its statement."""
    counts = dict.fromkeys(HOOKS, 0)

    def counter(hook: str) -> Callable[..., None]:
        def counted(*_args) -> None:
            counts[hook] += 1

        return counted

    counters = {hook: counter(hook) for hook in HOOKS}
    for hook, counted in counters.items():
        event.listen(Engine, hook, counted)
    try:
        upgrade(database_url)
    finally:
        for hook, counted in counters.items():
            event.remove(Engine, hook, counted)
    return counts


def _upgrade_until_killed(database_url: str, kill: Kill) -> None:
    """In the child process: upgrade, and die at the chosen statement."""
    count = 0

    def maybe_die(*_args) -> None:
        nonlocal count
        count += 1
        if count == kill.statement:
            os._exit(KILLED)

    event.listen(Engine, kill.hook, maybe_die)
    upgrade(database_url)


def upgrade_killed(database_url: str, kill: Kill) -> int:
    """Run the upgrade in a child process killed at ``kill``; its exit status (``KILLED`` if it died)."""
    fork = multiprocessing.get_context("fork")
    child = fork.Process(target=_upgrade_until_killed, args=(database_url, kill))
    child.start()
    child.join()
    return child.exitcode


async def restart(database_url: str) -> None:
    """Start the app on the database as the bot does, and set up a game: raises if it cannot."""
    store = await GameStore.open(database_url)
    try:
        async with store.engine.connect() as connection:
            stamped = (await connection.execute(text("SELECT version_num FROM alembic_version"))).scalar_one()
        head = ScriptDirectory.from_config(alembic_config(database_url)).get_current_head()
        if stamped != head:
            raise AssertionError(f"restarted at revision {stamped}, not {head}")
        games = GameService(store)
        await games.new_game("restart-check")
        await games.game("restart-check")
        await games.close()
    finally:
        await store.close()


def restart_fault(database_url: str) -> str | None:
    """Why the app cannot start again on this database, or None when it starts and works."""
    try:
        asyncio.run(restart(database_url))
    except Exception as fault:  # noqa: BLE001 - any failure to start is the finding
        return f"{type(fault).__name__}: {str(fault).splitlines()[0]}"
    return None


def kill_and_restart(new_database: Callable[[], str], kill: Kill, start_at: str | None) -> str | None:
    """On a new database (first upgraded to ``start_at``, if given), kill an upgrade at ``kill``,
    then restart: why the restart failed, or None."""
    database_url = new_database()
    if start_at:
        upgrade(database_url, start_at)
    status = upgrade_killed(database_url, kill)
    if status != KILLED:
        return f"the upgrade was to be killed at {kill} but ended with status {status}"
    return restart_fault(database_url)
