"""GameService: load a channel's game, check who may act, apply a command, store the result."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from bot.storage.store import GameStore, StaleGame, StoredGame
from engine.commands import Command, JoinSide, StartGame
from engine.dice import DiceSource, SeededDice
from engine.errors import IllegalCommand
from engine.events import Event
from engine.game import apply
from engine.game_state import GameState
from engine.quick_battle import quick_battle
from engine.state import Phase


class GameError(Exception):
    """A refusal to show the user: what was wrong and what to do instead."""


@dataclass(frozen=True)
class Outcome:
    state: GameState
    events: list[Event]
    version: int


class GameService:
    def __init__(self, store: GameStore, dice: Callable[[], DiceSource] = SeededDice) -> None:
        self.store = store
        self.dice = dice
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def new_game(self, channel_id: str, state: GameState | None = None) -> Outcome:
        """Set up a game in a channel (the quick battle unless a state is given)."""
        async with self._locks[channel_id]:
            current = await self.store.load(channel_id)
            if current is not None and current.state.phase is not Phase.OVER:
                raise GameError("A game is already running in this channel: finish or concede it first")
            stored = await self.store.create(channel_id, state or quick_battle())
        return Outcome(stored.state, [], stored.version)

    async def game(self, channel_id: str) -> GameState:
        return (await self._load(channel_id)).state

    async def act(self, channel_id: str, user_id: str, command: Command) -> Outcome:
        """Apply a player's command. Two at once are serialised; a write that lost a race
        with another process is retried once on the fresh state."""
        async with self._locks[channel_id]:
            for attempt in (1, 2):
                game = await self._load(channel_id)
                authorise(game.state, user_id, command)
                try:
                    state, events = apply(game.state, command, self.dice())
                except IllegalCommand as refusal:
                    raise GameError(str(refusal)) from refusal
                try:
                    stored = await self.store.append(game, user_id, command, events, state)
                except StaleGame:
                    if attempt == 2:
                        raise GameError("The game changed under this command: try again") from None
                    continue
                return Outcome(stored.state, events, stored.version)
        raise AssertionError("unreachable")

    async def _load(self, channel_id: str) -> StoredGame:
        game = await self.store.load(channel_id)
        if game is None:
            raise GameError("There is no game in this channel: start one with /game new")
        return game


def authorise(state: GameState, user_id: str, command: Command) -> None:
    """Only a side's own players act for it. A game nobody has joined (the console's
    hot-seat table) lets anyone act for either side."""
    joined = any(side.players for side in state.sides.values())
    if isinstance(command, JoinSide):
        if command.player != user_id:
            raise GameError("You can only join a side yourself")
        return
    if not joined:
        return
    if isinstance(command, StartGame):
        empty = [name for name, side in state.sides.items() if not side.players]
        if empty:
            raise GameError(f"Nobody is playing {', '.join(empty)} yet: /game join first")
        if not any(user_id in side.players for side in state.sides.values()):
            raise GameError("Only the game's players can start it")
        return
    side = getattr(command, "side", None)
    if side in state.sides and user_id not in state.sides[side].players:
        raise GameError(f"Only {side}'s players may act for {side}")
