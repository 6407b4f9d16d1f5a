"""A finished game's story for the channel: its animated replay and its summary, rebuilt from the
stored log (engine.story) and drawn as the spectators see it (renderer.animation), off the event
loop. The replay is written to a file frame by frame, the game told one activation at a time,
so a game of any length takes the same memory. It changes nothing: the replay that follows the
game-over card and ``/game replay`` both read it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass
from typing import BinaryIO

from bot.reply import Reply
from bot.services.outcome import GameError, refusals
from bot.storage.store import GameStore
from engine.commands import Command, Declare
from engine.events import Event
from engine.game_state import GameState
from engine.referee import live_history
from engine.state import Phase
from engine.story import Storyteller, story_text
from renderer.animation import replay_description, write_replay
from renderer.header import header_lines

REPLAY_FILE = "replay.gif"


@dataclass(frozen=True)
class Replay:
    summary: Reply  # the battle's story
    frames: int  # 0: no activation was played, so nothing was animated (nor written)
    activations: int  # as many as the frames, or more merged into each
    description: str  # the replay in words: its alt text


def write_game_replay(
    start: GameState, log: Iterable[tuple[Command, list[Event]]], final: GameState, target: BinaryIO
) -> Replay:
    """The story of a game's stored log (what an undo took back left out), told to spectators,
    its replay written to ``target``; ``final``, the game as it ended, gives every frame the
    header lines of its end."""
    live = live_history(list(log))
    declared = sum(isinstance(command, Declare) for command, _ in live)
    teller = Storyteller(start, live)
    shown = write_replay(teller.moments(), declared, header_lines(final), target)
    story = teller.story()
    summary, activations = Reply(story_text(story)), story.activations
    if shown is None:
        return Replay(summary, 0, activations, "")
    return Replay(summary, shown.frames, activations, replay_description(shown, activations))


async def stored_replay(store: GameStore, channel_id: str, target: BinaryIO) -> Replay:
    """The channel's game's story, once it is over (while it runs, the story is not yet told),
    its replay written to ``target``."""
    game = await store.load(channel_id)
    if game is None:
        raise GameError("There is no game in this channel: start one with /game new")
    if game.state.phase is not Phase.OVER:
        raise GameError("The replay is made when the game ends: see /game map for the table now")
    start, log = await store.history(channel_id)
    with refusals():
        return await asyncio.to_thread(write_game_replay, start, log, game.state, target)


class Replays:
    """The finished games' stories of one process, made one at a time (however many games end at
    once, the process holds one replay's memory): for the card that follows a game's end and
    for ``/game replay``."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.making = asyncio.Lock()

    async def make(self, channel_id: str, target: BinaryIO) -> Replay:
        """The channel's finished game's story, its replay written to ``target``."""
        async with self.making:
            return await stored_replay(self.store, channel_id, target)
