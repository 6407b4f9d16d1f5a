"""Answering inside Discord's three seconds: every interaction is acknowledged before any work
(Discord shows "thinking..." for up to 15 minutes), and answered afterwards.

The first answer takes the place of the "thinking..." message when it is as private as that
was. Otherwise (a refusal after a public acknowledgement, say) the placeholder is first written
over with a stub, since Discord would take a first follow-up as the placeholder's own answer and
make it as private as that; the answer follows with its own privacy, and the stub is deleted.
Later answers follow the first.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

import aiohttp
import discord
from discord.utils import MISSING

from bot import metrics
from bot.discord_adapter.markdown import mention, pinging, refused
from bot.discord_adapter.served import Interaction
from bot.services.game_service import GameError
from engine.errors import IllegalCommand

log = logging.getLogger(__name__)
T = TypeVar("T")

PRIVATE = {"private": True}  # a command's extras: it answers only the user, so acknowledge privately
FORM = {"form": True}  # a command's extras: it may open a form, which must be the first answer

DEFERRED = "deferred"  # interaction.extras: "public" or "private" while the placeholder stands
PLACEHOLDER = "placeholder"  # interaction.extras: the id of a public placeholder message
SENT = "sent"  # interaction.extras: a game command was sent to the game service
ANSWERING = "answering"  # interaction.extras: its work done, the command was being answered
STORED = "stored"  # interaction.extras: the game version the interaction's command made
SEATED = "seated"  # interaction.extras: the game version at which the user took a referee's seat
STUB = "…"  # what stands for a moment where an answer of the other privacy follows
AGAIN = "again"  # interaction.extras: the interaction has had its one callback; answers follow it
ALREADY_ACKNOWLEDGED = 40060  # Discord's code for a second callback of one interaction
# what Discord failing a request raises: an error answer (after discord.py's own retries), or none
UNREACHABLE = (discord.HTTPException, aiohttp.ClientError, TimeoutError)


def first_callback(interaction: Interaction) -> bool:
    """Whether the interaction may still be called back. Discord takes one callback an
    interaction: one that comes again (the same id, sent twice by a client or the gateway) is
    answered by follow-ups alone. The client remembers the interactions it called back for their
    tokens' 15 minutes."""
    if interaction.response.is_done() or interaction.extras.get(AGAIN):
        return False
    called = interaction.client.called_back
    if interaction.id in called:
        interaction.extras[AGAIN] = True
        return False
    called[interaction.id] = True
    return True


async def calling_back(interaction: discord.Interaction, callback: Awaitable[T]) -> T | None:
    """Send the interaction's callback; when Discord says it had one already (another process
    answered it, before a restart say), mark it so that its answers follow it."""
    try:
        return await callback
    except discord.HTTPException as error:
        if error.code != ALREADY_ACKNOWLEDGED:
            raise
        interaction.extras[AGAIN] = True
        return None


async def acknowledge(interaction: discord.Interaction, *, private: bool = False) -> bool:
    """Tell Discord an answer is coming, unless it has already been answered. False when Discord
    refused the acknowledgement (its three seconds passed, the token expired, Discord is down):
    the interaction can no longer be answered, so its work is left undone, and the player, who
    sees that it failed, may send it again."""
    if not first_callback(interaction):
        return True
    deferring = interaction.response.defer(thinking=True, ephemeral=private)  # a button's too
    try:
        callback = await calling_back(interaction, deferring)
    except UNREACHABLE:
        log.warning("could not acknowledge interaction %s", interaction.id, exc_info=True)
        return False
    if interaction.extras.get(AGAIN):
        return True
    metrics.FIRST_RESPONSE.observe((discord.utils.utcnow() - interaction.created_at).total_seconds())
    interaction.extras[DEFERRED] = "private" if private else "public"
    if not private and callback is not None:
        interaction.extras[PLACEHOLDER] = callback.message_id
    return True


async def acknowledge_in_place(interaction: discord.Interaction) -> bool:
    """Tell Discord the message a component is on will be changed in place (a private step of
    an order being built), before any work; False as :func:`acknowledge`."""
    if not first_callback(interaction):
        return True
    try:
        await calling_back(interaction, interaction.response.defer())
    except UNREACHABLE:
        log.warning("could not acknowledge interaction %s", interaction.id, exc_info=True)
        return False
    metrics.FIRST_RESPONSE.observe((discord.utils.utcnow() - interaction.created_at).total_seconds())
    return True


async def show_form(interaction: discord.Interaction, form: discord.ui.Modal) -> None:
    """Open ``form`` as the interaction's answer; one that came again opened it the first time."""
    if first_callback(interaction):
        await calling_back(interaction, interaction.response.send_modal(form))


def placeholder_id(interaction: discord.Interaction) -> str | None:
    """The public "thinking..." message that a public answer will take the place of (so a
    reaction window's buttons are known to be on it before the answer is written)."""
    if interaction.extras.get(DEFERRED) != "public" or interaction.extras.get(PLACEHOLDER) is None:
        return None
    return str(interaction.extras[PLACEHOLDER])


