"""The running bot's backups (bot/backup_schedule.py): one each interval after the newest in
the folder, the newest BACKUP_KEEP kept, files the schedule did not name left alone, a failed
backup logged and the schedule going on; each backup a store that restores."""

from __future__ import annotations

import asyncio
import itertools
import logging
from datetime import UTC, datetime, timedelta

import pytest

from bot.backup_schedule import backups_on_schedule, keep_backing_up, next_due, take_backup
from bot.config import Settings
from bot.discord_adapter.run import run_discord
from bot.services.game_service import GameService
from bot.startup import StartupError
from bot.storage.backup import BackupError, postgresql_tool, restore
from bot.storage.store import GameStore
from engine.scenarios.quick_battle import quick_battle

NOON = datetime(2026, 12, 3, 12, tzinfo=UTC)
HOUR = timedelta(hours=1)


async def test_each_backup_is_named_for_its_time_and_the_oldest_beyond_the_number_kept_go(store, tmp_path):
    await GameService(store).new_game("c1", quick_battle())
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    (folder / "ironcross-latest.db").write_text("not the schedule's")
    assert next_due(folder, ".db", HOUR, NOON) == NOON  # none yet: at once
    for hours in range(5):
        await take_backup(store.database_url, folder, 3, NOON + hours * HOUR)
    assert sorted(path.name for path in folder.iterdir()) == [
        "ironcross-20261203T140000Z.db",
        "ironcross-20261203T150000Z.db",
        "ironcross-20261203T160000Z.db",
        "ironcross-latest.db",
        "notes.txt",
    ]
    assert next_due(folder, ".db", HOUR, NOON) == NOON + 5 * HOUR  # an hour after the newest
    restored = f"sqlite+aiosqlite:///{tmp_path / 'restored.db'}"
    await restore(folder / "ironcross-20261203T160000Z.db", restored)
    again = GameStore(restored)
    assert (await again.load("c1")).state == (await store.load("c1")).state
    await again.close()


async def test_the_schedule_takes_a_backup_whenever_one_falls_due_and_keeps_the_newest(store, tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    hours = itertools.count()
    asked = []

    def clock() -> datetime:  # an hour passes between two looks at the clock
        asked.append(NOON + next(hours) * HOUR)
        return asked[-1]

    schedule = asyncio.create_task(keep_backing_up(store.database_url, folder, HOUR, 2, clock))
    while len(asked) < 6:
        await asyncio.sleep(0.01)
    schedule.cancel()
    await asyncio.gather(schedule, return_exceptions=True)
    names = sorted(path.name for path in folder.iterdir())
    assert len(names) == 2 and names[-1] in {f"{when:ironcross-%Y%m%dT%H%M%SZ}.db" for when in asked[-2:]}


async def test_a_backup_that_fails_is_logged_and_the_bot_goes_on(tmp_path, caplog):
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'missing.db'}", backup_dir=str(tmp_path / "b")
    )
    with caplog.at_level(logging.ERROR, "bot.backup_schedule"):
        async with backups_on_schedule(settings):
            while not caplog.records:
                await asyncio.sleep(0.01)
    assert caplog.records[0].getMessage().startswith("backup failed: there is no database file at ")
    assert list((tmp_path / "b").iterdir()) == []


async def test_without_a_backup_folder_none_is_taken(tmp_path):
    async with backups_on_schedule(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'g.db'}")):
        assert not [task for task in asyncio.all_tasks() if task.get_name() == "backups"]


@pytest.mark.both_databases
async def test_the_running_bot_backs_up_on_its_schedule_and_no_restore_replaces_its_store(
    database_backend, database_url, tmp_path, monkeypatch
):
    if database_backend == "postgresql":
        try:
            postgresql_tool("pg_dump")
        except BackupError as missing:
            pytest.skip(str(missing))
    folder = tmp_path / "backups"
    settings = Settings(
        database_url=database_url, discord_token="t", backup_dir=str(folder), picture_workers=0
    )
    refused = []

    async def logged_in(client, token):  # the bot is up: a backup comes, a restore is refused
        while not list(folder.glob("ironcross-*")):
            await asyncio.sleep(0.01)
        try:
            await restore(next(folder.glob("ironcross-*")), database_url, replace=True)
        except BackupError as refusal:
            refused.append(str(refusal))
        raise StartupError("stopped by the test")

    monkeypatch.setattr("bot.discord_adapter.run.log_in", logged_in)
    with pytest.raises(StartupError, match="stopped by the test"):
        await run_discord(settings, sync_commands=False)
    assert refused and refused[0].startswith("a bot is running on ")
    (backup,) = folder.iterdir()
    await restore(backup, database_url, replace=True)  # the bot stopped: its mark is gone
