"""The game-over replay of long games, and reading a whole log, each beside a baseline measured
in the same run.

Replay: the story and GIF of a game of 1,000 and of 5,000 commands (refereed quick battles with
no last turn, played by the random player with no shot, written to a real SQLite file as
``benchmarks/undo.py`` writes them), as ``/game replay`` makes them: the log read, the game told
and drawn frame by frame to a file. Peak memory is the process's resident size above what it had
just before (sampled every 5 ms: Pillow's pixels are not Python objects, so tracemalloc misses
them). The baseline is the replay of a whole ordinary quick battle (seed 3, played to its end).

Log: ``GameStore.history`` at 10, 1,000 and 5,000 commands, beside the log read as it was
before (ORM rows, parsed with the garbage collector running), median of three.

    .venv/bin/python benchmarks/replay.py
    .venv/bin/python benchmarks/replay.py --lengths 1000 5000 --logs 10 1000 5000

Measured on the 2-core shared machine, with others' tests running (before this change, the
replay held every frame: +1.7-1.9 GB at 1,000 commands, a MemoryError past 5.9 GB at 5,000):

    replay of          activations  frames  time s  peak MiB  had MiB  GIF MiB
    a quick battle              96      96     3.7        34      108     1.25
    1,000 commands             512     150     6.8         8      152     2.10
    5,000 commands           2,573     150    12.3         2      200     3.05

(the process keeps what the runs before took: each long game alone, in a fresh process holding
its log, peaked at +24 MiB at 1,000 commands and +23 MiB at 5,000)

With each frame's caption (issue 32), measured beside the code before it in the same session
(CPU time, best of three, the runs interleaved: the shared machine's wall times varied twofold):
the quick battle's replay 0.86-1.00 s against 0.94-0.98 s, 1,000 commands' 1.91 s against
1.72-1.79 s; peaks +22 and +12 MiB against +34 and +8; and a larger GIF, each frame keeping the
caption's lines as well as what moved: the quick battle's 1.69 MiB (was 1.22), 1,000 commands'
3.55 MiB (was 2.13).

    whole log of   history ms  us/command  before ms  us/command
    10 commands           3.5         350        5.7         566
    1,000 commands      165.3         165      213.8         214
    5,000 commands      578.1         116    1,871.8         374
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.undo import write_long_game  # noqa: E402
from bot.services.replay_service import write_game_replay  # noqa: E402
from bot.storage.store import COMMAND, EVENTS, GameStore  # noqa: E402
from bot.storage.tables import CommandRow  # noqa: E402
from engine.scenarios.quick_battle import quick_battle  # noqa: E402
from tests.engine.random_play import play_random_game  # noqa: E402

MIB = 2**20


def resident() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096


class PeakMemory:
    """The most the process holds above what it held on entering, sampled every 5 ms."""

    def __enter__(self) -> PeakMemory:
        self.before = self.peak = resident()
        self.running = True
        self.watcher = threading.Thread(target=self.watch, daemon=True)
        self.watcher.start()
        return self

    def watch(self) -> None:
        while self.running:
            self.peak = max(self.peak, resident())
            time.sleep(0.005)

    def __exit__(self, *_: object) -> None:
        self.running = False
        self.watcher.join()
        self.peak = max(self.peak, resident())

    @property
    def above(self) -> float:
        return (self.peak - self.before) / MIB


def replay_line(name: str, start, log, final) -> str:
    with tempfile.TemporaryFile() as movie, PeakMemory() as memory:
        began = time.perf_counter()
        made = write_game_replay(start, log, final, movie)
        took = time.perf_counter() - began
        size = movie.tell()
    return (
        f"{name:<28} {made.activations:>11,} {made.frames:>7} {took:>8.1f} {memory.above:>9.0f} "
        f"{memory.before / MIB:>6.0f} {size / MIB:>8.2f}"
    )


async def old_history(store: GameStore, channel: str) -> None:
    """The whole log read as before: ORM rows, parsed with the garbage collector running."""
    await store.state_at(channel, 0)
    query = CommandRow.__table__.select().where(CommandRow.channel_id == channel).order_by(CommandRow.seq)
    async with store.sessions() as session:
        rows = [row for row in (await session.execute(query)).all()]
    await asyncio.to_thread(
        lambda: [(COMMAND.validate_json(row.command), EVENTS.validate_json(row.events)) for row in rows]
    )


async def median_ms(read, repeats: int = 3) -> float:
    timings = []
    for _ in range(repeats):
        began = time.perf_counter()
        await read()
        timings.append((time.perf_counter() - began) * 1000)
    return statistics.median(timings)


async def measure(lengths: list[int], logs: list[int], battle: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await GameStore.open(f"sqlite+aiosqlite:///{folder}/replay.db")
        print(
            f"{'replay of':<28} {'activations':>11} {'frames':>7} {'time s':>8} {'peak MiB':>9} "
            f"{'had':>6} {'GIF MiB':>8}"
        )
        if battle:
            start = quick_battle()
            final, history = play_random_game(start, 3)
            print(replay_line("a quick battle (baseline)", start, history, final), flush=True)
        for length in lengths:
            channel = f"replay-{length}"
            await write_long_game(store, channel, length, seed=length)
            start, log = await store.history(channel)
            final = (await store.load(channel)).state
            print(replay_line(f"{length:,} commands", start, log, final), flush=True)
        heads = f"{'history ms':>11} {'us/command':>11} {'before ms':>10} {'us/command':>11}"
        print(f"\n{'whole log of':<14} {heads}")
        for length in logs:
            channel = f"log-{length}"
            await write_long_game(store, channel, length, seed=length)
            now = await median_ms(lambda channel=channel: store.history(channel))
            before = await median_ms(lambda channel=channel: old_history(store, channel))
            print(
                f"{length:>8,} cmds {now:>11.1f} {now * 1000 / length:>11.0f} "
                f"{before:>10.1f} {before * 1000 / length:>11.0f}",
                flush=True,
            )
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lengths", type=int, nargs="*", default=[1000, 5000])
    parser.add_argument("--logs", type=int, nargs="*", default=[10, 1000, 5000])
    parser.add_argument("--no-battle", action="store_true", help="leave out the quick battle's baseline")
    args = parser.parse_args()
    asyncio.run(measure(args.lengths, args.logs, not args.no_battle))


if __name__ == "__main__":
    main()
