"""A restart that finds many reaction windows still open and not yet due: what arming them all
again costs, in time and in memory.

Stores ``--windows`` channels, each with a quick battle in an open reaction window due in an
hour (one game played into a window, its rows copied with direct inserts), on a real SQLite
file. Then starts the bot's game service on it, as the Discord client's start-up does, and
reports how long ``resume`` took to read and arm every window, how much the process grew (its
resident memory), how many tasks it runs for them, and a full garbage collection's time; beside
the same figures for a store with no window at all, in the same run.

    .venv/bin/python benchmarks/restart_windows.py                  # 100,000 windows
    .venv/bin/python benchmarks/restart_windows.py --windows 10000
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.services.game_service import GameService  # noqa: E402
from bot.storage.store import GameStore  # noqa: E402
from engine.runtime import SystemClock, VirtualClock  # noqa: E402
from tests.bot.overdue import store_overdue_windows  # noqa: E402

PAGE = os.sysconf("SC_PAGE_SIZE")


def resident_mib() -> float:
    """The process's resident memory now, in MiB (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE / 2**20


async def restart(database_url: str) -> str:
    """Resume a game service on the store; its figures."""
    store = GameStore(database_url)
    games = GameService(store, clock=SystemClock())
    gc.collect()
    tasks, memory, started = len(asyncio.all_tasks()), resident_mib(), time.perf_counter()
    await games.resume()
    await asyncio.sleep(0)  # every timer asleep
    took = time.perf_counter() - started
    grew, tasks = resident_mib() - memory, len(asyncio.all_tasks()) - tasks
    collected = time.perf_counter()
    gc.collect()
    collection = (time.perf_counter() - collected) * 1000
    armed = len(games.timers.armed)
    await games.close()
    await store.close()
    return (
        f"{armed:>7,} armed in {took:.2f} s, +{grew:.0f} MiB resident, {tasks} tasks more, "
        f"a full collection {collection:.0f} ms"
    )


async def measure(windows: int) -> None:
    due_in_an_hour = VirtualClock(SystemClock().now() + timedelta(hours=1))
    with tempfile.TemporaryDirectory() as folder:
        empty = f"sqlite+aiosqlite:///{Path(folder) / 'empty.db'}"
        full = f"sqlite+aiosqlite:///{Path(folder) / 'full.db'}"
        await (await GameStore.open(empty)).close()  # migrated, no game
        await store_overdue_windows(full, windows, due_in_an_hour)
        print("restart with open windows (not yet due):")
        print(f"  no window:      {await restart(empty)}")
        print(f"  {windows:,} windows: {await restart(full)}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--windows", type=int, default=100_000)
    asyncio.run(measure(parser.parse_args().windows))


if __name__ == "__main__":
    main()
