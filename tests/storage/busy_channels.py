"""A busy server: many channels playing and rolling at once on one database.

Each channel is a real asyncio task playing random quick battles through ``GameService`` (a new
game when one ends), rolling dice through ``DiceService`` and reading its game and roll log
between actions, as players and spectators would. Every call either succeeds, is refused with
a ``GameError`` (a random order the rules forbid: shown to the player, not a fault), or fails:
a failure is what a player would have read as "Something went wrong".

Run as a program it is a second bot process on the same database: it prints ``ready`` once
its store is open, waits for a line on stdin, plays, and prints its tally as JSON.

    python -m tests.storage.busy_channels DATABASE_URL PREFIX CHANNELS ACTIONS SEED
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bot.services.dice_service import DiceService
from bot.services.game_service import GameError, GameService
from bot.storage.store import GameStore
from engine.dice import SeededDice
from engine.scenarios.quick_battle import quick_battle
from engine.state import Phase
from tests.engine.random_play import random_command

DICE = ("2d6", "3d6 5+", "1d20+5", "DR +1", "4d6kh3")


@dataclass
class Tally:
    """What a busy run did: stored actions, rolls and reads, refusals, and failures by kind."""

    actions: int = 0
    rolls: int = 0
    reads: int = 0
    refusals: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.actions += other.actions
        self.rolls += other.rolls
        self.reads += other.reads
        self.refusals.update(other.refusals)
        self.failures.update(other.failures)


async def _attempt(tally: Tally, kind: str, call) -> object | None:
    """Make one call as a player would; count it, and keep any failure's kind and message."""
    try:
        result = await call
    except GameError as refusal:
        tally.refusals[str(refusal)[:60]] += 1
        return None
    except Exception as failure:  # noqa: BLE001 - any other exception reaches the player as a fault
        tally.failures[f"{type(failure).__name__}: {str(failure).splitlines()[0][:120]}"] += 1
        return None
    setattr(tally, kind, getattr(tally, kind) + 1)
    return result


async def busy_channel(games: GameService, dice: DiceService, channel: str, actions: int, seed: int) -> Tally:
    """One channel: ``actions`` stored game actions (the set-up of each game included), each
    sent together with another player's dice roll and two spectators' reads of the game and
    the roll log, all four at once."""
    rng = random.Random(seed)
    tally = Tally()
    state = None
    for _attempt_number in range(actions * 40):  # a bound, in case the random orders stall
        if tally.actions == actions:
            break
        if state is None or state.phase is Phase.OVER:
            action = games.new_game(channel, quick_battle())
        else:
            action = games.act(channel, "player", random_command(state, rng))
        outcome, *_ = await asyncio.gather(
            _attempt(tally, "actions", action),
            _attempt(tally, "rolls", dice.roll(channel, "roller", rng.choice(DICE))),
            _attempt(tally, "reads", games.game(channel)),
            _attempt(tally, "reads", dice.log(channel, "spectator")),
        )
        state = outcome.state if outcome else state
    return tally


async def busy_server(store: GameStore, prefix: str, channels: int, actions: int, seed: int) -> Tally:
    """``channels`` busy channels at once in this process, on ``store``."""
    games = GameService(store, dice=lambda: SeededDice(seed))
    dice = DiceService(store)
    try:
        tallies = await asyncio.gather(
            *(busy_channel(games, dice, f"{prefix}-{n}", actions, seed + n) for n in range(channels))
        )
    finally:
        await games.close()
    total = Tally()
    for tally in tallies:
        total.add(tally)
    return total


async def with_second_process(
    database_url: str, busy_here, prefix: str, channels: int, actions: int, seed: int
) -> tuple[Tally, Tally]:
    """Run ``busy_here()`` in this process while a second OS process runs ``channels`` busy channels
    of its own on the same database; both tallies, this process's first."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.storage.busy_channels",
        database_url,
        prefix,
        str(channels),
        str(actions),
        str(seed),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert (await child.stdout.readline()).strip() == b"ready", "the second process did not start"
    child.stdin.write(b"go\n")
    await child.stdin.drain()
    here = await busy_here()
    out, _ = await child.communicate()
    assert child.returncode == 0, f"the second process ended with status {child.returncode}"
    there = json.loads(out.decode().strip().splitlines()[-1])
    counted = {kind: Counter(there.pop(kind)) for kind in ("refusals", "failures")}
    return here, Tally(**there, **counted)


async def _second_process(database_url: str, prefix: str, channels: int, actions: int, seed: int) -> None:
    store = GameStore(database_url)
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    try:
        tally = await busy_server(store, prefix, channels, actions, seed)
    finally:
        await store.close()
    print(json.dumps(vars(tally)), flush=True)


if __name__ == "__main__":
    url, prefix, channels, actions, seed = sys.argv[1:]
    asyncio.run(_second_process(url, prefix, int(channels), int(actions), int(seed)))
