"""Every command that is not an order has one handler, by its path in the schema
(:mod:`bot.command_schema`): ``handler(ask, **options)`` takes the options exactly as the spec
declares them, read as Discord gives them, and answers a structured reply, or a change to the
channel's game (a command built from the game as it is loaded to apply it), which each front end
applies as the asker and shows its own way. The slash commands
(:mod:`bot.discord_adapter.handled_commands`) and the console (:mod:`bot.console`) both call it,
so a command gives the same answer, or the same refusal, in both. The orders are built the same
way by :mod:`bot.play_orders`.

A handler may take one input that no option carries: ``pasted``, the text Discord asks for in a
form and the console reads from the file its command's console-only ``file`` option names."""

from __future__ import annotations

from bot.handlers.ask import Handler
from bot.handlers.campaigns import CAMPAIGN_HANDLERS
from bot.handlers.cards import CARD_HANDLERS
from bot.handlers.forces import FORCE_HANDLERS
from bot.handlers.games import GAME_HANDLERS
from bot.handlers.lobbies import LOBBY_HANDLERS
from bot.handlers.lookups import LOOKUP_HANDLERS
from bot.handlers.owed import OWED_HANDLERS
from bot.handlers.referees import REFEREE_HANDLERS
from bot.handlers.tables import TABLE_HANDLERS
from bot.handlers.teams import TEAM_HANDLERS

PASTED = "pasted"
FORM_FILE = "file"  # the console-only option that names the file read for a form
HANDLERS: dict[str, Handler] = {
    **LOOKUP_HANDLERS,
    **FORCE_HANDLERS,
    **GAME_HANDLERS,
    **CARD_HANDLERS,
    **OWED_HANDLERS,
    **TABLE_HANDLERS,
    **CAMPAIGN_HANDLERS,
    **REFEREE_HANDLERS,
    **TEAM_HANDLERS,
    **LOBBY_HANDLERS,
}
