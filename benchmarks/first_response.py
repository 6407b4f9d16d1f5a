"""First responses under load: many channels act at once through the real discord.py command tree.

Each channel has a started quick battle; then every channel's player sends ``/act`` at the same
moment. For each interaction this measures the time from its arrival to its first response (the
acknowledgement Discord must see within 3 s) and to its card (the whole answer, with its
battlefield picture), and, all the while, the event loop's worst stall (how late a 5 ms sleep
wakes), the worst full garbage collection, and the CPU the burst took per action, in the bot's
process (and of it, on the event loop's thread) and in its picture workers. Each count of
channels is run the ways of :data:`WAYS`, in the same run: as before (pictures in a thread,
CPython's collector) and as the bot runs now (the picture workers of ``bot.picture_pool``, the
collector of ``bot.collector``). Also: one stored action against a plain write of the same bytes
to the same kind of file (alone with --storage; ``--folder /dev/shm`` for tmpfs).

    .venv/bin/python benchmarks/first_response.py [--channels 50 200] [--workers 2] [--unchecked]
    .venv/bin/python benchmarks/first_response.py --storage [--runs 5] [--repeats 200] [--folder /dev/shm]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

import pytest
from discord.webhook.async_ import AsyncWebhookAdapter

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import collector  # noqa: E402
from bot.services import game_service  # noqa: E402
from bot.storage.store import COMMAND, EVENTS  # noqa: E402
from bot.text_orders import unit_order  # noqa: E402
from engine.commands import Declare  # noqa: E402
from engine.dice import SeededDice  # noqa: E402
from engine.game import apply  # noqa: E402
from engine.state import Phase  # noqa: E402
from tests.bot import discord_rules  # noqa: E402
from tests.bot.discord_harness import OTTO, close_bot, open_bot, started_game  # noqa: E402
from tests.storage.statements import listening  # noqa: E402


class Way(NamedTuple):
    """How the bot is set up for a burst: where it draws, and whether its collector is tuned."""

    name: str
    pool: bool
    tuned: bool


WAYS = (
    Way("before: pictures in a thread, CPython's collector", pool=False, tuned=False),
    Way("picture workers, CPython's collector", pool=True, tuned=False),
    Way("now: picture workers, the bot's collector", pool=True, tuned=True),
)


class Stalls:
    """How late the event loop wakes a task that sleeps 5 ms: the worst is the longest stall."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.running = True

    async def watch(self) -> None:
        while self.running:
            asked = time.perf_counter()
            await asyncio.sleep(0.005)
            self.worst = max(self.worst, time.perf_counter() - asked - 0.005)


