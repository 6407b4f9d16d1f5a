"""``/game``: set up, join, start and look at the channel's game."""

from __future__ import annotations

from dataclasses import replace

import discord
from discord import app_commands

from bot.discord_adapter.action_card import action_card, next_steps
from bot.discord_adapter.answers import PRIVATE, answer, sending, stored
from bot.discord_adapter.common import pictureless, spectators_file, summary, told_lines
from bot.discord_adapter.force_commands import own_forces
from bot.discord_adapter.handled_commands import handled_command
from bot.discord_adapter.markdown import markdown
from bot.discord_adapter.pinned_card import pin_game_card, update_game_card
from bot.discord_adapter.referees import show_news_with_status
from bot.discord_adapter.replay_card import outcome_card
from bot.discord_adapter.side_threads import open_for_set_up, open_side_threads, tell_privately
from bot.discord_adapter.table_commands import battlefields
from bot.handlers.ask import SetUp
from bot.services.game_service import Outcome
from engine.rulesets import rule_set_choices
from engine.scenarios.quick_battle import allied_forces, quick_forces


def card_for(interaction: discord.Interaction, outcome: Outcome, text: str) -> discord.ui.LayoutView:
    """The card of a set-up step, with the buttons for the next (join, start, the initiative)."""
    return action_card(text, None, next_steps(outcome, int(interaction.channel_id or 0)))


ALLIED_FORCE_CHOICES = [app_commands.Choice(name=quick_forces()[n][:100], value=n) for n in allied_forces()]
RULE_SET_CHOICES = [app_commands.Choice(name=title[:100], value=n) for n, title in rule_set_choices().items()]


async def show_set_up(interaction: discord.Interaction, set_up: SetUp) -> None:
    """A new game: its announcement on a card with the buttons to join and start it (the same
    interaction again finds the game it set up standing)."""
    outcome = await set_up.make(sending(interaction))
    stored(interaction, outcome)
    if outcome.repeated:
        text = f"Already done: this set up the channel's game.\n{summary(outcome.state)}"
        await answer(interaction, text, ephemeral=True)
        return
    text = f"{markdown(set_up.announced)}\n{summary(outcome.state)}"
    await answer(interaction, view=card_for(interaction, outcome, text))


@pictureless
async def show_joined(interaction: discord.Interaction, outcome: Outcome) -> None:
    """A player took a side: the card, then a scenario's set-up threads and private news."""
    text = f"{told_lines(outcome.events, state=outcome.state)}\n{summary(outcome.state)}"  # names who joined
    await answer(interaction, view=card_for(interaction, outcome, text))
    await open_for_set_up(interaction, outcome.state)
    await tell_privately(interaction, replace(outcome, threads=None))  # opened just now?


async def show_started(interaction: discord.Interaction, outcome: Outcome) -> None:
    """The game started: the card with the battlefield, then the side threads, private news and
    the pinned game card."""
    text = told_lines(outcome.events, state=outcome.state) + "\n\n" + summary(outcome.state)
    picture = await spectators_file(interaction.client, outcome)
    card, files = outcome_card(outcome, text, picture, next_steps(outcome, int(interaction.channel_id or 0)))
    await answer(interaction, view=card, files=files)
    await open_side_threads(interaction, outcome.state)
    await tell_privately(interaction, replace(outcome, threads=None))  # opened just now?
    await pin_game_card(interaction, outcome)


async def show_conceded(interaction: discord.Interaction, outcome: Outcome) -> None:
    """A side conceded: the game-over card (its story follows), and the pinned card unpinned."""
    text = told_lines(outcome.events, state=outcome.state)
    picture = await spectators_file(interaction.client, outcome)
    card, files = outcome_card(outcome, text, picture)
    await answer(interaction, view=card, files=files)
    await update_game_card(interaction.client, str(interaction.channel_id), outcome)


class GameCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="game", description="Set up and follow this channel's Iron Cross game")
        handled_command(
            "game new",
            suggest={"table": battlefields},
            named={"forces": ALLIED_FORCE_CHOICES, "ruleset": RULE_SET_CHOICES},
            presented=show_set_up,
            group=self,
        )
        handled_command("game join", suggest={"force": own_forces}, shown=show_joined, group=self)
        handled_command("game start", shown=show_started, group=self)
        handled_command("game stand_in", shown=show_news_with_status, group=self)
        handled_command("game concede", shown=show_conceded, group=self)
        for path in ("game status", "game log", "game history", "game map", "game replay"):
            handled_command(path, group=self, extras=PRIVATE)
