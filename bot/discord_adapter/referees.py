"""Who a Discord user is to the channel's game (bot.services.permissions): the server roles they
hold, whether they manage the server, whose eyes they read with; a handler's change to the game
applied as them, and a referee role's holder taking a referee's seat (p. 25) before their first
referee's command; what happened told to them as their eyes may read it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import discord

from bot.discord_adapter.answers import answer, placeholder_id, sending, stored
from bot.discord_adapter.common import games, pictureless, side_of, summary, told_lines
from bot.discord_adapter.pinned_card import update_game_card
from bot.discord_adapter.side_threads import admit_newcomers, post_to_threads
from bot.handlers.ask import Change, ServiceChange
from bot.services.game_service import Outcome
from bot.services.permissions import Role, roles_of
from engine.commands import AppointReferee, Command
from engine.game import awaiting
from engine.game_state import GameState
from engine.legality import check
from engine.view import REFEREE, audience_of


def server_roles(interaction: discord.Interaction) -> tuple[str, ...]:
    """The ids of the server roles the member holds. They come with every interaction, whether
    or not the bot has the server's roles cached (``Member.roles`` needs them cached)."""
    return tuple(str(role) for role in getattr(interaction.user, "_roles", ()))


def is_admin(interaction: discord.Interaction) -> bool:
    """The member may manage the server (Discord's Manage Server permission)."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild


def roles_in(state: GameState, interaction: discord.Interaction, side: str | None = None) -> set[Role]:
    return roles_of(
        state,
        str(interaction.user.id),
        side,
        admin=is_admin(interaction),
        server_roles=server_roles(interaction),
    )


def is_referee(state: GameState, interaction: discord.Interaction) -> bool:
    return Role.REFEREE in roles_in(state, interaction)


def acting_side(state: GameState, interaction: discord.Interaction) -> str:
    """The side the user acts for: the one they play. A referee who plays neither acts for the
    side the game waits for, so as to pass or decline a reaction for an absent player (p. 25);
    the permission table lets a referee do nothing else for a side."""
    user = str(interaction.user.id)
    playing = [name for name, side in state.sides.items() if user in side.players]
    joined = any(side.players for side in state.sides.values())  # else the table lets anyone act
    if not playing and joined and is_referee(state, interaction) and (waited_for := awaiting(state)):
        return waited_for
    return side_of(state, user)


def eyes_of(state: GameState, interaction: discord.Interaction) -> str | None:
    """Whose eyes the user reads the game with: the referees' (everything), their side's, or the
    channel's (None)."""
    if is_referee(state, interaction):
        return REFEREE
    return audience_of(state, str(interaction.user.id))


async def apply_as_user(
    interaction: discord.Interaction,
    command: Command | Callable[[GameState], Command],
    *,
    seat: bool = False,
    version: int | None = None,
) -> Outcome:
    """Apply the user's command (or the command made from the game as loaded) with their server
    roles and Manage Server permission counted, once per interaction; anyone it seats (a referee,
    a player taking over units) joins their private thread. ``version``: the game's version a
    card's button was made for (refused once the game has moved on)."""
    channel = str(interaction.channel_id)
    outcome = await games(interaction).act(
        channel,
        str(interaction.user.id),
        command,
        admin=is_admin(interaction),
        server_roles=server_roles(interaction),
        interaction_id=sending(interaction, seat=seat),
        window_message=placeholder_id(interaction),
        version=version,
    )
    stored(interaction, outcome, seat=seat)
    if not outcome.repeated:
        await admit_newcomers(interaction.client, channel, outcome)
    return outcome


async def applied(interaction: discord.Interaction, change: Change | ServiceChange) -> Outcome:
    """A handler's change to the game made as the user, once per interaction: a command applied
    (:func:`apply_as_user`), or a change the game service makes itself."""
    if isinstance(change, ServiceChange):
        outcome = await change.make(sending(interaction))
        stored(interaction, outcome)
        return outcome
    return await apply_as_user(interaction, change)


async def seated(interaction: discord.Interaction, change: Change | ServiceChange) -> Outcome:
    """A referee's change, made as :func:`applied` makes it, a referee role's holder without a
    seat first taking one for it (:func:`take_seat`)."""
    state = await games(interaction).game(str(interaction.channel_id))
    holds_a_role = bool(set(server_roles(interaction)) & set(state.referee_roles))
    seat = None
    if holds_a_role and str(interaction.user.id) not in state.referees:
        command = await change.stands_for(state) if isinstance(change, ServiceChange) else change(state)
        seat = await take_seat(interaction, state, command)
    return with_seat(seat, await applied(interaction, change))


async def take_seat(interaction: discord.Interaction, state: GameState, then: Command) -> Outcome:
    """A holder of one of the game's referee roles who has no referee's seat yet takes one (the
    engine knows referees by name, and an undo replays their commands). ``then``, the command
    the seat is for, is tried on the seated game first: if the engine refuses it, no seat is
    taken, and the game is unchanged."""
    user = str(interaction.user.id)
    appointment = AppointReferee(by=user, user=user)
    check(state, then, after=[appointment])  # only its refusal counts; the tree tells it
    return await apply_as_user(interaction, appointment, seat=True)


def with_seat(seat: Outcome | None, outcome: Outcome) -> Outcome:
    """The outcome of a command, with the seat taken just before it told first."""
    return outcome if seat is None else replace(outcome, events=[*seat.events, *outcome.events])


async def remind(interaction: discord.Interaction, outcome: Outcome) -> None:
    """An interaction applied before: the user is only reminded of what it did."""
    done = told_lines(outcome.events, state=outcome.state)
    await answer(interaction, f"Already done (action {outcome.version}):\n{done}"[:2000], ephemeral=True)


async def tell(
    interaction: discord.Interaction, outcome: Outcome, audience: str | None, footer: str = ""
) -> None:
    """Answer with what happened. What only ``audience`` (a side, or the referees) may read goes
    to the user alone, and the channel gets its own version of it, never more; the private
    threads get their news. An interaction applied before is only reminded of."""
    if outcome.repeated:
        await remind(interaction, outcome)
        return
    public = told_lines(outcome.events, state=outcome.state)
    private = told_lines(outcome.events, audience, outcome.state)
    shown = "\n\n".join(filter(None, [public, footer]))
    if private == public:
        await answer(interaction, shown or "Done.")
    else:
        await answer(interaction, private, ephemeral=True)
        if shown:
            await interaction.followup.send(shown)
    await post_to_threads(interaction.client, str(interaction.channel_id), outcome)
    await update_game_card(interaction.client, str(interaction.channel_id), outcome)


@pictureless
async def show_news(interaction: discord.Interaction, outcome: Outcome) -> None:
    """What happened, told as :func:`tell` tells it to the eyes the user reads with."""
    await tell(interaction, outcome, eyes_of(outcome.state, interaction))


@pictureless
async def show_news_with_status(interaction: discord.Interaction, outcome: Outcome) -> None:
    """What happened, as :func:`show_news`, with the game's status under the channel's version."""
    await tell(interaction, outcome, eyes_of(outcome.state, interaction), summary(outcome.state))
