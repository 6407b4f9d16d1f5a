"""What the Discord commands share: the service, the user's side, the game header."""

from __future__ import annotations

import hashlib
import io
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext

import discord
from discord import app_commands

from bot.discord_adapter.action_card import action_card
from bot.discord_adapter.answers import answer
from bot.discord_adapter.markdown import markdown, mention, plain, refused
from bot.discord_adapter.served import Interaction, ServedClient
from bot.game_status import game_status
from bot.reply import Mention, Reply, with_people
from bot.services.deadline_posts import making
from bot.services.game_service import GameError, GameService, Outcome
from bot.services.outcome import unpictured
from bot.set_up_steps import how_to_join
from engine.commands import DISPLAY_NAME_LIMIT
from engine.events import Event
from engine.game_state import GameState
from engine.names import ranked
from engine.state import STAND_IN, Phase
from engine.view import SPECTATORS, events_for, kept_from_spectators

DISCORD_TEXT_LIMIT = 2000
MAX_PIECES = 10  # the most messages one answer is split into
FENCE = "```"

log = logging.getLogger(__name__)


def post_nonce(channel_id: str, post: str) -> int:
    """The nonce of a deadline's post (bot.services.deadline_posts) named ``post`` in a channel:
    Discord returns the message already posted with the same nonce (``enforce_nonce``) instead
    of posting it again, so a post made again after its process died shows once. An integer of
    at most 19 digits (Discord takes 25 characters)."""
    digest = hashlib.blake2b(f"{channel_id}:{post}".encode(), digest_size=8).digest()
    return int.from_bytes(digest) >> 1


def deadline_nonce(to: str = "") -> int | None:
    """The nonce of the deadline's post being made, if one is (None: a message of a command);
    ``to`` tells apart the messages of one post (a direct message to each player): Discord
    checks a nonce among all its author's recent messages."""
    post = making.get()
    return None if post is None else post_nonce(post.channel_id, post.post + to)


def display_name(user: discord.abc.Snowflake) -> str | None:
    """The name the user goes by here, as a command carries it (the engine keeps a bounded,
    cleaned copy: engine.roster); None for a user Discord sent without their details."""
    name = getattr(user, "display_name", None)
    return name[:DISPLAY_NAME_LIMIT] if name else None


def owner_scope(interaction: discord.Interaction) -> str:
    """Whose saved things (tables, forces, card decks, the rules library) an interaction sees and
    makes: a server's, by its id, in a server; the user's own in a direct message ("dm:<user id>"),
    so no two users' direct messages share a name."""
    if interaction.guild_id is None:
        return f"dm:{interaction.user.id}"
    return str(interaction.guild_id)


def games(interaction: Interaction) -> GameService:
    return interaction.client.services.games


def summary(state: GameState) -> str:
    """The game's state as the channel reads it (:func:`bot.game_status.game_status`)."""
    return markdown(game_status(state, SPECTATORS, buttons=True))


def side_of(state: GameState, user_id: str) -> str:
    for name, side in state.sides.items():
        if user_id in side.players:
            return name
    if user_id in state.referees:  # a referee never holds a side (p. 25)
        raise GameError("You referee this game and play no side: the /ref commands are yours")
    raise GameError(how_to_join(state))


async def players_game(interaction: discord.Interaction) -> tuple[GameState, str] | None:
    """For autocomplete: the channel's game and the user's side, or None if they are not playing."""
    try:
        state = await games(interaction).game(str(interaction.channel_id))
        return state, side_of(state, str(interaction.user.id))
    except GameError:
        return None


def suggestions(typed: str, offered: Mapping[str, str] | Iterable[str]) -> list[app_commands.Choice[str]]:
    """An autocomplete's choices (at most 25), nearest to what was typed first: ``offered`` maps
    what is shown to the value sent, or lists names sent as shown. Shown names, never ids."""
    values = offered if isinstance(offered, Mapping) else {name: name for name in offered}
    shown = {name[:100]: value[:100] for name, value in values.items()}
    return [app_commands.Choice(name=name, value=shown[name]) for name in ranked(typed, shown)]


def told_lines(events: Sequence[Event], viewer: str | None = None, state: GameState | None = None) -> str:
    """The events as ``viewer`` (None: the whole channel) may read them; given the game, its
    players and referees are named as Discord mentions."""
    return shown_lines(events_for(viewer, events), state)


def shown_lines(lines: Iterable[str], state: GameState | None = None) -> str:
    """The engine's lines as Discord shows them: as written (names typed in them too: no Markdown,
    no mention), and, given the game, its players and referees as Discord mentions."""
    text = "\n".join(plain(line) for line in lines)
    return text if state is None else with_mentions(text, state)


async def refusal_text(interaction: discord.Interaction, refusal: Exception) -> str:
    """A refusal as the user reads it: the players and referees it names by user id shown as
    Discord mentions, when the channel has a game."""
    try:
        state = await games(interaction).game(str(interaction.channel_id))
    except GameError:
        return refused(refusal)
    return with_mentions(refused(refusal), state)


def with_mentions(text: str, state: GameState) -> str:
    """The engine names people by their Discord user id; Discord shows ``<@id>`` as their name."""
    return "".join(mention(p.user_id) if isinstance(p, Mention) else p for p in with_people(text, state))


async def tell_secrets(interaction: discord.Interaction, outcome: Outcome) -> None:
    """After the public answer, what only the user's own side may know of it, privately."""
    try:
        side = side_of(outcome.state, str(interaction.user.id))
    except GameError:
        return
    secrets = events_for(side, kept_from_spectators(side, outcome.events))
    if secrets:
        card = action_card("Only your side sees this:\n" + shown_lines(secrets))
        await interaction.followup.send(view=card, ephemeral=True)


