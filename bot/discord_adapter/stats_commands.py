"""``/stats``: the dice of the channel's game by player, as text tables and a picture; with
``campaign``, of every battle of the channel's campaign (a Red Barricades campaign: its ledger's
chart rolls)."""

from __future__ import annotations

import asyncio
import io

import discord

from bot.discord_adapter.common import send_long
from bot.discord_adapter.markdown import markdown
from bot.discord_adapter.schema_commands import schema_command
from renderer.stats_chart import chart_description, dice_chart


def display_name(interaction: discord.Interaction, player: str) -> str:
    """A name to draw in the picture, where mentions do not work: the member's name if Discord
    has told us, else the user's number."""
    if not player.isdigit():
        return player
    if player == str(interaction.user.id):
        return interaction.user.display_name
    member = interaction.guild.get_member(int(player)) if interaction.guild else None
    return member.display_name if member else f"user {player}"


@schema_command("stats")
async def stats_command(interaction: discord.Interaction, campaign: bool = False) -> None:
    client, channel = interaction.client, str(interaction.channel_id)
    if campaign:
        stats = await client.campaign_stats.stats(channel)  # type: ignore[attr-defined]
    else:
        stats = await client.stats.stats([channel])  # type: ignore[attr-defined]
    await send_long(interaction, markdown(stats.reply()))
    if stats.report.players:
        names = stats.named(lambda player: display_name(interaction, player))
        png = await asyncio.to_thread(dice_chart, stats.report, names)
        words = chart_description(stats.report, names)
        chart = discord.File(io.BytesIO(png), filename="dice-stats.png", description=words)
        await interaction.followup.send(file=chart)
