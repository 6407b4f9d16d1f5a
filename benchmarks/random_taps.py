"""A random tap player over many games: each a small quick battle on a random table (``/table
random``'s, from its seed), under either rule set, played by taps alone on both sides, reactions
included, through the real command tree. A phone player must never meet a Confirm that the
engine refuses, nor a step with nothing to tap: both counts should be 0.

    .venv/bin/python benchmarks/random_taps.py --games 50
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import picture_pool  # noqa: E402
from engine.dice import SeededDice  # noqa: E402
from engine.tables.generate import random_table  # noqa: E402
from tests.bot.discord_harness import ANN, OTTO, close_bot, open_bot  # noqa: E402
from tests.bot.tap_player import TapPlayers, joined_and_started, small_battle, unpictured  # noqa: E402

RULE_SETS = ("core_2015", "house_v1")
PLAYERS = {"allies": ANN, "axis": OTTO}


async def one_game(seed: int, units: int, folder: Path) -> TapPlayers:
    """Game ``seed``, ``units`` a side: its table, rule set, dice and choices all drawn from the
    seed."""
    with pytest.MonkeyPatch.context() as patch:
        bot, discord = await open_bot(f"sqlite+aiosqlite:///{folder / f'taps-{seed}.db'}", patch)
        patch.setattr(picture_pool, "render", unpictured)
        try:
            dice = SeededDice(seed)
            bot.games.dice = lambda: dice
            players = TapPlayers(
                discord, {"allies": ANN, "axis": OTTO}, lambda: bot.games.game("1"), random.Random(seed)
            )
            battle = small_battle(RULE_SETS[seed % 2], random_table(seed))
            await players.play(await joined_and_started(bot, discord, battle), most_taps=4000)
            return players
        finally:
            await close_bot(bot)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--units", type=int, default=3, help="units a side")
    args = parser.parse_args()
    refused, dead_ends, taps, declared = [], [], 0, 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(args.seed, args.seed + args.games):
            players = await one_game(seed, args.units, Path(folder))
            refused += players.refused
            dead_ends += players.dead_ends
            taps += players.taps
            declared += players.declared.total()
    seconds = time.perf_counter() - started
    print(f"{args.games} games by taps, {taps} taps, {declared} orders and reactions, {seconds:.1f} s")
    print(f"  Confirms refused: {len(refused)}; dead ends: {len(dead_ends)}")
    for problem in (refused + dead_ends)[:5]:
        print(f"    {problem}")


if __name__ == "__main__":
    asyncio.run(main())
