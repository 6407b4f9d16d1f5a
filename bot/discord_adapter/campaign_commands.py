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

from bot.discord_adapter.answers import FORM, acknowledge, answer, apology, show_form
from bot.discord_adapter.common import deadline_nonce, owner_scope, send_long
from bot.discord_adapter.custom_ids import ReadFirst, number_of, of_this_channel, out_of_date
from bot.discord_adapter.markdown import fenced, markdown, pinging, refused
from bot.discord_adapter.schema_commands import schema_command
from bot.discord_adapter.table_commands import battlefields
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
        if not await acknowledge(interaction, private=True):
            return
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
    """The group; it tells the client's CampaignService to post reminders and reveals in the
    campaign's channel, with Discord's mentions and times. The client calls
    ``client.campaigns.resume()`` when it starts. Linked battles have a LinkedCampaignService of
    their own, ``client.linked_campaigns``."""

    linked = app_commands.Group(
        name="linked", description="Iron Cross battles whose forces keep their losses"
    )

    def __init__(self, client: discord.Client) -> None:
        super().__init__(
            name="campaign", description="Red Barricades campaigns and linked Iron Cross battles"
        )
        self.client = client
        campaigns: CampaignService = client.campaigns  # type: ignore[attr-defined]
        campaigns.on_reminder, campaigns.on_reveal = self.remind, self.announce_reveal
        linked: LinkedCampaignService = client.linked_campaigns  # type: ignore[attr-defined]
        linked.on_carried = self.post
        client.add_dynamic_items(SubmitButton)

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
        if not await acknowledge(interaction, private=True):
            return
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
            await send_long(interaction, fenced(text))

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
            owner_scope(interaction),
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
            guild_id=owner_scope(interaction),
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
