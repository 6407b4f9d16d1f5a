"""What the Discord commands share: the service, the user's side, the game header."""

from __future__ import annotations

import discord

from bot.services.game_service import GameError, GameService
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


def side_of(state: GameState, user_id: str) -> str:
    for name, side in state.sides.items():
        if user_id in side.players:
            return name
    raise GameError("You are not playing in this game: take a side with /game join")
