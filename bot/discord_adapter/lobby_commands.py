"""``/lfg``: an open game posted to a channel, with a Join button; the game it becomes, in a
thread of its own (a new post of the forum, where the lobby was posted in a forum's post).

The lobby's post is the answer to ``/lfg post``; its Join button is a persistent item whose
custom id carries the lobby's number (``iclobby:join:12``), so it works after a restart. A tap
by another member claims the lobby (:class:`~bot.services.lobby_service.LobbyService`: one
joiner wins), opens the thread, and makes the game there by ``/game new`` and ``/game join``
(:func:`bot.handlers.lobbies.lobby_game`); the post then says it was taken and where the game
is. A join that cannot get its thread (the bot lacks the permission) gives the lobby back,
open, with nothing made, and tells the joiner which permission is missing. In a scenario, Join
first asks for the force the joiner brings, in a small form.
"""

from __future__ import annotations

import logging
from dataclasses import replace

import discord
from discord import app_commands

from bot.discord_adapter.action_card import action_card, next_steps
from bot.discord_adapter.answers import PRIVATE, acknowledge, answer, carry_out, show_form
from bot.discord_adapter.common import display_name, send_reply, summary
from bot.discord_adapter.custom_ids import ARGUMENTS, ReadFirst, given, number, parsed
from bot.discord_adapter.force_commands import own_forces
from bot.discord_adapter.game_commands import ALLIED_FORCE_CHOICES, RULE_SET_CHOICES
from bot.discord_adapter.handled_commands import ask_of, handled_command
from bot.discord_adapter.markdown import markdown, mention, pinging, plain, relative_time
from bot.discord_adapter.served import Interaction, ServedClient
from bot.discord_adapter.table_commands import battlefields
from bot.handlers.lobbies import Posting, Withdrawn, brought_force, lobby_game, offer_words
from bot.reply import Reply, Strong
from bot.services.game_service import GameError
from bot.services.limits import NAME
from bot.services.lobby_service import Lobby
from bot.services.outcome import Outcome
from bot.storage.lobby_store import CANCELLED, EXPIRED, OPEN, TAKEN
from engine.wording import side_label

log = logging.getLogger(__name__)

JOIN = "iclobby:join"
NO_THREADS = (
    "I cannot start the game in a thread of its own here: I need ",
    Strong("Create Public Threads"),
    " and ",
    Strong("Send Messages in Threads"),
    " in this channel (in a forum, ",
    Strong("Create Posts"),
    "). Nothing was made, and the lobby stays open: ask a server admin to grant them.",
)
NOT_HERE = (
    "Post /lfg in a text channel, or in a forum's post: the game needs a thread of its own, and a "
    "thread cannot hold another."
)
THREAD_MADE = 160004  # Discord's error: the message has a thread already
NO_POSTS = "Send Messages in Threads"  # as Discord's settings name it
ARCHIVE_MINUTES = 10080  # a game's thread stays open a week after its last message


FORCE = "force"  # a Join id's last part: the joiner names the force they bring (a scenario)


def join_id(lobby: Lobby) -> str:
    """``iclobby:join:12``, or ``iclobby:join:12:force`` for a scenario's."""
    return f"{JOIN}:{lobby.id}" + ("" if lobby.offer.scenario == "quick" else f":{FORCE}")


def asking_force(text: str) -> bool:
    if text != FORCE:
        raise ValueError(text)
    return True


def card_text(lobby: Lobby, status: str) -> str:
    """A lobby's post: its number and poster, what it offers, the poster's note, its state."""
    other = "axis" if lobby.side == "allies" else "allies"
    note = f"\n> {plain(lobby.note)}" if lobby.note else ""
    heading = f"**Open game #{lobby.id}**: {mention(lobby.poster)} takes **{side_label(lobby.side)}**"
    return f"{heading}, against **{side_label(other)}**: {plain(offer_words(lobby.offer))}.{note}\n{status}"


def status_line(lobby: Lobby) -> str:
    """What became of the lobby, as its post says it."""
    if lobby.status == TAKEN:
        return f"Taken by {mention(lobby.joiner)}: the game is in <#{lobby.thread_id}>."
    if lobby.status == EXPIRED:
        return f"Expired {relative_time(lobby.expires_at)} with nobody joining: /lfg post offers it again."
    if lobby.status == CANCELLED:
        return "Withdrawn: nobody joins it now."
    return f"Open until {relative_time(lobby.expires_at)}: tap **Join** to take the other side."


