"""Run the Discord bot."""

from __future__ import annotations

from contextlib import AsyncExitStack

from bot import collector, metrics
from bot.app import Services
from bot.backup_schedule import backups_on_schedule
from bot.config import Settings
from bot.discord_adapter.client import IronCrossBot
from bot.shard_claim import shards_to_run
from bot.startup import log_in, open_database
from bot.storage.deadline_claims import Claims, process_name
from bot.storage.in_use import bot_running_on
from bot.storage.store import GameStore


async def run_discord(settings: Settings, *, sync_commands: bool) -> None:
    """The bot until it stops, marked as running on its database (a restore is refused
    meanwhile) and taking its scheduled backups; once logged in (its start-up done: the rules
    shipped, the stored timers re-armed), what lives on is kept out of the garbage collector's
    way."""
    collector.tune()
    store = await open_database(settings.database_url)
    async with AsyncExitStack() as stack:
        try:
            await stack.enter_async_context(bot_running_on(settings.database_url))
        finally:  # the store closes before the mark is let go (bot.storage.in_use)
            stack.push_async_callback(store.close)
        async with (
            shards_to_run(settings.database_url, settings.shards, settings.shard_count) as shard_ids,
            backups_on_schedule(settings),
        ):
            client = client_for(settings, store, shard_ids, sync_commands=sync_commands)
            try:
                async with client, metrics.served(settings.metrics_port, store):
                    await log_in(client, settings.discord_token or "")
                    collector.settle()
                    await client.connect()
            finally:
                await client.games.close()


def client_for(
    settings: Settings, store: GameStore, shard_ids: list[int] | None = None, *, sync_commands: bool = False
) -> IronCrossBot:
    """The client of this process: the shards it runs (``shard_ids``, of ``SHARD_COUNT``), how
    it claims the deadlines it fires."""
    claims = Claims(store, process_name(), settings.deadline_lease)
    return IronCrossBot(
        Services.start(
            store,
            claims=claims,
            picture_workers=settings.pictures,
            picture_niceness=settings.picture_niceness,
        ),
        sync_commands=sync_commands,
        sync_guild=settings.dev_guild_id,
        shard_ids=shard_ids,
        shard_count=settings.shard_count,
        deadline_every=settings.deadline_every,
    )
