"""``/cards``: Tactical Advantage Cards (p. 33). A server's admins write its decks (a user their
own in a direct message); in a game the cards are dealt, and each player sees only their own
side's hand."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_adapter.answers import FORM, PRIVATE, acknowledge, carry_out, show_form
from bot.discord_adapter.common import games, owner_scope, players_game, send_reply, side_of, suggestions
from bot.discord_adapter.play_commands import play
from bot.discord_adapter.reaction_buttons import show_result
from bot.discord_adapter.referees import apply_as_user
from bot.discord_adapter.schema_commands import schema_command
from bot.services.card_service import CardService, hand_text
from bot.services.game_service import GameError
from engine.commands import CardAction, DealCards
from engine.game_state import GameState
from engine.view import audience_of, hand_of


def card_service(interaction: discord.Interaction) -> CardService:
    return interaction.client.cards  # type: ignore[attr-defined]


async def deck_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    names = await card_service(interaction).names(owner_scope(interaction))
    return suggestions(current, names)


def deck_keeper(interaction: discord.Interaction) -> str:
    """Whose decks the user writes: the server's, if they may manage it (Manage Server); their
    own in a direct message."""
    if interaction.guild_id is not None and not interaction.permissions.manage_guild:
        raise GameError("Only members with the Manage Server permission can change the server's decks")
    return owner_scope(interaction)


async def own_cards(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
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

    async def on_submit(self, interaction: discord.Interaction) -> None:
        if not await acknowledge(interaction, private=True):
            return

        async def save() -> None:
            keeper = deck_keeper(interaction)
            reply = await card_service(interaction).save(keeper, self.name, self.text.value)
            await send_reply(interaction, reply)

        await carry_out(interaction, save)


class CardCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="cards", description="Tactical Advantage Cards")

    @schema_command("cards deck", extras=FORM)
    async def deck(self, interaction: discord.Interaction, name: str) -> None:
        deck_keeper(interaction)
        await show_form(interaction, DeckForm(name))

    @schema_command("cards deal")
    @app_commands.autocomplete(deck=deck_names)
    async def deal(self, interaction: discord.Interaction, deck: str) -> None:
        cards = await card_service(interaction).deck(owner_scope(interaction), deck)
        user = str(interaction.user.id)

        def deal_cards(state: GameState) -> DealCards:
            side_of(state, user)  # only players deal
            return DealCards(deck=tuple(cards))

        outcome = await apply_as_user(interaction, deal_cards)
        await show_result(interaction, outcome)

    @schema_command("cards hand", extras=PRIVATE)
    async def hand(self, interaction: discord.Interaction) -> None:
        state = await games(interaction).game(str(interaction.channel_id))
        user = str(interaction.user.id)
        side = side_of(state, user)
        if state.cards is None:
            raise GameError("No cards have been dealt in this game: /cards deal")
        reply = hand_text(state, side, audience_of(state, user))
        await send_reply(interaction, reply)

    @schema_command("cards use")
    @app_commands.autocomplete(card=own_cards)
    async def use(
        self,
        interaction: discord.Interaction,
        action: str,
        card: str,
    ) -> None:
        await play(interaction, lambda state, side: CardAction(side=side, action=action, card=card))