def lobby_card(lobby: Lobby, announced: str = "") -> discord.ui.LayoutView:
    """The lobby's post, with its Join button (greyed once the lobby is no longer open)."""
    text = card_text(lobby, status_line(lobby)) + (f"\n\n{announced}" if announced else "")
    if lobby.status == OPEN:
        return action_card(text, buttons=[JoinButton(lobby)])
    shut = discord.ui.Button(label="Join", style=discord.ButtonStyle.primary, custom_id=join_id(lobby))
    shut.disabled = True
    return action_card(text, buttons=[shut])


async def game_place(interaction: Interaction) -> str | None:
    """Where a lobby posted here has its game: a thread of its post (None), in a text or news
    channel; a new post of the forum (its id), posted in a forum's post; refused elsewhere."""
    channel = interaction.channel
    if isinstance(channel, discord.TextChannel):
        return None
    if isinstance(channel, discord.Thread) and channel.parent_id is not None:
        parent = await interaction.client.fetch_channel(channel.parent_id)
        if isinstance(parent, discord.ForumChannel):
            return str(parent.id)
    raise GameError(NOT_HERE)


async def post_lobby(interaction: Interaction, posting: Posting) -> None:
    """The lobby stored, then posted as the answer; if the post cannot be made, it is gone."""
    lobbies = interaction.client.services.lobbies
    forum = await game_place(interaction)
    user = interaction.user
    made = await lobbies.post(
        str(interaction.guild_id),
        str(interaction.channel_id),
        str(user.id),
        display_name(user) or f"user {user.id}",
        posting.side,
        posting.offer,
        posting.note,
        posting.hours,
        forum,
    )
    try:
        message = await answer(interaction, view=lobby_card(made, markdown(posting.announced)))
    except BaseException:
        await lobbies.unposted(made.id)
        raise
    if message is not None:  # else Discord did not say which: the lobby stays unlisted, and expires
        await lobbies.posted(made.id, str(message))


async def edit_post(client: ServedClient, lobby: Lobby) -> None:
    """The lobby's post edited to say what became of it (a deleted post: nothing to edit)."""
    if lobby.message_id is None:
        return
    channel = client.get_partial_messageable(int(lobby.channel_id))
    try:
        await channel.get_partial_message(int(lobby.message_id)).edit(view=lobby_card(lobby))
    except discord.NotFound:
        log.info("lobby %s: its post is gone", lobby.id)


def lobby_expiry(client: ServedClient):
    """The notice of a lobby whose time ran out: its post edited (a failure is raised, for the
    deadlines' outbox to try again)."""

    async def expired(lobby: Lobby) -> None:
        await edit_post(client, lobby)

    return expired


async def show_withdrawn(interaction: Interaction, withdrawn: Withdrawn) -> None:
    try:
        await edit_post(interaction.client, withdrawn.lobby)
    except discord.HTTPException as problem:
        log.warning("lobby %s: its post could not be edited: %s", withdrawn.lobby.id, problem)
    await send_reply(interaction, withdrawn.told)


async def open_thread(client: ServedClient, lobby: Lobby, joiner: str) -> str:
    """The game's own thread: started from the lobby's post, or a new post of the forum."""
    name = f"Iron Cross #{lobby.id}: {lobby.poster_name} against {joiner}"[:100]
    try:
        if lobby.forum_id is None:
            channel = await client.fetch_channel(int(lobby.channel_id))
            post = channel.get_partial_message(int(lobby.message_id))  # type: ignore[union-attr]
            thread = await post.create_thread(name=name, auto_archive_duration=ARCHIVE_MINUTES)
        else:
            forum = await client.fetch_channel(int(lobby.forum_id))
            content = f"The game of lobby #{lobby.id}, set up below."
            thread = (await forum.create_thread(name=name, content=content)).thread  # type: ignore[union-attr]
    except discord.Forbidden:
        raise GameError(*NO_THREADS) from None
    except discord.HTTPException as problem:
        if problem.code != THREAD_MADE or lobby.forum_id is not None:
            raise
        return str(lobby.message_id)  # made by a join whose process died: it has the post's id
    return str(thread.id)


