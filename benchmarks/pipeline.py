"""The whole per-action pipeline, measured: engine + store + render.

Plays random quick battles through ``GameService`` on a real SQLite file (the same service the
Discord and console adapters use) until ``--actions`` commands have been applied, and times
each action from the command arriving to the spectators' PNG being ready. Also times the
render alone beside encoding a blank PNG of the same size, a picture drawn by the bot's picture
workers (``bot.picture_pool``) beside one drawn in the bot's own process, and measures the
memory a live game costs the bot (its stored state loaded, its lock, its cached terrain layer).

    .venv/bin/python benchmarks/pipeline.py            # 500 actions
    .venv/bin/python benchmarks/pipeline.py --actions 2000 --database sqlite+aiosqlite:///b.db
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import io
import os
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.picture_pool import PicturePool, drawn  # noqa: E402
from bot.services.game_service import GameError, GameService, Outcome  # noqa: E402
from bot.storage.store import GameStore  # noqa: E402
from engine.dice import SeededDice  # noqa: E402
from engine.game_state import GameState  # noqa: E402
from engine.scenarios.quick_battle import allied_forces, quick_battle, quick_tables  # noqa: E402
from engine.state import Phase  # noqa: E402
from renderer import render  # noqa: E402
from renderer.base import base_layer  # noqa: E402
from tests.engine.random_play import random_command  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[round(q) - 1]


async def time_pipeline(
    service: GameService,
    actions: int,
    seed: int,
    prefix: str = "bench",
    outcomes: list[Outcome] | None = None,
) -> tuple[list[float], list[float]]:
    """Milliseconds per action (whole pipeline) and per render, over ``actions`` commands (each
    outcome kept in ``outcomes``, if given)."""
    rng = random.Random(seed)
    battles = [(t, a) for t in quick_tables() for a in allied_forces()]
    whole: list[float] = []
    renders: list[float] = []
    game = 0
    state: GameState | None = None
    while len(whole) < actions:
        if state is None or state.phase is Phase.OVER:
            game += 1
            table, allies = battles[game % len(battles)]
            state = (await service.new_game(f"{prefix}-{game}", quick_battle(table, allies))).state
        command = random_command(state, rng)
        started = time.perf_counter()
        try:
            outcome = await service.act(f"{prefix}-{game}", "bench", command)
        except GameError:
            continue  # the random player asked for something illegal: not an action
        drawn = time.perf_counter()
        render(outcome.state, None, last_events=tuple(outcome.events))
        finished = time.perf_counter()
        whole.append((finished - started) * 1000)
        renders.append((finished - drawn) * 1000)
        state = outcome.state
        if outcomes is not None:
            outcomes.append(outcome)
    return whole, renders


async def pictures_in_workers(outcomes: list[Outcome], workers: int) -> str:
    """The outcomes' spectator pictures (with their alt texts) drawn in the bot's process, then
    by ``workers`` picture workers one after another and all at once: milliseconds per picture,
    and the CPU each took in the bot's process."""
    shown = [(o.state, None, o.events, o.before) for o in outcomes]
    started, cpu = time.perf_counter(), time.process_time()
    for picture in shown:
        drawn(*picture)
    here = (time.perf_counter() - started) / len(shown), (time.process_time() - cpu) / len(shown)
    pool = PicturePool(workers)
    await pool.start()
    try:
        started, cpu = time.perf_counter(), time.process_time()
        for picture in shown:
            await pool.picture(*picture)
        one = (time.perf_counter() - started) / len(shown), (time.process_time() - cpu) / len(shown)
        started, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(pool.picture(*picture) for picture in shown))
        together = (time.perf_counter() - started) / len(shown), (time.process_time() - cpu) / len(shown)
    finally:
        await pool.close()
    return ", ".join(
        f"{how} {wall * 1000:.1f} ms ({cpu * 1000:.1f} ms CPU in the bot's process)"
        for how, (wall, cpu) in (("in process", here), ("one at a time", one), ("all at once", together))
    )


def blank_encode_ms(size: tuple[int, int], repeats: int = 50) -> float:
    """Median time to encode a blank RGB picture of ``size`` as PNG with Pillow's defaults."""
    blank = Image.new("RGB", size, (255, 255, 255))
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        blank.save(io.BytesIO(), format="PNG")
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


async def live_game_bytes(store: GameStore, service: GameService, channels: list[str]) -> float:
    """Bytes held per live game: the game loaded from storage, its channel lock, and (shared
    between games on the same table) its cached terrain layer, averaged over ``channels``."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    held = []
    for channel in channels:
        game = await store.load(channel)
        assert game is not None
        held.append(game)
        service._locks[channel]  # noqa: B018 - the lock the service keeps per channel
        base_layer(game.state.terrain, game.state.table, 12)
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    return grown / len(channels)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", help="a DATABASE_URL (default: a temporary SQLite file)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="picture worker processes")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        url = args.database or f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
        store = await GameStore.open(url)
        service = GameService(store, dice=lambda: SeededDice(args.seed))
        await time_pipeline(
            service, 20, seed=args.seed + 1000, prefix="warm-up"
        )  # warm caches and the database
        outcomes: list[Outcome] = []
        whole, renders = await time_pipeline(service, args.actions, seed=args.seed, outcomes=outcomes)
        in_workers = await pictures_in_workers(outcomes[-200:], args.workers)
        state = (await store.load("bench-1")).state  # type: ignore[union-attr]
        size = Image.open(io.BytesIO(render(state, None))).size
        blank = blank_encode_ms(size)
        channels = [f"live-{n}" for n in range(200)]
        for n, channel in enumerate(channels):
            tables = list(quick_tables())
            await service.new_game(channel, quick_battle(tables[n % len(tables)]))
        per_game = await live_game_bytes(store, service, channels)
        await service.close()
        await store.close()

    print(
        f"{args.actions} actions on {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
        f"{url.split(':')[0]}"
    )
    print(
        f"  whole pipeline (engine + store + render): p50 {percentile(whole, 50):.1f} ms, "
        f"p99 {percentile(whole, 99):.1f} ms, max {max(whole):.1f} ms"
    )
    print(f"  render alone: p50 {percentile(renders, 50):.1f} ms, p99 {percentile(renders, 99):.1f} ms")
    print(
        f"  blank {size[0]}x{size[1]} PNG encode: {blank:.1f} ms "
        f"(render p50 = {percentile(renders, 50) / blank:.2f}x)"
    )
    print(f"  a picture and its alt text, per picture, {args.workers} workers: {in_workers}")
    print(f"  memory per live game: {per_game / 1024:.0f} KiB")


if __name__ == "__main__":
    asyncio.run(main())
