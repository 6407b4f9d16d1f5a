"""The stand-in's turns (:mod:`engine.stand_in`): a side whose one player is the stand-in plays
by itself, through the same path as a player's command.

After every stored action the game service tells this service the game as it now stands; when
the game waits for a side the stand-in plays, a timer of its own is armed at once (one a
channel). When it fires, the game is loaded, the stand-in decides in a worker thread (off the
event loop), and its order is applied through :meth:`GameService.act` as the stand-in's user,
for the version it was decided on: recorded in the log with its dice like any player's, undoable
by a referee, refused like any player's if the game moved on meanwhile. Its own stored action
then arms the next turn, if the game waits for it again. ``on_acted`` hears each (the front end
posts it). After a restart, :meth:`resume` arms every unfinished game that waits for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.services.game_service import GameError, GameService
from bot.services.outcome import Outcome
from engine.game_state import GameState
from engine.runtime import ReactionTimers
from engine.stand_in import STAND_IN, side_stood_in, stand_in_command

log = logging.getLogger(__name__)


class StandIns:
    def __init__(self, games: GameService) -> None:
        self.games = games
        self.on_acted: Callable[[str, Outcome], Awaitable[None]] | None = None
        self.timers = ReactionTimers(games.clock, self._turn, still_due=self._due)
        games.on_stored.append(self._follow)

    def _follow(self, channel_id: str, state: GameState) -> None:
        if side_stood_in(state) is not None:
            self.timers.arm(channel_id, self.games.clock.now())

    async def resume(self) -> None:
        """After a start-up: every unfinished game that waits for the stand-in plays on."""
        for game in await self.games.store.unfinished():
            self._follow(game.channel_id, game.state)

    async def settled(self) -> None:
        """Wait until the stand-in has no turn to take (the console, and tests, before the next
        line)."""
        while self.timers.armed or self.timers.overdue:
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        await self.timers.close()

    async def _due(self, channel_id: object) -> bool:
        try:
            state = await self.games.game(str(channel_id))
        except GameError:
            return False  # the channel's game is gone
        return side_stood_in(state) is not None

    async def _turn(self, channel_id: object) -> None:
        """The stand-in's order, decided on the game as loaded and applied for that version."""
        channel = str(channel_id)
        state, version = await self.games.game_now(channel)
        side = side_stood_in(state)
        if side is None:
            return
        command = await asyncio.to_thread(stand_in_command, state, side, version)
        try:
            outcome = await self.games.act(channel, STAND_IN, command, version=version)
        except GameError:
            if (await self.games.game_now(channel))[1] == version:
                raise  # refused on the game it was decided on: tried again, and logged
            return  # a player's command came first: the turn is armed again if still due
        if self.on_acted is not None:
            try:
                await self.on_acted(channel, outcome)
            except Exception:  # the order stands; only its post is lost
                log.exception("the stand-in's order in channel %s could not be posted", channel)
