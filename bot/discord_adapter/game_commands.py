"""``/game``: set up, join, start and look at the channel's game."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.services.game_service import GameService
from engine.commands import JoinSide, StartGame
from engine.game import awaiting
from engine.game_state import GameState


def games(interaction: discord.Interaction) -> GameService:
    return interaction.client.games  # type: ignore[attr-defined]


def summary(state: GameState) -> str:
    """A short header: turn, phase, sides with nations, players and tokens, who is awaited."""
    sides = "; ".join(
        f"**{name}** ({side.nation}): {', '.join(f'<@{p}>' for p in side.players) or 'no players yet'}"
        f", {side.tokens} tokens"
        for name, side in state.sides.items()
    )
    waiting = awaiting(state)
    lines = [f"Turn {state.turn} · {state.phase.value} · rules {state.ruleset}", sides]
    if waiting:
        lines.append(f"Waiting for **{waiting}**")
    if state.result:
        lines.append(f"Result: {state.result.winner or 'draw'} ({state.result.reason})")
    return "\n".join(lines)


class GameCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="game", description="Set up and follow this channel's Iron Cross game")

    @app_commands.command(name="new", description="Set up a quick battle in this channel")
    @app_commands.describe(reaction_seconds="How long the other side has to react (15 s to 48 h)")
    async def new(
        self, interaction: discord.Interaction, reaction_seconds: app_commands.Range[int, 15, 172800] = 120
    ) -> None:
        outcome = await games(interaction).new_game(
            str(interaction.channel_id), reaction_seconds=reaction_seconds
        )
        await interaction.response.send_message(
            "A quick battle is set up: US (allies) against German (axis). "
            "Take a side with `/game join`, then `/game start`.\n" + summary(outcome.state)
        )

    @app_commands.command(name="join", description="Take a side in this channel's game")
    async def join(self, interaction: discord.Interaction, side: Literal["allies", "axis"]) -> None:
        user = str(interaction.user.id)
        outcome = await games(interaction).act(
            str(interaction.channel_id), user, JoinSide(side=side, player=user)
        )
        await interaction.response.send_message(f"<@{user}> joins **{side}**.\n" + summary(outcome.state))

    @app_commands.command(name="start", description="Roll for the initiative and begin")
    async def start(self, interaction: discord.Interaction) -> None:
        outcome = await games(interaction).act(
            str(interaction.channel_id), str(interaction.user.id), StartGame()
        )
        text = "\n".join(event.text for event in outcome.events)
        await interaction.response.send_message(text + "\n\n" + summary(outcome.state))

    @app_commands.command(name="status", description="Show the state of this channel's game")
    async def status(self, interaction: discord.Interaction) -> None:
        state = await games(interaction).game(str(interaction.channel_id))
        await interaction.response.send_message(summary(state), ephemeral=True)
