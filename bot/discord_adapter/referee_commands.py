"""``/ref``: what a referee does at the table (2015 rulebook p. 25): correct the game with a reason,
rule on what the rules do not cover, undo actions, and see the true picture and the whole log.
The clock and the scenario's preparation are its subgroups ``/ref clock`` and ``/ref prep``.

A correction is told to the channel in the engine's public words (a hidden unit by its marker)
and to the referee as it truly is, privately; the sides' threads get their own news. Who may
name a referee (``/ref appoint``, ``/ref dismiss``): the game's referees and the server's admins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.discord_adapter.answers import answer, sending, stored
from bot.discord_adapter.common import (
    battlefield_file,
    display_name,
    games,
    send_long,
    shown_lines,
    suggestions,
    summary,
)
from bot.discord_adapter.reaction_buttons import show_result
from bot.discord_adapter.referee_clock_commands import ClockCommands, PrepCommands
from bot.discord_adapter.referees import apply_as_user, is_referee, take_seat, tell, with_seat
from bot.discord_adapter.schema_commands import schema_command
from bot.services.game_service import GameError
from bot.text_orders import find_unit, parse_point
from engine.commands import AppointReferee, Command, RefereeCorrection, RefereeRuling
from engine.game_state import GameState
from engine.view import REFEREE, events_for


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


async def _referee(interaction: discord.Interaction) -> GameState:
    """The channel's game, if the user referees it; refused before anything is read from it."""
    state = await games(interaction).game(str(interaction.channel_id))
    if not is_referee(state, interaction):
        raise GameError("Only the game's referees may do that")
    return state


async def referee_does(interaction: discord.Interaction, build: Callable[[GameState, str], Command]) -> None:
    """A referee's command: a referee role's holder first takes a seat; the channel is told the
    public version, the referee the truth."""
    state = await _referee(interaction)
    command = build(state, str(interaction.user.id))  # the tree tells refusals
    seat = await take_seat(interaction, command)
    outcome = with_seat(seat, await apply_as_user(interaction, command))
    await tell(interaction, outcome, REFEREE, summary(outcome.state))


async def correct(
    interaction: discord.Interaction, change: str, reason: str, unit: str | None = None, **details: Any
) -> None:
    """One of the engine's corrections; the unit named by id or by its name."""

    def build(state: GameState, referee: str) -> Command:
        return RefereeCorrection(
            referee=referee,
            reason=reason,
            change=change,
            unit=find_unit(state, unit) if unit else None,
            **details,
        )

    await referee_does(interaction, build)


def _user(picked: discord.abc.Snowflake | None) -> str | None:
    return str(picked.id) if picked is not None else None


class RefereeCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="ref", description="Referees: correct, rule, undo, see everything")
        self.add_command(ClockCommands())
        self.add_command(PrepCommands())

    # -- corrections (engine.referee.CORRECTIONS) -----------------------------------------------

    @schema_command("ref move")
    @app_commands.autocomplete(unit=every_unit)
    async def move(
        self,
        interaction: discord.Interaction,
        unit: str,
        at: str,
        reason: str,
        facing: app_commands.Range[float, 0, 360] | None = None,
    ) -> None:
        await correct(interaction, "move", reason, unit=unit, at=parse_point(at), facing=facing)

    @schema_command("ref markers")
    @app_commands.autocomplete(unit=every_unit)
    async def markers(
        self, interaction: discord.Interaction, unit: str, count: app_commands.Range[int, 0, 20], reason: str
    ) -> None:
        await correct(interaction, "markers", reason, unit=unit, value=count)

    @schema_command("ref tokens")
    async def tokens(
        self,
        interaction: discord.Interaction,
        side: str,
        count: app_commands.Range[int, 0, 50],
        reason: str,
        player: discord.User | None = None,
    ) -> None:
        await correct(interaction, "tokens", reason, side=side, value=count, player=_user(player))

    @schema_command("ref turn")
    async def turn(
        self, interaction: discord.Interaction, number: app_commands.Range[int, 1, 99], reason: str
    ) -> None:
        await correct(interaction, "turn", reason, value=number)

    @schema_command("ref initiative")
    async def initiative(self, interaction: discord.Interaction, side: str, reason: str) -> None:
        await correct(interaction, "initiative", reason, side=side)

    @schema_command("ref reveal")
    @app_commands.autocomplete(unit=every_unit)
    async def reveal(self, interaction: discord.Interaction, unit: str, reason: str) -> None:
        await correct(interaction, "reveal", reason, unit=unit)

    @schema_command("ref hide")
    @app_commands.autocomplete(unit=every_unit)
    async def hide(self, interaction: discord.Interaction, unit: str, reason: str) -> None:
        await correct(interaction, "hide", reason, unit=unit)

    @schema_command("ref destroy")
    @app_commands.autocomplete(unit=every_unit)
    async def destroy(self, interaction: discord.Interaction, unit: str, reason: str) -> None:
        await correct(interaction, "destroy", reason, unit=unit)

    @schema_command("ref restore")
    @app_commands.autocomplete(unit=every_unit)
    async def restore(self, interaction: discord.Interaction, unit: str, reason: str) -> None:
        await correct(interaction, "restore", reason, unit=unit)

    @schema_command("ref give_units")
    async def give_units(
        self, interaction: discord.Interaction, player: discord.User, to: discord.User, reason: str
    ) -> None:
        await correct(
            interaction, "give_units", reason, player=_user(player), to=_user(to), to_name=display_name(to)
        )

    # -- rulings, undo, and seeing everything ---------------------------------------------------

    @schema_command("ref ruling")
    async def ruling(self, interaction: discord.Interaction, text: str) -> None:
        await referee_does(interaction, lambda state, referee: RefereeRuling(referee=referee, ruling=text))

    @schema_command("ref undo")
    async def undo(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 50], reason: str
    ) -> None:
        await _referee(interaction)
        channel, user = str(interaction.channel_id), str(interaction.user.id)
        undo = await games(interaction).undo_command(channel, user, count, reason)
        seat = await take_seat(interaction, undo)
        outcome = await games(interaction).undo(channel, user, count, reason, sending(interaction))
        stored(interaction, outcome)
        if outcome.repeated:
            await show_result(interaction, outcome)  # "Already done"
            return
        await tell(interaction, with_seat(seat, outcome), REFEREE, summary(outcome.state))

    @schema_command("ref map")
    async def map(self, interaction: discord.Interaction) -> None:
        state = await _referee(interaction)
        await answer(
            interaction,
            f"Turn {state.turn}, the referees' view",
            file=await battlefield_file(state, REFEREE),
            ephemeral=True,
        )

    @schema_command("ref log")
    async def log(self, interaction: discord.Interaction) -> None:
        state = await _referee(interaction)
        _, history = await games(interaction).store.history(str(interaction.channel_id))
        lines = [line for _, events in history for line in events_for(REFEREE, events)]
        text = shown_lines(lines, state)
        await send_long(interaction, text or "Nothing has happened yet", ephemeral=True)

    # -- who referees ---------------------------------------------------------------------------

    @schema_command("ref appoint")
    async def appoint(self, interaction: discord.Interaction, referee: discord.User) -> None:
        await _seat(interaction, referee, appoint=True)

    @schema_command("ref dismiss")
    async def dismiss(self, interaction: discord.Interaction, referee: discord.User) -> None:
        await _seat(interaction, referee, appoint=False)


async def _seat(interaction: discord.Interaction, referee: discord.abc.Snowflake, appoint: bool) -> None:
    by = str(interaction.user.id)
    outcome = await apply_as_user(interaction, AppointReferee(by=by, user=str(referee.id), appoint=appoint))
    await tell(interaction, outcome, REFEREE)