async def join_lobby(interaction: Interaction, lobby_id: int, force: str | None) -> None:
    """The tapper takes the lobby's other side: its thread opened, the game made there with both
    players seated, its card posted, the lobby's post edited, and the joiner told where to go.
    Anything that fails before the game is whole gives the lobby back, open. One join of a
    lobby at a time in this process (a double tap waits, and is then told it joined)."""
    client, user, joiner = interaction.client, str(interaction.user.id), ask_of(interaction)
    lobbies = client.services.lobbies
    found = await lobbies.find(lobby_id)
    if found.guild_id != str(interaction.guild_id):
        raise GameError(f"There is no lobby #{lobby_id}")
    await brought_force(joiner, found.offer, force)  # before anything is taken
    async with lobbies.joining(lobby_id):
        joined = await lobbies.join(lobby_id, user)
        try:
            name = display_name(interaction.user) or f"user {user}"
            thread = joined.thread_id or await open_thread(client, joined, name)
            await lobbies.keep_thread(joined, thread)
            made_by = f"lobby {joined.id} {user}"  # a join tried again finds what it made
            announced, outcome = await lobby_game(replace(joiner, channel=thread), joined, force, made_by)
        except BaseException:
            await lobbies.give_back(joined)
            raise
        taken = await lobbies.taken(joined)
    await answer(interaction, await announce_game(client, taken, announced, outcome), ephemeral=True)


async def announce_game(client: ServedClient, taken: Lobby, announced: Reply, outcome: Outcome) -> str:
    """The game's card in its thread, both players mentioned, and the lobby's post edited: the
    game stands whatever Discord refuses, and the joiner is told where it is (and what
    permission the bot lacks to post there)."""
    players, thread = [taken.poster, taken.joiner], str(taken.thread_id)
    text = (
        f"{' and '.join(map(mention, players))}: your game of lobby #{taken.id}.\n"
        f"{markdown(announced)}\n{summary(outcome.state)}"
    )
    told = f"You joined: the game is in <#{thread}>."
    try:
        card = action_card(text, buttons=next_steps(outcome, int(thread)))
        await client.get_partial_messageable(int(thread)).send(view=card, allowed_mentions=pinging(players))
    except discord.Forbidden:
        told += f" I cannot post its card there: I need **{NO_POSTS}** (/game status shows it meanwhile)."
    except discord.HTTPException as problem:
        log.warning("lobby %s: the game's card could not be posted: %s", taken.id, problem)
    try:
        await edit_post(client, taken)
    except discord.HTTPException as problem:
        log.warning("lobby %s: its post could not be edited: %s", taken.id, problem)
    return told


class ForceForm(discord.ui.Modal, title="Join the game"):
    """A scenario lobby's joiner names the force they bring."""

    force = discord.ui.TextInput(label="Your force (one of your /force list)", max_length=NAME)

    def __init__(self, lobby_id: int) -> None:
        super().__init__(timeout=None)
        self.lobby_id = lobby_id

    async def on_submit(self, interaction: Interaction) -> None:
        if await acknowledge(interaction, private=True):
            await carry_out(interaction, lambda: join_lobby(interaction, self.lobby_id, self.force.value))


class JoinButton(ReadFirst, discord.ui.DynamicItem[discord.ui.Button], template=JOIN + ARGUMENTS):
    """Join: the tapper takes the side the poster left; in a scenario (the id says so, so that
    the form it opens is the tap's first answer) with the force they name."""

    def __init__(self, lobby: Lobby | None = None, arguments: str | None = None) -> None:
        custom_id = join_id(lobby) if lobby is not None else JOIN
        super().__init__(
            discord.ui.Button(label="Join", style=discord.ButtonStyle.primary, custom_id=custom_id)
        )
        self.arguments = custom_id.removeprefix(JOIN) if arguments is None else arguments

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(arguments=match["arguments"])

    def read(self, interaction: discord.Interaction) -> None:
        self.lobby_id, *force = parsed(given(self.arguments), [(number,), (number, asking_force)])
        self.asks_force = bool(force)

    async def take(self, interaction: Interaction) -> None:
        if self.asks_force:
            await show_form(interaction, ForceForm(self.lobby_id))
        elif await acknowledge(interaction, private=True):
            await carry_out(interaction, lambda: join_lobby(interaction, self.lobby_id, None))


class LobbyCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="lfg", description="Open games of this server, for anyone to join")
        handled_command(
            "lfg post",
            suggest={"table": battlefields, "force": own_forces},
            named={"forces": ALLIED_FORCE_CHOICES, "ruleset": RULE_SET_CHOICES},
            presented=post_lobby,
            group=self,
        )
        handled_command("lfg list", group=self, extras=PRIVATE)
        handled_command("lfg cancel", presented=show_withdrawn, group=self, extras=PRIVATE)
