"""The commands of a message's menu (Apps, then "Look up rules" or "Roll dice"), as the schema
names them (:mod:`bot.command_schema.menus`), each carried out by its handler
(:mod:`bot.handlers.menus`) with the text of the message it is used on."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands

from bot.discord_adapter.answers import PRIVATE
from bot.discord_adapter.handled_commands import ask_of, present
from bot.discord_adapter.served import Interaction
from bot.handlers.menus import MENU_HANDLERS


def message_text(message: discord.Message) -> str:
    """What a message says: its content, its embeds' titles and texts, and the text of its
    components (the bot's own cards hold their text there)."""
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", *(f"{f.name} {f.value}" for f in embed.fields)]
    parts += list(_texts(message.components))
    return "\n".join(part for part in parts if part)


def _texts(components: list[Any]) -> Iterator[str]:
    for component in components:
        if isinstance(component, discord.components.TextDisplay):
            yield component.content
        yield from _texts(list(getattr(component, "children", [])))


def message_menu(name: str, **extras: Any) -> app_commands.ContextMenu:
    """The message command ``name`` of the schema, carried out by its handler."""
    handler = MENU_HANDLERS[name]

    async def callback(interaction: Interaction, message: discord.Message) -> None:
        await present(interaction, await handler(ask_of(interaction), message_text(message)))

    return app_commands.ContextMenu(name=name, callback=callback, extras=extras)


MESSAGE_MENU_COMMANDS = (message_menu("Look up rules", **PRIVATE), message_menu("Roll dice"))
