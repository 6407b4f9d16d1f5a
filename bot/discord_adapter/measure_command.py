"""``/measure``: a player looks before giving an order (only they see the answer)."""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands

from bot.discord_adapter.answers import PRIVATE, answer
from bot.discord_adapter.common import games, side_of
from bot.discord_adapter.play_commands import enemy_units, own_units
from bot.discord_adapter.schema_commands import schema_command
from bot.sight_text import measure_text


@schema_command("measure", extras=PRIVATE)
@app_commands.autocomplete(unit=own_units, to=enemy_units)
async def measure_command(interaction: discord.Interaction, unit: str, to: str) -> None:
    state = await games(interaction).game(str(interaction.channel_id))
    side = side_of(state, str(interaction.user.id))  # only from your own units: no probing the enemy's
    text = await asyncio.to_thread(measure_text, state, side, unit, to)
    await answer(interaction, text, ephemeral=True)
