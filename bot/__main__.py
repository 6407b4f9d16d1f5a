"""``python -m bot``: the Discord bot when DISCORD_TOKEN is set, else the offline console table;
``python -m bot --check``: is the database ready (the container's health check)."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

from bot.config import Settings
from bot.console import run_console
from bot.logs import configure_logging
from bot.shard_claim import ClaimLost
from bot.startup import StartupError, check

log = logging.getLogger("bot")


def main() -> int:
    """With DISCORD_TOKEN set, run the Discord bot (``--sync`` publishes the slash commands);
    otherwise the offline console table. A start-up failure, or the loss of this process's
shard claim, is logged as one line, exit 1."""
    settings = Settings()
    if "--check" in sys.argv:
        return health_check(settings)
    if settings.discord_token:
        configure_logging(settings.log_level, settings.log_json)
        from bot.discord_adapter.run import run_discord

        try:
            asyncio.run(run_discord(settings, sync_commands="--sync" in sys.argv))
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


if __name__ == "__main__":
    raise SystemExit(main())