def reactors(outcome: Outcome) -> list[str]:
    """The players a reaction window the outcome opened waits for: its report pings them (never
    the bot, which reacts unasked)."""
    pending = outcome.state.pending
    if outcome.state.phase is Phase.REACTION and pending and outcome.window_deadline:
        return [p for p in outcome.state.sides[pending.reactor_side].players if p != STAND_IN]
    return []


def report(outcome: Outcome) -> str:
    """What happened, the game header, and whose reaction window is open until when."""
    text = told_lines(outcome.events, state=outcome.state) + "\n\n" + summary(outcome.state)
    if reactors(outcome):
        named = " ".join(f"<@{p}>" for p in reactors(outcome))
        closes = int(outcome.window_deadline.timestamp())
        text += f"\n{named} may react until <t:{closes}:R>: /react or /noreact"
    if len(text) > DISCORD_TEXT_LIMIT:
        text = text[: DISCORD_TEXT_LIMIT - 40] + "\n… (the rest is in /game log)"
    return text


async def battlefield_file(
    client: ServedClient,
    state: GameState,
    viewer: str | None,
    events: Sequence[Event] = (),
    before: GameState | None = None,
) -> discord.File:
    """The battlefield as ``viewer`` sees it (None: spectators, safe for a shared channel), with
    the same in words as its alt text, drawn off the event loop by the client's picture workers
    (:mod:`bot.picture_pool`); ``before`` (the game the events were applied to) adds the trails."""
    return _picture_file(*await client.services.pictures.picture(state, viewer, events, before))


Card = Callable[[Interaction, Outcome], Awaitable[None]]  # shows an outcome to the channel
PICTURELESS: set[Card] = set()  # the cards that show no battlefield (see pictureless)


def pictureless(card: Card) -> Card:
    """``card`` shows no battlefield (:data:`PICTURELESS`): the actions it shows begin no picture."""
    PICTURELESS.add(card)
    return card


def shown_on(card: Card) -> AbstractContextManager[None]:
    """Where the actions applied inside will be shown on ``card``: their spectators' picture is
    begun as they are decided only if ``card`` shows it (:func:`~bot.services.outcome.unpictured`)."""
    return unpictured() if card in PICTURELESS else nullcontext()


async def spectators_file(client: ServedClient, outcome: Outcome) -> discord.File | None:
    """The battlefield after an outcome as the spectators see it, with its trails and alt text:
    the picture begun while the outcome's action was stored, else drawn now
    (:meth:`~bot.picture_pool.PicturePool.spectators`). None if it could not be drawn (logged):
    the action is stored, so its card goes out without it (:data:`NOT_DRAWN`), buttons and all."""
    try:
        return _picture_file(*await client.services.pictures.spectators(outcome))
    except Exception:
        log.exception("the battlefield after version %s could not be drawn", outcome.version)
        return None


def _picture_file(png: bytes, words: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename="battlefield.png", description=words)


def split_message(text: str, limit: int = DISCORD_TEXT_LIMIT) -> list[str]:
    """Pieces of at most ``limit`` characters, broken between paragraphs, else lines, else words;
    a code block cut in two is closed and reopened."""
    pieces: list[str] = []
    room = limit - 2 * (len(FENCE) + 1)
    rest = text.strip()
    while len(rest) > room:
        cut = max((rest.rfind(sep, 0, room) for sep in ("\n\n", "\n", " ")), key=lambda at: at > 0)
        cut = cut if cut > 0 else room
        pieces.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    pieces.append(rest)
    for i in range(len(pieces) - 1):
        if pieces[i].count(FENCE) % 2:
            pieces[i] += "\n" + FENCE
            pieces[i + 1] = FENCE + "\n" + pieces[i + 1]
    return pieces


async def send_reply(
    interaction: discord.Interaction,
    reply: Reply,
    *,
    view: discord.ui.View = discord.utils.MISSING,
    files: Sequence[discord.File] = (),
) -> None:
    """A service's reply, written for Discord (:mod:`bot.discord_adapter.markdown`): only to the
    user who asked when it is for their eyes; ``files`` go with its last message."""
    await send_long(interaction, markdown(reply), ephemeral=reply.private, view=view, files=files)


async def send_long(
    interaction: discord.Interaction,
    text: str,
    *,
    ephemeral: bool = False,
    view: discord.ui.View = discord.utils.MISSING,
    files: Sequence[discord.File] = (),
) -> None:
    """Answer with as many messages as the text needs (at most :data:`MAX_PIECES`); a ``view``
    (buttons) and the ``files`` go with the last."""
    pieces = split_message(text)
    if len(pieces) > MAX_PIECES:
        left = sum(len(p) for p in pieces[MAX_PIECES - 1 :])
        pieces = [*pieces[: MAX_PIECES - 1], f"… and {left:,} more characters, too long to post here."]
    views = [discord.utils.MISSING] * (len(pieces) - 1) + [view]
    attached: list[Sequence[discord.File]] = [()] * (len(pieces) - 1) + [files]
    await answer(interaction, pieces[0], ephemeral=ephemeral, view=views[0], files=attached[0])
    for piece, under, sent in zip(pieces[1:], views[1:], attached[1:], strict=True):
        await interaction.followup.send(piece, ephemeral=ephemeral, view=under, files=list(sent))
