"""``/ref``: what a referee does at the table (2015 rulebook p. 25): correct the game with a reason,
rule on what the rules do not cover, undo actions, and see the true picture and the whole log,
each carried out by its handler (:mod:`bot.handlers.referees`). The clock and the scenario's
preparation are its subgroups ``/ref clock`` and ``/ref prep``.

A correction is told to the channel in the engine's public words (a hidden unit by its marker)
and to the referee as it truly is, privately; the sides' threads get their own news. A holder of
the game's referee role takes a referee's seat first. Who may name a referee (``/ref appoint``,
``/ref dismiss``): the game's referees and the server's admins.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_adapter.answers import PRIVATE
from bot.discord_adapter.common import games, suggestions
from bot.discord_adapter.handled_commands import handled_command
from bot.discord_adapter.referee_clock_commands import ClockCommands, PrepCommands
from bot.discord_adapter.referees import is_referee, seated, show_news, show_news_with_status
from bot.services.game_service import GameError


async def every_unit(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for referees only: every unit of the game by its true name, hidden, held back
    or destroyed (nobody else is offered any, so nothing hidden is given away)."""
    try:
        state = await games(interaction).game(str(interaction.channel_id))
    except GameError:
        return []
    if not is_referee(state, interaction):
        return []
    offered = {}
    for unit in state.units.values():
        shown = f" (shown as {unit.name})" if unit.true_name else ""
        gone = ", destroyed" if unit.destroyed else ""
        offered[f"{unit.true_name or unit.name}{shown}: {unit.side}{gone}"] = unit.id
    return suggestions(current, offered)


UNIT = {"unit": every_unit}
CORRECTED = {  # the referee's corrections, rulings and undo (engine.referee), with their autocompletes
    "ref move": UNIT,
    "ref markers": UNIT,
    "ref tokens": {},
    "ref turn": {},
    "ref initiative": {},
    "ref reveal": UNIT,
    "ref hide": UNIT,
    "ref destroy": UNIT,
    "ref restore": UNIT,
    "ref give_units": {},
    "ref stand_in": {},
    "ref ruling": {},
    "ref undo": {},
}


class RefereeCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="ref", description="Referees: correct, rule, undo, see everything")
        for path, suggest in CORRECTED.items():
            handled_command(path, suggest, shown=show_news_with_status, made=seated, group=self)
        handled_command("ref map", group=self, extras=PRIVATE)
        handled_command("ref log", group=self, extras=PRIVATE)
        handled_command("ref appoint", shown=show_news, group=self)
        handled_command("ref dismiss", shown=show_news, group=self)
        self.add_command(ClockCommands())
        self.add_command(PrepCommands())