class FullCollections:
    """The full (generation-2) collections while it listens, timed through ``gc.callbacks``."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._started = 0.0

    def __call__(self, phase: str, info: dict) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._started)


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has taken (user and system), from /proc; 0 where there is none."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def first_responses(channels: int, folder: Path, way: Way, workers: int, checked: bool = True) -> str:
    """One burst of ``channels`` actions, the bot set up ``way``: its figures as one line. Unless
    ``checked``, the test double takes the burst's requests without checking them against
    Discord's API schema (which costs the bot's process a few milliseconds an action that
    Discord's servers, not the bot, spend in production)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        if way.tuned:
            collector.tune()  # as bot.discord_adapter.run does before opening the database
        bot, discord = await open_bot(
            f"sqlite+aiosqlite:///{folder / f'load-{way.pool}-{way.tuned}.db'}", monkeypatch
        )
        if way.pool:
            bot.pictures.workers = workers
            await bot.pictures.start()
        for n in range(channels):
            await started_game(bot, discord, channel=str(1000 + n))
            await discord.slash("initiative", user=OTTO, channel=str(1000 + n), choice="start")
        bot.games.dice = lambda: SeededDice(7)
        if way.tuned:
            collector.settle()  # start-up done
        arrived: dict[str, float] = {}
        first: dict[str, float] = {}
        done: dict[str, float] = {}
        request = AsyncWebhookAdapter.request

        async def timed(adapter, route, *args, **kwargs):
            key = route.webhook_token
            if route.path.endswith("/callback"):
                first.setdefault(key, time.perf_counter())
            elif route.method == "PATCH":
                done[key] = time.perf_counter()
            return await request(adapter, route, *args, **kwargs)

        monkeypatch.setattr(AsyncWebhookAdapter, "request", timed)
        if not checked:
            monkeypatch.setattr(discord_rules, "violations", lambda *_request, **_named: [])
        payloads = []
        for n in range(channels):
            payloads.append(
                discord._payload(
                    2,
                    OTTO,
                    str(1000 + n),
                    {
                        "id": "9",
                        "name": "act",
                        "type": 1,
                        "options": [
                            {"name": "unit", "type": 3, "value": "Gruppe 3"},
                            {"name": "move", "type": 3, "value": "50,39"},
                        ],
                    },
                )
            )
        stalls, collections = Stalls(), FullCollections()
        gc.callbacks.append(collections)
        watcher = asyncio.create_task(stalls.watch())
        cpu = time.process_time(), sum(cpu_seconds(pid) for pid in bot.pictures.pids), time.thread_time()
        for n, payload in enumerate(payloads):  # all at once, as Discord's gateway hands them over
            payload["token"] = f"token-{n}"
            arrived[payload["token"]] = time.perf_counter()
            bot._connection.parse_interaction_create(payload)
            await asyncio.sleep(0)  # the gateway hands each over in its own turn of the loop
        while len(done) < channels:
            await asyncio.sleep(0.01)
            if time.perf_counter() - min(arrived.values()) > 120:
                raise SystemExit(f"only {len(done)} of {channels} answered in 2 minutes")
        own = (time.process_time() - cpu[0]) / channels
        on_loop = (time.thread_time() - cpu[2]) / channels  # this task runs on the event loop's thread
        pictures = (sum(cpu_seconds(pid) for pid in bot.pictures.pids) - cpu[1]) / channels
        stalls.running = False
        await watcher
        gc.callbacks.remove(collections)
        await bot.pictures.close()
        await close_bot(bot)
        gc.unfreeze()
        gc.set_threshold(*DEFAULTS)
        gc.collect()
    to_first = sorted(first[k] - arrived[k] for k in arrived)
    to_done = sorted(done[k] - arrived[k] for k in arrived)
    worst_full = f"{max(collections.pauses) * 1000:.0f}" if collections.pauses else "none"
    return (
        f"first response p50 {statistics.median(to_first) * 1000:.0f} max {to_first[-1] * 1000:.0f} "
        f"(under 1 s: {sum(t < 1 for t in to_first)}/{channels}); "
        f"card p50 {statistics.median(to_done) * 1000:.0f} max {to_done[-1] * 1000:.0f}; "
        f"loop stall {stalls.worst * 1000:.0f} (full collections {len(collections.pauses)}, "
        f"worst {worst_full}); CPU/action {own * 1000:.1f} (on the loop {on_loop * 1000:.1f}) + "
        f"{pictures * 1000:.1f} in workers"
    )


DEFAULTS = gc.get_threshold()


class PlainWrites:
    """The same bytes as a stored action's written with the sqlite3 module, one transaction each,
    to a file in WAL mode beside the store's: timed between the store's own steps, so that both
    meet the same disk and the same neighbours on the machine."""

    def __init__(self, path: Path, state_json: str, log_json: tuple[str, str]) -> None:
        self.row = state_json, *log_json
        self.timings: list[float] = []
        self.connection = sqlite3.connect(path, isolation_level=None)
        self.connection.execute("PRAGMA journal_mode=WAL")
        self.connection.execute(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, state TEXT, command TEXT, events TEXT)"
        )

    def write(self) -> None:
        started = time.perf_counter()
        self.connection.execute("BEGIN")
        self.connection.execute("INSERT INTO t VALUES (?, ?, ?, ?)", (len(self.timings), *self.row))
        self.connection.execute("COMMIT")
        self.timings.append(time.perf_counter() - started)


