"""Several bot processes on one PostgreSQL: how many actions a second 1, 2 and 3 processes apply
together, and how long a restarted process takes to fire 10,000 overdue reaction windows.

Starts a throw-away local PostgreSQL (its binaries must be installed, as for the tests). Each
process is tests/bot/deadline_worker.py: the real client, services, timers and claim loop, with
Discord stubbed at the HTTP boundary.

- Actions: each process plays ``--channels`` channels of its own, ``--at-once`` at a time; in
  each, a German detachment advances (opening a reaction window) and the Americans answer "no
  reaction": two actions, each loaded once and written once with the version check. Reported:
  all the processes' actions over the time from the first start to the last end.
- Overdue: ``--overdue`` channels each with a window that fell due an hour ago (one game played
  into a window, its rows copied), then one process started on them: reported, the time until
  its claim loop has claimed and closed every one (each close once, its "closed" post made).

    .venv/bin/python benchmarks/scale_out.py
    .venv/bin/python benchmarks/scale_out.py --channels 100 --overdue 2000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import func, select  # noqa: E402

from bot.storage.store import GameStore  # noqa: E402
from bot.storage.tables import DeadlinePostRow, WindowRow  # noqa: E402
from engine.runtime import SystemClock, VirtualClock  # noqa: E402
from tests.bot.overdue import store_overdue_windows  # noqa: E402
from tests.storage.databases import migrate  # noqa: E402
from tests.storage.postgres import PostgresServer  # noqa: E402


def worker(url: str, out: Path, channels: list[str], *options: str) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.bot.deadline_worker",
            url,
            str(out),
            ",".join(channels) or "-",
            *options,
        ],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def go(workers: list[subprocess.Popen]) -> None:
    for process in workers:
        assert process.stdout.readline().strip() == "ready"
    for process in workers:
        process.stdin.write("go\n")
        process.stdin.flush()


def stop(workers: list[subprocess.Popen]) -> None:
    for process in workers:
        process.stdin.write("stop\n")
        process.stdin.flush()
    for process in workers:
        process.wait(timeout=600)


def actions_per_second(
    server: PostgresServer, processes: int, channels: int, at_once: int, folder: Path
) -> float:
    url = server.create_database()
    migrate(url)
    outs = [folder / f"actions-{processes}-{n}.jsonl" for n in range(processes)]
    names = [[f"{9000 + n * channels + c}" for c in range(channels)] for n in range(processes)]
    options = ("--window", "120", "--answer", "--at-once", str(at_once), "--spacing", "0")
    workers = [worker(url, out, share, *options) for out, share in zip(outs, names, strict=True)]
    go(workers)
    started = time.time()
    for process in workers:
        assert process.stdout.readline().strip() == "played"
    stop(workers)
    moments = [json.loads(line)["at"] for out in outs for line in out.open() if '"action"' in line]
    return len(moments) / (max(moments) - started)


async def outstanding(url: str) -> int:
    store = GameStore(url)
    async with store.sessions() as session:
        left = 0
        for table in (WindowRow, DeadlinePostRow):
            left += (await session.execute(select(func.count()).select_from(table))).scalar_one()
    await store.close()
    return left


def overdue_pick_up(server: PostgresServer, count: int, folder: Path) -> None:
    url = server.create_database()
    migrate(url)
    built = time.perf_counter()
    clock = VirtualClock(SystemClock().now() - timedelta(hours=1))
    asyncio.run(store_overdue_windows(url, count, clock, small=True, name=lambda n: str(100_000 + n)))
    print(f"built {count:,} overdue windows in {time.perf_counter() - built:.1f} s")
    out = folder / "overdue.jsonl"
    process = worker(url, out, [], "--lease", "30", "--every", "0.2")
    go([process])
    started = time.perf_counter()
    while asyncio.run(outstanding(url)):
        time.sleep(0.5)
    took = time.perf_counter() - started
    posts = Counter(json.loads(line)["channel"] for line in out.open() if "window closed" in line)
    print(
        f"a restarted process fired {count:,} overdue windows in {took:.1f} s ({count / took:.0f} a second); "
        f"posted: {len(posts):,}, twice: {sum(n > 1 for n in posts.values())}"
    )
    stop([process])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--channels", type=int, default=150, help="channels each process plays")
    parser.add_argument("--at-once", type=int, default=8, help="channels each process plays at a time")
    parser.add_argument("--processes", default="1,2,3")
    parser.add_argument("--overdue", type=int, default=10_000)
    args = parser.parse_args()
    server = PostgresServer.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            rates = {}
            for processes in [int(n) for n in args.processes.split(",") if n]:
                rates[processes] = actions_per_second(
                    server, processes, args.channels, args.at_once, Path(folder)
                )
                print(
                    f"{processes} process(es): {rates[processes]:.0f} actions a second "
                    f"({rates[processes] / rates[min(rates)]:.2f}x)"
                )
            if args.overdue:
                overdue_pick_up(server, args.overdue, Path(folder))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
