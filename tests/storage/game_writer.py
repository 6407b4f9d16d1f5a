"""Another process writing for tests/storage/test_backup.py: it plays on the games the test set
up, each channel's recorded game (``histories``) from where its stored log stands, all channels
at once, and prints "played CHANNEL N" after each command it stored.

    python -m tests.storage.game_writer DATABASE_URL CHANNEL:SEED ...
"""

from __future__ import annotations

import asyncio
import sys
from functools import cache

from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.dice import ScriptedDice
from engine.scenarios.quick_battle import quick_battle
from tests.engine.random_play import play_random_game

COMMANDS = 60  # each recorded game's length


@cache
def history(seed: int) -> list:
    """The recorded game of ``seed``: its commands, each with the events (and dice) it made."""
    return play_random_game(quick_battle(), seed=seed, max_commands=COMMANDS)[1]


async def play_on(store: GameStore, channel: str, seed: int, say=print, stop: int = COMMANDS) -> None:
    """Store the rest of ``channel``'s recorded game (up to its ``stop``-th command), one command
    after another, each with the dice it rolled when recorded (one service a channel: its dice
    are the channel's)."""
    _, log = await store.history(channel)
    for n, (command, events) in enumerate(history(seed)[len(log) : stop], start=len(log) + 1):
        rolls = [roll for event in events for roll in event.rolls]
        service = GameService(store, dice=lambda rolls=rolls: ScriptedDice(rolls))
        try:
            await service.act(channel, "hot-seat", command)
        finally:
            await service.close()
        say(f"played {channel} {n}")


async def main(url: str, games: list[str]) -> None:
    store = GameStore(url)
    try:
        pairs = [game.split(":") for game in games]
        await asyncio.gather(*(play_on(store, channel, int(seed), say) for channel, seed in pairs))
    finally:
        await store.close()


def say(line: str) -> None:
    print(line, flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2:]))
