"""Kill the start-up's migrations at random statements and count the databases that never start again.

For each database (SQLite files, and a local PostgreSQL server with ``--postgres`` when its
binaries are installed) the upgrade runs in a child process that ends itself right before or
right after a random statement of the whole upgrade, then the bot is started on it again
(``GameStore.open`` and a new game). Two cases: a fresh database, and one at revision 0006
being upgraded to the current release.

    .venv/bin/python benchmarks/migration_kills.py --kills 12 [--postgres] [--seed 1]
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.storage.postgres import PostgresServer, binaries  # noqa: E402
from tests.storage.upgrade_kills import HOOKS, Kill, kill_and_restart, statements_in_upgrade, upgrade  # noqa: E402

OLDER = "0006"


def sqlite_databases(folder: Path):
    files = itertools.count()
    return lambda: f"sqlite+aiosqlite:///{folder / f'kill{next(files)}.db'}"


def postgres_databases(server: PostgresServer):
    return server.create_database


def run(label: str, new_database, kills: int, rng: random.Random) -> None:
    for start_at in (None, OLDER):
        scratch = new_database()
        if start_at:
            upgrade(scratch, start_at)
        totals = statements_in_upgrade(scratch)
        faults: Counter[str] = Counter()
        for _ in range(kills):
            hook = rng.choice(HOOKS)
            kill = Kill(rng.randint(1, totals[hook]), hook)
            fault = kill_and_restart(new_database, kill, start_at)
            if fault:
                faults[fault] += 1
        case = f"from {start_at}" if start_at else "fresh"
        failed = sum(faults.values())
        statements = totals["before_cursor_execute"]
        print(f"{label} {case}: {failed} of {kills} never started again ({statements} statements)")
        for fault, times in faults.most_common():
            print(f"    {times} x {fault[:150]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        run("sqlite", sqlite_databases(Path(folder)), args.kills, rng)
        if args.postgres and binaries():
            server = PostgresServer.start()
            try:
                run("postgresql", postgres_databases(server), args.kills, rng)
            finally:
                server.stop()


if __name__ == "__main__":
    main()
