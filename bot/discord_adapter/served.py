"""The client every command is served by, as the commands see it: a sharded Discord client that
holds the process's services (:class:`bot.app.Services`), built once and handed to it.
:class:`~bot.discord_adapter.client.IronCrossBot` is this client with its command tree; the
commands, which that tree is made of, know it by this base, so ``interaction.client.services``
is typed without importing the tree."""

from __future__ import annotations

import discord
from cachetools import TTLCache

from bot.app import Services


class ServedClient(discord.AutoShardedClient):
    """A Discord client with the services of its process, and the interactions it called back
    (for their tokens' 15 minutes: Discord takes one callback an interaction)."""

    services: Services
    called_back: TTLCache[int, bool]


Interaction = discord.Interaction[ServedClient]
"""An interaction with the bot: its ``client`` holds the services."""
