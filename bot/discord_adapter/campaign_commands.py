"""``/campaign``: a Red Barricades campaign in a channel. Orders are submitted privately
(ephemeral replies, or a form opened by ``/campaign submit`` with no orders or by the *Submit
orders* button under a phase's announcement) and stay sealed until the reveal; reminders
mention the players who still owe orders; times are Discord relative timestamps. The referee
(else the organiser) corrects the ledger with ``/campaign correct``, records the units a side
retains into the next CG scenario with ``/campaign retain``, sets a side's Balance provision DRM
with ``/campaign balance``, says whether CG II scenarios are played with ``/campaign cg2`` and
records a Battery Access chit drawn for an OBA module with ``/campaign chit``.

``/campaign linked``: linked Iron Cross battles, each side's force carrying its losses from one
scenario game to the next; the end of each battle is posted in the channel.

Each command is carried out by its handler (:mod:`bot.handlers.campaigns`), which the console
calls too; only the form and the *Submit orders* button are Discord's own."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.discord_adapter.answers import FORM, acknowledge, answer, apology, show_form
from bot.discord_adapter.common import deadline_nonce, send_reply
from bot.discord_adapter.custom_ids import ReadFirst, number_of, of_this_channel, out_of_date
from bot.discord_adapter.handled_commands import ask_of, handled_command, present
from bot.discord_adapter.markdown import markdown, pinging, refused
from bot.discord_adapter.schema_commands import generated_command, schema_command
from bot.discord_adapter.served import Interaction, ServedClient
from bot.discord_adapter.table_commands import battlefields
from bot.handlers import HANDLERS
from bot.reply import Reply
from bot.services.campaign_service import CampaignService
from bot.services.game_service import GameError
from engine.errors import IllegalCommand

log = logging.getLogger(__name__)
SUBMIT_ID = r"icc:(?P<channel>[0-9]+):(?P<phase>[0-9]+):submit"
HANDLED = (  # carried out by their handlers as they are; /campaign new adds its button
    "campaign status",
    "campaign ledger",
    "campaign orbat",
    "campaign correct",
    "campaign retain",
    "campaign balance",
    "campaign cg2",
    "campaign chit",
)
LINKED = {
    "campaign linked new": {},
    "campaign linked battle": {"table": battlefields},
    "campaign linked buy": {},
    "campaign linked command": {},
    "campaign linked retire": {},
    "campaign linked end": {},
    "campaign linked standings": {},
}


def campaigns(interaction: Interaction) -> CampaignService:
    return interaction.client.services.campaigns


async def sealing(
    interaction: Interaction, buy: str | None, fortify: str | None, side: str | None, phase: int | None
) -> Reply:
    """The side's orders sealed by the handler the console calls too, looked up when called."""
    handler = HANDLERS["campaign submit"]
    return await handler(ask_of(interaction), buy=buy, fortify=fortify, side=side, phase=phase)


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
        if not await acknowledge(interaction, private=True):
            return
        try:
            sealed = await sealing(
                interaction, self.groups.value, self.fortifications.value, self.side, self.phase
            )
        except (GameError, IllegalCommand) as problem:
            await answer(interaction, f"Nothing was sealed: {refused(problem)}", ephemeral=True)
            return
        except Exception:
            log.exception("the orders form failed in channel %s", interaction.channel_id)
            await answer(interaction, await apology(interaction), ephemeral=True)
            return
        await present(interaction, sealed)


async def open_form(interaction: discord.Interaction, side: str | None, phase: int | None) -> None:
    """Open the submission form, once the user is known to submit for a side of the campaign and
    the phase to take orders, filled with what the side has already sealed for the phase. The
    form is for that phase alone: sent after its reveal, it seals nothing for the next."""
    phase, sealed = await campaigns(interaction).sealed_orders(
        str(interaction.channel_id), str(interaction.user.id), side, phase
    )
    await show_form(interaction, SubmissionForm(side, phase, sealed))


class SubmitButton(ReadFirst, discord.ui.DynamicItem[discord.ui.Button], template=SUBMIT_ID):
    """*Submit orders* under a phase's announcement: opens the form for that phase (counted
    from 1). Persistent: its custom id carries the channel and phase (one of another channel,
    or of no phase, is out of date)."""

    def __init__(self, channel_id: int | str, phase: int | str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Submit orders",
                style=discord.ButtonStyle.primary,
                custom_id=f"icc:{channel_id}:{phase}:submit",
            )
        )
        self.channel, self.given_phase = str(channel_id), str(phase)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["channel"], match["phase"])

    def read(self, interaction: discord.Interaction) -> None:
        of_this_channel(self.channel, interaction)
        self.phase = number_of(self.given_phase)
        if self.phase < 1:
            raise out_of_date()

    async def take(self, interaction: discord.Interaction) -> None:
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
    """The group; it posts a campaign's reminders and reveals (:meth:`remind`,
    :meth:`announce_reveal`) in the campaign's channel, with Discord's mentions and times, and a
    linked campaign's news of a battle's end (:meth:`post`): the client hands them to the
    services (:class:`bot.app.Notices`), and calls ``client.campaigns.resume()`` when it starts."""

    def __init__(self, client: ServedClient) -> None:
        super().__init__(
            name="campaign", description="Red Barricades campaigns and linked Iron Cross battles"
        )
        self.client = client
        client.add_dynamic_items(SubmitButton)
        generated_command("campaign new", set_up, group=self)
        for path in HANDLED:
            handled_command(path, group=self)
        battles = app_commands.Group(
            name="linked", description="Iron Cross battles whose forces keep their losses", parent=self
        )
        for path, suggest in LINKED.items():
            handled_command(path, suggest, group=battles)

    async def post(self, channel_id: str, said: Reply, pinged: list[str] | None = None) -> None:
        """Post a campaign's news, pinging the players ``pinged`` (nobody else)."""
        channel = self.client.get_partial_messageable(int(channel_id))
        mentions = pinging(pinged) if pinged else discord.utils.MISSING
        # a deadline's: shown once, though sent again
        await channel.send(markdown(said)[:2000], nonce=deadline_nonce(), allowed_mentions=mentions)

    async def announce_reveal(self, channel_id: str, said: Reply, open_phase: int | None) -> None:
        """Post a reveal, with the *Submit orders* button when it opens the next phase."""
        view = discord.utils.MISSING if open_phase is None else submit_view(channel_id, open_phase + 1)
        channel = self.client.get_partial_messageable(int(channel_id))
        await channel.send(markdown(said)[:2000], view=view, nonce=deadline_nonce())

    async def remind(self, channel_id: str, users: list[str], said: Reply) -> None:
        await self.post(channel_id, said, users)  # it pings each player who owes orders

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
        if not await acknowledge(interaction, private=True):
            return
        await present(interaction, await sealing(interaction, buy, fortify, side, phase))


async def set_up(interaction: Interaction, **options: Any) -> None:
    """``/campaign new`` by its handler, the *Submit orders* button of phase 1 under its answer."""
    said = await HANDLERS["campaign new"](ask_of(interaction), **options)
    await send_reply(interaction, said, view=submit_view(str(interaction.channel_id), 1))
