"""Replies written for Discord (:mod:`bot.reply`): emphasis in Markdown, users as mentions,
moments as Discord's relative timestamps, which each reader sees in their own time zone.

Words of the engine and the services are plain (a name typed by a member among them): Discord
shows them as written (:func:`plain`), so no Markdown nor mention is ever made of what a member
typed; the only marks and mentions in a message are the ones the pieces ask for.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

import discord

from bot.reply import Block, Channel, Heading, Mention, Moment, Piece, Reply, RoleTag, Strong, Struck, Typed
from bot.services.outcome import GameError

_MARKS = re.compile(r"([\\*_~|`]|\[(?=[^\]]*\]\())")  # emphasis, spoilers, code, a masked link, the escape
_USER = re.compile(r"<@!?(\d+)>")  # a member's mention as Discord's client writes it
_MENTIONS = re.compile(r"(@)(?=everyone|here|[!&]?\d)|(<#)(?=\d)")  # @everyone, <@user>, <@&role>, <#channel>
ZERO_WIDTH_SPACE = "\u200b"


def plain(text: str) -> str:
    """Words shown on Discord as written: Markdown's marks escaped, and ``@everyone``, ``@here``
    and every mention broken by a zero-width space after its ``@`` or ``#``, as
    :func:`discord.utils.escape_mentions` does (here also for short ids and channels)."""
    return _MENTIONS.sub(rf"\1\2{ZERO_WIDTH_SPACE}", _MARKS.sub(r"\\\1", text))


def code(text: str) -> str:
    """Words in a fixed-width font, shown as written: a backtick among them is fenced by two
    (and backticks in a row kept apart, so that none closes the fence)."""
    return f"`` {_apart(text)} ``" if "`" in text else f"`{text}`"


def fenced(text: str) -> str:
    """Lines in a fixed-width block, shown as written: three backticks typed in them cannot
    close it."""
    return f"```\n{_apart(text)}\n```"


def _apart(text: str) -> str:
    """``text`` with a zero-width space between backticks in a row."""
    while "``" in text:
        text = text.replace("``", f"`{ZERO_WIDTH_SPACE}`")
    return text


def relative_time(moment: datetime) -> str:
    return f"<t:{int(moment.timestamp())}:R>"


def mention(user_id: str) -> str:
    """A Discord user as a mention; a side or player nobody joined (a hot-seat game) by name."""
    return f"<@{user_id}>" if user_id.isdigit() else user_id


def mentioned(text: str) -> list[str]:
    """The users a text mentions, in order: ``"<@301> and <@!302>"`` -> ``["301", "302"]``."""
    return _USER.findall(text)


def pinging(users: Iterable[str]) -> discord.AllowedMentions:
    """A message's mentions that ping: these users only (the players a turn ping or a reaction
    window tells), never @everyone, @here or a role, whatever the text holds."""
    ids = [discord.Object(int(user)) for user in users if user.isdigit()]
    return discord.AllowedMentions(everyone=False, users=ids, roles=False, replied_user=False)


def refused(problem: Exception) -> str:
    """A refusal as Discord shows it: the users a service's refusal names as mentions."""
    return markdown(Reply.of(problem.words)) if isinstance(problem, GameError) else plain(str(problem))


def markdown(reply: Reply) -> str:
    """The reply as one Discord message's text."""
    return "\n".join("".join(_written(piece) for piece in line) for line in reply.lines)


def _written(piece: Piece) -> str:
    match piece:
        case Strong(text):
            return f"**{plain(text)}**"
        case Heading(text):
            return f"__**{plain(text)}**__"
        case Typed(text):
            return code(text)
        case Struck(text):
            return f"~~{plain(text)}~~"
        case Block(text):
            return fenced(text)
        case Mention(user_id):
            return mention(user_id)
        case RoleTag(role_id):
            return f"<@&{role_id}>" if role_id.isdigit() else plain(role_id)
        case Channel(channel_id):
            return f"<#{channel_id}>"
        case Moment(at):
            return relative_time(at)
    return plain(piece)
