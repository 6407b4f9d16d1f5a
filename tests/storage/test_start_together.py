"""Several bot processes started at once on one new database (``docker compose up --scale
bot=3``): their migrations run one after the other, and every process starts."""

import asyncio
import multiprocessing

import pytest

from bot.startup import check
from tests.storage.upgrade_kills import upgrade


@pytest.mark.both_databases
def test_three_start_ups_at_once_on_an_empty_database_all_migrate_it(new_empty_database):
    url = new_empty_database()
    fork = multiprocessing.get_context("fork")
    starts = [fork.Process(target=upgrade, args=(url,)) for _ in range(3)]
    for start in starts:
        start.start()
    for start in starts:
        start.join(timeout=120)
    assert [start.exitcode for start in starts] == [0, 0, 0]
    assert asyncio.run(check(url)).startswith("ok: ")
