"""A second (and third) process for tests/bot/test_concurrent_updates.py: it opens the database
the test prepared and, for each job, says "ready <job>", waits for the test's "go", fires its
requests at once and prints what each was answered, as one JSON line.

    python -m tests.bot.concurrent_writer DATABASE_URL NAME UNITS_TO_ADD CAMPAIGNS_TO_SET_UP
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from datetime import timedelta

from bot.services.campaign_service import CampaignService
from bot.services.force_service import ForceService
from bot.services.game_service import GameError, GameService
from bot.services.linked_campaign_service import LinkedCampaignService
from bot.services.stats_service import StatsService
from bot.services.table_service import TableService
from bot.storage.store import GameStore
from engine.forces import add_unit

GUILD, OWNER, FORCE, UNIT = "g", "ann", "KG", "Panzer IV G (late) to J"
RED_BARRICADES, LINKED = "rb", "linked"  # the channels of each kind of campaign
PLAYERS, CPP, DAY = {"german": ["ann"], "russian": ["cat"]}, {"german": 1, "russian": 1}, timedelta(days=1)
LINKED_PLAYERS = {"allies": ("ann", "Able"), "axis": ("otto", "KG")}


async def answer(request: Awaitable[object]) -> str:
    """ "ok", or the refusal a user would read."""
    try:
        await request
    except GameError as refusal:
        return str(refusal)
    return "ok"


class Requests:
    """One process's services over ``store``, and each job's n-th request through them, named
    after ``name``."""

    def __init__(self, store: GameStore, name: str) -> None:
        self.forces, self.campaigns = ForceService(store), CampaignService(store)
        self.linked = LinkedCampaignService(
            GameService(store), self.forces, StatsService(store), TableService(store)
        )
        self.name = name

    def jobs(self) -> dict[str, Callable[[int], Awaitable[object]]]:
        return {"force add": self.add_unit, "campaign new": self.new_campaign, "linked new": self.new_linked}

    def add_unit(self, n: int) -> Awaitable[object]:
        return self.forces.edit(GUILD, OWNER, FORCE, lambda force: add_unit(force, UNIT))

    def new_campaign(self, n: int) -> Awaitable[object]:
        return self.campaigns.create(RED_BARRICADES, f"{self.name}-{n}", PLAYERS, "17 Oct", CPP, 2, DAY)

    def new_linked(self, n: int) -> Awaitable[object]:
        return self.linked.create(LINKED, GUILD, f"{self.name}-{n}", LINKED_PLAYERS)

    async def close(self) -> None:
        await self.campaigns.close()


async def main(url: str, name: str, units: int, campaigns: int) -> None:
    store = GameStore(url)
    sender = Requests(store, name)
    try:
        for job, request in sender.jobs().items():
            requests = units if job == "force add" else campaigns
            print(f"ready {job}", flush=True)
            await asyncio.to_thread(sys.stdin.readline)  # the test's "go"
            answers = await asyncio.gather(*(answer(request(n)) for n in range(requests)))
            print(json.dumps({"job": job, "answers": answers}), flush=True)
    finally:
        await sender.close()
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
