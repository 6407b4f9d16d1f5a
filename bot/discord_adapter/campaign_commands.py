"""``/campaign``: a Red Barricades campaign in a channel. Orders are submitted privately
(ephemeral replies) and stay sealed until the reveal; reminders mention the players who still
owe orders; times are Discord relative timestamps.

``/campaign linked``: linked Iron Cross battles, each side's force carrying its losses from one
scenario game to the next; the end of each battle is posted in the channel."""

from __future__ import annotations

import io
import re
from datetime import datetime
from typing import Literal

import discord
from discord import app_commands

from bot.discord_adapter.common import send_long
from bot.services.campaign_service import CampaignService, parse_duration
from bot.services.game_service import GameError
from bot.services.linked_campaign_service import LinkedCampaignService
from engine.campaign.phases import DEFAULT_REMINDERS
from engine.quick_battle import quick_tables

_MENTION = re.compile(r"<@!?(\d+)>")


def relative_time(moment: datetime) -> str:
    return f"<t:{int(moment.timestamp())}:R>"


def mention(user_id: str) -> str:
    return f"<@{user_id}>"


def mentioned(text: str, what: str) -> list[str]:
    """The user ids mentioned in ``text``: ``"<@301> <@302>"`` -> ``["301", "302"]``."""
    users = _MENTION.findall(text)
    if not users:
        raise GameError(f"Mention the {what} (@name), one or more")
    return users


def campaigns(interaction: discord.Interaction) -> CampaignService:
    return interaction.client.campaigns  # type: ignore[attr-defined]


def linked_campaigns(interaction: discord.Interaction) -> LinkedCampaignService:
    return interaction.client.linked_campaigns  # type: ignore[attr-defined]