async def stored_action_against_plain_write(folder: Path, repeats: int = 200) -> None:
    """One action's storing against writing the same bytes (the game's state, the command and
    its events) with the sqlite3 module in one transaction, in the same run, each plain write
    timed right after one of the store's steps. The action goes through ``GameService.act``
    with the engine's answer made beforehand, so what is timed is the store's part: the game
    loaded (with the interaction looked up), then the command, its log entry, its reaction
    window and its turn ping written, and what follows the write. The actions take turns: one
    opens the Allies' reaction window (and starts the wait for Ann), the next closes it (the
    wait for Otto again), so that each writes a window and a ping as a real action does."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        bot, discord = await open_bot(f"sqlite+aiosqlite:///{folder / 'one.db'}", monkeypatch)
        bot.games.picturing = None  # the store alone: no picture begun beside it (benchmarks/pipeline)
        await started_game(bot, discord, channel="1")
        await discord.slash("initiative", user=OTTO, channel="1", choice="start")
        store = bot.games.store
        game = await store.load("1")
        command = Declare(side="axis", order=unit_order(game.state, "axis", "Gruppe 3", move="50,39"))
        state, events = apply(game.state, command, SeededDice(7))
        plain = PlainWrites(
            folder / "plain.db",
            state.model_dump_json(),
            (COMMAND.dump_json(command).decode(), EVENTS.dump_json(events).decode()),
        )

        def answer(now, _command, _dice):
            return (game.state, []) if now.phase is Phase.REACTION else (state, events)

        monkeypatch.setattr(game_service, "apply", answer)
        loads, appends, actions = [], [], []
        for n in range(repeats):
            started = time.perf_counter()
            await store.load("1", f"load-{n}")
            loads.append(time.perf_counter() - started)
            plain.write()
        with listening(store) as sent:
            for n in range(repeats):
                started = time.perf_counter()
                await bot.games.act("1", OTTO, command, interaction_id=f"act-{n}")
                actions.append(time.perf_counter() - started)
                plain.write()
        per_action = len(sent.statements) / repeats, sent.begun / repeats
        for _ in range(repeats):
            game = await store.load("1")
            started = time.perf_counter()
            await store.append(game, OTTO, command, events, state)
            appends.append(time.perf_counter() - started)
            plain.write()
        await close_bot(bot)
    plain.connection.close()
    write = statistics.median(plain.timings)
    size = sum(map(len, plain.row))
    print(
        f"storing one action ({size:,} bytes: state, command, events) in {folder.parent}, median of "
        f"{repeats} (ms, load {os.getloadavg()[0]:.1f}):"
    )
    print(f"  plain sqlite3 write {write * 1000:.3f}")
    for name, timings in (("stored action", actions), ("store.load", loads), ("store.append", appends)):
        median = statistics.median(timings)
        print(f"  {name} {median * 1000:.3f} ({median / write:.1f}x the plain write)")
    statements, transactions = per_action
    print(f"  per stored action: {statements:.0f} statements (but BEGIN), {transactions:.0f} transactions")


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--channels", type=int, nargs="+", default=[50], help="channels acting at once")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="picture worker processes")
    parser.add_argument("--repeats", type=int, default=200, help="stored actions timed against plain writes")
    parser.add_argument("--storage", action="store_true", help="only the stored action against a plain write")
    parser.add_argument("--runs", type=int, default=1, help="times the stored action is timed, each afresh")
    parser.add_argument(
        "--folder", help="where the databases are made (default: the system's temporary folder)"
    )
    parser.add_argument(
        "--unchecked",
        action="store_true",
        help="the burst's requests not checked against Discord's API schema",
    )
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=options.folder) as folder:
        if not options.storage:
            print(f"channels acting at once, ms ({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}):")
            for channels in options.channels:
                print(f"  {channels} channels:")
                for way in WAYS:
                    figures = await first_responses(
                        channels, Path(folder), way, options.workers, checked=not options.unchecked
                    )
                    print(f"    {way.name}: {figures}")
        for run in range(options.runs):
            (Path(folder) / str(run)).mkdir()
            await stored_action_against_plain_write(Path(folder) / str(run), options.repeats)


if __name__ == "__main__":
    asyncio.run(main())
