"""A busy server on one database: channels playing, rolling and reading at once.

One process runs ``--channels`` channels at once (real asyncio tasks through ``GameService`` and
``DiceService``), and with ``--processes 2`` a second OS process runs as many on the same
database. Prints what was done and every failure a player would have read as "Something went
wrong" (for instance "database is locked").

    .venv/bin/python benchmarks/busy_channels.py [--channels 12] [--actions 40] [--processes 2]
        [--database sqlite+aiosqlite:///busy.db]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.storage.store import GameStore  # noqa: E402
from tests.storage.busy_channels import Tally, busy_server, with_second_process  # noqa: E402


def report(label: str, tally: Tally) -> None:
    print(
        f"  {label}: {tally.actions} actions, {tally.rolls} rolls, {tally.reads} reads, "
        f"{tally.refusals.total()} refusals, {tally.failures.total()} failures"
    )
    for refusal, times in tally.refusals.most_common(3):
        print(f"      refused {times} x {refusal}")
    for failure, times in tally.failures.most_common():
        print(f"      {times} x {failure}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=12)
    parser.add_argument("--actions", type=int, default=40, help="stored actions per channel")
    parser.add_argument("--processes", type=int, choices=(1, 2), default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", help="a DATABASE_URL (default: a temporary SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database or f"sqlite+aiosqlite:///{Path(folder) / 'busy.db'}"
        store = await GameStore.open(url)
        started = time.perf_counter()
        try:
            here = lambda: busy_server(store, "here", args.channels, args.actions, args.seed)  # noqa: E731
            if args.processes == 2:
                mine, theirs = await with_second_process(
                    url, here, "there", args.channels, args.actions, args.seed + 1000
                )
            else:
                mine, theirs = await here(), None
        finally:
            await store.close()
        seconds = time.perf_counter() - started
    print(f"{args.channels} channels x {args.processes} process(es), {url.split(':')[0]}, {seconds:.1f} s")
    report("this process", mine)
    if theirs:
        report("second process", theirs)


if __name__ == "__main__":
    asyncio.run(main())
