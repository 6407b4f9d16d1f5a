"""``python -m bot``: the Discord bot when DISCORD_TOKEN is set, else the offline console table;
``python -m bot --check``: is the database ready (the container's health check);
``python -m bot --backup PATH`` / ``--restore PATH``: a consistent copy of the store, taken while
the bot runs, and the store replaced by one (:mod:`bot.storage.backup`);
``python -m bot --help``: the options and the environment it reads."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from bot.config import Settings
from bot.console import run_console
from bot.logs import configure_logging
from bot.shard_claim import ClaimLost
from bot.startup import StartupError, check, parse, shown
from bot.storage.backup import BackupError, back_up, restore

log = logging.getLogger("bot")

ENVIRONMENT = {  # what each setting is for; the rest are listed with their defaults
    "DISCORD_TOKEN": "the bot's token (Discord developer portal); unset: the offline console table",
    "DATABASE_URL": "sqlite+aiosqlite:///ironcross.db (the default) or postgresql+asyncpg://user:pw@host/db",
    "DEV_GUILD_ID": "a test server's id: --sync publishes the commands there only, at once",
    "REACTION_SECONDS": "not read yet: each game sets its own with /game new reaction_seconds:",
    "METRICS_PORT": "serve Prometheus metrics on this port (off when unset)",
    "PICTURES_DIR": "where the console table saves the battlefield after each action",
    "LOG_LEVEL": "DEBUG, INFO, WARNING or ERROR (the console table logs warnings only)",
    "LOG_JSON": "true: one JSON object a log line; false: plain text",
    "SHARD_COUNT": "the number of Discord shards of all the bot's processes together",
    "SHARD_IDS": "the shards this process runs, such as 0,1 (unset: claimed, or all)",
    "PICTURE_WORKERS": "processes drawing the battlefield pictures (unset: one a core; 0: a thread)",
    "PICTURE_NICENESS": "how far below the bot's priority they draw: 0 to 19, 10 by default",
    "BACKUP_DIR": "the running bot backs the database up into this folder (unset: no backups)",
    "BACKUP_EVERY_HOURS": "hours between two backups (default 24.0)",
    "BACKUP_KEEP": "how many backups are kept, the newest (default 7)",
}


def environment_help() -> str:
    """Every setting the bot reads from the environment (or a .env file), one a line."""
    lines = []
    for name, field in Settings.model_fields.items():
        variable = name.upper()
        default = "unset" if field.default is None else repr(field.default)
        lines.append(f"  {variable:18} {ENVIRONMENT.get(variable, f'default {default}')}")
    return "environment (or a .env file in the working directory):\n" + "\n".join(lines)


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description=(
            "The Iron Cross bot. With DISCORD_TOKEN set it runs the Discord bot; without it, the "
            "offline console table (type /help there)."
        ),
        epilog=environment_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="say whether the database is reachable and at the newest migration, then exit (0: ready)",
    )
    parser.add_argument(
        "--sync",
        action="store_true",
        help="publish the slash commands to Discord as the bot starts (globally, or to DEV_GUILD_ID); "
        "Discord allows 200 command creations a day per server",
    )
    parser.add_argument(
        "--sync-guild",
        type=int,
        metavar="ID",
        help="publish the slash commands to this one server only (they show there at once): for a "
        "test server while developing; implies --sync and overrides DEV_GUILD_ID",
    )
    copies = parser.add_mutually_exclusive_group()
    copies.add_argument(
        "--backup",
        type=Path,
        metavar="PATH",
        help="write a consistent copy of the database to the new file PATH, also while the bot runs "
        "(SQLite: its online backup API; PostgreSQL: pg_dump), then exit",
    )
    copies.add_argument(
        "--restore",
        type=Path,
        metavar="PATH",
        help="replace the database with the backup at PATH, migrated to the newest schema, then exit; "
        "refused while a bot runs on the database",
    )
    parser.add_argument(
        "--yes",
        action="store_true",
        help="with --restore: replace a database that holds what players made (games, forces...)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """With DISCORD_TOKEN set, run the Discord bot (``--sync`` publishes the slash commands);
    otherwise the offline console table. A start-up failure, or the loss of this process's
    shard claim, is logged as one line, exit 1."""
    options = arguments().parse_args(argv)
    settings = Settings()
    if options.sync_guild is not None:
        settings.dev_guild_id = options.sync_guild
    syncing = options.sync or options.sync_guild is not None
    if options.check:
        return health_check(settings)
    if options.backup is not None or options.restore is not None:
        return copy_of_the_store(settings.database_url, options.backup, options.restore, options.yes)
    if syncing and not settings.discord_token:
        print(
            "--sync needs DISCORD_TOKEN, the bot's token from the Discord developer portal, "
            "in the environment or a .env file",
            file=sys.stderr,
        )
        return 1
    if settings.discord_token:
        configure_logging(settings.log_level, settings.log_json)
        from bot.discord_adapter.run import run_discord

        try:
            asyncio.run(run_discord(settings, sync_commands=syncing))
        except StartupError as failure:
            log.error("start-up failed: %s", failure)
            return 1
        except ClaimLost as failure:
            log.error("stopped: %s", failure)
            return 1
        return 0
    configure_logging("WARNING", settings.log_json, sys.stderr)
    return run_console(sys.stdin, sys.stdout, settings.database_url, Path(settings.pictures_dir))


def health_check(settings: Settings) -> int:
    """Print one line: the database is reachable and at the newest migration (exit 0), or why
    not (exit 1)."""
    try:
        print(asyncio.run(check(settings.database_url)))
    except StartupError as failure:
        print(f"not ready: {failure}")
        return 1
    return 0


def copy_of_the_store(database_url: str, backup: Path | None, restored: Path | None, replace: bool) -> int:
    """``--backup`` or ``--restore``: one line saying what was done (exit 0), or why nothing was
    (on stderr, exit 1)."""
    try:
        parse(database_url)
        if backup is not None:
            revision = asyncio.run(back_up(database_url, backup))
            print(f"backed up {shown(database_url)} to {backup} (at migration {revision})")
        else:
            revision = asyncio.run(restore(restored, database_url, replace=replace))
            print(f"restored {restored} (made at migration {revision}) into {shown(database_url)}, migrated")
    except (BackupError, StartupError) as failure:
        print(f"{'backup' if backup is not None else 'restore'} failed: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
