"""``python -m bot``: the Discord bot when DISCORD_TOKEN is set, else the offline console table."""

from __future__ import annotations

import os
import sys

from bot.console import run_console


def main() -> int:
    if os.environ.get("DISCORD_TOKEN"):
        print("The Discord adapter is not built yet; running the console table.", file=sys.stderr)
    return run_console(sys.stdin, sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main())
