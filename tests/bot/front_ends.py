"""The same quick battle started in Discord and at a console table, for tests that compare what
the two front ends hand on (:mod:`tests.bot.test_one_handler`, :mod:`tests.bot.test_one_builder`).
Built once a module there: each test replaces the handlers or builders by ones that only note
what they were handed and refuse, so no test changes either game."""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path

from bot.app import Services
from bot.console import ConsoleTable
from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.dice import SeededDice
from tests.bot.discord_harness import HARNESSES, Harness, close_bot, open_bot, started_game
from tests.storage.databases import seed_sqlite

STARTING = ("/game new", "as ann /game join side:allies", "as otto /game join side:axis", "/game start")


@asynccontextmanager
async def both_started(folder: Path, monkeypatch):
    """The quick battle started in Discord's channel 1 and at a console table, Otto playing the
    axis in both: the harness and the table."""
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{folder / 'discord.db'}", monkeypatch)
    await started_game(bot, discord)
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{folder / 'console.db'}", shipped=True))
    service = GameService(store, dice=lambda: SeededDice(1))
    table, _ = await ConsoleTable.open(Services.around(service))
    for line in STARTING:
        await table.handle(line)
    try:
        yield discord, table
    finally:
        await close_bot(bot)
        await service.close()
        await store.close()


def checked_in_this_test(discord: Harness) -> None:
    """A module's harness taken up by one test: what the bot sends Discord in this test checked
    against Discord's rules (the harness on this test's list, as a harness made in it is)."""
    discord.violations.clear()
    HARNESSES.append(discord)
