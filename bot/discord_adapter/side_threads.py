"""Private threads: one per side, and one for the referees, opened when a game starts (or,
in a scenario game, when its set-up begins).

After each action a side's thread gets what only that side may know (its secret events; in a
team game its CO's token hand-outs and reserve requests) and its true picture when that differs
from the channel's; the referees' thread gets the whole truth. The channel keeps the shared
picture. Without the permissions (or if Discord refuses), the channel is told which one is
missing; the player who acted reads their side's secrets in a reply only they see, and every
other player their side's news by direct message, so that nothing is lost for want of a thread.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import discord

from bot.discord_adapter.action_card import TEXT_LIMIT, action_card
from bot.discord_adapter.common import (
    battlefield_file,
    games,
    shown_lines,
    side_of,
    split_message,
    tell_secrets,
)
from bot.discord_adapter.served import ServedClient
from bot.services.game_service import GameError, Outcome
from engine.events import Event
from engine.game_state import GameState
from engine.scenarios.book import find_scenario
from engine.view import REFEREE, events_for, kept_from_spectators
from engine.wording import side_name

log = logging.getLogger(__name__)

NEEDED = {  # what the bot needs, as Discord's settings name it
    "create_private_threads": "Create Private Threads",
    "send_messages_in_threads": "Send Messages in Threads",
}
TEAM_NEWS = ("tokens", "reserves")  # a team's own business: the CO's hand-outs and reserve requests
WEEK = 10080  # minutes a quiet thread stays open (the longest Discord allows)


def missing_permission(interaction: discord.Interaction) -> str | None:
    """What keeps the bot from opening private threads here, or None."""
    if not isinstance(interaction.channel, discord.TextChannel):
        return "a text channel (private threads open only in one)"
    granted = interaction.app_permissions
    return next((name for flag, name in NEEDED.items() if not getattr(granted, flag)), None)


def fallback_text(missing: str) -> str:
    return (
        f"I cannot open private threads for the sides here: I need **{missing}**. "
        "Each player's private news will come as replies only they see, or as direct messages."
    )


def _called(audience: str) -> str:
    return "referees" if audience == REFEREE else audience


async def _threads(client: ServedClient, channel_id: str, outcome: Outcome) -> dict[str, str]:
    """The game's threads: as loaded with the action, else read."""
    if outcome.threads is not None:
        return outcome.threads
    return await client.services.games.side_threads(channel_id)


def game_title(state: GameState) -> str:
    return find_scenario(state.scenario).title if state.scenario else "quick battle"


async def open_for_set_up(interaction: discord.Interaction, state: GameState) -> None:
    """A scenario game's forces are all here and the sides set up, perhaps hidden or in secret:
    the threads open now rather than when the game starts."""
    if state.deployment is not None:
        await open_side_threads(interaction, state)


async def open_side_threads(interaction: discord.Interaction, state: GameState) -> None:
    """When the game starts (unless they opened for its set-up): a private thread per side with
    its players, and one with the referees if the game has any; the channel is told where
    private news goes, or which permission is missing."""
    if await games(interaction).side_threads(str(interaction.channel_id)):
        return
    missing = missing_permission(interaction)
    if missing is None:
        try:
            threads = await _open(interaction.channel, state)  # type: ignore[arg-type]
        except discord.HTTPException as refusal:
            log.warning("could not open side threads in channel %s: %s", interaction.channel_id, refusal)
            missing = "Create Private Threads (Discord refused to open them)"
        else:
            await games(interaction).keep_side_threads(str(interaction.channel_id), threads)
            where = ", ".join(f"{_called(audience)}: <#{thread}>" for audience, thread in threads.items())
            await interaction.followup.send(f"Private news goes to each side's own thread ({where}).")
            return
    await interaction.followup.send(fallback_text(missing))


def thread_members(state: GameState) -> dict[str, list[str]]:
    """Who belongs in each private thread: a side's players, and the referees (a game refereed
    by a server role has its referees' thread from the start; holders join it as they take a
    seat)."""
    members = {name: list(side.players) for name, side in state.sides.items()}
    if state.referees or state.referee_roles:
        members[REFEREE] = list(state.referees)
    return members


async def admit_newcomers(client: discord.Client, channel_id: str, outcome: Outcome) -> None:
    """A referee seated, or a player handed a side's units, after the threads opened joins the
    thread of their new audience."""
    before, after = outcome.before, outcome.state
    if before is None or thread_members(before) == thread_members(after):
        return
    threads = await _threads(client, channel_id, outcome)
    old = thread_members(before)
    for audience, users in thread_members(after).items():
        for user in filter(str.isdigit, set(users) - set(old.get(audience, ()))):
            if audience in threads:
                await client.http.add_user_to_thread(int(threads[audience]), int(user))


