"""The buttons under a declaration: React (bot.discord_adapter.tap_orders: the reaction built by
taps) and No reaction.

They are persistent ``DynamicItem``s: the custom id ``ic:<channel>:<window>:<action>`` carries
everything needed, so a click works after a restart, and a click on a closed window is refused
by the engine like any stale answer. The id is read in the callback
(bot.discord_adapter.custom_ids): one for another channel, or whose window does not read, is
refused as out of date.
"""

from __future__ import annotations

import logging

import discord

from bot.discord_adapter.action_card import next_steps, without_buttons
from bot.discord_adapter.answers import acknowledge, answer, carry_out, placeholder_id
from bot.discord_adapter.common import games, reactors, report, spectators_file
from bot.discord_adapter.custom_ids import ReadFirst, number_of, of_this_channel
from bot.discord_adapter.pinned_card import update_game_card
from bot.discord_adapter.referees import acting_side, apply_as_user, remind
from bot.discord_adapter.replay_card import outcome_card
from bot.discord_adapter.side_threads import tell_privately
from bot.services.game_service import Outcome
from engine.commands import DeclineReaction
from engine.game_state import GameState
from engine.state import Phase

log = logging.getLogger(__name__)

ID = r"ic:(?P<channel>[0-9]+):(?P<window>[0-9]+)"


async def answer_window(interaction: discord.Interaction, build) -> None:
    """Apply the user's answer to the window; refusals go to the user alone."""
    if not await acknowledge(interaction):
        return

    async def work() -> None:
        outcome = await apply_as_user(
            interaction, lambda state: build(state, acting_side(state, interaction))
        )
        await show_result(interaction, outcome)

    await carry_out(interaction, work)


def for_absent(state: GameState, interaction: discord.Interaction) -> str:
    """The line that says a referee answered for a side they do not play; else nothing."""
    user = str(interaction.user.id)
    if any(user in side.players for side in state.sides.values()):
        return ""
    return f"<@{user}> (referee) answers for {acting_side(state, interaction)}:\n"


async def show_result(interaction: discord.Interaction, outcome: Outcome) -> None:
    """Reply with one card: what happened, the picture, and the buttons for what comes next (a
    window's it opened, the next side's steps); make sure that message is known as its window's,
    and take the buttons off a window that has just closed. An interaction applied before is
    only reminded of."""
    if outcome.repeated:
        await remind(interaction, outcome)
        return
    channel = str(interaction.channel_id)
    state = outcome.state
    header = for_absent(outcome.before, interaction) if outcome.before else ""
    picture = await spectators_file(interaction.client, outcome)
    stored_with = placeholder_id(interaction)  # the window's message, if stored with the action
    steps = next_steps(outcome, int(channel))
    card, files = outcome_card(outcome, header + report(outcome), picture, steps)
    message_id = await answer(interaction, view=card, files=files, pinged=reactors(outcome))
    opened = state.phase is Phase.REACTION and state.pending
    if opened and message_id and str(message_id) != stored_with:
        await games(interaction).remember_window_message(channel, state.pending.window, str(message_id))
    await tell_privately(interaction, outcome)
    await retire_buttons(interaction.client, channel, outcome.closed_window_message)
    await update_game_card(interaction.client, channel, outcome)


async def retire_buttons(client: discord.Client, channel_id: str, message_id: str | None) -> None:
    """Take the buttons off a closed window's message: a card keeps its text and picture."""
    if message_id is None:
        return
    message = client.get_partial_messageable(int(channel_id)).get_partial_message(int(message_id))
    try:
        await message.edit(view=without_buttons(await message.fetch()))
    except discord.HTTPException:
        log.warning("could not take the buttons off message %s in channel %s", message_id, channel_id)


class WindowButton(ReadFirst):
    """A reaction window's button: its custom id carries the channel and the window."""

    def __init__(self, item: discord.ui.Button, channel: str, window: str) -> None:
        super().__init__(item)  # type: ignore[call-arg]
        self.channel, self.given_window = channel, window

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(item, match["channel"], match["window"])

    def read(self, interaction: discord.Interaction) -> None:
        of_this_channel(self.channel, interaction)
        self.window = number_of(self.given_window)


class NoReactionButton(WindowButton, discord.ui.DynamicItem[discord.ui.Button], template=ID + r":noreact"):
    async def take(self, interaction: discord.Interaction) -> None:
        await answer_window(interaction, lambda state, side: DeclineReaction(side=side, window=self.window))
