"""What the event loop gets done while the stand-in decides (bot.services.stand_in_service): its
decisions taken in a thread of the bot's process (as before) and in a worker process
(bot.worker_pool, the pictures' workers). While the stand-in decides on games taken from a battle
it plays against a random player, a ticker on the loop wakes every millisecond and does a piece of
an answer's work (a game parsed, as a command's load does). The figures: how late the ticker woke
and how long its piece of work took (p50, p99, worst, ms), which every answer of the bot would
wait out too, and how long each decision took from the loop's side (p50, p99, ms).

    .venv/bin/python benchmarks/stand_in_loop.py                  # 40 decisions each way
    .venv/bin/python benchmarks/stand_in_loop.py --decisions 2
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import Services  # noqa: E402
from bot.picture_pool import PicturePool  # noqa: E402
from bot.services.game_service import GameService  # noqa: E402
from bot.storage.store import GameStore  # noqa: E402
from engine.dice import SeededDice  # noqa: E402
from engine.errors import IllegalCommand  # noqa: E402
from engine.game import apply, awaiting  # noqa: E402
from engine.game_state import GameState  # noqa: E402
from engine.scenarios.quick_battle import quick_battle  # noqa: E402
from engine.stand_in import stand_in_command  # noqa: E402
from engine.state import Phase  # noqa: E402
from tests.engine.random_play import random_command  # noqa: E402

TICK = 0.001  # seconds the ticker sleeps


def decisions(count: int, seed: int = 1) -> list[tuple[GameState, str]]:
    """``count`` games waiting for the Axis (the stand-in's side), from one battle or more."""
    found: list[tuple[GameState, str]] = []
    while len(found) < count:
        state, dice, rng = quick_battle(), SeededDice(seed), random.Random(seed)
        for number in range(2000):
            if state.phase is Phase.OVER or len(found) >= count:
                break
            side = awaiting(state) or "axis"
            if side == "axis":
                found.append((state, side))
                state, _ = apply(state, stand_in_command(state, side, number, 1), dice)
                continue
            for _ in range(40):
                try:
                    state, _ = apply(state, random_command(state, rng), dice)
                    break
                except IllegalCommand:
                    continue
            else:
                state, _ = apply(state, stand_in_command(state, side, number, 1), dice)
        seed += 1
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def measured(workers: int, games: list[tuple[GameState, str]], database: str) -> dict[str, float]:
    """The ticker's lateness and the decisions' times, deciding with ``workers`` processes."""
    store = await GameStore.open(database)
    pool = PicturePool(workers)
    await pool.start()  # spawned and warmed before the figures
    stand_ins = Services.around(GameService(store), pool).stand_ins
    late: list[float] = []
    worked: list[float] = []
    took: list[float] = []
    deciding = True
    answer_work = games[0][0].model_dump_json()

    async def ticker() -> None:
        while deciding:
            started = time.perf_counter()
            await asyncio.sleep(TICK)
            woke = time.perf_counter()
            late.append((woke - started - TICK) * 1000)
            GameState.model_validate_json(answer_work)
            worked.append((time.perf_counter() - woke) * 1000)

    ticking = asyncio.create_task(ticker())
    try:
        for seed, (state, side) in enumerate(games):
            started = time.perf_counter()
            await stand_ins.decide(state, side, seed)
            took.append((time.perf_counter() - started) * 1000)
    finally:
        deciding = False
        await ticking
        await pool.close()
        await store.close()
    return {
        "late p50": statistics.median(late),
        "late p99": percentile(late, 0.99),
        "late worst": max(late),
        "work p50": statistics.median(worked),
        "work p99": percentile(worked, 0.99),
        "work worst": max(worked),
        "decision p50": statistics.median(took),
        "decision p99": percentile(took, 0.99),
    }


async def run(count: int) -> None:
    games = decisions(count)
    with tempfile.TemporaryDirectory() as folder:
        for name, workers in (("a thread (before)", 0), ("a worker process", 1)):
            figures = await measured(workers, games, f"sqlite+aiosqlite:///{Path(folder) / f'{workers}.db'}")
            shown = ", ".join(f"{what} {value:.1f} ms" for what, value in figures.items())
            print(f"{count} decisions in {name}: {shown}")


def main() -> None:
    shown = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=shown)
    parser.add_argument("--decisions", type=int, default=40, help="decisions taken each way")
    asyncio.run(run(parser.parse_args().decisions))


if __name__ == "__main__":
    main()
