"""The stand-in (engine.stand_in) against a random legal player and against a greedy one (always
the best immediate shot), over whole quick battles under each rule set, the stand-in taking each
side in turn, with a different seed each battle: its wins, draws and losses against each, and how
long it takes to decide (p50, p99 and worst, in milliseconds of the process's CPU).

    .venv/bin/python benchmarks/stand_in.py                   # 200 battles each way
    .venv/bin/python benchmarks/stand_in.py --battles 10 --throws 2
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.dice import SeededDice  # noqa: E402
from engine.errors import IllegalCommand  # noqa: E402
from engine.game import apply, awaiting  # noqa: E402
from engine.rulesets import with_rule_set  # noqa: E402
from engine.scenarios.quick_battle import quick_battle  # noqa: E402
from engine.stand_in import THROWS, stand_in_command  # noqa: E402
from engine.state import Phase  # noqa: E402
from tests.engine.greedy_play import greedy_command  # noqa: E402
from tests.engine.random_play import random_command  # noqa: E402

OPPONENTS = {"random": random_command, "greedy": greedy_command}
MOST_COMMANDS = 2000


def battle(rules: str, opponent: str, seed: int, throws: int, decisions: list[float]) -> str:
    """One battle; "won", "drawn" or "lost" for the stand-in."""
    state = with_rule_set(quick_battle(), rules)
    stand_in = ("allies", "axis")[seed % 2]
    dice, rng = SeededDice(seed), random.Random(seed)
    for number in range(MOST_COMMANDS):
        if state.phase is Phase.OVER:
            break
        side = awaiting(state) or stand_in
        if side == stand_in:
            started = time.process_time()
            command = stand_in_command(state, side, seed * 100_000 + number, throws)
            decisions.append((time.process_time() - started) * 1000)
            state, _ = apply(state, command, dice)
            continue
        for _ in range(40):
            try:
                state, _ = apply(state, OPPONENTS[opponent](state, rng), dice)
                break
            except IllegalCommand:
                continue
        else:  # the opponent found nothing: the stand-in's own choice for it
            state, _ = apply(state, stand_in_command(state, side, seed, 1), dice)
    winner = state.result.winner if state.result else None
    return "drawn" if winner is None else "won" if winner == stand_in else "lost"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--battles", type=int, default=200, help="battles for each rule set and opponent")
    parser.add_argument("--throws", type=int, default=THROWS, help="dice thrown for each order weighed")
    options = parser.parse_args()
    print(f"the stand-in ({options.throws} throws an order) over {options.battles} quick battles each:")
    for rules in ("core_2015", "house_v1"):
        for opponent in OPPONENTS:
            decisions: list[float] = []
            results = Counter(
                battle(rules, opponent, seed, options.throws, decisions) for seed in range(options.battles)
            )
            decisions.sort()
            p99 = decisions[min(len(decisions) - 1, int(len(decisions) * 0.99))]
            share = 100 * results["won"] / options.battles
            print(
                f"  {rules:9} vs {opponent:6}: won {results['won']}, drawn {results['drawn']}, "
                f"lost {results['lost']} "
                f"({share:.0f}% won); decision p50 {statistics.median(decisions):.0f}, p99 {p99:.0f}, "
                f"worst {decisions[-1]:.0f} ms"
            )


if __name__ == "__main__":
    main()
