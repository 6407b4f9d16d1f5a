"""A finished game's story for the channel: its animated replay and its summary, rebuilt from the
stored log (engine.story) and drawn as the spectators see it (renderer.animation), off the event
loop. It changes nothing: the game-over card and ``/game replay`` both read it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass

from bot.reply import Reply
from bot.services.outcome import GameError, refusals
from bot.storage.store import GameStore
from engine.commands import Command
from engine.events import Event
from engine.game_state import GameState
from engine.referee import live_history
from engine.state import Phase
from engine.story import battle_story, story_text
from renderer.animation import animated_gif, replay_description, replay_frames

REPLAY_FILE = "replay.gif"


@dataclass(frozen=True)
class Replay:
    summary: Reply  # the battle's story
    gif: bytes | None  # None: no activation was played, so there is nothing to animate
    frames: int
    description: str  # the replay in words: its alt text


def build_replay(start: GameState, log: Iterable[tuple[Command, list[Event]]]) -> Replay:
    """The story of a game's stored log (what an undo took back left out), told to spectators."""
    story = battle_story(start, live_history(list(log)))
    frames = replay_frames(story.moments)
    gif = animated_gif(frames) if frames else None
    return Replay(Reply(story_text(story)), gif, len(frames), replay_description(story.moments))


async def stored_replay(store: GameStore, channel_id: str) -> Replay:
    """The channel's game's story, once it is over (while it runs, the story is not yet told)."""
    game = await store.load(channel_id)
    if game is None:
        raise GameError("There is no game in this channel: start one with /game new")
    if game.state.phase is not Phase.OVER:
        raise GameError("The replay is made when the game ends: see /game map for the table now")
    start, log = await store.history(channel_id)
    with refusals():
        return await asyncio.to_thread(build_replay, start, log)
