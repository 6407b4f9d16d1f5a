"""``/roll`` and ``/chart``: dice for everyone in a channel, with or without a game."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_adapter.common import DISCORD_TEXT_LIMIT
from bot.services.dice_service import DiceService
from engine.rolls.charts import describe_chart, find_chart, load_charts


def dice_service(interaction: discord.Interaction) -> DiceService:
    return interaction.client.dice  # type: ignore[attr-defined]


def _fit(text: str) -> str:
    return text if len(text) <= DISCORD_TEXT_LIMIT else text[: DISCORD_TEXT_LIMIT - 2] + " …"


@app_commands.command(
    name="roll", description="Roll dice: 3d6+1, 4d6kh3, 2d10 5+ label, DR +1, dr; 'log' lists rolls"
)
@app_commands.describe(
    dice="e.g. 2d10 5+ Panther at Sherman; DR +2; 1d6. Type log for the channel's roll log",
    secret="Only you see the result (it is still logged, for you)",
)
async def roll_command(interaction: discord.Interaction, dice: str, secret: bool = False) -> None:
    channel, user = str(interaction.channel_id), str(interaction.user.id)
    service = dice_service(interaction)
    if dice.strip().casefold() == "log":
        rows = await service.log(channel, user)
        lines = [f"<@{r.user_id}> {r.asked}{' (secret)' if r.secret else ''}: {r.result}" for r in rows]
        await interaction.response.send_message(_fit("\n".join(lines) or "No rolls here yet"), ephemeral=True)
        return
    rolled = await service.roll(channel, user, dice, secret=secret)
    await interaction.response.send_message(
        _fit(f"<@{user}> rolls `{dice.strip()}`\n{rolled.text}"), ephemeral=secret
    )


async def chart_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    typed = current.casefold()
    return [
        app_commands.Choice(name=f"{c.id}: {c.title}"[:100], value=c.id)
        for c in load_charts().values()
        if typed in c.id or typed in c.title.casefold()
    ][:25]


class ChartCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(
            name="chart", description="Roll on named charts: Iron Cross tests, Red Barricades tables"
        )

    @app_commands.command(name="roll", description="Roll on a chart")
    @app_commands.describe(
        chart="The chart (type to search)",
        choices="Parameters and modifiers, comma separated: side=german, date=2 Nov, depleted",
        secret="Only you see the result",
    )
    @app_commands.autocomplete(chart=chart_names)
    async def roll(
        self, interaction: discord.Interaction, chart: str, choices: str = "", secret: bool = False
    ) -> None:
        user = str(interaction.user.id)
        rolled = await dice_service(interaction).chart(
            str(interaction.channel_id), user, chart, choices, secret=secret
        )
        await interaction.response.send_message(_fit(f"<@{user}> {rolled.text}"), ephemeral=secret)

    @app_commands.command(name="list", description="Every chart, with what it takes")
    async def list(self, interaction: discord.Interaction) -> None:
        lines = [f"**{c.id}**: {c.title}" for c in load_charts().values()]
        await interaction.response.send_message(
            _fit("\n".join(lines) + "\n`/chart show` explains one"), ephemeral=True
        )

    @app_commands.command(name="show", description="What a chart takes and gives")
    @app_commands.autocomplete(chart=chart_names)
    async def show(self, interaction: discord.Interaction, chart: str) -> None:
        await interaction.response.send_message(_fit(describe_chart(find_chart(chart))), ephemeral=True)
