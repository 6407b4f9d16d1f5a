"""Replies as plain text, for the console. A structured reply (:mod:`bot.reply`) is written by
:func:`plain_reply`. The services not yet converted to replies still write Discord's Markdown
(``**bold**``, code fences, ``<@id>`` mentions, ``<t:seconds:R>`` timestamps), which
:func:`plain` takes back out: the console shows everything through it.
"""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from typing import TextIO

from bot.reply import Channel, Heading, Mention, Moment, Piece, Reply, Strong, Typed
from bot.services.campaign_service import utc_text

_MARKS = re.compile(r"\*\*|__|~~|^```\w*\n?", re.MULTILINE)
_MENTION = re.compile(r"<@[!&]?(\d+)>")
_CHANNEL = re.compile(r"<#(\d+)>")
_TIME = re.compile(r"<t:(-?\d{1,12})(?::[tTdDfFR])?>")


def plain(text: str) -> str:
    """``text`` without Discord's marks: bold, underline and strike-through marks and code fences
    go; a mention shows as @id, a channel as #id, a timestamp as its UTC time."""
    text = _MARKS.sub("", text)
    text = _MENTION.sub(r"@\1", text)
    text = _CHANNEL.sub(r"#\1", text)
    return _TIME.sub(lambda m: utc_text(datetime.fromtimestamp(int(m.group(1)), UTC)), text)


def plain_reply(reply: Reply) -> str:
    """The reply as the console shows it: emphasis dropped, a Discord user as @id (a name typed at
    the console as it is), a moment as its UTC time; a command to type keeps its quotes."""
    return "\n".join("".join(_written(piece) for piece in line) for line in reply.lines)


def _written(piece: Piece) -> str:
    match piece:
        case Strong(text) | Heading(text):
            return text
        case Typed(text):
            return f"`{text}`"
        case Mention(user_id):
            return f"@{user_id}" if user_id.isdigit() else user_id
        case Channel(channel_id):
            return f"#{channel_id}"
        case Moment(at):
            return utc_text(at)
    return piece


class PlainWriter(io.TextIOBase):
    """A text stream that writes everything it is given as :func:`plain` text."""

    def __init__(self, out: TextIO) -> None:
        super().__init__()
        self.out = out

    def write(self, text: str) -> int:  # type: ignore[override]
        return self.out.write(plain(text))

    def flush(self) -> None:
        self.out.flush()
