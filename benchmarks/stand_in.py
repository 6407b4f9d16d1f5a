"""The stand-in (engine.stand_in) against a random legal player and against a greedy one (always
the best immediate shot), over whole quick battles on random tables under each rule set: each
battle on the random table of its own seed, an allied force drawn by it, the stand-in taking
each side in turn, the dice seeded by it too. Its wins, draws and losses against each, and how
long it takes to decide (p50, p99 and worst, in milliseconds of its process's CPU). The battles
are shared out over a pool of processes (one a core: run it under ``nice``).

``--games N`` plays the stand-in against itself instead: N whole games, both rule sets, quick
battles on random tables and the book's scenarios with the forces it buys, counting the illegal
orders it gives, the games that raise an error and those that never end.

    nice -n 5 .venv/bin/python benchmarks/stand_in.py                 # 200 battles each way
    nice -n 5 .venv/bin/python benchmarks/stand_in.py --battles 10 --throws 2
    nice -n 5 .venv/bin/python benchmarks/stand_in.py --against random
    nice -n 5 .venv/bin/python benchmarks/stand_in.py --games 1000
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import traceback
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.stand_in import THROWS  # noqa: E402
from tests.engine.greedy_play import greedy_command  # noqa: E402
from tests.engine.random_play import random_command  # noqa: E402
from tests.engine.stand_in_games import (  # noqa: E402
    SCENARIOS,
    play_out,
    random_quick_battle,
    result_for,
    stand_ins_scenario,
)

OPPONENTS = {"random": random_command, "greedy": greedy_command}
RULE_SETS = ("core_2015", "house_v1")
KINDS = ("quick", *SCENARIOS)
SCENARIO_POINTS = 150  # a side, in the bot-against-bot scenarios


def battle(rules: str, opponent: str, seed: int, throws: int) -> tuple[str, list[float]]:
    """One battle: "won", "drawn", "lost" (or "unfinished") for the stand-in, its decisions."""
    stand_in = ("allies", "axis")[seed % 2]
    played = play_out(random_quick_battle(rules, seed), seed, throws, (stand_in,), OPPONENTS[opponent])
    return result_for(played.state, stand_in), played.decisions


def _battle(job: tuple[str, str, int, int]) -> tuple[str, str, str, list[float]]:
    rules, opponent, seed, throws = job
    return (rules, opponent, *battle(rules, opponent, seed, throws))


def bot_game(number: int, throws: int) -> tuple[str, int, str]:
    """Game ``number`` of the stand-in against itself: what it was, its illegal orders, and
    "ended", "unfinished" or the error it raised."""
    rules, kind = RULE_SETS[number % 2], KINDS[(number // 2) % len(KINDS)]
    name = f"{kind} {rules} seed {number}"
    try:
        start = (
            random_quick_battle(rules, number)
            if kind == "quick"
            else stand_ins_scenario(kind, rules, number, SCENARIO_POINTS)
        )
        played = play_out(start, number, throws)
    except Exception:
        return name, 0, traceback.format_exc(limit=3).strip().splitlines()[-1]
    return (
        name,
        played.illegal,
        "unfinished" if result_for(played.state, "allies") == "unfinished" else "ended",
    )


def _bot_game(job: tuple[int, int]) -> tuple[str, int, str]:
    return bot_game(*job)


def battles(options: argparse.Namespace, jobs_map: Callable) -> None:
    print(
        f"the stand-in ({options.throws} throws an order), {options.battles} battles on random tables each:"
    )
    jobs = [
        (rules, opponent, seed, options.throws)
        for opponent in options.against
        for rules in RULE_SETS
        for seed in range(options.first, options.first + options.battles)
    ]
    results: dict[tuple[str, str], Counter] = {}
    decisions: dict[tuple[str, str], list[float]] = {}
    for rules, opponent, result, taken in jobs_map(_battle, jobs):
        counted = results.setdefault((rules, opponent), Counter())
        counted[result] += 1
        decisions.setdefault((rules, opponent), []).extend(taken)
        if sum(counted.values()) == options.battles:  # its battles all done: its line
            _report(rules, opponent, counted, sorted(decisions[(rules, opponent)]))


def _report(rules: str, opponent: str, counted: Counter, times: list[float]) -> None:
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    share = 100 * counted["won"] / sum(counted.values())
    unfinished = f", unfinished {counted['unfinished']}" if counted["unfinished"] else ""
    print(
        f"  {rules:9} vs {opponent:6}: won {counted['won']}, drawn {counted['drawn']}, "
        f"lost {counted['lost']}{unfinished} ({share:.0f}% won); decision p50 "
        f"{statistics.median(times):.0f}, p99 {p99:.0f}, worst {times[-1]:.0f} ms",
        flush=True,
    )


PROGRESS = 25  # games between two counts of a long run


def bot_games(options: argparse.Namespace, jobs_map: Callable) -> None:
    print(
        f"the stand-in against itself ({options.throws} throws an order), {options.games} games:", flush=True
    )
    jobs = [(number, options.throws) for number in range(options.first, options.first + options.games)]
    illegal, ended = 0, Counter()
    for played, (name, wrong, how) in enumerate(jobs_map(_bot_game, jobs), start=1):
        illegal += wrong
        ended[how if how in ("ended", "unfinished") else "error"] += 1
        if how != "ended" or wrong:
            print(f"  {name}: {how}, {wrong} illegal orders", flush=True)
        if played % PROGRESS == 0 or played == len(jobs):  # a long run's count so far survives it
            print(
                f"  after {played} games (seeds {options.first}-{options.first + played - 1}): "
                f"{illegal} illegal orders, {ended['error']} errors, {ended['ended']} ended, "
                f"{ended['unfinished']} unfinished",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--battles", type=int, default=200, help="battles for each rule set and opponent")
    parser.add_argument("--games", type=int, default=0, help="games of the stand-in against itself instead")
    parser.add_argument("--throws", type=int, default=THROWS, help="dice thrown for each order weighed")
    parser.add_argument(
        "--against", nargs="+", choices=tuple(OPPONENTS), default=tuple(OPPONENTS), help="opponents played"
    )
    parser.add_argument("--first", type=int, default=0, help="the first battle's (or game's) seed")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes in the pool")
    options = parser.parse_args()
    run = bot_games if options.games else battles
    if options.workers == 1:  # in this process (and its quick mode in the tests)
        run(options, map)
        return
    with ProcessPoolExecutor(options.workers) as pool:
        run(options, pool.map)


if __name__ == "__main__":
    main()
