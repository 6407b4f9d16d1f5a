"""``python -m bot``: the Discord bot when DISCORD_TOKEN is set, else the offline console table."""

from __future__ import annotations

import sys

from bot.config import Settings
from bot.console import run_console


def main() -> int:
    settings = Settings()
    if settings.discord_token:
        print("The Discord adapter is not built yet; running the console table.", file=sys.stderr)
    return run_console(sys.stdin, sys.stdout, settings.database_url)


if __name__ == "__main__":
    raise SystemExit(main())
