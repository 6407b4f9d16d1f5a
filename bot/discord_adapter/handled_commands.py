"""Slash commands made from their handlers (:mod:`bot.handlers`): the command's options exactly as
its spec declares them, handed to the handler the console calls too, with who asks and where,
and its answer written for Discord."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.command_schema import COMMANDS
from bot.discord_adapter.common import (
    DISCORD_TEXT_LIMIT,
    Card,
    display_name,
    owner_scope,
    send_reply,
    shown_on,
    side_of,
)
from bot.discord_adapter.markdown import markdown, mentioned
from bot.discord_adapter.reaction_buttons import show_result
from bot.discord_adapter.referees import acting_side, applied, eyes_of, server_roles
from bot.discord_adapter.schema_commands import generated_command
from bot.discord_adapter.served import Interaction
from bot.handlers import HANDLERS
from bot.handlers.ask import (
    Answer,
    Ask,
    Change,
    Person,
    Picture,
    ServerRole,
    ServiceChange,
    TextFile,
    Upload,
)
from bot.reply import Reply
from bot.services.game_service import GameError, Outcome
from bot.services.rules_service import MAX_BYTES


def name_of(interaction: Interaction, user: str) -> str:
    """A name to draw in a picture, where mentions do not work: the member's name if Discord has
    told us, else the user's number."""
    if not user.isdigit():
        return user
    if user == str(interaction.user.id):
        return interaction.user.display_name
    member = interaction.guild.get_member(int(user)) if interaction.guild else None
    return member.display_name if member else f"user {user}"


def ask_of(interaction: Interaction) -> Ask:
    """Who asks, and where, as Discord tells: a moderator (Manage Messages) referees the channel's
    dice; a member with Manage Server keeps the server's rules library."""
    user = str(interaction.user.id)
    in_server = interaction.guild_id is not None
    return Ask(
        services=interaction.client.services,
        channel=str(interaction.channel_id),
        user=user,
        owner=owner_scope(interaction),
        page=DISCORD_TEXT_LIMIT,
        written=markdown,
        seat=lambda state: side_of(state, user),
        acting=lambda state: acting_side(state, interaction),
        eyes=lambda state: eyes_of(state, interaction),
        roles=server_roles(interaction),
        buttons=True,
        name_of=lambda player: name_of(interaction, player),
        users_in=mentioned,
        moderator=in_server and interaction.permissions.manage_messages,
        manager=in_server and interaction.permissions.manage_guild,
        server=str(interaction.guild_id) if in_server else None,
    )


async def upload(attachment: discord.Attachment) -> Upload:
    """An uploaded file, refused unread when it is larger than any command takes."""
    if attachment.size > MAX_BYTES:
        raise GameError(
            f"{attachment.filename} is {attachment.size / 1e6:.1f} MB; the limit is {MAX_BYTES / 1e6:.0f} MB"
        )
    return Upload(attachment.filename, await attachment.read())


Shown = Card  # the card an outcome is shown on
Applied = Callable[[Interaction, Change | ServiceChange], Awaitable[Outcome]]


def _file(part: Picture | TextFile) -> discord.File:
    data = part.image if isinstance(part, Picture) else part.text.encode("utf-8")
    return discord.File(io.BytesIO(data), filename=part.name, description=part.description)


async def present(
    interaction: Interaction,
    answer: Answer,
    shown: Shown = show_result,
    view: discord.ui.View = discord.utils.MISSING,
    made: Applied = applied,
) -> None:
    """A change to the game ``made`` as the asker (by default :func:`applied`), its outcome
    ``shown`` (by default the card of what happened); each reply as messages (only to the asker
    where it is private), the ``view`` (buttons) under the first, the pictures and files that
    follow a reply with its last message (a file alone, under its description)."""
    if callable(answer) or isinstance(answer, ServiceChange):
        with shown_on(shown):
            outcome = await made(interaction, answer)
        await shown(interaction, outcome)
        return
    parts = list(answer) if isinstance(answer, tuple) else [answer]
    while parts:
        reply = parts[0] if isinstance(parts[0], Reply) else Reply.of(parts[0].description)
        if isinstance(parts[0], Reply):
            parts.pop(0)
        files = []
        while parts and isinstance(parts[0], Picture | TextFile):
            files.append(_file(parts.pop(0)))
        await send_reply(interaction, reply, view=view, files=files)
        view = discord.utils.MISSING


def handled_command(
    path: str,
    suggest: dict[str, Callable] | None = None,
    shown: Shown = show_result,
    presented: Callable[[Interaction, Answer], Awaitable[None]] | None = None,
    named: dict[str, list[app_commands.Choice]] | None = None,
    made: Applied = applied,
    **extras: Any,
) -> app_commands.Command:
    """The command ``path`` of the schema, carried out by its handler; ``suggest`` gives
    autocompletes by option, ``shown`` shows the outcome of a change to the game and ``made``
    makes it (a referee's: :func:`~bot.discord_adapter.referees.seated`), ``presented`` shows any
    other answer its own way (a page with buttons to turn it), ``named`` names an option's
    choices for Discord, ``extras`` are
    what :func:`~bot.discord_adapter.schema_commands.schema_command` takes (a group, whether it
    answers privately)."""
    kinds = {option.name: option.kind for option in COMMANDS[path].shared()}

    async def run(interaction: Interaction, **options: Any) -> None:
        for name, value in options.items():
            if isinstance(value, discord.Attachment):
                options[name] = await upload(value)
            elif kinds[name] == "user" and value is not None:
                options[name] = Person(str(value.id), display_name(value))
            elif kinds[name] == "role" and value is not None:
                options[name] = ServerRole(str(value.id))
        answered = await HANDLERS[path](ask_of(interaction), **options)
        if presented is not None:
            await presented(interaction, answered)
        else:
            await present(interaction, answered, shown, made=made)

    return generated_command(path, run, suggest, named, **extras)
