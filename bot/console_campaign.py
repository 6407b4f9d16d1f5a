"""The console's campaign notices: what the campaign services post on their own in the console's
channel (reminders, reveals, a linked battle's result carried into its campaign), and the linked
battle a ``/campaign linked battle`` sets up, which becomes the table's game. The ``/campaign``
commands themselves are answered by their handlers (:mod:`bot.handlers.campaigns`), as in Discord.

Notices are written as they come when the console gives a writer; otherwise they wait and head
the next reply to a handled command (:meth:`CampaignDesk.told`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from bot.app import Services
from bot.plain_text import plain_reply
from bot.reply import Reply
from bot.services.game_service import Outcome

CHANNEL = "console"


class CampaignDesk:
    """The console's campaigns: the services' campaigns, told to write their notices here."""

    def __init__(self, services: Services, on_battle: Callable[[Outcome], None] | None = None) -> None:
        self.out: TextIO | None = None
        self.waiting: list[str] = []
        self.on_battle = on_battle  # a linked battle set up here becomes the table's game
        self.linked = services.linked_campaigns
        self.service = services.campaigns

    async def open(self, out: TextIO) -> None:
        """Write notices to ``out`` as they come, and arm the stored campaigns' timers."""
        self.out = out
        await self.service.resume()

    async def close(self) -> None:
        await self.service.close()

    def waiting_notices(self) -> list[str]:
        """The notices that waited for a reply to head (none once a writer is given)."""
        waiting, self.waiting = self.waiting, []
        return waiting

    def _written(self, said: Reply) -> str:
        """A campaign's notice at the console: its moments with how far off they are."""
        return plain_reply(said, self.service.clock.now())

    async def remind(self, channel: str, users: list[str], said: Reply) -> None:
        self._post(f"[reminder to {', '.join(users)}] {self._written(said)}")

    async def reveal(self, channel: str, said: Reply, open_phase: int | None) -> None:
        self._post(f"[revealed] {self._written(said)}")

    async def carried(self, channel: str, said: Reply) -> None:
        self._post(f"[campaign] {self._written(said)}")

    async def battle(self, channel: str, outcome: Outcome) -> None:
        if channel == CHANNEL and self.on_battle is not None:
            self.on_battle(outcome)

    def _post(self, text: str) -> None:
        if self.out is None:
            self.waiting.append(text)
        else:
            self.out.write(f"\n{text}\n")
            self.out.flush()
