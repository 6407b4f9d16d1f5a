"""A reply as data (issue 20, step 5): what a service tells, and each front end writes it its own
way. Its lines are the engine's pieces (:mod:`engine.rich_text`: plain words, :class:`Strong`,
:class:`Heading`, :class:`Typed`, :class:`Mention`, :class:`Moment`...). Whether only the asker
may read it is :attr:`Reply.private`.

Discord writes a reply as Markdown with mentions and relative times
(:func:`bot.discord_adapter.markdown.markdown`); the console as plain text
(:func:`bot.plain_text.plain_reply`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from engine.game_state import GameState
from engine.rich_text import (
    Block,
    Channel,
    Heading,
    Line,
    Mention,
    Moment,
    Piece,
    RoleTag,
    Strong,
    Struck,
    Typed,
    Words,
)

__all__ = [
    "Block",
    "Channel",
    "Heading",
    "Line",
    "Mention",
    "RoleTag",
    "Moment",
    "Piece",
    "Reply",
    "Strong",
    "Struck",
    "Typed",
    "Words",
]


@dataclass(frozen=True)
class Reply:
    """Lines to tell, each made of pieces; ``private``: for the asker's eyes only."""

    lines: tuple[Line, ...]
    private: bool = False

    @classmethod
    def of(cls, *lines: Piece | Iterable[Piece], private: bool = False) -> Reply:
        """A reply from its lines: each one piece, or several in a tuple or list."""
        return cls(tuple(_line(line) for line in lines), private)

    def __add__(self, other: Reply) -> Reply:
        """This reply's lines, then the other's."""
        return Reply(self.lines + other.lines, self.private or other.private)


def with_people(text: str, state: GameState) -> Line:
    """The engine's words, each of the game's players (those the bot plays for too) and referees
    named in them by a Discord user id as a :class:`Mention` (names typed at the console stay
    words)."""
    people = {p for side in state.sides.values() for p in (*side.players, side.stood_in_for) if p}
    people |= set(state.referees)  # with the players the bot plays for
    ids = sorted(filter(str.isdigit, people), key=len, reverse=True)
    if not ids:
        return (text,)
    parts = re.split(rf"(?<![\w@])({'|'.join(ids)})(?!\w)", text)
    return tuple(Mention(part) if index % 2 else part for index, part in enumerate(parts) if part)


def _line(line: Piece | Iterable[Piece]) -> Line:
    if isinstance(line, str | Words | Mention | Channel | Moment):
        return (line,)
    return tuple(line)


_WORDS = {kind.__name__: kind for kind in (Words, Strong, Heading, Typed, Struck, Block, RoleTag)}


def reply_to_json(reply: Reply) -> list[list[str | dict[str, str]]]:
    """The reply as JSON, to keep until it is posted (a campaign's reminder)."""
    return [[_stored(piece) for piece in line] for line in reply.lines]


def _stored(piece: Piece) -> str | dict[str, str]:
    match piece:
        case Words(text):
            return {type(piece).__name__: text}
        case Mention(user_id):
            return {"Mention": user_id}
        case Channel(channel_id):
            return {"Channel": channel_id}
        case Moment(at):
            return {"Moment": at.isoformat()}
    return piece


def reply_from_json(kept: list[list[str | dict[str, str]]] | str) -> Reply:
    """A reply kept by :func:`reply_to_json`; text kept before replies were (already written) as it is."""
    if isinstance(kept, str):
        return Reply.of(kept)
    return Reply(tuple(tuple(_read(piece) for piece in line) for line in kept))


def _read(piece: str | dict[str, str]) -> Piece:
    if isinstance(piece, str):
        return piece
    ((kind, value),) = piece.items()
    if kind in _WORDS:
        return _WORDS[kind](value)
    if kind == "Moment":
        return Moment(datetime.fromisoformat(value))
    return Mention(value) if kind == "Mention" else Channel(value)
