"""Busy channels on one database never see "database is locked" (issue 19, item 4).

Twelve channels play, roll and read at once through the services, in one process and then with
a second OS process doing the same on the same database: every call either succeeds or is a
refusal of the rules; none fails, and every roll reported is stored.
"""

import pytest
from sqlalchemy import func, select

from bot.storage.tables import RollRow
from tests.storage.busy_channels import busy_server, with_second_process

CHANNELS = 12
ACTIONS = 6  # stored game actions per channel in the one-process run (the set-ups included)
ACTIONS_EACH = 4  # ... and in each of the two processes


async def stored_rolls(store) -> int:
    async with store.sessions() as session:
        return (await session.execute(select(func.count()).select_from(RollRow))).scalar_one()


@pytest.mark.both_databases
async def test_twelve_busy_channels_in_one_process_never_fail(store):
    tally = await busy_server(store, "busy", CHANNELS, ACTIONS, seed=1)
    assert dict(tally.failures) == {}
    assert tally.actions == CHANNELS * ACTIONS
    assert tally.rolls >= CHANNELS and tally.reads >= 2 * CHANNELS
    assert await stored_rolls(store) == tally.rolls


@pytest.mark.both_databases
async def test_two_processes_of_twelve_busy_channels_on_one_database_never_fail(store, database_url):
    here, there = await with_second_process(
        database_url,
        lambda: busy_server(store, "here", CHANNELS, ACTIONS_EACH, seed=2),
        prefix="there",
        channels=CHANNELS,
        actions=ACTIONS_EACH,
        seed=3,
    )
    assert (dict(here.failures), dict(there.failures)) == ({}, {})
    assert here.actions == there.actions == CHANNELS * ACTIONS_EACH
    assert await stored_rolls(store) == here.rolls + there.rolls
