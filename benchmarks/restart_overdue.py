"""A restart that finds many reaction windows already past their deadline.

Builds ``--windows`` channels, each with a quick battle in an open reaction window that fell due
an hour ago (one game played into a window, its rows copied with direct inserts), on a real
SQLite file. Then starts the bot's game service and turn pings on it, in real time, as the
Discord client's start-up does, and reports how long it took until every window was closed,
how many failed for good (must be 0), how many were closed twice (must be 0) and how many
attempts had to be made again after a failure (a locked database, a pool timeout).

    .venv/bin/python benchmarks/restart_overdue.py                 # 10,000 windows
    .venv/bin/python benchmarks/restart_overdue.py --windows 1000 --at-once 8
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.services.game_service import GameService  # noqa: E402
from bot.services.ping_service import TurnPings  # noqa: E402
from bot.storage.store import GameStore  # noqa: E402
from engine import runtime  # noqa: E402
from engine.runtime import SystemClock, VirtualClock  # noqa: E402
from tests.bot.overdue import store_overdue_windows  # noqa: E402


class Failures(logging.Handler):
    """Counts the attempts that failed, by what went wrong."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.causes: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        cause = record.exc_info[1] if record.exc_info else None
        self.causes[type(cause).__name__ if cause else record.getMessage()[:60]] += 1


async def restart(database_url: str, windows: int) -> None:
    clock = SystemClock()
    started = time.perf_counter()
    await store_overdue_windows(database_url, windows, VirtualClock(clock.now() - timedelta(hours=1)))
    print(f"built {windows:,} overdue windows in {time.perf_counter() - started:.1f} s")

    failures = Failures()
    logging.getLogger().addHandler(failures)
    store = GameStore(database_url)
    closed: Counter[str] = Counter()

    async def announce(channel_id: str, outcome: object) -> None:
        closed[channel_id] += 1

    games = GameService(store, clock=clock, on_window_closed=announce)
    TurnPings(games)  # as in the bot: each close also follows the turn pings
    started = time.perf_counter()
    await games.resume()
    while games.timers.armed or games.timers._firing:
        await asyncio.sleep(0.05)
    took = time.perf_counter() - started
    still_open = len(await store.open_windows())
    print(f"all closed in {took:.1f} s ({windows / took:.0f} windows/s), {runtime.FIRING_AT_ONCE} at once")
    print(f"closed: {len(closed):,}; closed twice: {sum(n > 1 for n in closed.values())}")
    print(f"failed for good (still open): {still_open}")
    print(f"attempts made again after a failure: {games.timers.retries} {dict(failures.causes)}")
    await games.close()
    await store.close()
    logging.getLogger().removeHandler(failures)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--windows", type=int, default=10_000)
    parser.add_argument(
        "--at-once", type=int, default=runtime.FIRING_AT_ONCE, help="deadlines firing at once"
    )
    parser.add_argument("--database", help="an SQLAlchemy URL (default: a new SQLite file)")
    args = parser.parse_args()
    runtime.FIRING_AT_ONCE = args.at_once
    with tempfile.TemporaryDirectory() as folder:
        url = args.database or f"sqlite+aiosqlite:///{Path(folder) / 'restart.db'}"
        asyncio.run(restart(url, args.windows))


if __name__ == "__main__":
    main()
