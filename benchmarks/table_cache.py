"""The terrain-layer cache with many tables in use at once.

Renders quick battles on 50 different generated tables in turn (as 50 channels playing at
once would), beside the same number of renders of one table, and prints the milliseconds per
render of each and the memory the cached layers hold. With a cache too small for the tables in
use, every render draws its terrain again and costs several times as much.

    .venv/bin/python benchmarks/table_cache.py [--tables 50] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.scenarios.quick_battle import quick_battle  # noqa: E402
from engine.tables.generate import random_table  # noqa: E402
from renderer import render  # noqa: E402
from renderer.base import background, base_layer  # noqa: E402


def per_render(states: list, rounds: int) -> list[float]:
    """Milliseconds of each render, the states taken in turn ``rounds`` times."""
    times = []
    for _ in range(rounds):
        for state in states:
            start = time.perf_counter()
            render(state, None)
            times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    states = [quick_battle(random_table(seed, 72.0, 48.0)) for seed in range(args.tables)]
    base_layer.cache_clear()
    background.cache_clear()
    render(states[0], None)  # the one table's layer drawn once
    one = per_render([states[0]] * args.tables, args.rounds)
    base_layer.cache_clear()
    background.cache_clear()
    per_render(states, 1)  # every table's layer drawn once (if the cache holds them)
    many = per_render(states, args.rounds)
    print(f"one table:        {figures(one)}")
    print(f"{args.tables} tables in turn: {figures(many)}")
    print(f"ratio (medians):  {statistics.median(many) / statistics.median(one):.2f}x")
    held = base_layer.cache_info().currsize + background.cache_info().currsize  # bytes: sized caches
    print(f"cached layers:    {held / 1e6:.1f} MB")


def figures(times: list[float]) -> str:
    return f"median {statistics.median(times):6.1f} ms, p95 {sorted(times)[int(len(times) * 0.95)]:6.1f} ms"


if __name__ == "__main__":
    main()