class CampaignCommands(app_commands.Group):
    """The group, and the client's CampaignService: reminders and reveals are posted in the
    campaign's channel. The client calls ``client.campaigns.resume()`` when it starts. Linked
    battles have a LinkedCampaignService of their own, ``client.linked_campaigns``."""

    linked = app_commands.Group(
        name="linked", description="Linked Iron Cross battles: forces carry their losses between scenarios"
    )

    def __init__(self, client: discord.Client) -> None:
        super().__init__(
            name="campaign", description="Red Barricades campaigns with deadlines and sealed orders"
        )
        self.client = client
        games = client.games  # type: ignore[attr-defined]
        client.campaigns = CampaignService(  # type: ignore[attr-defined]
            games.store,
            games.dice,
            games.clock,
            on_reminder=self.remind,
            on_reveal=self.post,
            when=relative_time,
            who=mention,
        )
        client.linked_campaigns = LinkedCampaignService(  # type: ignore[attr-defined]
            games, on_carried=self.post, who=mention
        )

    async def post(self, channel_id: str, text: str) -> None:
        await self.client.get_partial_messageable(int(channel_id)).send(text[:2000])

    async def remind(self, channel_id: str, users: list[str], text: str) -> None:
        await self.post(channel_id, text)  # the text mentions each player who owes orders

    @app_commands.command(name="new", description="Set up a Red Barricades campaign in this channel")
    @app_commands.describe(
        german="The German players (@mentions)",
        russian="The Russian players (@mentions)",
        german_cpp="German CPP each CG Day (set by the organiser, from the full CG rules)",
        russian_cpp="Russian CPP each CG Day",
        days="How many CG Days (phases)",
        start="The first CG Day, e.g. 17 Oct",
        every="Each phase's length: 24h, 3d, 90m ...",
        grace="A grace period after each deadline: 2h ...",
        reminders="When to remind before a deadline: 24h,1h",
        referee="The referee (@mention), who may submit for a side",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        name: str,
        german: str,
        russian: str,
        german_cpp: app_commands.Range[int, 0, 999],
        russian_cpp: app_commands.Range[int, 0, 999],
        days: app_commands.Range[int, 1, 30] = 3,
        start: str = "17 Oct",
        every: str = "24h",
        grace: str = "0s",
        reminders: str | None = None,
        referee: str | None = None,
    ) -> None:
        text = await campaigns(interaction).create(
            str(interaction.channel_id),
            name,
            {"german": mentioned(german, "German players"), "russian": mentioned(russian, "Russian players")},
            start,
            {"german": german_cpp, "russian": russian_cpp},
            days,
            parse_duration(every),
            parse_duration(grace),
            [parse_duration(r) for r in reminders.split(",")] if reminders else DEFAULT_REMINDERS,
            mentioned(referee, "referee")[0] if referee else None,
        )
        await send_long(interaction, text)

    @app_commands.command(name="submit", description="Seal your side's orders (only you see this)")
    @app_commands.describe(
        buy='RG IDs from your chart: "I1, O2 2 hexes", or none',
        side="The referee names the side",
        phase="A phase number (the open phase if left out)",
    )
    async def submit(
        self,
        interaction: discord.Interaction,
        buy: str,
        side: Literal["german", "russian"] | None = None,
        phase: app_commands.Range[int, 1, 30] | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await campaigns(interaction).submit(
            str(interaction.channel_id), str(interaction.user.id), buy, side, phase
        )
        await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name="status", description="Every phase, who has submitted, the time left")
    async def status(self, interaction: discord.Interaction) -> None:
        await send_long(interaction, await campaigns(interaction).status(str(interaction.channel_id)))

    @app_commands.command(name="ledger", description="Every purchase, roll and change of the campaign")
    async def ledger(self, interaction: discord.Interaction, csv: bool = False) -> None:
        text = await campaigns(interaction).ledger(str(interaction.channel_id), csv=csv)
        if csv:
            file = discord.File(io.BytesIO(text.encode()), filename="ledger.csv")
            await interaction.response.send_message("The campaign ledger", file=file)
        else:
            await send_long(interaction, f"```\n{text}\n```")

    @linked.command(name="new", description="Set up linked Iron Cross battles between two saved forces")
    @app_commands.describe(
        allies="The allied player (@mention)",
        allies_force="The allied player's force (one of their /force list)",
        axis="The axis player (@mention)",
        axis_force="The axis player's force",
        winner="Reinforcement points for a win (our campaign rule; default 50)",
        loser="Reinforcement points for a loss (default 30)",
        draw="Reinforcement points for each side in a draw (default 40)",
        damaged="Units left with morale markers: back for the next battle, or sitting it out",
    )
    async def linked_new(
        self,
        interaction: discord.Interaction,
        name: str,
        allies: str,
        allies_force: str,
        axis: str,
        axis_force: str,
        winner: app_commands.Range[int, 0, 1000] = 50,
        loser: app_commands.Range[int, 0, 1000] = 30,
        draw: app_commands.Range[int, 0, 1000] = 40,
        damaged: Literal["return", "sit_out"] = "return",
    ) -> None:
        text = await linked_campaigns(interaction).create(
            str(interaction.channel_id),
            str(interaction.guild_id),
            name,
            {
                "allies": (mentioned(allies, "allied player")[0], allies_force),
                "axis": (mentioned(axis, "axis player")[0], axis_force),
            },
            {"winner_points": winner, "loser_points": loser, "draw_points": draw, "damaged": damaged},
        )
        await send_long(interaction, text)

    @linked.command(name="battle", description="Set up the next battle here, both forces as they stand")
    @app_commands.describe(
        scenario="The book scenario to fight",
        table="The battlefield (default: village)",
        attacker="Capture and Breakthrough: the attacking side",
        attacker_choice="Breakthrough: the attacker's aggressive command or preliminary bombardment",
        reaction_seconds="How long the other side has to react (15 s to 48 h, default 120)",
    )
    @app_commands.choices(
        table=[app_commands.Choice(name=title[:100], value=name) for name, title in quick_tables().items()]
    )
    async def linked_battle(
        self,
        interaction: discord.Interaction,
        scenario: Literal["meeting", "escalating", "capture", "breakthrough"],
        table: str = "village",
        attacker: Literal["allies", "axis"] | None = None,
        attacker_choice: Literal["aggressive_command", "preliminary_bombardment"] | None = None,
        reaction_seconds: app_commands.Range[int, 15, 172800] = 120,
    ) -> None:
        text, _ = await linked_campaigns(interaction).battle(
            str(interaction.channel_id),
            str(interaction.user.id),
            scenario,
            table,
            attacker,
            attacker_choice,
            reaction_seconds,
        )
        await send_long(interaction, text)

    @linked.command(name="buy", description="Buy a unit for your side with its reinforcement points")
    @app_commands.describe(unit="A unit of your force's order of battle", label="What to call it")
    async def linked_buy(
        self,
        interaction: discord.Interaction,
        side: Literal["allies", "axis"],
        unit: str,
        label: str | None = None,
    ) -> None:
        text = await linked_campaigns(interaction).buy(
            str(interaction.channel_id), str(interaction.user.id), side, unit, label
        )
        await send_long(interaction, text)

    @linked.command(name="command", description="Make another of your units the command unit")
    async def linked_command(
        self, interaction: discord.Interaction, side: Literal["allies", "axis"], unit: str
    ) -> None:
        text = await linked_campaigns(interaction).command(
            str(interaction.channel_id), str(interaction.user.id), side, unit
        )
        await interaction.response.send_message(text)

    @linked.command(name="standings", description="Each side's results, points and force, and the history")
    async def linked_standings(self, interaction: discord.Interaction) -> None:
        text = await linked_campaigns(interaction).standings(str(interaction.channel_id))
        await send_long(interaction, text)