def stored(interaction: discord.Interaction, outcome, *, seat: bool = False) -> None:
    """The interaction's command (or the referee's seat taken for it) is in the game's log
    (``outcome``: the service's): from now on a failure must say so."""
    interaction.extras[SEATED if seat else STORED] = outcome.version


async def apology(interaction: discord.Interaction) -> str:
    """What to tell a user when something failed on our side, truthfully: whether their command
    was stored (asking the store when the failure came too late to know), so a player who reads
    it does not send the order twice."""
    version = interaction.extras.get(STORED)
    if version is None and interaction.extras.get(SENT):
        try:
            version = await _stored_version(interaction)
        except Exception:
            log.exception("could not look up interaction %s", interaction.id)
            return (
                "Something went wrong on our side, and whether your command was stored cannot be "
                "told now: look at `/game log` before you send it again."
            )
    if version is not None:
        return (
            f"Your command was stored (action {version} of this game), but showing its result "
            "failed: `/game log` has it. Do not send it again."
        )
    if interaction.extras.get(SENT):
        seated = interaction.extras.get(SEATED)
        seat = f" You took your referee's seat (action {seated}), which stands." if seated else ""
        return f"Something went wrong on our side; your command was not stored.{seat} Please try again."
    if interaction.extras.get(ANSWERING):
        return "Your command was carried out; only showing its answer failed. Do not send it again."
    return "Something went wrong on our side. Check what it changed before you send it again."


async def _stored_version(interaction: discord.Interaction) -> int | None:
    """The version the interaction's command made, if the store has it (a failure during or
    after the commit leaves the outcome unknown to the command's own path)."""
    game = await interaction.client.services.store.load(str(interaction.channel_id), str(interaction.id))
    return game.already.version if game is not None and game.already is not None else None


def sending(interaction: discord.Interaction, *, seat: bool = False) -> str:
    """A game command is on its way to the game service: the id by which the service knows it
    if the interaction comes again (the interaction's own; a referee's seat taken for the
    command has its own)."""
    interaction.extras[SENT] = True
    return f"{interaction.id}/seat" if seat else str(interaction.id)


async def answer(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    ephemeral: bool = False,
    view: discord.ui.View = MISSING,
    file: discord.File = MISSING,
    files: Sequence[discord.File] = (),
    pinged: Sequence[str] = (),
) -> int | None:
    """Answer the interaction (its first answer, or a follow-up) with ``file`` and ``files``,
    pinging the users ``pinged`` (and nobody else); the id of the message, when Discord gives one."""
    interaction.extras[ANSWERING] = True
    placeholder = interaction.extras.pop(DEFERRED, None)
    every = [*([file] if file is not MISSING else []), *files]
    sent = every or MISSING
    mentions = pinging(pinged) if pinged else MISSING  # else the client's: nobody
    if first_callback(interaction):
        sending = interaction.response.send_message(
            content, ephemeral=ephemeral, view=view, files=sent, allowed_mentions=mentions
        )
        callback = await calling_back(interaction, sending)
        if callback is not None:
            return callback.message_id
    if placeholder == ("private" if ephemeral else "public"):
        message = await interaction.edit_original_response(
            content=MISSING if content is None else content,  # a card (Components V2) has none
            view=view,
            attachments=sent,
            allowed_mentions=mentions,
        )
        if pinged:  # Discord tells nobody of a mention an edit brings: a new message does (once,
            # by its nonce, though discord.py sends it again after a 5xx)
            await interaction.channel.send(  # type: ignore[union-attr]
                " ".join(map(mention, pinged)),
                allowed_mentions=mentions,
                nonce=interaction.id,  # one ping an interaction
            )
        return message.id
    if placeholder is not None:
        # Discord takes the first follow-up of a deferred interaction as the answer, as private
        # as the acknowledgement was: so the "thinking..." is written over first (with nothing
        # to read), the answer follows with its own privacy, and the stub goes
        await interaction.edit_original_response(content=STUB)
    message = await interaction.followup.send(
        content or MISSING, ephemeral=ephemeral, view=view, files=sent, wait=True, allowed_mentions=mentions
    )
    if placeholder is not None:
        await interaction.delete_original_response()
    return message.id


async def carry_out(interaction: discord.Interaction, work: Callable[[], Awaitable[None]]) -> None:
    """Do a button's or a form's work: a refusal goes to the user alone; a failure is logged
    and the user told truthfully what became of their command."""
    try:
        await work()
    except (GameError, IllegalCommand) as refusal:
        await tell(interaction, refused(refusal))
    except Exception:
        log.exception("a button or form failed in channel %s", interaction.channel_id)
        await tell(interaction, await apology(interaction))


async def tell(interaction: discord.Interaction, text: str) -> None:
    """Tell the user alone, if Discord lets an answer reach them still (else it is logged)."""
    try:
        await answer(interaction, text, ephemeral=True)
    except UNREACHABLE:
        log.warning("could not tell %s in channel %s: %s", interaction.user.id, interaction.channel_id, text)
