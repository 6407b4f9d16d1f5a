"""The handlers of /game: set up, join, start, follow and end the channel's game."""

from __future__ import annotations

from bot.handlers.ask import Ask, Change
from engine.commands import Concede, StartGame


async def game_start(ask: Ask) -> Change:
    """Roll for the initiative and begin (a referee role's holder may start it too)."""
    return lambda state: StartGame()


async def game_concede(ask: Ask) -> Change:
    """The asker's side concedes."""
    return lambda state: Concede(side=ask.acting(state))


GAME_HANDLERS = {
    "game start": game_start,
    "game concede": game_concede,
}
