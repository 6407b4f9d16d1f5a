"""A pinned game card per channel: who plays, the turn, whom the game waits for, the tokens and
the break points lost, made and pinned when the game starts, edited once after each action (after
the action's own answer), and unpinned, showing the result, when the game ends.

Without Pin Messages the channel is told so once, when the game starts, and the game goes on
without a card. A card someone deleted is made (and pinned) again at the next action; the card's
message is stored, so a restarted bot edits the same one.
"""

from __future__ import annotations

import logging

import discord

from bot.discord_adapter.action_card import action_card
from bot.discord_adapter.common import summary
from bot.discord_adapter.served import ServedClient
from bot.services.outcome import Outcome
from engine.battlefield import lost_break_points
from engine.game_state import GameState
from engine.state import Phase
from engine.wording import side_label

log = logging.getLogger(__name__)

NEEDED = "Pin Messages"  # as Discord's settings name it
TOO_MANY_PINS = 30003  # Discord's error: the channel holds its 50 pins already


def card_text(state: GameState) -> str:
    """The card: the game's status as the channel reads it, and each side's break points lost."""
    lost = "; ".join(
        f"{side_label(name)} {lost_break_points(state, name)} of {side.break_point}"
        for name, side in state.sides.items()
    )
    return f"**Game card**\n{summary(state)}\nBreak points lost: {lost}"


def notice(problem: discord.HTTPException | None = None) -> str:
    """Why the channel has no game card, for the channel: a permission missing (or Discord's
    limit of 50 pins, ``problem`` its refusal)."""
    if problem is not None and problem.code == TOO_MANY_PINS:
        return "I cannot pin a game card here: this channel holds Discord's 50 pins already."
    return f"I cannot pin a game card here: I need **{NEEDED}**. The game goes on without one."


async def _post(client: ServedClient, channel_id: str, state: GameState) -> None:
    """Post the card, keep it as the channel's and pin it; if the pin is refused, the card is
    let go and deleted again (the refusal is passed on)."""
    channel = client.get_partial_messageable(int(channel_id))
    card = await channel.send(view=action_card(card_text(state)))
    await client.services.pins.keep(channel_id, str(card.id))
    try:
        await card.pin()
    except discord.HTTPException:
        await client.services.pins.keep(channel_id, None)
        await _delete(card)
        raise


async def _delete(card: discord.Message) -> None:
    """Delete a card that could not be pinned (the bot's own message: no permission needed)."""
    try:
        await card.delete()
    except discord.HTTPException as problem:
        log.warning("could not delete the unpinned game card %s: %s", card.id, problem)


async def _unpin(client: ServedClient, channel_id: str, message_id: str) -> None:
    """Unpin a card and let it go (if Discord refuses, it stays pinned, and is logged)."""
    await client.services.pins.keep(channel_id, None)
    message = client.get_partial_messageable(int(channel_id)).get_partial_message(int(message_id))
    try:
        await message.unpin()
    except discord.HTTPException as problem:
        log.warning("could not unpin the game card %s in channel %s: %s", message_id, channel_id, problem)


async def pin_game_card(interaction: discord.Interaction, outcome: Outcome) -> None:
    """When the game starts: its card, made and pinned (a card of an earlier start, which a
    referee's undo took back, unpinned first); or the channel told, once, what keeps the bot
    from pinning it. The same start sent again keeps the card it made."""
    client, channel_id = interaction.client, str(interaction.channel_id)
    earlier = await client.services.pins.card(channel_id)
    if earlier is not None and outcome.repeated:
        return
    if earlier is not None:
        await _unpin(client, channel_id, earlier)
    if not interaction.app_permissions.pin_messages:
        await interaction.followup.send(notice())
        return
    try:
        await _post(client, channel_id, outcome.state)
    except discord.HTTPException as problem:
        log.warning("could not pin the game card in channel %s: %s", channel_id, problem)
        await interaction.followup.send(notice(problem))


async def update_game_card(client: ServedClient, channel_id: str, outcome: Outcome) -> None:
    """After an action's own answer: one edit of the channel's card (one deleted is made again);
    when the game is over, the card shows the result and is unpinned."""
    if outcome.repeated:
        return
    message_id = await client.services.pins.card(channel_id)
    if message_id is None:
        return
    over = outcome.state.phase is Phase.OVER
    message = client.get_partial_messageable(int(channel_id)).get_partial_message(int(message_id))
    try:
        await message.edit(view=action_card(card_text(outcome.state)))
    except discord.NotFound:
        await client.services.pins.keep(channel_id, None)
        if not over:
            await _again(client, channel_id, outcome.state)
        return
    except discord.HTTPException as problem:
        log.warning("could not edit the game card %s in channel %s: %s", message_id, channel_id, problem)
    if over:
        await _unpin(client, channel_id, message_id)


async def _again(client: ServedClient, channel_id: str, state: GameState) -> None:
    """A new card for one someone deleted (a refusal is logged: the channel was told when the
    game started what the bot needs)."""
    try:
        await _post(client, channel_id, state)
    except discord.HTTPException as problem:
        log.warning("could not pin a new game card in channel %s: %s", channel_id, problem)
