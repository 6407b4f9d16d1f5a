"""The battle's story on Discord: the card of the action that ended the game posts at once, and
the story (its summary and animated replay, bot.services.replay_service) follows it as its own
message, made off the event loop; ``/game replay`` shows them again."""

from __future__ import annotations

import asyncio
import io
import logging
import tempfile
from collections.abc import Sequence
from typing import BinaryIO

import discord

from bot.discord_adapter.action_card import action_card
from bot.discord_adapter.markdown import markdown
from bot.services.game_service import Outcome
from bot.services.replay_service import REPLAY_FILE, Replay, Replays
from engine.game_state import GameState
from engine.state import Phase

log = logging.getLogger(__name__)

STORY_FOLLOWS = "The battle's story and its replay follow (`/game replay` shows them again)."
NOT_DRAWN = "(The battlefield could not be drawn this time: `/game map` shows it.)"
STORY_TASK = "battle's story"  # the name of the task that makes and posts it
CARD_WAIT = 10.0  # seconds a made story waits for the game-over card's task to end, at most


def replay_file(replay: Replay, movie: BinaryIO) -> discord.File | None:
    """The replay written to ``movie``, as the file to send (none when nothing was animated):
    its few MiB read back whole, as the upload reads them anyway."""
    if not replay.frames:
        return None
    movie.seek(0)
    return discord.File(io.BytesIO(movie.read()), filename=REPLAY_FILE, description=replay.description)


def story_card(replay: Replay, movie: BinaryIO) -> tuple[discord.ui.LayoutView, list[discord.File]]:
    """The battle's story and its replay, as a card and its files."""
    file = replay_file(replay, movie)
    return action_card(markdown(replay.summary), file), [file] if file else []


def outcome_card(
    outcome: Outcome, text: str, picture: discord.File | None, buttons: Sequence[discord.ui.Item] = ()
) -> tuple[discord.ui.LayoutView, list[discord.File]]:
    """An action's card and the files it shows (a picture that could not be drawn, None, said
    so); the card of the action that ended the game says that the battle's story follows
    (:class:`StoryPosts` posts it)."""
    if picture is None:
        text += "\n\n" + NOT_DRAWN
    if outcome.state.phase is Phase.OVER and not (outcome.before and outcome.before.phase is Phase.OVER):
        text += "\n\n" + STORY_FOLLOWS
    return action_card(text, picture, buttons), [picture] if picture is not None else []


class StoryPosts:
    """When a game ends, its story is made and posted to the channel after the game-over card:
    the replay is drawn off the event loop, one game's at a time (so the process holds one
    replay's memory however many games end at once), while the card is posted; the story is
    posted once the task that posts the card is done (or :data:`CARD_WAIT` seconds after it is
    made, for a task that lives on). The game and its card stand whatever happens here: a story
    that could not be made or posted is logged (``/game replay`` tries again)."""

    def __init__(self, client: discord.Client, replays: Replays) -> None:
        self.client, self.replays = client, replays
        self.posting: set[asyncio.Task[None]] = set()

    async def game_over(self, channel_id: str, final: GameState) -> None:
        card = asyncio.current_task()  # the task that goes on to post the game-over card
        task = asyncio.get_running_loop().create_task(self.follow(channel_id, card), name=STORY_TASK)
        self.posting.add(task)
        task.add_done_callback(self.posting.discard)

    async def follow(self, channel_id: str, card: asyncio.Task | None) -> None:
        try:
            with tempfile.TemporaryFile() as movie:
                view, files = story_card(await self.replays.make(channel_id, movie), movie)
                if card is not None:
                    await asyncio.wait([card], timeout=CARD_WAIT)
                await self.client.get_partial_messageable(int(channel_id)).send(view=view, files=files)
        except Exception:
            log.exception("could not post the story of the game in channel %s", channel_id)

    async def close(self) -> None:
        """Let the stories being made be posted."""
        await asyncio.gather(*self.posting, return_exceptions=True)
