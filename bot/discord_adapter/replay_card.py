"""The battle's story on Discord: the card of the action that ended the game carries its animated
replay and its summary (bot.services.replay_service), and ``/game replay`` shows them again."""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence

import discord

from bot.discord_adapter.action_card import action_card
from bot.discord_adapter.markdown import markdown
from bot.services.game_service import GameService, Outcome
from bot.services.replay_service import REPLAY_FILE, Replay, stored_replay
from engine.state import Phase

log = logging.getLogger(__name__)


def replay_file(replay: Replay) -> discord.File | None:
    if replay.gif is None:
        return None
    return discord.File(io.BytesIO(replay.gif), filename=REPLAY_FILE, description=replay.description)


async def outcome_card(
    games: GameService,
    channel_id: str,
    outcome: Outcome,
    text: str,
    picture: discord.File,
    buttons: Sequence[discord.ui.Item] = (),
) -> tuple[discord.ui.LayoutView, list[discord.File]]:
    """An action's card and the files it shows; the action that ended the game adds the
    battle's story. The action stands whatever happens here: a story that could not be made is
    logged and left out (``/game replay`` tries again)."""
    if outcome.state.phase is not Phase.OVER or (outcome.before and outcome.before.phase is Phase.OVER):
        return action_card(text, picture, buttons), [picture]
    try:
        replay = await stored_replay(games.store, channel_id)
    except Exception:
        log.exception("could not make the replay of the game in channel %s", channel_id)
        return action_card(text, picture, buttons), [picture]
    movie = replay_file(replay)
    card = action_card(text + "\n\n" + markdown(replay.summary), picture, buttons, replay=movie)
    return card, [picture, *([movie] if movie else [])]
