"""``python -m bot``: the Discord bot when DISCORD_TOKEN is set, else the offline console table."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.config import Settings
from bot.console import run_console
from bot.logs import configure_logging


def main() -> int:
    """With DISCORD_TOKEN set, run the Discord bot (``--sync`` publishes the slash commands);
    otherwise the offline console table."""
    settings = Settings()
    if settings.discord_token:
        configure_logging(settings.log_level, settings.log_json)
        from bot.discord_adapter.run import run_discord

        asyncio.run(run_discord(settings, sync_commands="--sync" in sys.argv))
        return 0
    configure_logging("WARNING", settings.log_json)
    return run_console(sys.stdin, sys.stdout, settings.database_url, Path(settings.pictures_dir))


if __name__ == "__main__":
    raise SystemExit(main())
