"""``python -m bot --backup PATH`` and ``--restore PATH`` (bot/storage/backup.py): a backup taken
while games are being played, by this process and by another one at once, restores to a store
in which every game loads as it was recorded and plays on to its end; on SQLite and on a real
PostgreSQL (where ``pg_dump`` is installed). A restore is refused while a bot runs on the
database, and a store holding games is replaced only with ``--yes``."""

from __future__ import annotations

import asyncio
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.services.force_service import ForceService
from bot.services.game_service import GameService
from bot.startup import open_database
from bot.storage.backup import BackupError, libpq, postgresql_tool
from bot.storage.in_use import bot_running_on
from bot.storage.store import GameStore
from engine.game import replay
from engine.scenarios.quick_battle import quick_battle
from tests.storage.databases import sqlite_template
from tests.storage.game_writer import history, play_on

ROOT = Path(__file__).resolve().parents[2]
HERE = {"c0": 0, "c1": 1, "c2": 2}  # channel: the seed of its recorded game, played by the test
THERE = {"c3": 3, "c4": 4, "c5": 5}  # ... and by another process
GAMES = HERE | THERE


@pytest.fixture
def tools(database_backend) -> None:
    """PostgreSQL's backups need its client programs."""
    if database_backend == "postgresql":
        try:
            postgresql_tool("pg_dump")
        except BackupError as missing:
            pytest.skip(str(missing))


async def command_line(monkeypatch, database_url: str, *arguments: str) -> int:
    """``python -m bot ARGUMENTS`` on ``database_url`` (in a thread: it runs its own event loop)."""
    monkeypatch.setenv("DATABASE_URL", database_url)
    return await asyncio.to_thread(main, list(arguments))


async def set_up(store: GameStore, channels: dict[str, int]) -> None:
    for channel in channels:
        await GameService(store).new_game(channel, quick_battle())


def recorded(seed: int, commands: int):
    """The state the recorded game of ``seed`` reaches after its first ``commands`` commands."""
    return replay(quick_battle(), history(seed)[:commands])[0]


async def lines_from(process: subprocess.Popen, count: int) -> None:
    for _ in range(count):
        assert (await asyncio.to_thread(process.stdout.readline)).startswith("played ")


async def played(here: list[str], count: int) -> None:
    while len(here) < count:
        await asyncio.sleep(0.01)


@pytest.mark.both_databases
async def test_a_backup_taken_during_a_burst_of_writes_restores_games_that_load_and_play_on(
    database_backend, tools, database_url, new_empty_database, tmp_path, monkeypatch
):
    store = GameStore(database_url)
    await set_up(store, GAMES)
    writer = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.storage.game_writer",
            database_url,
            *(f"{c}:{s}" for c, s in THERE.items()),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    here: list[str] = []
    playing = asyncio.gather(*(play_on(store, channel, seed, here.append) for channel, seed in HERE.items()))
    await lines_from(writer, 6)  # both processes are writing
    await played(here, 6)
    stored_before = 6 + len(here)
    backup = tmp_path / f"during{'.db' if database_backend == 'sqlite' else '.dump'}"
    assert await command_line(monkeypatch, database_url, "--backup", str(backup)) == 0
    await playing
    await asyncio.to_thread(writer.communicate)
    assert writer.returncode == 0
    await store.close()

    restored_url = new_empty_database()
    assert await command_line(monkeypatch, restored_url, "--restore", str(backup)) == 0
    restored = GameStore(restored_url)
    in_backup = 0
    for channel, seed in GAMES.items():
        _, log = await restored.history(channel)
        assert (await restored.load(channel)).state == recorded(seed, len(log))
        in_backup += len(log)
    # a copy of one moment in the middle of the burst
    assert stored_before <= in_backup < sum(len(history(seed)) for seed in GAMES.values())
    await asyncio.gather(
        *(play_on(restored, channel, seed, lambda _: None) for channel, seed in GAMES.items())
    )
    for channel, seed in GAMES.items():
        assert (await restored.load(channel)).state == recorded(seed, len(history(seed)))
    await restored.close()


@pytest.mark.both_databases
async def test_a_restore_is_refused_while_a_bot_runs_and_replaces_games_only_when_asked(
    database_backend, tools, new_database, tmp_path, monkeypatch, capsys
):
    source, target = new_database(), new_database()
    store = GameStore(source)
    await set_up(store, {"kept": 0})
    await store.close()
    backup = tmp_path / "copy"
    assert await command_line(monkeypatch, source, "--backup", str(backup)) == 0
    store = GameStore(target)
    await set_up(store, {"t1": 1, "t2": 2})
    capsys.readouterr()

    async with bot_running_on(target):
        assert await command_line(monkeypatch, target, "--restore", str(backup), "--yes") == 1
    running = capsys.readouterr().err
    assert running.startswith("restore failed: a bot is running on ") and "stop" in running
    assert await command_line(monkeypatch, target, "--restore", str(backup)) == 1
    told = capsys.readouterr().err
    assert (
        told.startswith("restore failed: the database ")
        and "holds what players made (games: 2): add --yes to replace it" in told
    )
    assert {await store.load(c) is not None for c in ("t1", "t2")} == {True}  # unchanged

    assert await command_line(monkeypatch, target, "--restore", str(backup), "--yes") == 0
    assert capsys.readouterr().out.startswith(f"restored {backup} (made at migration ")
    assert await store.load("t1") is None and (await store.load("kept")).state == quick_battle()
    await store.close()


