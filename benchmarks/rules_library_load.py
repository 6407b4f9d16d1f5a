"""The rules library under load: look-ups on a big library beside a small one, and a big import
beside other channels' writes, through :class:`RulesService` on a real SQLite file.

* Look-up p50 and max, by number, by one word and by two, on a small library (``--small``
  sections of some 60 words) and on the biggest one import allows: sections of the most
  characters a section may have, as many as fit in the most bytes, each saying the searched word
  again and again (the worst case for a search: every section matches, thousands of times).
* A 5 MB import of 9,999 sections (``--import-sections``) while another channel rolls dice: the
  import's time, and each roll's time beside rolls with no import under way (p50 and max).

    .venv/bin/python benchmarks/rules_library_load.py
    .venv/bin/python benchmarks/rules_library_load.py --quick   # each part once, at its smallest: no figures
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

from bot.services.dice_service import DiceService  # noqa: E402
from bot.services.game_service import GameError  # noqa: E402
from bot.services.rules_service import MAX_BYTES, MAX_SECTION_CHARS, RulesService  # noqa: E402
from bot.storage.store import GameStore  # noqa: E402

WORDS = "smoke fire move rally broken leader squad vehicle armour gun crew wind drift".split()


def small_library(sections: int, rng: random.Random) -> str:
    return "\n".join(
        f"A{n // 100 + 1}.{n % 100 + 1} Rule {n}: " + " ".join(rng.choice(WORDS) for _ in range(60)) + "."
        for n in range(sections)
    )


def big_library(sections: int) -> str:
    """``sections`` sections of the most characters allowed, every word of them "smoke"."""
    body = "smoke " * ((MAX_SECTION_CHARS - 50) // 6)
    return "\n".join(f"## B{n + 1}.1 Rule {n}\n\n{body}" for n in range(sections))


def many_sections(sections: int, rng: random.Random) -> str:
    """``sections`` numbered sections of 80 words: 9,999 of them fill about 5 MB."""
    words = 80
    return "\n".join(
        f"C{n // 100 + 1}.{n % 100 + 1} Rule: " + " ".join(rng.choice(WORDS) for _ in range(words))
        for n in range(sections)
    )


def figures(times: list[float]) -> str:
    return f"p50 {statistics.median(times):6.1f} ms, max {max(times):6.1f} ms"


async def timed(call) -> float:
    start = time.perf_counter()
    await call
    return (time.perf_counter() - start) * 1000


async def look_up(rules: RulesService, guild: str, query: str) -> None:
    try:
        await rules.lookup(guild, query)
    except GameError:  # stopped past the search's time limit: timed as it is
        pass


async def bench_lookups(store: GameStore, guild: str, numbers: list[str], queries: int) -> dict[str, str]:
    rules, rng = RulesService(store), random.Random(5)
    kinds = {
        "by number": lambda: rng.choice(numbers),
        "by one word": lambda: "smoke",
        "by two words": lambda: f"smoke {rng.choice(WORDS)}",
    }
    return {
        kind: figures([await timed(look_up(rules, guild, query())) for _ in range(queries)])
        for kind, query in kinds.items()
    }


async def bench_libraries(folder: str, small: int, big: int, queries: int) -> None:
    store = await GameStore.open(f"sqlite+aiosqlite:///{folder}/library.db")
    rules = RulesService(store)
    await rules.ship()
    small_text = small_library(small, random.Random(3)).encode()
    await rules.import_document("small", "admin", "small.txt", small_text)
    text = big_library(big).encode()
    start = time.perf_counter()
    await rules.import_document("big", "admin", "big.md", text)
    print(
        f"Rules look-ups: a small library ({small} sections) beside a big one ({big} sections of "
        f"{MAX_SECTION_CHARS:,} characters saying smoke, {len(text) / 1e6:.1f} MB, imported in "
        f"{time.perf_counter() - start:.2f} s)"
    )
    small_numbers = [f"A{n // 100 + 1}.{n % 100 + 1}" for n in range(small)]
    on_small = await bench_lookups(store, "small", small_numbers, queries)
    on_big = await bench_lookups(store, "big", [f"B{n + 1}.1" for n in range(big)], queries)
    for kind in on_small:
        print(f"  {kind:<13} small {on_small[kind]} | big {on_big[kind]}")
    await store.close()


async def rolls_while(dice: DiceService, busy: asyncio.Task | None, count: int) -> list[float]:
    """Each roll's time in ms, one after another: while ``busy`` runs, or ``count`` of them."""
    times: list[float] = []
    while (busy is not None and not busy.done()) or (busy is None and len(times) < count):
        times.append(await timed(dice.roll("other channel", "ann", "2d6")))
        await asyncio.sleep(0.005)
    return times


async def bench_import(folder: str, sections: int, rolls: int) -> None:
    store = await GameStore.open(f"sqlite+aiosqlite:///{folder}/import.db")
    rules, dice = RulesService(store), DiceService(store)
    text = many_sections(sections, random.Random(4)).encode()
    alone = await rolls_while(dice, None, rolls)
    start = time.perf_counter()
    importing = asyncio.create_task(rules.import_document("guild", "admin", "many.txt", text))
    during = await rolls_while(dice, importing, rolls)
    await importing
    took = time.perf_counter() - start
    print(f"An import of {sections:,} sections ({len(text) / 1e6:.1f} MB): {took:.2f} s")
    print(f"  another channel's /roll: alone {figures(alone)} | during the import {figures(during)}")
    await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", type=int, default=100)
    parser.add_argument("--big", type=int, default=MAX_BYTES // MAX_SECTION_CHARS - 1)
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--import-sections", type=int, default=9_999)
    parser.add_argument("--rolls", type=int, default=50)
    parser.add_argument("--quick", action="store_true", help="each part once, at its smallest: no figures")
    args = parser.parse_args()
    if args.quick:
        args.small, args.big, args.queries, args.import_sections, args.rolls = 2, 2, 1, 20, 1
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(bench_libraries(folder, args.small, args.big, args.queries))
        asyncio.run(bench_import(folder, args.import_sections, args.rolls))


if __name__ == "__main__":
    main()
