"""``/team``: a team game's sides (2015 rulebook p. 25). Who commands what, the commanding
officer (CO) handing out the bonus tokens, and the reserve pool the CO holds: players ask for a
unit, the CO grants or refuses; each carried out by its handler (:mod:`bot.handlers.teams`). What
only a side may know (its reserves, its requests, the bonus still to give) is answered to the user
alone and goes to the side's private thread."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_adapter.common import players_game, suggestions
from bot.discord_adapter.handled_commands import handled_command, name_of
from bot.discord_adapter.referees import show_news


async def side_players(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: the players of the user's side."""
    playing = await players_game(interaction)
    if playing is None:
        return []
    state, side = playing
    return suggestions(current, {name_of(interaction, p): p for p in state.sides[side].players})


async def reserve_pool(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: the units of the side's reserve pool nobody has asked for yet."""
    playing = await players_game(interaction)
    if playing is None or (team := playing[0].sides[playing[1]].team) is None:
        return []
    state, side = playing
    asked = {r.unit for r in team.requests}
    pool = [
        u
        for u in state.units_of(side)
        if u.in_reserve and not u.destroyed and not u.reserve_available and u.id not in asked
    ]
    return suggestions(current, {u.true_name or u.name: u.id for u in pool})


async def requests(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: the side's requests for reserves waiting for the CO's answer."""
    playing = await players_game(interaction)
    if playing is None or (team := playing[0].sides[playing[1]].team) is None:
        return []
    state = playing[0]
    asked = [(state.units[r.unit], r.player) for r in team.requests]
    shown = {f"{u.true_name or u.name} for {name_of(interaction, player)}": u.id for u, player in asked}
    return suggestions(current, shown)


SUGGESTED = {
    "team give": {"player": side_players},
    "team request": {"unit": reserve_pool},
    "team grant": {"unit": requests},
    "team refuse": {"unit": requests},
}


class TeamCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="team", description="Team games: who commands what, bonus tokens, reserves")
        handled_command("team show", group=self)
        for path, suggest in SUGGESTED.items():
            handled_command(path, suggest, shown=show_news, group=self)
