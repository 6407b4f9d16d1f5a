"""The dice companion, measured: /roll expressions beside plain d20, /odds, and /rule lookups.

* Rolls per second for typical expressions through :func:`engine.rolls.expressions.roll`
  (our dice source, wargame forms, limits) beside the same dice in the ``d20`` library.
* Milliseconds per ``/roll`` through :class:`DiceService` (the roll and its one INSERT into the roll
  log of a real SQLite file, committed before it is shown) beside ``d20.roll`` of the same
  expression: with SQLite's defaults, and in WAL mode with ``synchronous=NORMAL``.
* ``/stats`` after the largest rolls allowed (ten ``100d1000`` in one command), 1, 10 and 100 times.
* Milliseconds to work out exact odds for a few shots and tests.
* Lookup latency on a rules library of ``--sections`` numbered sections (5,000 by default),
  imported through :class:`RulesService` into a real SQLite file: by section number and by words.

    .venv/bin/python benchmarks/dice_and_rules.py
    .venv/bin/python benchmarks/dice_and_rules.py --quick   # each part once, at its smallest: no figures
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import d20

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import event  # noqa: E402

from bot.services.dice_service import DiceService  # noqa: E402
from bot.services.game_service import GameError  # noqa: E402
from bot.services.rules_service import RulesService  # noqa: E402
from bot.services.stats_service import StatsService  # noqa: E402
from bot.storage.store import GameStore  # noqa: E402
from engine.dice import SeededDice  # noqa: E402
from engine.errors import IllegalCommand  # noqa: E402
from engine.firing.odds import ShotSetup, SuccessTest, setup_shot, shot_odds, successes  # noqa: E402
from engine.rolls.expressions import roll  # noqa: E402

# ours, and the nearest plain d20 expression rolling the same dice
EXPRESSIONS = [
    ("1d20+5", "1d20+5"),
    ("4d6kh3", "4d6kh3"),
    ("3d6", "3d6"),
    ("2d10 5+", "2d10"),
    ("DR +2", "2d6+2"),
    ("10d6", "10d6"),
]
SHOTS = [
    ShotSetup(firer="Panther", target="Sherman 75mm (us)", range=18),
    ShotSetup(firer="MG Team (german)", target="Infantry Detachment (us)", range=10, cover="cover"),
    ShotSetup(firer="StuH 42", target="Sherman 75mm (us)", range=5, aspect="side", hull_down=True),
]
TESTS = [SuccessTest(needs=4, reroll="failed"), SuccessTest(needs=5, sides=10, dice=10, reroll="one")]
WORDS = (
    "smoke fire move rally broken leader squad vehicle armour gun crew wind drift rubble sewer building "
    "night morale assault melee ambush concealment terrain road bridge river wood hedge wall hill marsh"
).split()


def per_second(action: Callable[[], object], seconds: float = 1.0) -> float:
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(100):
            action()
        count += 100
    return count / elapsed


def milliseconds(action: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return times


def percentile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def bench_rolls(seconds: float) -> None:
    print("Rolls per second (ours through our dice source | d20 alone)")
    dice = SeededDice(1)
    for ours, theirs in EXPRESSIONS:
        mine = per_second(lambda ours=ours: roll(ours, dice), seconds)
        plain = per_second(lambda theirs=theirs: d20.roll(theirs), seconds)
        print(f"  {ours:<8} {mine:>9,.0f}/s | {theirs:<7} {plain:>9,.0f}/s  ({mine / plain:.2f}x)")


async def bench_roll_service(rolls: int) -> None:
    print(f"/roll through DiceService (ms, median of {rolls}) | d20.roll of the same expression")
    for journal in ("delete", "wal"):
        with tempfile.TemporaryDirectory() as folder:
            store = await GameStore.open(f"sqlite+aiosqlite:///{folder}/rolls.db")
            if journal == "wal":
                event.listen(store.engine.sync_engine, "connect", _wal)
            dice = DiceService(store)
            for ours, theirs in EXPRESSIONS:
                times = []
                for _ in range(rolls):
                    start = time.perf_counter()
                    await dice.roll("bench", "ann", ours)
                    times.append((time.perf_counter() - start) * 1000)
                plain = statistics.median(milliseconds(lambda theirs=theirs: d20.roll(theirs), rolls))
                print(
                    f"  {journal:<6} {ours:<8} {statistics.median(times):6.2f} ms"
                    f" (p99 {percentile(times, 99):6.2f}) | {theirs:<7} {plain:6.3f} ms"
                )
            await store.close()


def _wal(connection, _) -> None:
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = NORMAL")


async def bench_stats_after_the_largest_rolls(counts: tuple[int, ...]) -> None:
    largest = ";".join(["100d1000"] * 10)  # ten rolls of the most dice, of the most sides
    print(f"/stats after commands of {largest[:17]}... (1,000 dice each)")
    with tempfile.TemporaryDirectory() as folder:
        store = await GameStore.open(f"sqlite+aiosqlite:///{folder}/stats.db")
        dice, stats, done = DiceService(store), StatsService(store), 0
        for commands in counts:
            while done < commands:
                await dice.roll("bench", f"player {done % 3}", largest)
                done += 1
            start = time.perf_counter()
            (await stats.stats(["bench"])).reply()
            took = (time.perf_counter() - start) * 1000
            print(f"  {commands:>3} commands ({commands * 1000:,} dice): {took:.0f} ms")
        await store.close()


def bench_odds(repeat: int) -> None:
    print(f"Exact odds (milliseconds, median of {repeat})")
    for setup in SHOTS:
        shot = setup_shot(setup)
        ms = statistics.median(milliseconds(lambda shot=shot: shot_odds(shot), repeat))
        print(f'  shot {setup.firer} at {setup.target} {setup.range:g}": {ms:.1f} ms')
    for test in TESTS:
        ms = statistics.median(milliseconds(lambda test=test: successes(test), repeat))
        print(f"  test {test.describe()}: {ms:.1f} ms")


def section_number(n: int) -> str:
    """The number of the library's ``n``-th section, from 0: a hundred sections a chapter."""
    chapter, number = divmod(n, 100)
    return f"A{chapter + 1}.{number + 1}"


