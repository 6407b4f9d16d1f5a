"""``/roll``, ``/chart`` and ``/odds``: dice for everyone in a channel, with or without a game."""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands

from bot.discord_adapter.answers import PRIVATE, answer
from bot.discord_adapter.common import DISCORD_TEXT_LIMIT, games, send_long, side_of, suggestions
from bot.discord_adapter.markdown import markdown
from bot.discord_adapter.schema_commands import schema_command
from bot.reply import Mention, Reply, Typed
from bot.services.dice_service import DiceService, logged_line
from bot.text_orders import find_unit
from engine.firing.odds import (
    ShotSetup,
    SuccessTest,
    describe_shot_odds,
    describe_test_odds,
    profile_labels,
    read_options,
    setup_shot,
    shot_odds,
    table_shot,
)
from engine.rolls.charts import describe_chart, find_chart, load_charts


def dice_service(interaction: discord.Interaction) -> DiceService:
    return interaction.client.dice  # type: ignore[attr-defined]


def is_channel_referee(interaction: discord.Interaction) -> bool:
    """Who referees the channel's dice: members who may manage its messages (moderators).
    Games name their own referees in issue 9's referee rules."""
    return bool(interaction.guild_id) and interaction.permissions.manage_messages


@schema_command("roll")
async def roll_command(interaction: discord.Interaction, dice: str, secret: bool = False) -> None:
    channel, user = str(interaction.channel_id), str(interaction.user.id)
    service = dice_service(interaction)
    if dice.strip().casefold() == "log":
        rows = await service.log(channel, user, referee=is_channel_referee(interaction))
        lines = [
            (Mention(r.user_id), f" {r.asked}{' (secret)' if r.secret else ''}: ", *logged_line(r.result))
            for r in rows
        ]
        await send_long(interaction, markdown(Reply(tuple(lines))) or "No rolls here yet", ephemeral=True)
        return
    rolled = await service.roll(channel, user, dice, secret=secret)
    said = Reply(((Mention(user), " rolls ", Typed(dice.strip())), *rolled.lines))
    await send_long(interaction, markdown(said), ephemeral=secret)


async def chart_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return suggestions(current, {f"{c.id}: {c.title}": c.id for c in load_charts().values()})


class ChartCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(
            name="chart",
            description="Roll on named charts: Iron Cross tests, Red Barricades and Cross of Iron tables",
        )

    @schema_command("chart roll")
    @app_commands.autocomplete(chart=chart_names)
    async def roll(
        self, interaction: discord.Interaction, chart: str, choices: str = "", secret: bool = False
    ) -> None:
        user = str(interaction.user.id)
        rolled = await dice_service(interaction).chart(
            str(interaction.channel_id), user, chart, choices, secret=secret
        )
        (line,) = rolled.lines
        await send_long(interaction, markdown(Reply.of((Mention(user), " ", *line))), ephemeral=secret)

    @schema_command("chart list", extras=PRIVATE)
    async def list(self, interaction: discord.Interaction) -> None:
        for page in dice_service(interaction).chart_list(DISCORD_TEXT_LIMIT, markdown):
            await answer(interaction, markdown(page), ephemeral=True)

    @schema_command("chart show", extras=PRIVATE)
    @app_commands.autocomplete(chart=chart_names)
    async def show(self, interaction: discord.Interaction, chart: str) -> None:
        await send_long(interaction, markdown(Reply(describe_chart(find_chart(chart)))), ephemeral=True)


async def unit_profiles(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Units by "Name (nation)", nearest to what was typed first."""
    return suggestions(current, profile_labels())


class OddsCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="odds", description="Exact chances before you roll: a shot, or any test")

    @schema_command("odds shot")
    @app_commands.autocomplete(firer=unit_profiles, target=unit_profiles)
    async def shot(
        self,
        interaction: discord.Interaction,
        firer: str,
        target: str,
        range: app_commands.Range[float, 0, 200],
        aspect: str = "front",
        cover: str = "open",
        firer_moved: bool = False,
        target_moved: bool = False,
        smoke: bool = False,
        hull_down: bool = False,
        firer_markers: app_commands.Range[int, 0, 10] = 0,
        target_markers: app_commands.Range[int, 0, 10] = 0,
        infantry_close: bool = False,
        ranged_in: app_commands.Range[int, 0, 10] = 0,
        in_building: bool = False,
        flamethrower: bool = False,
        iaw: bool = False,
    ) -> None:
        options = {name: value for name, value in locals().items() if name not in ("self", "interaction")}
        setup = read_options(ShotSetup, options)
        odds = await asyncio.to_thread(lambda: describe_shot_odds(shot_odds(setup_shot(setup))))
        await send_long(interaction, markdown(Reply(odds)))

    @schema_command("odds fire", extras=PRIVATE)
    async def fire(
        self, interaction: discord.Interaction, unit: str, target: str, moving: bool = False
    ) -> None:
        state = await games(interaction).game(str(interaction.channel_id))
        side = side_of(state, str(interaction.user.id))  # only your own units: no probing the enemy's
        shot = table_shot(
            state, find_unit(state, unit, side), find_unit(state, target, aimed_by=side), moving=moving
        )
        odds = await asyncio.to_thread(lambda: describe_shot_odds(shot_odds(shot)))
        await send_long(interaction, markdown(Reply(odds)), ephemeral=True)

    @schema_command("odds test")
    async def test(
        self,
        interaction: discord.Interaction,
        needs: app_commands.Range[int, 1, 1000],
        sides: app_commands.Range[int, 2, 1000] = 6,
        dice: app_commands.Range[int, 1, 50] = 1,
        reroll: str = "none",
        at_least: app_commands.Range[int, 1, 50] = 1,
    ) -> None:
        test = read_options(
            SuccessTest, dict(needs=needs, sides=sides, dice=dice, reroll=reroll, at_least=at_least)
        )
        await send_long(interaction, markdown(Reply(describe_test_odds(test))))
