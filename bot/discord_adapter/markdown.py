"""Replies written for Discord (:mod:`bot.reply`): emphasis in Markdown, users as mentions,
moments as Discord's relative timestamps, which each reader sees in their own time zone."""

from __future__ import annotations

from datetime import datetime

from bot.reply import Block, Channel, Heading, Mention, Moment, Piece, Reply, Strong, Struck, Typed
from bot.services.outcome import GameError


def relative_time(moment: datetime) -> str:
    return f"<t:{int(moment.timestamp())}:R>"


def mention(user_id: str) -> str:
    """A Discord user as a mention; a side or player nobody joined (a hot-seat game) by name."""
    return f"<@{user_id}>" if user_id.isdigit() else user_id


def refused(problem: Exception) -> str:
    """A refusal as Discord shows it: the users a service's refusal names as mentions."""
    return markdown(Reply.of(problem.words)) if isinstance(problem, GameError) else str(problem)


def markdown(reply: Reply) -> str:
    """The reply as one Discord message's text."""
    return "\n".join("".join(_written(piece) for piece in line) for line in reply.lines)


def _written(piece: Piece) -> str:
    match piece:
        case Strong(text):
            return f"**{text}**"
        case Heading(text):
            return f"__**{text}**__"
        case Typed(text):
            return f"`{text}`"
        case Struck(text):
            return f"~~{text}~~"
        case Block(text):
            return f"```\n{text}\n```"
        case Mention(user_id):
            return mention(user_id)
        case Channel(channel_id):
            return f"<#{channel_id}>"
        case Moment(at):
            return relative_time(at)
    return piece
