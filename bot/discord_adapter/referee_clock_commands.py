"""``/ref clock`` and ``/ref prep``: the referee runs the clock and prepares the scenario (2015
rulebook p. 25), each carried out by its handler (:mod:`bot.handlers.referees`). Both are
subgroups of the ``/ref`` group.

The clock's requests are told to the whole channel. What the referee prepares for one side (or
for the referees alone) is answered only to the referee and goes on to that side's private
thread; the channel reads nothing of it. A side's force guideline (``/ref prep force``) and
deployment zone (``/ref prep zone``) are its own. ``/ref prep list`` shows anyone the
special rules, objectives, guidelines and zones they may see. A holder of the game's referee
role takes a referee's seat first, as for the other ``/ref`` commands. The clock's requests
are stored once per interaction: one sent again is only reminded of.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from bot.discord_adapter.answers import PRIVATE, answer
from bot.discord_adapter.common import deadline_nonce, pictureless, summary, told_lines
from bot.discord_adapter.handled_commands import handled_command
from bot.discord_adapter.pinned_card import update_game_card
from bot.discord_adapter.reaction_buttons import retire_buttons, show_result
from bot.discord_adapter.referees import remind, seated, show_news
from bot.discord_adapter.served import ServedClient
from bot.discord_adapter.side_threads import post_to_threads
from bot.services.game_service import Outcome


async def _tell_channel(interaction: discord.Interaction, outcome: Outcome, closes: str = "") -> None:
    if outcome.repeated:
        await remind(interaction, outcome)
        return
    news = told_lines(outcome.events, state=outcome.state)
    lines = [news, closes, "", summary(outcome.state)]
    await answer(interaction, "\n".join(filter(None, lines)))


@pictureless
async def show_clock(interaction: discord.Interaction, outcome: Outcome) -> None:
    """The clock's news, to the whole channel, with the game's status."""
    await _tell_channel(interaction, outcome)


@pictureless
async def show_window_clock(interaction: discord.Interaction, outcome: Outcome) -> None:
    """The clock's news and when the open reaction window now closes."""
    closes = outcome.window_deadline
    when = f"The reaction window closes <t:{int(closes.timestamp())}:R>." if closes else ""
    await _tell_channel(interaction, outcome, when)


@pictureless
async def show_deadline(interaction: discord.Interaction, outcome: Outcome) -> None:
    """The referee's deadline for a side, and when it falls."""
    due = outcome.referee_deadline
    when = f"Deadline: <t:{int(due.timestamp())}:f>." if due else "The deadline runs once the clock does."
    await _tell_channel(interaction, outcome, when)


CLOCK = {  # how each request to the clock is told
    "ref clock pause": show_clock,
    "ref clock resume": show_window_clock,
    "ref clock extend": show_window_clock,
    "ref clock close": show_result,
    "ref clock deadline": show_deadline,
}
PREPARED = ("ref prep objective", "ref prep special", "ref prep brief", "ref prep force", "ref prep zone")


class ClockCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(
            name="clock", description="Referees: pause or resume the timers, extend or close a window"
        )
        for path, shown in CLOCK.items():
            handled_command(path, shown=shown, made=seated, group=self)


class PrepCommands(app_commands.Group):
    """What the referee prepares is told to the referee alone, and goes on to the side's (or
    the referees') thread; the channel reads only what everyone may."""

    def __init__(self) -> None:
        super().__init__(
            name="prep", description="Referees: objectives, rules, briefings, forces and zones per side"
        )
        for path in PREPARED:
            handled_command(path, shown=show_news, made=seated, group=self)
        handled_command("ref prep list", group=self, extras=PRIVATE)


def deadline_announcer(client: ServedClient) -> Callable[[str, str, Outcome | None], Awaitable[None]]:
    """What tells a channel that a referee's deadline has passed, and what the game did."""

    async def announce(channel_id: str, text: str, outcome: Outcome | None) -> None:
        lines = [text] + ([told_lines(outcome.events, state=outcome.state)] if outcome else [])
        channel = client.get_partial_messageable(int(channel_id))
        await channel.send("\n".join(lines), nonce=deadline_nonce())  # shown once, though sent again
        if outcome is not None:
            await post_to_threads(client, channel_id, outcome)
            await retire_buttons(client, channel_id, outcome.closed_window_message)
            await update_game_card(client, channel_id, outcome)

    return announce
