"""``/cards``: Tactical Advantage Cards (p. 33). A server's admins write its decks (a user their
own in a direct message); in a game the cards are dealt, and each player sees only their own
side's hand."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_adapter.answers import FORM, PRIVATE, acknowledge, carry_out, show_form
from bot.discord_adapter.common import owner_scope, players_game, suggestions
from bot.discord_adapter.handled_commands import ask_of, handled_command, present
from bot.discord_adapter.schema_commands import schema_command
from bot.discord_adapter.served import Interaction
from bot.handlers import HANDLERS
from bot.handlers.cards import deck_keeper
from engine.view import audience_of, hand_of


async def deck_names(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    names = await interaction.client.services.cards.names(owner_scope(interaction))
    return suggestions(current, names)


async def own_cards(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The user's hand (or, for token and trigger, its cards in play): only ever their own."""
    playing = await players_game(interaction)
    if playing is None:
        return []
    state, side = playing
    held = hand_of(state, side, audience_of(state, str(interaction.user.id)))
    if held is None:
        return []
    in_play = getattr(interaction.namespace, "action", "") in ("token", "trigger")
    cards = [h.card for h in held.in_play] if in_play else held.cards
    return suggestions(current, [c.name for c in cards])


class DeckForm(discord.ui.Modal, title="A Tactical Advantage deck"):
    text = discord.ui.TextInput(
        label="Cards, one a line",
        placeholder="name | cost | when | what it does",
        style=discord.TextStyle.paragraph,
        max_length=4000,
    )

    def __init__(self, name: str) -> None:
        super().__init__(timeout=None)
        self.name = name

    async def on_submit(self, interaction: Interaction) -> None:
        if not await acknowledge(interaction, private=True):
            return

        async def save() -> None:
            handler = HANDLERS["cards deck"]
            await present(
                interaction, await handler(ask_of(interaction), name=self.name, pasted=self.text.value)
            )

        await carry_out(interaction, save)


class CardCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="cards", description="Tactical Advantage Cards")
        handled_command("cards deal", {"deck": deck_names}, group=self)
        handled_command("cards hand", group=self, extras=PRIVATE)
        handled_command("cards use", {"card": own_cards}, group=self)

    @schema_command("cards deck", extras=FORM)
    async def deck(self, interaction: Interaction, name: str) -> None:
        deck_keeper(ask_of(interaction))  # refused before the form opens
        await show_form(interaction, DeckForm(name))
