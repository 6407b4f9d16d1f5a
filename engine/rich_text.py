"""Words with a little structure, for any front end to write its own way (issue 20, step 5).

A line is a tuple of pieces: plain words (a ``str``), an emphasised word (:class:`Strong`: a dice
result, a side's name), a list's heading (:class:`Heading`), a command to type (:class:`Typed`),
a die that does not count (:class:`Struck`), lines kept as laid out (:class:`Block`: a table of
odds), a server role (:class:`RoleTag`), a user (:class:`Mention`, by id), a channel
(:class:`Channel`, by id) and a moment (:class:`Moment`). The engine's formatters write lines of
them; the bot's :class:`bot.reply.Reply` gathers lines, and Discord writes them as Markdown, the
console as plain text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Words:
    """Words the front end marks in its own way."""

    text: str


class Strong(Words):
    """Words to stand out: a side's name, a game's result, a dice result."""


class Heading(Words):
    """The heading of a part of a list: a book above its charts."""


class Typed(Words):
    """Words as typed, in a fixed-width font: a command to type (``/game start``), a roll's total."""


class Struck(Words):
    """Words that no longer count: a die dropped from a roll."""


class Block(Words):
    """Lines kept as laid out, in columns: a table of odds, a dice report."""


class RoleTag(Words):
    """A server role, by id (at the console, by the name typed): its tag in Discord, never a ping."""


@dataclass(frozen=True)
class Mention:
    """A user, by id: named the way the front end names users."""

    user_id: str


@dataclass(frozen=True)
class Channel:
    """A channel, by id: a link in Discord."""

    channel_id: str


@dataclass(frozen=True)
class Moment:
    """A moment: "in 2 hours" in Discord, its UTC time at the console."""

    at: datetime


Piece = str | Words | Mention | Channel | Moment
Line = tuple[Piece, ...]


STRONG, STRUCK, TYPED = "\ue000", "\ue001", "\ue002"  # private characters: each opens a mark...
CLOSE = "\ue003"  # ... and this ends it, in text marked before it is made pieces (:func:`marked`)
_MARKS = {STRONG: Strong, STRUCK: Struck, TYPED: Typed}


def marked(text: str) -> Line:
    """The pieces of text marked with the private characters above (a dice roller's layout, a
    search's snippet): the words between a mark and :data:`CLOSE` as that piece."""
    pieces: list[Piece] = []
    for part in re.split(f"([{''.join(_MARKS)}][^{CLOSE}]*){CLOSE}", text):
        if part[:1] in _MARKS:
            pieces.append(_MARKS[part[0]](part[1:]))
        elif part:
            pieces.append(part)
    return tuple(pieces)


def listed(users: Iterable[str]) -> Line:
    """Users as a list, each a :class:`Mention`, commas between."""
    pieces: list[Piece] = []
    for user in users:
        pieces += [", ", Mention(user)] if pieces else [Mention(user)]
    return tuple(pieces)


def unmarked(line: Iterable[Piece]) -> str:
    """A line as bare text, its marks dropped and users by id (a ledger entry, a log row)."""
    return "".join(_unmarked(piece) for piece in line)


def _unmarked(piece: Piece) -> str:
    match piece:
        case Words(text):
            return text
        case Mention(user_id):
            return user_id
        case Channel(channel_id):
            return channel_id
        case Moment(at):
            return at.isoformat()
    return piece
