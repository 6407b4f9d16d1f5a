"""``/games``: what waits for the user in every channel (``/games mine``, only they see it), how
they are told that a game waits for them (``/games ping``), and how long the channel's game
waits before telling its players (``/games delay``). The turn pings are sent from
here: a mention in the game's channel, or a direct message, which becomes a mention in the
channel when Discord refuses it (the player's DMs are closed)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.discord_adapter.answers import PRIVATE
from bot.discord_adapter.common import deadline_nonce
from bot.discord_adapter.handled_commands import handled_command
from bot.discord_adapter.markdown import mention, pinging, relative_time
from bot.discord_adapter.served import Interaction, ServedClient
from bot.services.ping_service import Ping, TurnPings

log = logging.getLogger(__name__)


def channel_link(channel_id: str) -> str:
    return f"<#{channel_id}>"


def pings(interaction: Interaction) -> TurnPings:
    return interaction.client.services.pings


class GamesCommands(app_commands.Group):
    """The group; it sends the turn pings (:meth:`send_ping`), which the client hands to the
    services (:class:`bot.app.Notices`); the client calls ``client.pings.resume()`` when it starts."""

    def __init__(self, client: ServedClient) -> None:
        super().__init__(
            name="games", description="Every game and campaign waiting for you, and how you hear"
        )
        self.client = client
        handled_command("games mine", group=self, extras=PRIVATE)
        handled_command("games ping", group=self, extras=PRIVATE)
        handled_command("games delay", group=self)

    async def send_ping(self, ping: Ping) -> None:
        """Tell the players: each by direct message if they chose it and Discord lets us, the
        others by one mention in the game's channel."""
        what = ping.what + (f", until {relative_time(ping.closes)}" if ping.closes else "")
        in_channel = list(ping.mention)
        for player in ping.dm:
            try:
                direct = await self.client.create_dm(discord.Object(int(player)))
                text = f"The game in {channel_link(ping.channel_id)} waits for you: {what}"
                await direct.send(text, nonce=deadline_nonce(f" to {player}"))  # shown once, sent again
            except discord.HTTPException as refusal:
                log.info("direct message refused", extra={"user": player, "status": refusal.status})
                in_channel.append(player)
        if in_channel:
            players = " ".join(mention(player) for player in in_channel)
            await self.client.get_partial_messageable(int(ping.channel_id)).send(
                f"{players}: the game waits for you: {what}",
                nonce=deadline_nonce(),
                allowed_mentions=pinging(in_channel),
            )
