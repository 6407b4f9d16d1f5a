"""``/campaign``: a Red Barricades campaign in a channel. Orders are submitted privately
(ephemeral replies, or a form opened by ``/campaign submit`` with no orders or by the *Submit
orders* button under a phase's announcement) and stay sealed until the reveal; reminders
mention the players who still owe orders; times are Discord relative timestamps. The referee
(else the organiser) corrects the ledger with ``/campaign correct``, records the units a side
retains into the next CG scenario with ``/campaign retain``, sets a side's Balance provision DRM
with ``/campaign balance``, says whether CG II scenarios are played with ``/campaign cg2`` and
records a Battery Access chit drawn for an OBA module with ``/campaign chit``.

``/campaign linked``: linked Iron Cross battles, each side's force carrying its losses from one
scenario game to the next; the end of each battle is posted in the channel."""

from __future__ import annotations

import io
import logging
import re

import discord
from discord import app_commands

from bot.discord_adapter.answers import FORM, acknowledge, answer, apology
from bot.discord_adapter.common import deadline_nonce, send_long
from bot.discord_adapter.markdown import markdown, refused
from bot.discord_adapter.schema_commands import schema_command
from bot.discord_adapter.table_commands import battlefields, server
from bot.reply import Reply
from bot.services.campaign_service import CampaignService, parse_duration, parse_reminders
from bot.services.game_service import GameError
from bot.services.limits import MOST_SEED
from bot.services.linked_campaign_service import LinkedCampaignService
from engine.errors import IllegalCommand

_MENTION = re.compile(r"<@!?(\d+)>")
log = logging.getLogger(__name__)
SUBMIT_ID = r"icc:(?P<channel>[0-9]+):(?P<phase>[0-9]+):submit"


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


class SubmissionForm(discord.ui.Modal, title="Sealed orders"):
    """A side's submission for a phase: RGs and fortifications, one a line. Only the submitter
    sees the answer; a refusal says what is wrong and seals nothing."""

    groups = discord.ui.TextInput(
        label="RG purchases: one ID a line, or none",
        style=discord.TextStyle.paragraph,
        placeholder="I1\nO2 2 hexes\nO6 for O2\nM1",
        required=False,
        max_length=1000,
    )
    fortifications = discord.ui.TextInput(
        label="Fortifications (FPP), one a line",
        style=discord.TextStyle.paragraph,
        placeholder="2 x Trench\n3 Foxhole at 2\nPillbox 1+5+1",
        required=False,
        max_length=1000,
    )

    def __init__(self, side: str | None, phase: int, sealed: tuple[str, str] = ("", "")) -> None:
        """``sealed``: the orders the side has already sealed, which the form opens with."""
        super().__init__(timeout=None)
        self.side, self.phase = side, phase
        groups, fortifications = sealed
        self.groups.default = groups or None
        self.fortifications.default = fortifications or None

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction, private=True)
        try:
            text = await campaigns(interaction).submit(
                str(interaction.channel_id),
                str(interaction.user.id),
                self.groups.value,
                self.side,
                self.phase,
                self.fortifications.value,
            )
        except (GameError, IllegalCommand) as problem:
            text = f"Nothing was sealed: {refused(problem)}"
        except Exception:
            log.exception("the orders form failed in channel %s", interaction.channel_id)
            text = await apology(interaction)
        await answer(interaction, text, ephemeral=True)


async def open_form(interaction: discord.Interaction, side: str | None, phase: int | None) -> None:
    """Open the submission form, once the user is known to submit for a side of the campaign and
    the phase to take orders, filled with what the side has already sealed for the phase. The
    form is for that phase alone: sent after its reveal, it seals nothing for the next."""
    phase, sealed = await campaigns(interaction).sealed_orders(
        str(interaction.channel_id), str(interaction.user.id), side, phase
    )
    await interaction.response.send_modal(SubmissionForm(side, phase, sealed))


