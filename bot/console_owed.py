"""The console's ``/games`` commands: ``/games mine`` lists what a player owes across the
database's channels (the console's own is "console"; a database shared with the bot holds
Discord channels by id), ``/games ping how:mention|dm|off`` sets how they are told that a
game waits for them, and ``/games delay minutes:N`` how long the console's game waits before
telling them (0: never). Pings are written as they come when the console gives a writer, a direct
message as a note to its player; otherwise they wait and head the next /games reply."""

from __future__ import annotations

from typing import TextIO

from bot.app import Services
from bot.console_grammar import Line
from bot.plain_text import plain_reply
from bot.services.campaign_service import utc_text
from bot.services.game_service import GameError
from bot.services.ping_service import Ping, ping_delay

USAGE = "Try /games mine, /games ping how:mention|dm|off, or /games delay minutes:N"


class OwedDesk:
    """The ``/games`` commands of the console's table, whose game is in ``channel``."""

    def __init__(self, services: Services, channel: str) -> None:
        self.channel = channel
        self.out: TextIO | None = None
        self.waiting: list[str] = []
        self.owed = services.owed
        self.pings = services.pings
        self.pings.on_ping = self._ping

    async def open(self, out: TextIO) -> None:
        """Write pings to ``out`` as they come, and arm the stored ones."""
        self.out = out
        await self.pings.resume()

    async def close(self) -> None:
        await self.pings.close()

    async def handle(self, line: Line) -> str:
        kind = line.words[0].casefold() if line.words else "mine"
        if kind == "mine":
            answer = plain_reply(await self.owed.mine(line.player))
        elif kind == "ping":
            how = line.options.get("how") or (line.words[1] if len(line.words) > 1 else None)
            answer = await self.pings.choose(line.player, how and how.casefold(), self.channel)
        elif kind == "delay":
            typed = line.options.get("minutes") or (line.words[1] if len(line.words) > 1 else "")
            minutes = ping_delay(typed, "minutes")
            answer = await self.pings.change_delay(self.channel, line.player, minutes)
        else:
            raise GameError(USAGE)
        waiting, self.waiting = self.waiting, []
        return "\n".join([*waiting, answer])

    async def _ping(self, ping: Ping) -> None:
        what = ping.what + (f", until {utc_text(ping.closes)}" if ping.closes else "")
        lines = [f"[message to {player}] #{ping.channel_id} waits for you: {what}" for player in ping.dm]
        if ping.mention:
            lines.insert(0, f"[ping in #{ping.channel_id}] {', '.join(ping.mention)}: {what}")
        text = "\n".join(lines)
        if self.out is None:
            self.waiting.append(text)
        else:
            self.out.write(f"\n{text}\n")
            self.out.flush()
