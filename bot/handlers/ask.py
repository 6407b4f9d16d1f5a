"""Who asks for a command, and where: what a handler (:mod:`bot.handlers`) needs to know of the
front end it was typed in, the same for a slash command and a console line."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.app import Services
from bot.reply import Reply
from bot.services.outcome import Outcome
from engine.commands import Command
from engine.game_state import GameState


@dataclass(frozen=True)
class Ask:
    """A command's asker, as its front end knows them.

    - ``services``; ``channel``, the channel the command was typed in; ``user``, who typed it;
      ``owner``, whose saved things (forces, tables, card decks, the rules library) it sees and
      makes: a server's, a user's own in direct messages, the console's.
    - ``page``: the most characters one message of the front end holds, as ``written`` writes a
      reply (Markdown in Discord, plain text at the console).
    - In the channel's game: ``seat(state)``, the side whose units the asker may name and look
      with (None: any, as the referee or the one keyboard of a hot-seat table); ``acting(state)``,
      the side the asker gives orders for; ``eyes(state)``, whose eyes they read the game with
      (the referees', a side's, or the channel's). Each refuses one who may not.
    - ``name_of(user)``: the name a user goes by, for pictures, where mentions do not work.
    - ``users_in(text)``: the users a text option names, as the front end names them (Discord's
      mentions; names with commas at the console).
    - ``roles``: the server roles the asker holds (a game may name one whose holders referee it).
    - ``moderator``: the asker referees the channel's dice (may manage its messages in Discord; is
      the game's referee at the console); ``manager``: the asker keeps the server's library and
      decks (Manage Server in a server; always at the console).
    - ``buttons``: the front end has buttons to tap (an answer may name them).
    - ``server``: the Discord server the command was typed in (None: the console, a direct
      message), where others may see what it posts (a lobby).
    """

    services: Services
    channel: str
    user: str
    owner: str
    page: int
    written: Callable[[Reply], str]
    seat: Callable[[GameState], str | None]
    acting: Callable[[GameState], str]
    eyes: Callable[[GameState], str | None]
    name_of: Callable[[str], str]
    users_in: Callable[[str], list[str]]
    roles: tuple[str, ...] = ()
    moderator: bool = False
    manager: bool = False
    buttons: bool = False
    server: str | None = None


@dataclass(frozen=True)
class Upload:
    """A file given with a command: uploaded in Discord, named by its path at the console."""

    name: str
    data: bytes


@dataclass(frozen=True)
class Person:
    """A user given with a command: their id (at the console, the name a player types) and the
    name they go by, where the front end tells it (Discord, for a member it sent in full)."""

    id: str
    name: str | None = None


@dataclass(frozen=True)
class ServerRole:
    """A server role given with a command: its id (at the console, the name typed)."""

    id: str


@dataclass(frozen=True)
class Picture:
    """A picture that follows a reply: its file name, the image (a PNG; the replay's GIF), and
    what it shows in words."""

    name: str
    image: bytes
    description: str


@dataclass(frozen=True)
class TextFile:
    """A text file that follows a reply (a table's YAML): attached in Discord, printed at the
    console; its file name, its text, and what it holds in words."""

    name: str
    text: str
    description: str


Change = Callable[[GameState], Command]
"""A command for the channel's game, built from the game as loaded to apply it (under its version
check): each front end applies it as the asker and shows the outcome its own way."""


@dataclass(frozen=True)
class ServiceChange:
    """A change to the channel's game that the game service makes its own way, not a command
    applied as the asker: an undo rebuilds the game from its log, the clock's requests go to its
    clock. ``make(interaction)`` makes it, once per interaction (Discord's id; None at the
    console), and answers the outcome; ``stands_for(state)`` checks that it would be taken and
    answers the engine command it is stored as (what a referee role's holder takes a seat for
    first, in Discord)."""

    make: Callable[[str | None], Awaitable[Outcome]]
    stands_for: Callable[[GameState], Awaitable[Command]]


@dataclass(frozen=True)
class SetUp:
    """A new game for the channel and the words that announce it: ``make(interaction)`` sets it
    up, once per interaction (Discord's id; None at the console), and answers the outcome."""

    make: Callable[[str | None], Awaitable[Outcome]]
    announced: Reply


Answer = Reply | tuple[Reply | Picture | TextFile, ...] | Change | ServiceChange | SetUp
"""A handler's answer: a reply, or several in turn (pages of one, a picture or a file after it),
each a message of its own; or a change to the channel's game, a command or one the service
makes; or a new game."""
Handler = Callable[..., Awaitable[Answer]]
"""``handler(ask, **options)``: a command's options exactly as its spec declares them, read as
Discord gives them (an upload as an :class:`Upload`, a user as a :class:`Person`, a role as a
:class:`ServerRole`); the answer as a
structured reply."""
