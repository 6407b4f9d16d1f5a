"""``python -m bot`` at the command line: --help tells the options and the environment and
touches nothing; --sync without a token says what is missing; commands published to one test
server; a backup or restore that cannot be done says why and changes nothing (the backups
themselves: tests/storage/test_backup.py)."""

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import Settings
from tests.bot.discord_harness import close_bot, open_bot
from tests.storage.databases import seed_sqlite


@pytest.fixture
def bare_directory(tmp_path, monkeypatch):
    """An empty working directory (no .env) and no token in the environment."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("DEV_GUILD_ID", raising=False)
    return tmp_path


def test_help_prints_the_options_and_every_setting_and_creates_nothing(bare_directory, capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    said = capsys.readouterr().out
    assert said.startswith("usage: python -m bot [-h] [--check] [--sync] [--sync-guild ID]")
    for setting in Settings.model_fields:
        assert f"\n  {setting.upper()} " in said
    assert list(bare_directory.iterdir()) == []  # no ./ironcross.db


def test_sync_without_a_token_says_what_is_missing_and_creates_nothing(bare_directory, capsys):
    assert main(["--sync"]) == 1
    assert main(["--sync-guild", "123"]) == 1
    told = capsys.readouterr()
    assert (
        told.err.splitlines()
        == [
            "--sync needs DISCORD_TOKEN, the bot's token from the Discord developer portal, in the "
            "environment or a .env file"
        ]
        * 2
    )
    assert list(bare_directory.iterdir()) == []


def test_a_bad_option_is_refused_with_the_usage(bare_directory, capsys):
    with pytest.raises(SystemExit) as done:
        main(["--sync-guild", "my-server"])
    assert done.value.code == 2 and "--sync-guild: invalid int value: 'my-server'" in capsys.readouterr().err


async def test_commands_are_published_to_the_test_server_only_or_to_every_server(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    try:
        bot.sync_guild = 555
        await bot.publish_commands()
        (put,) = [e for e in discord.sent if e["route"].startswith("PUT ")]
        assert put["route"] == "PUT /applications/{application_id}/guilds/{guild_id}/commands"
        assert put["url"].endswith("/guilds/555/commands")
        assert {"game", "help", "measure", "rules"} <= {c["name"] for c in put["payload"]}
        bot.sync_guild = None
        await bot.publish_commands()
        assert discord.sent[-1]["route"] == "PUT /applications/{application_id}/commands"
    finally:
        await close_bot(bot)


@pytest.fixture
def live_store(bare_directory, monkeypatch):
    """A store with a game in ``games.db``, which DATABASE_URL names."""
    path = bare_directory / "games.db"
    seed_sqlite(f"sqlite+aiosqlite:///{path}")
    with closing(sqlite3.connect(path)) as database, database:
        database.execute("UPDATE alembic_version SET version_num = version_num")  # a write in WAL mode
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{path}")
    (bare_directory / "notes.txt").write_text("not a database")
    newer = bare_directory / "newer.db"
    shutil.copyfile(path, newer)
    with closing(sqlite3.connect(newer)) as database, database:
        database.execute("UPDATE alembic_version SET version_num = '9999'")
    with closing(sqlite3.connect(bare_directory / "empty.db")) as database:
        database.execute("CREATE TABLE other (x)")
    return path


def files_in(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.mark.parametrize(
    ("database", "arguments", "told"),
    [
        (None, ["--backup", "gone/copy.db"], "backup failed: there is no folder gone to write copy.db in"),
        (
            None,
            ["--backup", "notes.txt"],
            "backup failed: notes.txt exists already: a backup never overwrites",
        ),
        (None, ["--backup", "/sys/copy.db"], "backup failed: cannot write /sys/copy.db: Permission denied"),
        ("missing.db", ["--backup", "copy.db"], "backup failed: there is no database file at missing.db"),
        ("notes.txt", ["--backup", "copy.db"], "backup failed: the database notes.txt is not a store of the"),
        (None, ["--restore", "missing.db"], "restore failed: there is no backup file at missing.db"),
        (None, ["--restore", "notes.txt"], "restore failed: notes.txt is not a store of the Iron Cross bot"),
        (
            None,
            ["--restore", "empty.db"],
            "restore failed: empty.db is not a store of the Iron Cross bot (it lacks",
        ),
        (
            None,
            ["--restore", "newer.db"],
            "restore failed: newer.db is at migration 9999, unknown to this version",
        ),
        (
            "gone/games.db",
            ["--restore", "games.db"],
            "restore failed: there is no folder gone for the database",
        ),
        (
            "notes.txt",
            ["--restore", "games.db"],
            "restore failed: the database notes.txt is not a store of the",
        ),
        (
            "/sys/games.db",
            ["--restore", "games.db"],
            "restore failed: cannot write /sys/games.db: Permission denied",
        ),
    ],
)
def test_a_backup_or_restore_that_cannot_be_done_says_why_and_changes_nothing(
    live_store, monkeypatch, capsys, database, arguments, told
):
    if database is not None:
        monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{database}")
    before = files_in(live_store.parent)
    assert main(arguments) == 1
    said = capsys.readouterr()
    assert said.out == "" and said.err.startswith(told) and said.err.count("\n") == 1
    assert files_in(live_store.parent) == before


def test_backup_and_restore_take_a_path_and_one_at_a_time(bare_directory, capsys):
    for arguments, told in [
        (["--backup"], "argument --backup: expected one argument"),
        (["--restore"], "argument --restore: expected one argument"),
        (["--backup", "a.db", "--restore", "b.db"], "argument --restore: not allowed with argument --backup"),
    ]:
        with pytest.raises(SystemExit) as done:
            main(arguments)
        assert done.value.code == 2 and told in capsys.readouterr().err
    assert list(bare_directory.iterdir()) == []
