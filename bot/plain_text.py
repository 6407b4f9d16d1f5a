"""Replies as plain text, for the console: a structured reply (:mod:`bot.reply`) written by
:func:`plain_reply`, its emphasis dropped, users and moments named in words."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.reply import Block, Channel, Heading, Mention, Moment, Piece, Reply, RoleTag, Strong, Struck, Typed
from bot.services.campaign_service import utc_text
from bot.services.game_service import duration_text
from bot.services.outcome import GameError


def plain_reply(reply: Reply, now: datetime | None = None) -> str:
    """The reply as the console shows it: emphasis dropped, a Discord user as @id (a name typed at
    the console as it is), a moment as its UTC time (and, given ``now``, how far off it is); a
    command to type as it is typed, with no marks around it."""
    return "\n".join("".join(_written(piece, now) for piece in line) for line in reply.lines)


def plain_refusal(problem: Exception) -> str:
    """A refusal as the console shows it: a service's refusal written as any reply."""
    return plain_reply(Reply.of(problem.words)) if isinstance(problem, GameError) else str(problem)


def _written(piece: Piece, now: datetime | None) -> str:
    match piece:
        case Struck(text):
            return f"{text} dropped"  # no strike-through at a terminal
        case Strong(text) | Heading(text) | Block(text) | RoleTag(text) | Typed(text):
            return text
        case Mention(user_id):
            return f"@{user_id}" if user_id.isdigit() else user_id
        case Channel(channel_id):
            return f"#{channel_id}"
        case Moment(at):
            return utc_text(at) if now is None else _from_now(at, now)
    return piece


def _from_now(moment: datetime, now: datetime) -> str:
    """``2026-01-02 00:00 UTC (in 23 hours 59 minutes)``: the console's relative timestamp."""
    left = moment - now
    seconds = int(abs(left) // timedelta(minutes=1)) * 60  # whole minutes
    if not seconds:
        return f"{utc_text(moment)} (now)"
    span = duration_text(seconds)
    return f"{utc_text(moment)} ({f'in {span}' if left > timedelta(0) else f'{span} ago'})"
