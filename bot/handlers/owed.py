"""The handlers of /games: what waits for the asker in every channel, how they hear that a game
waits for them, and how long the channel's game waits before telling its players."""

from __future__ import annotations

from bot.handlers.ask import Ask
from bot.reply import Reply


async def games_mine(ask: Ask) -> Reply:
    return Reply((await ask.services.owed.mine(ask.user)).lines, private=True)


async def games_ping(ask: Ask, how: str | None) -> Reply:
    return Reply.of(await ask.services.pings.choose(ask.user, how, ask.channel), private=True)


async def games_delay(ask: Ask, minutes: int) -> Reply:
    return Reply.of(await ask.services.pings.change_delay(ask.channel, ask.user, minutes, ask.roles))


OWED_HANDLERS = {
    "games mine": games_mine,
    "games ping": games_ping,
    "games delay": games_delay,
}