class SubmitButton(discord.ui.DynamicItem[discord.ui.Button], template=SUBMIT_ID):
    """*Submit orders* under a phase's announcement: opens the form for that phase (counted
    from 1). Persistent: its custom id carries the channel and phase."""

    def __init__(self, channel_id: int, phase: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Submit orders",
                style=discord.ButtonStyle.primary,
                custom_id=f"icc:{channel_id}:{phase}:submit",
            )
        )
        self.phase = phase

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["channel"]), int(match["phase"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await open_form(interaction, None, self.phase)
        except (GameError, IllegalCommand) as problem:
            await answer(interaction, refused(problem), ephemeral=True)


def submit_view(channel_id: str, phase: int) -> discord.ui.View:
    """The *Submit orders* button for a phase (counted from 1)."""
    view = discord.ui.View(timeout=None)
    view.add_item(SubmitButton(int(channel_id), phase))
    return view


class CampaignCommands(app_commands.Group):
    """The group; it tells the client's CampaignService to post reminders and reveals in the
    campaign's channel, with Discord's mentions and times. The client calls
    ``client.campaigns.resume()`` when it starts. Linked battles have a LinkedCampaignService of
    their own, ``client.linked_campaigns``."""

    linked = app_commands.Group(
        name="linked", description="Linked Iron Cross battles: forces carry their losses between scenarios"
    )

    def __init__(self, client: discord.Client) -> None:
        super().__init__(
            name="campaign", description="Red Barricades campaigns with deadlines and sealed orders"
        )
        self.client = client
        campaigns: CampaignService = client.campaigns  # type: ignore[attr-defined]
        campaigns.on_reminder, campaigns.on_reveal = self.remind, self.announce_reveal
        linked: LinkedCampaignService = client.linked_campaigns  # type: ignore[attr-defined]
        linked.on_carried = self.post
        client.add_dynamic_items(SubmitButton)

    async def post(self, channel_id: str, said: Reply) -> None:
        channel = self.client.get_partial_messageable(int(channel_id))
        # a deadline's: shown once, though sent again
        await channel.send(markdown(said)[:2000], nonce=deadline_nonce())

    async def announce_reveal(self, channel_id: str, said: Reply, open_phase: int | None) -> None:
        """Post a reveal, with the *Submit orders* button when it opens the next phase."""
        view = discord.utils.MISSING if open_phase is None else submit_view(channel_id, open_phase + 1)
        channel = self.client.get_partial_messageable(int(channel_id))
        await channel.send(markdown(said)[:2000], view=view, nonce=deadline_nonce())

    async def remind(self, channel_id: str, users: list[str], said: Reply) -> None:
        await self.post(channel_id, said)  # it mentions each player who owes orders

    @schema_command("campaign new")
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
        carry_over: bool = True,
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
            parse_reminders(reminders),
            mentioned(referee, "referee")[0] if referee else None,
            str(interaction.user.id),
            carry_over,
        )
        await send_long(interaction, markdown(text), view=submit_view(str(interaction.channel_id), 1))

    @schema_command("campaign submit", extras=FORM)
    async def submit(
        self,
        interaction: discord.Interaction,
        buy: str | None = None,
        fortify: str | None = None,
        side: str | None = None,
        phase: app_commands.Range[int, 1, 30] | None = None,
    ) -> None:
        if buy is None and fortify is None:
            await open_form(interaction, side, phase)
            return
        await acknowledge(interaction, private=True)
        text = await campaigns(interaction).submit(
            str(interaction.channel_id), str(interaction.user.id), buy or "", side, phase, fortify or ""
        )
        await answer(interaction, text, ephemeral=True)

    @schema_command("campaign status")
    async def status(self, interaction: discord.Interaction) -> None:
        await send_long(
            interaction, markdown(await campaigns(interaction).status(str(interaction.channel_id)))
        )

    @schema_command("campaign ledger")
    async def ledger(self, interaction: discord.Interaction, csv: bool = False) -> None:
        text = await campaigns(interaction).ledger(str(interaction.channel_id), csv=csv)
        if csv:
            ledger = "The campaign ledger as CSV"
            file = discord.File(io.BytesIO(text.encode()), filename="ledger.csv", description=ledger)
            await answer(interaction, "The campaign ledger", file=file)
        else:
            await send_long(interaction, f"```\n{text}\n```")

    @schema_command("campaign orbat")
    async def orbat(self, interaction: discord.Interaction, side: str | None = None) -> None:
        text = await campaigns(interaction).order_of_battle(str(interaction.channel_id), side)
        await send_long(interaction, markdown(text))

    @schema_command("campaign correct")
    async def correct(
        self,
        interaction: discord.Interaction,
        entry: app_commands.Range[int, 0, 100000],
        to: str,
        reason: str,
    ) -> None:
        text = await campaigns(interaction).correct(
            str(interaction.channel_id), str(interaction.user.id), entry, to, reason
        )
        await send_long(interaction, text)

    @schema_command("campaign retain")
    async def retain(self, interaction: discord.Interaction, side: str, units: str) -> None:
        text = await campaigns(interaction).retain(
            str(interaction.channel_id), str(interaction.user.id), side, units
        )
        await send_long(interaction, text)

    @schema_command("campaign balance")
    async def balance(
        self,
        interaction: discord.Interaction,
        side: str,
        drm: app_commands.Range[int, -6, 6],
    ) -> None:
        text = await campaigns(interaction).balance(
            str(interaction.channel_id), str(interaction.user.id), side, drm
        )
        await send_long(interaction, text)

    @schema_command("campaign cg2")
    async def cg2(self, interaction: discord.Interaction, on: bool) -> None:
        text = await campaigns(interaction).cg_ii(str(interaction.channel_id), str(interaction.user.id), on)
        await send_long(interaction, text)

    @schema_command("campaign chit")
    async def chit(
        self,
        interaction: discord.Interaction,
        entry: app_commands.Range[int, 0, 100000],
        colour: str,
    ) -> None:
        text = await campaigns(interaction).chit(
            str(interaction.channel_id), str(interaction.user.id), entry, colour
        )
        await send_long(interaction, text)

    @schema_command("campaign linked new", group=linked)
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
        damaged: str = "return",
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
        await send_long(interaction, markdown(text))

    @schema_command("campaign linked battle", group=linked)
    @app_commands.autocomplete(table=battlefields)
    async def linked_battle(
        self,
        interaction: discord.Interaction,
        scenario: str,
        table: str = "village",
        seed: app_commands.Range[int, 0, MOST_SEED] | None = None,
        attacker: str | None = None,
        attacker_choice: str | None = None,
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
            guild_id=server(interaction),
            seed=seed,
        )
        await send_long(interaction, markdown(text))

    @schema_command("campaign linked buy", group=linked)
    async def linked_buy(
        self,
        interaction: discord.Interaction,
        side: str,
        unit: str,
        label: str | None = None,
    ) -> None:
        text = await linked_campaigns(interaction).buy(
            str(interaction.channel_id), str(interaction.user.id), side, unit, label
        )
        await send_long(interaction, markdown(text))

    @schema_command("campaign linked command", group=linked)
    async def linked_command(self, interaction: discord.Interaction, side: str, unit: str) -> None:
        text = await linked_campaigns(interaction).command(
            str(interaction.channel_id), str(interaction.user.id), side, unit
        )
        await answer(interaction, text)

    @schema_command("campaign linked retire", group=linked)
    async def linked_retire(self, interaction: discord.Interaction, side: str, unit: str) -> None:
        text = await linked_campaigns(interaction).retire(
            str(interaction.channel_id), str(interaction.user.id), side, unit
        )
        await send_long(interaction, markdown(text))

    @schema_command("campaign linked end", group=linked)
    async def linked_end(self, interaction: discord.Interaction) -> None:
        channel, user = str(interaction.channel_id), str(interaction.user.id)
        text = await linked_campaigns(interaction).end(channel, user)
        await send_long(interaction, markdown(text))

    @schema_command("campaign linked standings", group=linked)
    async def linked_standings(self, interaction: discord.Interaction) -> None:
        text = await linked_campaigns(interaction).standings(str(interaction.channel_id))
        await send_long(interaction, markdown(text))
