"""The whole per-action pipeline, measured: engine + store + picture, as the bot runs it.

Plays random quick battles through the bot's services (``bot.app.Services``, the same game
service and picture workers the Discord and console adapters use) on a real SQLite file until
``--actions`` commands have been applied, and times each action from the command arriving to the
spectators' PNG being ready, as a Discord card gets it: the game loaded and the command decided
off the event loop, the spectators' picture begun in the picture workers while the write commits
(its sync to disk), then awaited (``PicturePool.spectators``). ``--drawn-after-commit`` draws it
only once the action is stored instead, as before (the baseline of that overlap). Right after each
action it also times the baseline: a blank white RGB picture of the same size as that action's
picture, encoded as PNG with Pillow's defaults (zlib level 6), so that on a loaded machine both
see the same load; the whole pipeline, and the wait for the picture once the action is stored,
are given as multiples of its median.

Then a burst of ``--burst`` pictures (with their alt texts) goes to the bot's picture workers
(``bot.picture_pool``) all at once: its wall time beside the same pictures drawn one after
another in this process (the one-core sum), and the CPU each worker spent on it, so it shows
whether the burst was spread over every core. It also measures the layer caches
(``renderer.base``) after ``--tables`` different tables were drawn (what they hold against their
cap, and how much the process grew), and the memory a live game costs the bot (its stored state
loaded, its lock, its cached terrain layer).

    .venv/bin/python benchmarks/pipeline.py --workers 2             # 500 actions, on disk
    .venv/bin/python benchmarks/pipeline.py --workers 2 --folder /dev/shm   # in memory
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
import struct
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import Services  # noqa: E402
from bot.picture_pool import NICENESS, PicturePool, Sight, drawn  # noqa: E402
from bot.services.game_service import GameError, GameService, Outcome  # noqa: E402
from bot.services.outcome import Scene  # noqa: E402
from bot.storage.store import GameStore  # noqa: E402
from engine.dice import SeededDice  # noqa: E402
from engine.game_state import GameState  # noqa: E402
from engine.scenarios.quick_battle import allied_forces, quick_battle, quick_tables  # noqa: E402
from engine.state import Phase  # noqa: E402
from engine.tables.generate import random_table  # noqa: E402
from renderer import render  # noqa: E402
from renderer.base import CACHE_BYTES, background, base_layer  # noqa: E402
from tests.engine.random_play import random_command  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[round(q) - 1]


async def time_pipeline(
    services: Services,
    actions: int,
    seed: int,
    prefix: str = "bench",
    outcomes: list[Outcome] | None = None,
) -> tuple[list[float], list[float], list[float], list[float]]:
    """Milliseconds per action (whole pipeline, to the spectators' PNG), to the action stored,
    waiting for the picture once the action is stored, and per blank encode of the same size
    (timed right after the action), over ``actions`` commands (each outcome kept in
    ``outcomes``, if given)."""
    rng = random.Random(seed)
    battles = [(t, a) for t in quick_tables() for a in allied_forces()]
    whole: list[float] = []
    acts: list[float] = []
    waits: list[float] = []
    blanks: list[float] = []
    game = 0
    state: GameState | None = None
    while len(whole) < actions:
        if state is None or state.phase is Phase.OVER:
            game += 1
            table, allies = battles[game % len(battles)]
            state = (await services.games.new_game(f"{prefix}-{game}", quick_battle(table, allies))).state
        command = random_command(state, rng)
        started = time.perf_counter()
        try:
            outcome = await services.games.act(f"{prefix}-{game}", "bench", command)
        except GameError:
            continue  # the random player asked for something illegal: not an action
        stored = time.perf_counter()
        png, _ = await services.pictures.spectators(outcome)
        finished = time.perf_counter()
        whole.append((finished - started) * 1000)
        acts.append((stored - started) * 1000)
        waits.append((finished - stored) * 1000)
        blanks.append(blank_encode_ms(png_size(png), repeats=1))
        state = outcome.state
        if outcomes is not None:
            outcomes.append(outcome)
    return whole, acts, waits, blanks


def png_size(png: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def burst_in_workers(outcomes: list[Outcome], workers: int, niceness: int) -> str:
    """The outcomes' spectator pictures (with their alt texts) drawn one after another in this
    process (the one-core sum), then sent to ``workers`` picture workers (``niceness`` below this
    process) all at once: the wall time of each, and the CPU each worker spent on the burst."""
    shown = [(o.state, None, o.events, o.before) for o in outcomes]
    started = time.perf_counter()
    for picture in shown:
        drawn(*picture)
    one_core = time.perf_counter() - started
    pool = PicturePool(workers, niceness)
    await pool.start()
    try:
        for picture in shown[:workers]:  # each worker has drawn these tables once (as in play)
            await pool.picture(*picture)
        cpu = {pid: cpu_seconds(pid) for pid in pool.pids}
        started = time.perf_counter()
        await asyncio.gather(*(pool.picture(*picture) for picture in shown))
        wall = time.perf_counter() - started
        spent = [cpu_seconds(pid) - before for pid, before in cpu.items()]
    finally:
        await pool.close()
    where = f"the workers' CPU {', '.join(f'{s * 1000:.0f} ms' for s in spent)}" if spent else "in a thread"
    return (
        f"{len(shown)} pictures at once: wall {wall * 1000:.0f} ms; one after another in one "
        f"process {one_core * 1000:.0f} ms ({one_core / wall:.2f}x as fast at once); {where}"
    )


def sight_ms(outcomes: list[Outcome]) -> str:
    """What the event loop spends making a spectators' picture's inputs for a worker, per
    outcome: the games and events dumped to JSON (``Sight.of``, as before), and the JSON the store
    read and wrote taken as it is (``Sight.of_scene``, as the game service begins it)."""
    dumped, kept = [], []
    for o in outcomes:
        if o.before is None:
            continue
        started = time.perf_counter()
        sight = Sight.of(o.state, None, o.events, o.before)
        dumped.append((time.perf_counter() - started) * 1000)
        scene = Scene(o.before, o.state, o.events, sight.before, sight.state, sight.events)
        started = time.perf_counter()
        Sight.of_scene(scene)
        kept.append((time.perf_counter() - started) * 1000)
    return (
        f"dumped again p50 {percentile(dumped, 50):.3f} ms, p99 {percentile(dumped, 99):.3f} ms; "
        f"the store's JSON p50 {percentile(kept, 50):.4f} ms"
    )


def rss_bytes() -> int:
    """The process's resident memory, from /proc."""
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def layer_caches(tables: int) -> str:
    """The layer caches after ``tables`` different generated tables were drawn: the bytes they
    hold against their cap, how many layers they keep, and how much the process grew."""
    base_layer.cache_clear()
    background.cache_clear()
    gc.collect()
    grown_from = rss_bytes()
    for seed in range(tables):
        render(quick_battle(random_table(seed)), None)
    gc.collect()
    grown = rss_bytes() - grown_from
    held = base_layer.cache_info().currsize + background.cache_info().currsize
    return (
        f"{tables} tables drawn: the caches hold {held / 2**20:.0f} MiB of {CACHE_BYTES / 2**20:.0f} "
        f"MiB ({len(base_layer.cache)} base layers, {len(background.cache)} backgrounds), "
        f"the process grew {grown / 2**20:.0f} MiB"
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
    parser.add_argument(
        "--folder", help="where the temporary SQLite file goes (default: the system's; /dev/shm: in memory)"
    )
    parser.add_argument(
        "--drawn-after-commit",
        action="store_true",
        help="draw each action's picture once it is stored, not while its write commits (as before)",
    )
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="picture worker processes")
    parser.add_argument("--burst", type=int, default=200, help="pictures sent to the workers at once")
    parser.add_argument(
        "--niceness", type=int, default=NICENESS, help="the workers' niceness above this process's"
    )
    parser.add_argument("--tables", type=int, default=100, help="different tables for the layer caches")
    parser.add_argument("--live", type=int, default=200, help="live games for the memory per game")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(dir=args.folder) as folder:
        url = args.database or f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
        store = await GameStore.open(url)
        dice = lambda: SeededDice(args.seed)  # noqa: E731
        services = Services.start(store, dice, picture_workers=args.workers, picture_niceness=args.niceness)
        if not args.drawn_after_commit:
            services.picture_every_action()  # as the Discord client asks
        await services.pictures.start()
        try:
            await time_pipeline(
                services, min(20, args.actions), seed=args.seed + 1000, prefix="warm-up"
            )  # warm caches, the workers and the database
            outcomes: list[Outcome] = []
            whole, acts, waits, blanks = await time_pipeline(
                services, args.actions, seed=args.seed, outcomes=outcomes
            )
        finally:
            await services.pictures.close()
        burst = await burst_in_workers(outcomes[-args.burst :], args.workers, args.niceness)
        sights = sight_ms(outcomes)
        state = (await store.load("bench-1")).state  # type: ignore[union-attr]
        size = png_size(render(state, None))
        blank = blank_encode_ms(size)
        channels = [f"live-{n}" for n in range(args.live)]
        for n, channel in enumerate(channels):
            tables = list(quick_tables())
            await services.games.new_game(channel, quick_battle(tables[n % len(tables)]))
        per_game = await live_game_bytes(store, services.games, channels)
        await services.games.close()
        await store.close()
    caches = layer_caches(args.tables)

    load = os.getloadavg()
    drawn_when = "once stored" if args.drawn_after_commit else "while its action commits"
    kept_in = "" if args.database else f" in {args.folder or tempfile.gettempdir()}"
    print(
        f"{args.actions} actions on {os.cpu_count()} cores (load average {load[0]:.2f} {load[1]:.2f} "
        f"{load[2]:.2f}), Python {sys.version.split()[0]}, {url.split(':')[0]}{kept_in}, "
        f"{args.workers} picture workers, each picture drawn {drawn_when}"
    )
    baseline = percentile(blanks, 50)
    print(
        f"  blank PNG encode of each picture's size (Pillow's defaults, timed after each action): "
        f"p50 {baseline:.1f} ms, p99 {percentile(blanks, 99):.1f} ms; "
        f"{size[0]}x{size[1]} after the run, median of 50: {blank:.1f} ms"
    )
    measured = (
        ("whole pipeline (load, engine, store, draw, encode, to the spectators' PNG)", whole),
        ("the action stored (load, engine, store)", acts),
        ("the wait for the picture once the action is stored", waits),
    )
    for what, times in measured:
        print(
            f"  {what}: p50 {percentile(times, 50):.1f} ms ({percentile(times, 50) / baseline:.2f}x), "
            f"p99 {percentile(times, 99):.1f} ms ({percentile(times, 99) / percentile(blanks, 99):.2f}x), "
            f"max {max(times):.1f} ms"
        )
    workers = f"{args.workers} workers at niceness +{args.niceness}"
    print(f"  a burst of pictures and alt texts, {workers}: {burst}")
    print(f"  a picture's inputs made on the event loop: {sights}")
    print(f"  layer caches: {caches}")
    print(f"  memory per live game: {per_game / 1024:.0f} KiB")


if __name__ == "__main__":
    asyncio.run(main())
