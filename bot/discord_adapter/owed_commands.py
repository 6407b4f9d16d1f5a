"""``/games``: what waits for the user in every channel (``/games mine``, only they see it), how
they are told that a game waits for them (``/games ping``), and how long the channel's game
waits before telling its players (``/games delay``). The turn pings are sent from
here: a mention in the game's channel, or a direct message, which becomes a mention in the
channel when Discord refuses it (the player's DMs are closed)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.discord_adapter.answers import PRIVATE, answer
from bot.discord_adapter.common import deadline_nonce, send_reply
from bot.discord_adapter.markdown import mention, pinging, relative_time
from bot.discord_adapter.referees import server_roles
from bot.discord_adapter.schema_commands import schema_command
from bot.services.ping_service import MAX_MINUTES, Ping, TurnPings

log = logging.getLogger(__name__)


def channel_link(channel_id: str) -> str:
    return f"<#{channel_id}>"


def pings(interaction: discord.Interaction) -> TurnPings:
    return interaction.client.pings  # type: ignore[attr-defined]


class GamesCommands(app_commands.Group):
    """The group; it tells the client's TurnPings (``client.pings``) how to ping; the client
    calls ``client.pings.resume()`` when it starts."""

    def __init__(self, client: discord.Client) -> None:
        super().__init__(
            name="games", description="Every game and campaign waiting for you, and how you hear"
        )
        self.client = client
        client.pings.on_ping = self.send_ping  # type: ignore[attr-defined]

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

    @schema_command("games mine", extras=PRIVATE)
    async def mine(self, interaction: discord.Interaction) -> None:
        reply = await interaction.client.owed.mine(str(interaction.user.id))  # type: ignore[attr-defined]
        await send_reply(interaction, reply)

    @schema_command("games ping", extras=PRIVATE)
    async def ping(self, interaction: discord.Interaction, how: str | None = None) -> None:
        text = await pings(interaction).choose(str(interaction.user.id), how, str(interaction.channel_id))
        await answer(interaction, text, ephemeral=True)

    @schema_command("games delay")
    async def delay(
        self, interaction: discord.Interaction, minutes: app_commands.Range[int, 0, MAX_MINUTES]
    ) -> None:
        text = await pings(interaction).change_delay(
            str(interaction.channel_id), str(interaction.user.id), minutes, server_roles(interaction)
        )
        await answer(interaction, text)