def readme_commands() -> list[list[str]]:
    """The README's PostgreSQL backup and restore, as typed by hand."""
    readme = (ROOT / "README.md").read_text()
    return [shlex.split(line) for line in readme.splitlines() if line.startswith(("pg_dump ", "pg_restore "))]


async def test_the_readmes_postgresql_commands_back_up_and_restore_a_store_that_plays_on(
    postgres_server, postgres_template, tmp_path
):
    try:
        postgresql_tool("pg_dump")
    except BackupError as missing:
        pytest.skip(str(missing))
    source = postgres_server.create_database(template=postgres_template)
    store = GameStore(source)
    await set_up(store, HERE)
    await asyncio.gather(
        *(play_on(store, channel, seed, lambda _: None, stop=9) for channel, seed in HERE.items())
    )
    await store.close()
    target = postgres_server.create_database()
    dump = tmp_path / "ironcross.dump"
    commands = readme_commands()
    assert [command[0] for command in commands] == ["pg_dump", "pg_restore"]
    for command, database in zip(commands, (source, target), strict=True):
        url, environment = libpq(database)
        typed = [
            word.replace("postgresql://ironcross@localhost/ironcross", url).replace(
                "ironcross.dump", str(dump)
            )
            for word in command
        ]
        subprocess.run([postgresql_tool(typed[0]), *typed[1:]], check=True, env=environment)

    restored = await open_database(target)  # the bot's start-up: migrated
    for channel, seed in HERE.items():
        assert (await restored.load(channel)).state == recorded(seed, 9)
    await asyncio.gather(
        *(play_on(restored, channel, seed, lambda _: None) for channel, seed in HERE.items())
    )
    for channel, seed in HERE.items():
        assert (await restored.load(channel)).state == recorded(seed, len(history(seed)))
    await restored.close()


async def test_a_file_that_is_not_a_postgresql_backup_is_refused(
    postgres_server, tmp_path, monkeypatch, capsys
):
    try:
        postgresql_tool("pg_restore")
    except BackupError as missing:
        pytest.skip(str(missing))
    target = postgres_server.create_database()
    sqlite_copy = tmp_path / "games.db"
    shutil.copyfile(sqlite_template(), sqlite_copy)
    assert await command_line(monkeypatch, target, "--restore", str(sqlite_copy)) == 1
    assert capsys.readouterr().err.startswith(
        f"restore failed: {sqlite_copy} is not a PostgreSQL backup of the Iron Cross bot (pg_restore failed: "
    )


async def test_a_restore_is_refused_while_the_console_table_runs_on_the_database(
    tmp_path, monkeypatch, capsys
):
    table = tmp_path / "table.db"
    url = f"sqlite+aiosqlite:///{table}"
    console = subprocess.Popen(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**os.environ, "DATABASE_URL": url, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert (await asyncio.to_thread(console.stdout.readline)).startswith("Iron Cross console table.")
    backup = tmp_path / "copy.db"
    assert await command_line(monkeypatch, url, "--backup", str(backup)) == 0  # taken while it runs
    assert await command_line(monkeypatch, url, "--restore", str(backup), "--yes") == 1
    assert capsys.readouterr().err == f"restore failed: a bot is running on {table}: stop it first\n"
    await asyncio.to_thread(console.communicate, "")  # its input ends: the table stops
    assert await command_line(monkeypatch, url, "--restore", str(backup), "--yes") == 0


@pytest.mark.both_databases
async def test_a_store_holding_no_game_but_what_players_made_is_replaced_only_when_asked(
    database_backend, tools, new_database, tmp_path, monkeypatch, capsys
):
    source, target = new_database(), new_database()
    backup = tmp_path / "copy"
    assert await command_line(monkeypatch, source, "--backup", str(backup)) == 0
    store = GameStore(target)
    await ForceService(store).create("g", "ann", "us", "Able", 200)
    capsys.readouterr()
    assert await command_line(monkeypatch, target, "--restore", str(backup)) == 1
    assert "holds what players made (forces: 1): add --yes" in capsys.readouterr().err
    assert await ForceService(store).names("g", "ann") == ["Able"]
    await store.close()
