"""Start-up as an operator sees it: the database opened (reached, then migrated) and the bot
logged in to Discord, each failure told as one line that says what to fix (no traceback); and
``python -m bot --check``, the image's health check: the database is reachable and its schema
is at the newest migration."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import aiohttp
import discord
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import ArgumentError, InvalidRequestError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage.database import make_engine
from bot.storage.migrate import alembic_config, upgrade_to_head
from bot.storage.store import GameStore

T = TypeVar("T")
URL_EXAMPLE = "sqlite+aiosqlite:///ironcross.db or postgresql+asyncpg://user:password@host/ironcross"


class StartupError(Exception):
    """The bot cannot start (or is not ready): the one line to log."""


def shown(database_url: str) -> str:
    """The database URL as it may be logged: without its password."""
    return make_url(database_url).render_as_string(hide_password=True)


def parse(database_url: str) -> URL:
    """``DATABASE_URL`` parsed, or the reason it is not a database URL."""
    try:
        return make_url(database_url)
    except ArgumentError:
        raise StartupError(f"DATABASE_URL is not a database URL; expected e.g. {URL_EXAMPLE}") from None


def engine_for(database_url: str) -> AsyncEngine:
    """The bot's engine for ``database_url``, or the reason it cannot be made."""
    parse(database_url)
    try:
        return make_engine(database_url)
    except (ArgumentError, InvalidRequestError, ImportError) as error:
        raise StartupError(
            f"DATABASE_URL {shown(database_url)} cannot be used ({one_line(error)}); "
            f"expected e.g. {URL_EXAMPLE}"
        ) from None


def one_line(error: BaseException) -> str:
    """An exception as a short line: its kind and the first line of its message."""
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__


async def ask(database_url: str, question: Callable[[Connection], T]) -> T:
    """Connect once and ask the database ``question`` (on the connection), or say why not."""
    engine = engine_for(database_url)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(question)
    except Exception as error:
        raise StartupError(f"the database {shown(database_url)} is unreachable: {one_line(error)}") from None
    finally:
        await engine.dispose()


async def open_database(database_url: str) -> GameStore:
    """The store, its database reached and migrated to the newest schema."""
    await ask(database_url, lambda connection: connection.execute(text("SELECT 1")).scalar())
    try:
        await upgrade_to_head(database_url)
    except Exception as error:
        raise StartupError(
            f"migrating the database {shown(database_url)} failed: {one_line(error)}"
        ) from None
    return GameStore(database_url)


async def log_in(client: discord.Client, token: str) -> None:
    """Log the client in to Discord (before it connects), or say why it cannot."""
    try:
        await client.login(token)
    except discord.LoginFailure:
        raise StartupError("Discord refused DISCORD_TOKEN: check the bot token") from None
    except (aiohttp.ClientError, OSError) as error:
        raise StartupError(f"Discord is unreachable: {one_line(error)}") from None


async def check(database_url: str) -> str:
    """``--check``: the line saying the database is ready, or :class:`StartupError` saying why not."""
    url = parse(database_url)
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        if not Path(url.database).exists():
            raise StartupError(f"no database file at {url.database} (the bot makes it when it starts)")
    current = await ask(
        database_url, lambda connection: set(MigrationContext.configure(connection).get_current_heads())
    )
    head = set(ScriptDirectory.from_config(alembic_config(database_url)).get_heads())
    if current != head:
        at = ", ".join(sorted(current)) or "no schema"
        raise StartupError(f"the database is at {at}, not at the newest migration {', '.join(sorted(head))}")
    return f"ok: the database {shown(database_url)} is reachable and at migration {', '.join(sorted(head))}"