async def _open(channel: discord.TextChannel, state: GameState) -> dict[str, str]:
    """Every thread with its members, or none: if Discord refuses partway, the threads already
    opened are deleted again (that needs Manage Threads); failing that, the players added to
    them are taken out again (a private thread's creator may), so no one is left in a thread the
    game never posts to."""
    opened: dict[str, tuple[discord.Thread, list[int]]] = {}
    try:
        for audience, users in thread_members(state).items():
            thread = await channel.create_thread(
                name=f"{_called(audience)} — {game_title(state)}"[:100],
                type=discord.ChannelType.private_thread,
                invitable=False,
                auto_archive_duration=WEEK,
            )
            opened[audience] = thread, []
            for user in filter(str.isdigit, users):  # Discord user ids
                await thread.add_user(discord.Object(id=int(user)))
                opened[audience][1].append(int(user))
    except discord.HTTPException:
        for thread, added in opened.values():
            await _undo_thread(thread, added)
        raise
    return {audience: str(thread.id) for audience, (thread, _) in opened.items()}


async def _undo_thread(thread: discord.Thread, added: list[int]) -> None:
    try:
        await thread.delete()
        return
    except discord.HTTPException as refusal:
        log.warning("could not delete the half-opened thread %s: %s", thread.id, refusal)
    for user in added:
        try:
            await thread.remove_user(discord.Object(id=user))
        except discord.HTTPException as refusal:
            log.warning("could not take %s out of the half-opened thread %s: %s", user, thread.id, refusal)


def side_news(state: GameState, events: Sequence[Event], side: str) -> list[str]:
    """What only ``side`` is told of these events, and in a team game its own team's business."""
    team = state.sides[side].team is not None
    secret = kept_from_spectators(side, events)
    return [
        event.text
        for event in events
        if event in secret or (team and event.side == side and event.kind in TEAM_NEWS)
    ]


def referee_news(events: Sequence[Event]) -> list[str]:
    """The whole action as the referees read it, when any of it was kept from the channel."""
    if not kept_from_spectators(REFEREE, events):
        return []
    return events_for(REFEREE, events)


async def post_to_threads(client: discord.Client, channel_id: str, outcome: Outcome) -> set[str] | None:
    """Send each audience's private news to its thread. None if the game has no threads; else
    the audiences whose thread could not be reached."""
    threads = await _threads(client, channel_id, outcome)
    if not threads:
        return None
    state, events = outcome.state, outcome.events
    news = {
        audience: referee_news(events) if audience == REFEREE else side_news(state, events, audience)
        for audience in threads
        if audience == REFEREE or audience in state.sides
    }
    pictured = [audience for audience in news if audience in outcome.pictured]  # hidden units, dummies
    pictures = await asyncio.gather(
        *(battlefield_file(client, state, audience, events, outcome.before) for audience in pictured)
    )
    files = dict(zip(pictured, pictures, strict=True))
    unreached = set()
    for audience, lines in news.items():
        if not lines and audience not in files:
            continue
        text = shown_lines(lines, state) or f"Turn {state.turn}: the battlefield as you see it"
        try:
            await _send(client.get_partial_messageable(int(threads[audience])), text, files.get(audience))
        except discord.HTTPException as problem:
            log.warning("could not post to the %s thread of channel %s: %s", audience, channel_id, problem)
            unreached.add(audience)
    return unreached


async def _send(thread: discord.PartialMessageable, text: str, picture: discord.File | None) -> None:
    """One card (the text and the picture), or, for news too long for one, plain messages."""
    if len(text) <= TEXT_LIMIT:
        await thread.send(view=action_card(text, picture), file=picture or discord.utils.MISSING)
        return
    pieces = split_message(text)
    for number, piece in enumerate(pieces, 1):
        attach = picture if number == len(pieces) and picture else discord.utils.MISSING
        await thread.send(piece, file=attach)


async def tell_privately(interaction: discord.Interaction, outcome: Outcome) -> None:
    """After the public answer: private news to the threads, or, for each side without one (no
    threads here, or its thread cannot be reached), to its players themselves: the user's side's
    secrets in a reply only they see, every other player's side news by direct message."""
    channel_id, state = str(interaction.channel_id), outcome.state
    unreached = await post_to_threads(interaction.client, channel_id, outcome)
    missed = set(state.sides) if unreached is None else unreached & set(state.sides)
    user = str(interaction.user.id)
    try:
        if side_of(state, user) in missed:
            await tell_secrets(interaction, outcome)
    except GameError:
        pass  # a spectator or referee acted: only the players' news remains to send
    for side in sorted(missed):
        news = side_news(state, outcome.events, side)
        text = f"In <#{channel_id}>, for {side_name(side)} only:\n" + shown_lines(news, state)
        for player in state.sides[side].players if news else ():
            if player != user and player.isdigit():  # each of the side's other players
                await _direct(interaction.client, player, text)


async def _direct(client: discord.Client, player: str, text: str) -> None:
    """A direct message to a player; if Discord refuses (their DMs are closed), it is logged."""
    try:
        channel = await client.create_dm(discord.Object(int(player)))
        for piece in split_message(text):
            await channel.send(piece)
    except discord.HTTPException as refusal:
        log.info("direct message refused", extra={"user": player, "status": refusal.status})
