"""The console's turn pings (``/games`` is handled as in Discord, :mod:`bot.handlers.owed`): a
ping is written as it comes when the console gives a writer, a direct message as a note to its
player; otherwise it waits and heads the next answer."""

from __future__ import annotations

from typing import TextIO

from bot.app import Services
from bot.services.campaign_service import utc_text
from bot.services.ping_service import Ping


class OwedDesk:
    """The ``/games`` commands of the console's table, whose game is in ``channel``."""

    def __init__(self, services: Services, channel: str) -> None:
        self.channel = channel
        self.out: TextIO | None = None
        self.waiting: list[str] = []
        self.owed = services.owed
        self.pings = services.pings

    async def open(self, out: TextIO) -> None:
        """Write pings to ``out`` as they come, and arm the stored ones."""
        self.out = out
        await self.pings.resume()

    async def close(self) -> None:
        await self.pings.close()

    def waiting_pings(self) -> list[str]:
        """The pings that came while nothing wrote them, taken to head the next answer."""
        waiting, self.waiting = self.waiting, []
        return waiting

    async def ping(self, ping: Ping) -> None:
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
