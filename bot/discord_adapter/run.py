"""Run the Discord bot."""

from __future__ import annotations

from bot.config import Settings
from bot.discord_adapter.client import IronCrossBot
from bot.services.game_service import GameService
from bot.storage.store import GameStore


async def run_discord(settings: Settings, *, sync_commands: bool) -> None:
    store = await GameStore.open(settings.database_url)
    games = GameService(store)
    client = IronCrossBot(games, sync_commands=sync_commands)
    try:
        async with client:
            await client.start(settings.discord_token or "")
    finally:
        await games.close()
        await store.close()
