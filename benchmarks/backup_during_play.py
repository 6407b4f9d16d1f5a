"""Backups taken while games are played: how long one takes, and how long each action takes with
and without backups being taken all the while (bot/storage/backup.py).

``--games`` channels each play a recorded quick battle (tests/storage/game_writer.py) up to its
``--played``-th command; the store is then copied (by a backup), and the rest of every game is
played on the two alike, on one with nothing else running, on the other while backups are taken
one after another. Prints the backups' size and time and the actions' time, each way.

    .venv/bin/python benchmarks/backup_during_play.py [--games 6] [--played 20]

On SQLite (a file in a temporary folder); on PostgreSQL a backup is pg_dump, another process.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.services.game_service import GameService  # noqa: E402
from bot.storage.backup import back_up, restore  # noqa: E402
from bot.storage.store import GameStore  # noqa: E402
from engine.scenarios.quick_battle import quick_battle  # noqa: E402
from tests.storage.game_writer import COMMANDS, play_on  # noqa: E402


async def played(store: GameStore, games: int) -> list[float]:
    """Each action's seconds, from the one before it in its channel, playing every game to its end."""
    seconds: list[float] = []

    async def one(channel: str, seed: int) -> None:
        last = time.perf_counter()

        def done(_: str) -> None:
            nonlocal last
            now = time.perf_counter()
            seconds.append(now - last)
            last = now

        await play_on(store, channel, seed, done)

    await asyncio.gather(*(one(f"c{n}", n) for n in range(games)))
    return seconds


def figures(label: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    median = statistics.median(ms)
    return f"  {label}: {len(ms)} actions, median {median:.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--played", type=int, default=20, help=f"commands of {COMMANDS} played before")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        url = f"sqlite+aiosqlite:///{folder / 'play.db'}"
        store = await GameStore.open(url)
        for n in range(args.games):
            await GameService(store).new_game(f"c{n}", quick_battle())
        await asyncio.gather(
            *(play_on(store, f"c{n}", n, lambda _: None, args.played) for n in range(args.games))
        )
        first = folder / "first"
        await back_up(url, first)
        size = first.stat().st_size
        twin = f"sqlite+aiosqlite:///{folder / 'twin.db'}"
        await restore(first, twin)
        alone = await played(store, args.games)
        await store.close()

        twin_store = await GameStore.open(twin)
        taken: list[float] = []

        stop = asyncio.Event()

        async def backing_up() -> None:  # one after another until the games are over
            for n in itertools.count():
                if stop.is_set():
                    return
                started = time.perf_counter()
                await back_up(twin, folder / f"during-{n}")
                taken.append(time.perf_counter() - started)
                (folder / f"during-{n}").unlink()

        backups = asyncio.create_task(backing_up())
        during = await played(twin_store, args.games)
        stop.set()
        await backups
        await twin_store.close()
    print(f"{args.games} games played from command {args.played} to {COMMANDS}; a backup is {size:,} bytes")
    print(
        f"  backups during play: {len(taken)}, median {statistics.median(taken) * 1000:.1f} ms each"
        if taken
        else "  no backup finished"
    )
    print(figures("actions alone", alone))
    print(figures("actions during backups", during))


if __name__ == "__main__":
    asyncio.run(main())