def library_text(sections: int, rng: random.Random) -> str:
    """A document of ``sections`` numbered sections (A1.1 ... ) of 40 to 120 words each."""
    lines = []
    for n in range(sections):
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(40, 120)))
        lines.append(f"{section_number(n)} {rng.choice(WORDS).title()} Rule: {words}.")
    return "\n".join(lines)


async def bench_lookup(sections: int, queries: int) -> None:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        store = await GameStore.open(f"sqlite+aiosqlite:///{folder}/rules.db")
        rules = RulesService(store)
        await rules.ship()
        text = library_text(sections, rng).encode()
        start = time.perf_counter()
        await rules.import_document("bench", "admin", "big.txt", text)
        print(
            f"Rules library: imported {sections:,} sections ({len(text) / 1e6:.1f} MB) "
            f"in {time.perf_counter() - start:.2f} s"
        )
        kinds = {
            "by number": lambda: section_number(rng.randrange(sections)),
            "by two words": lambda: f"{rng.choice(WORDS)} {rng.choice(WORDS)}",
            "by one word": lambda: rng.choice(WORDS),
            "by 12 words": lambda: " ".join(rng.sample(WORDS, 12)),  # the most a search takes
        }
        for kind, query in kinds.items():
            times = []
            for _ in range(queries):
                asked = query()
                start = time.perf_counter()
                await rules.lookup("bench", asked)
                times.append((time.perf_counter() - start) * 1000)
            print(
                f"  lookup {kind:<13} p50 {percentile(times, 50):5.1f} ms,"
                f" p99 {percentile(times, 99):5.1f} ms"
            )
        thousand = " ".join(rng.choice(WORDS) for _ in range(1000))
        start = time.perf_counter()
        try:
            await rules.lookup("bench", thousand)
        except (GameError, IllegalCommand) as refusal:
            print(f"  a 1,000-word search: {(time.perf_counter() - start) * 1000:.1f} ms, refused: {refusal}")
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sections", type=int, default=5000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--rolls", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="each part once, at its smallest: no figures")
    args = parser.parse_args()
    if args.quick:
        args.sections, args.queries, args.rolls = 100, 2, 2
    bench_rolls(0.01 if args.quick else 1.0)
    asyncio.run(bench_roll_service(args.rolls))
    asyncio.run(bench_stats_after_the_largest_rolls((1,) if args.quick else (1, 10, 100)))
    bench_odds(1 if args.quick else 20)
    asyncio.run(bench_lookup(args.sections, args.queries))


if __name__ == "__main__":
    main()
