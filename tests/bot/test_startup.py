"""Start-up as an operator sees it: ``python -m bot --check`` (the image's health check), and
each start-up failure told as one line, never a traceback."""

import json
import os
import subprocess
import sys
from types import SimpleNamespace

import discord
import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.__main__ import health_check
from bot.config import Settings
from bot.startup import StartupError, engine_for, log_in, open_database, shown
from bot.storage.migrate import alembic_config


def newest_two(database_url: str) -> tuple[str, str]:
    """The newest migration and the one before it."""
    scripts = ScriptDirectory.from_config(alembic_config(database_url))
    head = scripts.get_revision(scripts.get_current_head())
    return head.revision, head.down_revision


def checked(database_url: str, capsys) -> tuple[int, list[str]]:
    status = health_check(Settings(database_url=database_url))
    return status, capsys.readouterr().out.splitlines()


def run_bot(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        env={**os.environ, "LOG_JSON": "true", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.both_databases
def test_check_passes_on_a_migrated_database(database_url, capsys):
    head, _ = newest_two(database_url)
    status, (line,) = checked(database_url, capsys)
    assert status == 0
    assert line == f"ok: the database {shown(database_url)} is reachable and at migration {head}"


@pytest.mark.both_databases
def test_check_fails_on_a_database_a_migration_behind(new_empty_database, capsys):
    url = new_empty_database()
    head, previous = newest_two(url)
    command.upgrade(alembic_config(url), previous)
    status, lines = checked(url, capsys)
    assert (status, lines) == (
        1,
        [f"not ready: the database is at {previous}, not at the newest migration {head}"],
    )


def test_check_fails_on_a_database_without_a_schema_or_a_file(tmp_path, capsys):
    empty = tmp_path / "empty.db"
    empty.touch()
    head, _ = newest_two(f"sqlite+aiosqlite:///{empty}")
    assert checked(f"sqlite+aiosqlite:///{empty}", capsys) == (
        1,
        [f"not ready: the database is at no schema, not at the newest migration {head}"],
    )
    missing = tmp_path / "missing.db"
    assert checked(f"sqlite+aiosqlite:///{missing}", capsys) == (
        1,
        [f"not ready: no database file at {missing} (the bot makes it when it starts)"],
    )
    assert not missing.exists()
    assert checked("postgresql+asyncpg://ironcross:secret@127.0.0.1:1/ironcross", capsys) == (
        1,
        [
            "not ready: the database postgresql+asyncpg://ironcross:***@127.0.0.1:1/ironcross is "
            "unreachable: ConnectionRefusedError: [Errno 111] Connect call failed ('127.0.0.1', 1)"
        ],
    )


def test_the_check_command_exits_0_with_one_line_on_a_ready_database(database_url):
    ready = run_bot("--check", DATABASE_URL=database_url)
    assert ready.returncode == 0
    assert ready.stdout.splitlines() == [
        f"ok: the database {shown(database_url)} is reachable and at migration {newest_two(database_url)[0]}"
    ]


def test_an_unreachable_database_at_start_up_is_one_json_line_without_the_password():
    failed = run_bot(
        DISCORD_TOKEN="token", DATABASE_URL="postgresql+asyncpg://ironcross:secret@127.0.0.1:1/ironcross"
    )
    assert failed.returncode == 1
    (line,) = failed.stdout.splitlines()
    logged = json.loads(line)
    assert logged["levelname"] == "ERROR"
    assert logged["message"] == (
        "start-up failed: the database postgresql+asyncpg://ironcross:***@127.0.0.1:1/ironcross is "
        "unreachable: ConnectionRefusedError: [Errno 111] Connect call failed ('127.0.0.1', 1)"
    )
    assert "secret" not in failed.stdout + failed.stderr and "Traceback" not in failed.stderr


@pytest.mark.parametrize(
    "url, told",
    [
        ("ironcross.db", "DATABASE_URL is not a database URL; expected e.g. sqlite+aiosqlite:///"),
        (
            "postgresql://ironcross:secret@db/ironcross",
            "DATABASE_URL postgresql://ironcross:***@db/ironcross",
        ),
        ("mongodb://db/ironcross", "DATABASE_URL mongodb://db/ironcross cannot be used"),
    ],
)
def test_an_unusable_database_url_is_told_without_its_password(url, told):
    with pytest.raises(StartupError) as failure:
        engine_for(url)
    assert str(failure.value).startswith(told) and "secret" not in str(failure.value)


@pytest.mark.both_databases
async def test_a_failed_migration_is_one_line(database_url):
    engine = create_async_engine(database_url)
    async with engine.begin() as connection:
        await connection.execute(text("UPDATE alembic_version SET version_num = '0999_from_the_future'"))
    await engine.dispose()
    with pytest.raises(StartupError) as failure:
        await open_database(database_url)
    assert str(failure.value).startswith("migrating the database ")
    assert "failed: " in str(failure.value) and "0999_from_the_future" in str(failure.value)
    assert "\n" not in str(failure.value)


async def test_a_token_discord_refuses_is_one_line(monkeypatch):
    async def refused(http, route, **_):
        raise discord.HTTPException(SimpleNamespace(status=401, reason="Unauthorized"), "401: Unauthorized")

    monkeypatch.setattr(discord.http.HTTPClient, "request", refused)
    client = discord.Client(intents=discord.Intents.default())
    with pytest.raises(StartupError, match="^Discord refused DISCORD_TOKEN: check the bot token$"):
        await log_in(client, "not-a-token")
    await client.close()
