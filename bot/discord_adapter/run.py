"""Run the Discord bot."""

from __future__ import annotations

from bot import metrics
from bot.config import Settings
from bot.discord_adapter.client import IronCrossBot
from bot.services.game_service import GameService
from bot.startup import log_in, open_database


async def run_discord(settings: Settings, *, sync_commands: bool) -> None:
    store = await open_database(settings.database_url)
    games = GameService(store)
    client = IronCrossBot(games, sync_guild=settings.dev_guild_id, sync_commands=sync_commands)
    try:
        async with client, metrics.served(settings.metrics_port, store):
            await log_in(client, settings.discord_token or "")
            await client.connect()
    finally:
        await games.close()
        await store.close()
