"""``/ref clock`` and ``/ref prep``: the referee runs the clock and prepares the scenario (2015
rulebook p. 25). Both are subgroups of the ``/ref`` group.

The clock's requests are told to the whole channel. What the referee prepares for one side (or
for the referees alone) is answered only to the referee and goes on to that side's private
thread; the channel reads nothing of it. A side's force guideline (``/ref prep force``) and
deployment zone (``/ref prep zone``) are its own. ``/ref prep list`` shows anyone the
special rules, objectives, guidelines and zones they may see. A holder of the game's referee
role takes a referee's seat first, as for the other ``/ref`` commands. The clock's requests
are stored once per interaction: one sent again is only reminded of.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord_adapter.answers import answer, sending, stored
from bot.discord_adapter.common import deadline_nonce, games, summary, told_lines
from bot.discord_adapter.reaction_buttons import retire_buttons, show_result
from bot.discord_adapter.referees import apply_as_user, eyes_of, is_referee, take_seat, tell, with_seat
from bot.discord_adapter.schema_commands import schema_command
from bot.discord_adapter.side_threads import post_to_threads
from bot.services.clock_service import ClockService
from bot.services.game_service import GameError, Outcome
from bot.text_orders import parse_point
from engine.commands import (
    Command,
    RefereeBriefing,
    RefereeClock,
    RefereeDeploymentZone,
    RefereeForceGuideline,
    RefereeObjective,
    RefereeSpecialRule,
)
from engine.referee_prep import prep_text
from engine.view import REFEREE


def clocks(interaction: discord.Interaction) -> ClockService:
    return games(interaction).clocks


def _where(interaction: discord.Interaction) -> tuple[str, str]:
    return str(interaction.channel_id), str(interaction.user.id)


async def _seat(interaction: discord.Interaction, action: str, **details: Any) -> Outcome | None:
    """A referee role's holder takes a seat before touching the clock, only if the clock takes
    the request: a refused one stores nothing, not even the seat."""
    channel = str(interaction.channel_id)
    state = await games(interaction).game(channel)
    if not is_referee(state, interaction):
        raise GameError("Only the game's referees may do that")
    if action in ("pause", "resume") and str(interaction.user.id) not in state.referees:  # a seat to take
        await clocks(interaction).check_paused(channel, paused=action == "resume")
    request = RefereeClock(referee=str(interaction.user.id), action=action, **details)
    return await take_seat(interaction, request)


async def _tell_channel(interaction: discord.Interaction, outcome: Outcome, closes: str = "") -> None:
    stored(interaction, outcome)
    if outcome.repeated:
        await show_result(interaction, outcome)  # "Already done"
        return
    news = told_lines(outcome.events, state=outcome.state)
    lines = [news, closes, "", summary(outcome.state)]
    await answer(interaction, "\n".join(filter(None, lines)))


def _closes(outcome: Outcome) -> str:
    if outcome.window_deadline is None:
        return ""
    return f"The reaction window closes <t:{int(outcome.window_deadline.timestamp())}:R>."


class ClockCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(
            name="clock", description="Referees: pause or resume the timers, extend or close a window"
        )

    @schema_command("ref clock pause")
    async def pause(self, interaction: discord.Interaction) -> None:
        seat = await _seat(interaction, "pause")
        outcome = with_seat(seat, await clocks(interaction).pause(*_where(interaction), sending(interaction)))
        await _tell_channel(interaction, outcome)

    @schema_command("ref clock resume")
    async def resume(self, interaction: discord.Interaction) -> None:
        seat = await _seat(interaction, "resume")
        outcome = with_seat(
            seat, await clocks(interaction).resume(*_where(interaction), sending(interaction))
        )
        await _tell_channel(interaction, outcome, _closes(outcome))

    @schema_command("ref clock extend")
    async def extend(
        self, interaction: discord.Interaction, minutes: app_commands.Range[int, 1, 2880]
    ) -> None:
        seat = await _seat(interaction, "extend", minutes=minutes)
        outcome = with_seat(
            seat, await clocks(interaction).extend(*_where(interaction), minutes, sending(interaction))
        )
        await _tell_channel(interaction, outcome, _closes(outcome))

    @schema_command("ref clock close")
    async def close(self, interaction: discord.Interaction) -> None:
        seat = await _seat(interaction, "extend", minutes=1)  # closing, like extending, needs a window
        outcome = await clocks(interaction).close_window(*_where(interaction), sending(interaction))
        stored(interaction, outcome)
        await show_result(interaction, with_seat(seat, outcome))

    @schema_command("ref clock deadline")
    async def deadline(
        self, interaction: discord.Interaction, side: str, hours: app_commands.Range[float, 0.1, 168.0]
    ) -> None:
        seat = await _seat(interaction, "deadline", side=side, hours=hours)
        outcome, due = await clocks(interaction).set_deadline(
            *_where(interaction), side, hours, sending(interaction)
        )
        outcome = with_seat(seat, outcome)
        when = f"Deadline: <t:{int(due.timestamp())}:f>." if due else "The deadline runs once the clock does."
        await _tell_channel(interaction, outcome, when)


class PrepCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(
            name="prep", description="Referees: objectives, rules, briefings, forces and zones per side"
        )

    @schema_command("ref prep objective")
    async def objective(self, interaction: discord.Interaction, id: str, at: str, side: str) -> None:
        user = str(interaction.user.id)
        whose = None if side == "both" else side
        await _prepare(interaction, RefereeObjective(referee=user, id=id, at=parse_point(at), side=whose))

    @schema_command("ref prep special")
    async def special(self, interaction: discord.Interaction, to: str, text: str) -> None:
        user = str(interaction.user.id)
        await _prepare(interaction, RefereeSpecialRule(referee=user, audience=to, text=text))

    @schema_command("ref prep brief")
    async def brief(self, interaction: discord.Interaction, side: str, text: str) -> None:
        user = str(interaction.user.id)
        await _prepare(interaction, RefereeBriefing(referee=user, side=side, text=text))

    @schema_command("ref prep force")
    async def force(
        self,
        interaction: discord.Interaction,
        side: str,
        points: app_commands.Range[int, 1, 100000],
        guideline: str = "",
    ) -> None:
        user = str(interaction.user.id)
        await _prepare(
            interaction, RefereeForceGuideline(referee=user, side=side, points=points, text=guideline)
        )

    @schema_command("ref prep zone")
    async def zone(
        self, interaction: discord.Interaction, side: str, x1: float, y1: float, x2: float, y2: float
    ) -> None:
        user = str(interaction.user.id)
        await _prepare(
            interaction, RefereeDeploymentZone(referee=user, side=side, x1=x1, y1=y1, x2=x2, y2=y2)
        )

    @schema_command("ref prep list")
    async def listing(self, interaction: discord.Interaction) -> None:
        state = await games(interaction).game(str(interaction.channel_id))
        await answer(interaction, prep_text(state, eyes_of(state, interaction)), ephemeral=True)


async def _prepare(interaction: discord.Interaction, command: Command) -> None:
    """Apply the referee's preparation. What is secret is answered to the referee alone and goes
    to the side's (or the referees') thread; the channel reads only what everyone may."""
    seat = await take_seat(interaction, command)
    outcome = with_seat(seat, await apply_as_user(interaction, command))
    await tell(interaction, outcome, REFEREE)


def hear_deadlines(client: discord.Client) -> None:
    """Tell a channel when a referee's deadline has passed and what the game did."""

    async def announce(channel_id: str, text: str, outcome: Outcome | None) -> None:
        lines = [text] + ([told_lines(outcome.events, state=outcome.state)] if outcome else [])
        channel = client.get_partial_messageable(int(channel_id))
        await channel.send("\n".join(lines), nonce=deadline_nonce())  # shown once, though sent again
        if outcome is not None:
            await post_to_threads(client, channel_id, outcome)
            await retire_buttons(client, channel_id, outcome.closed_window_message)

    client.games.clocks.on_deadline_passed = announce  # type: ignore[attr-defined]
