"""Garbage-collection pauses with many armed reaction windows, as CPython leaves the collector and
as the bot sets it up (``bot.collector``: thresholds, and what start-up made frozen).

For each count of windows, a process's worth of timers is armed (``ReactionTimers`` on the real
clock, each window a task asleep until its deadline); then actions' garbage is made (a stored
game parsed again and again, a few kept for a while, as a busy bot's loads do) and every
collection is timed. Reported: the worst full (generation-2) collection that came by itself, a
full collection forced at the end, and the worst young one, in milliseconds.

    .venv/bin/python benchmarks/gc_pauses.py [--windows 10000 100000] [--loads 3000]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import time
from collections import deque
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import collector  # noqa: E402
from bot.services.game_service import GameService  # noqa: E402,F401  (the bot's modules, loaded)
from engine.game_state import GameState  # noqa: E402
from engine.runtime import ReactionTimers, SystemClock  # noqa: E402
from engine.scenarios.quick_battle import quick_battle  # noqa: E402


class Pauses:
    """Every collection's duration, by generation, heard through ``gc.callbacks``."""

    def __init__(self) -> None:
        self.by_generation: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._started = 0.0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.by_generation[info["generation"]].append((time.perf_counter() - self._started) * 1000)

    def worst(self, generation: int) -> str:
        pauses = self.by_generation[generation]
        return f"{max(pauses):.1f}" if pauses else "none"


async def one_case(windows: int, loads: int, tuned: bool) -> str:
    """Arm ``windows`` timers, set the collector up (or not), make ``loads`` loads' garbage."""
    timers = ReactionTimers(SystemClock(), lambda _key: asyncio.sleep(0))
    far = datetime.now(UTC) + timedelta(days=1)
    for n in range(windows):
        timers.arm((str(n), 1), far + timedelta(seconds=n))
    await asyncio.sleep(0)  # every timer asleep on its deadline
    if tuned:
        collector.tune()
        collector.settle()
    as_json = quick_battle().model_dump_json()
    pauses = Pauses()
    gc.callbacks.append(pauses)
    kept: deque[GameState] = deque(maxlen=20)  # games a busy bot holds a while (its channels)
    try:
        for _ in range(loads):
            kept.append(GameState.model_validate_json(as_json))
            if len(kept) % 10 == 0:
                await asyncio.sleep(0)
        gc.callbacks.remove(pauses)
        started = time.perf_counter()
        gc.collect()
        forced = (time.perf_counter() - started) * 1000
    finally:
        if pauses in gc.callbacks:
            gc.callbacks.remove(pauses)
        await timers.close()
        gc.unfreeze()
        gc.set_threshold(*DEFAULTS)
        gc.collect()
    return (
        f"full by itself {pauses.worst(2)}, full forced {forced:.1f}, "
        f"young worst {max(pauses.worst(0), pauses.worst(1), key=_number)}"
    )


def _number(text: str) -> float:
    return 0.0 if text == "none" else float(text)


DEFAULTS = gc.get_threshold()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--windows", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--loads", type=int, default=3000, help="games parsed while the pauses are timed")
    options = parser.parse_args()
    print("garbage collection pauses (ms):")
    for windows in options.windows:
        for tuned in (False, True):
            how = "the bot's collector" if tuned else "CPython's defaults "
            print(f"  {windows:>7,} armed windows, {how}: {await one_case(windows, options.loads, tuned)}")


if __name__ == "__main__":
    asyncio.run(main())
