"""Undo in a long game: before (the whole log replayed from the start, on the event loop) and
after (replayed from the newest snapshot, off the loop), at 100, 1,000 and 5,000 commands.

A long game is built cheaply: a refereed quick battle with no last turn, played by the random
player with every order to fire left out (so nobody breaks and it never ends), its log written
straight into a real SQLite file in one transaction, with a snapshot every ``SNAPSHOT_EVERY``
commands exactly as ``GameStore.append`` keeps them. Each undo takes back one action; the
figures are the median of ``--repeats`` undos, and the worst stall of the event loop seen by a
task ticking every millisecond meanwhile.

    .venv/bin/python benchmarks/undo.py
    .venv/bin/python benchmarks/undo.py --lengths 100 1000 5000 10000 --repeats 3
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.services.game_service import GameService  # noqa: E402
from bot.storage.store import COMMAND, EVENTS, SNAPSHOT_EVERY, GameStore  # noqa: E402
from bot.storage.tables import CommandRow, GameRow, SnapshotRow  # noqa: E402
from engine.commands import Declare, Fire, React, UndoActions  # noqa: E402
from engine.dice import SeededDice  # noqa: E402
from engine.errors import IllegalCommand  # noqa: E402
from engine.game import apply, replay  # noqa: E402
from engine.referee import actions_to_undo, live_history  # noqa: E402
from engine.scenarios.quick_battle import quick_battle  # noqa: E402
from tests.engine.random_play import random_command  # noqa: E402

REFEREE = "ref"


def fires(command) -> bool:
    order = command.order if isinstance(command, Declare | React) else None
    return any(isinstance(action, Fire) for action in getattr(order, "actions", ()))


async def write_long_game(store: GameStore, channel: str, commands: int, seed: int) -> None:
    """A game of ``commands`` commands, stored as the store keeps one (log, state, snapshots)."""
    state = quick_battle().model_copy(update={"last_turn": None, "random_length": False})
    state.referees = [REFEREE]
    initial = state.model_dump_json()
    rng, dice = random.Random(seed), SeededDice(seed)
    rows: list = []
    seq = 0
    while seq < commands:
        command = random_command(state, rng)
        if fires(command):
            continue
        try:
            state, events = apply(state, command, dice)
        except IllegalCommand:
            continue
        seq += 1
        as_json = state.model_dump_json()
        rows.append(
            CommandRow(
                channel_id=channel,
                seq=seq,
                user_id="player",
                command=COMMAND.dump_json(command).decode(),
                events=EVENTS.dump_json(events).decode(),
            )
        )
        if seq % SNAPSHOT_EVERY == 0:
            rows.append(SnapshotRow(channel_id=channel, seq=seq, state=as_json))
    async with store.sessions() as session, session.begin():
        session.add(GameRow(channel_id=channel, version=seq, state=as_json))
        await session.flush()
        session.add_all([SnapshotRow(channel_id=channel, seq=0, state=initial), *rows])


async def undo_by_full_replay(service: GameService, channel: str) -> None:
    """The undo as it was: the whole log read and replayed from the start, on the event loop."""
    game = await service.store.load(channel)
    initial, history = await service.store.history(channel)
    undo = UndoActions(referee=REFEREE, reason="bench", undone=actions_to_undo(history, 1))
    state, produced = replay(initial, live_history([*history, (undo, [])]))
    await service.store.append(game, REFEREE, undo, produced[-1], state)


async def timed(action) -> tuple[float, float]:
    """Seconds the action took, and the longest the event loop went without running a tick."""
    worst, running = 0.0, True

    async def ticker() -> None:
        nonlocal worst
        last = time.perf_counter()
        while running:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            worst, last = max(worst, now - last), now

    watcher = asyncio.create_task(ticker())
    await asyncio.sleep(0.01)
    started = time.perf_counter()
    await action()
    took = time.perf_counter() - started
    running = False
    await watcher
    return took, worst


def median(timings: list[tuple[float, float]], which: int) -> float:
    return statistics.median(timing[which] for timing in timings)


def worst(timings: list[tuple[float, float]]) -> float:
    return max(stall for _, stall in timings)


async def measure(lengths: list[int], repeats: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await GameStore.open(f"sqlite+aiosqlite:///{folder}/undo.db")
        service = GameService(store)
        _, idle = await timed(partial(asyncio.sleep, 1.0))
        print(f"snapshot every {SNAPSHOT_EVERY} commands; median of {repeats} undos of one action each;")
        print(f"stall: the loop's worst gap in an undo, median and worst (idle: {idle * 1000:.0f} ms)")
        print(f"{'commands':>9} {'before s':>9} {'stall s':>13} {'after ms':>9} {'stall ms':>13} {'same':>5}")
        for length in lengths:
            before_channel, after_channel = f"before-{length}", f"after-{length}"
            for channel in (before_channel, after_channel):
                await write_long_game(store, channel, length, seed=length)
            before = [
                await timed(partial(undo_by_full_replay, service, before_channel)) for _ in range(repeats)
            ]
            after = [
                await timed(partial(service.undo, after_channel, REFEREE, 1, "bench")) for _ in range(repeats)
            ]
            same = (await store.load(before_channel)).state == (await store.load(after_channel)).state
            after_ms = [(took * 1000, stall * 1000) for took, stall in after]
            print(
                f"{length:>9,} {median(before, 0):>9.2f} {median(before, 1):>6.2f} {worst(before):>6.2f} "
                f"{median(after_ms, 0):>9.1f} {median(after_ms, 1):>6.1f} {worst(after_ms):>6.1f} "
                f"{'yes' if same else 'NO':>5}"
            )
        started = time.perf_counter()
        await store.history(f"after-{lengths[-1]}")
        read = time.perf_counter() - started
        print(f"reading the whole log of {lengths[-1]:,} commands alone (GameStore.history): {read:.2f} s")
        await service.close()
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lengths", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(measure(args.lengths, args.repeats))


if __name__ == "__main__":
    main()
