"""Every input costs bounded work: over 20,000 random and adversarial console lines and service
calls (see :mod:`tests.bot.fuzz_inputs`), none is answered "Something went wrong" or with Python's
own error text, none hangs, and a refused one stores nothing.

Each input runs under a timeout (a hang), and the work it costs is bounded in CPU seconds of this
process (the services and SQLite run here), not in wall time, so a busy machine does not make the
bound flaky; the costliest input is printed (``-s``); speed is measured in ``benchmarks/``.

Every test runs on SQLite and on PostgreSQL. On PostgreSQL the inputs are the first tenth of
each seeded run (2,000 in all): the whole 20,000 would add more than a minute to the suite, and
what they exercise (parsing, limits, permissions) is the services', the same on either database;
the database's part is that a refusal stores nothing there either.
"""

from __future__ import annotations

import asyncio
import io
import random
import sqlite3
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from sqlalchemy import event

from bot.app import Services
from bot.console import ConsoleTable
from bot.services.campaign_service import CampaignService, parse_duration
from bot.services.dice_service import DiceService
from bot.services.force_service import ForceService
from bot.services.game_service import GameError, GameService
from bot.services.rules_service import RulesService
from bot.services.stats_service import StatsService
from bot.storage.store import GameStore
from engine.dice import SeededDice
from engine.errors import IllegalCommand
from engine.rolls.in_text import dice_in
from tests.bot.fuzz_inputs import NASTY, console_lines, mixed_lines
from tests.storage.copies import PostgresCopies

pytestmark = pytest.mark.both_databases

TIMEOUT = 30.0  # wall seconds before an input counts as hung
# CPU seconds: an input costing more fails the test. The costliest is about 0.1, but the clock is
# the whole process's, so another thread's work (a replay being drawn, a loaded CI machine's
# worker) counts too: the bound catches work without bound, not a slow machine (once 2.5 s in CI).
COSTLY = 5.0
INTERNAL = (  # what a player must never read: our internal-error answer, or Python's own words
    "Something went wrong",
    "invalid literal",
    "Exceeds the limit",
    "could not convert",
    "Traceback",
    "object has no attribute",
    "NoneType",
    "unsupported operand",
    "OverflowError",
    "[Errno",
)


ON_POSTGRES = 10  # on PostgreSQL, a tenth of each run's inputs (see above)


class Watch:
    """Times each input and tells whether the database took a commit that changed it meanwhile:
    SQLite's data_version moves when another connection commits to the file; on PostgreSQL the
    tables' digest is read again whenever a transaction that wrote has ended since."""

    def __init__(self, url: str) -> None:
        self.postgres = PostgresCopies(url) if url.startswith("postgresql") else None
        self.database = None if self.postgres else sqlite3.connect(url.split("///", 1)[1])
        self.slowest = (0.0, "")
        self.inputs = 0
        self._mark: Any = None
        self._digest: Any = None

    def share(self, count: int) -> int:
        """How many of a run's ``count`` inputs to send on this database."""
        return count // ON_POSTGRES if self.postgres else count

    async def version(self) -> Any:
        if self.postgres is None:
            return self.database.execute("PRAGMA data_version").fetchone()[0]
        mark = await self.postgres.mark()
        if mark != self._mark:
            self._mark, self._digest = mark, await self.postgres.digest()
        return self._digest

    async def answer(self, asked: str, call: Callable[[], Awaitable[str]]) -> tuple[str, bool]:
        """The answer to one input and whether it stored anything; fails on a hang or a costly one."""
        before, started = await self.version(), time.process_time()
        try:
            answer = await asyncio.wait_for(call(), TIMEOUT)
        except TimeoutError:
            pytest.fail(f"no answer in {TIMEOUT} s to {asked[:200]!r}")
        took = time.process_time() - started
        assert took < COSTLY, f"{took:.1f} CPU s for {asked[:200]!r}"
        self.slowest = max(self.slowest, (took, asked[:80]))
        self.inputs += 1
        return answer, await self.version() != before

    async def close(self) -> None:
        if self.postgres:
            await self.postgres.close()
        else:
            self.database.close()
        costliest, asked = self.slowest
        print(f"\n{self.inputs} inputs, the costliest {costliest * 1000:.0f} CPU ms: {asked!r}")


def assert_no_internal_error(asked: str, answer: str) -> None:
    for words in INTERNAL:
        assert words.casefold() not in answer.casefold(), f"{asked[:200]!r} was answered {answer[:300]!r}"


def no_waiting_for_the_disk(connection, _) -> None:
    """Commits without fsync, to a write-ahead log: what is measured here is the work an input
    costs, not the disk."""
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = OFF")


@pytest.fixture(scope="module")
def library_on_postgres(postgres_server, postgres_template) -> PostgresCopies:
    """The module's one PostgreSQL database, migrated, with the bot's rules library indexed and
    kept as "shipped": each test starts from it (put back by TRUNCATE and INSERT, far cheaper
    than a new database and a new index for every test)."""
    copies = PostgresCopies(postgres_server.create_database(template=postgres_template))

    async def ship() -> None:
        store = GameStore(copies.url)
        await RulesService(store).ship()
        await store.close()
        await copies.keep("shipped")
        await copies.close()

    with ThreadPoolExecutor(1) as worker:  # on a loop of its own: the caller may be inside one
        worker.submit(asyncio.run, ship()).result()
    return copies


@pytest.fixture
async def table(database_backend, request):
    """A console table on a database of its own, with the bot's rules library and a campaign desk."""
    if database_backend == "postgresql":
        shipped = request.getfixturevalue("library_on_postgres")
        await shipped.restore("shipped")
        await shipped.close()
        database_url = shipped.url
    else:
        database_url = request.getfixturevalue("database_url")
    store = GameStore(database_url)
    if database_backend == "sqlite":
        for engine in store.engines:
            event.listen(engine, "connect", no_waiting_for_the_disk)
    service = GameService(store, lambda: SeededDice(7))
    console, _ = await ConsoleTable.open(Services.around(service))
    await console.rules.ship()
    await console.campaigns.open(io.StringIO())
    await console.owed.open(io.StringIO())
    watch = Watch(database_url)
    yield console, watch
    await watch.close()
    await console.campaigns.close()
    await console.owed.close()
    await service.close()
    await store.close()


async def play(table, lines) -> None:
    console, watch = table
    for line in lines:
        answer, stored = await watch.answer(line, lambda line=line: console.handle(line))
        assert_no_internal_error(line, answer)
        if answer.startswith("Not allowed"):
            assert not stored, f"{line[:200]!r} was refused ({answer[:200]!r}) but stored a change"


@pytest.mark.parametrize("seed", [1, 2])
async def test_random_console_lines_are_answered_quickly_and_refusals_store_nothing(table, seed):
    await play(table, console_lines(seed, table[1].share(3000)))


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_working_and_mutated_console_lines_are_answered_quickly_and_refusals_store_nothing(table, seed):
    await play(table, mixed_lines(seed, table[1].share(2000)))


def nasty_text(rng: random.Random) -> str:
    """A nasty value, or a few of them run together."""
    return "".join(rng.choice(NASTY) for _ in range(rng.randint(1, 3)))


async def test_services_called_directly_refuse_clearly_and_store_nothing_when_they_refuse(table):
    console, watch = table
    store = console.service.store
    rng = random.Random(11)
    dice, rules, forces = DiceService(store), RulesService(store), ForceService(store)
    campaigns, stats = CampaignService(store), StatsService(store)
    await dice.roll("fuzz", "ann", ";".join(["100d1000"] * 10))  # the largest roll there is, for /stats
    calls: list[Callable[[], Awaitable[object]]] = [
        lambda: dice.roll("fuzz", "ann", nasty_text(rng), secret=rng.random() < 0.5),
        lambda: dice.chart("fuzz", "ann", rng.choice(["rb-rg-strength", nasty_text(rng)]), nasty_text(rng)),
        lambda: rules.lookup("fuzz", nasty_text(rng)),
        lambda: rules.cited_in("fuzz", nasty_text(rng)),  # a message's "Look up rules"
        lambda: dice.roll("fuzz", "ann", dice_in(nasty_text(rng)).command or "dr"),  # its "Roll dice"
        lambda: rules.import_document("fuzz", "ann", rng.choice(["a.md", "a.exe"]), nasty_text(rng).encode()),
        lambda: forces.create(
            "fuzz",
            "ann",
            rng.choice(["german", "us", nasty_text(rng)]),
            nasty_text(rng),
            rng.randint(-9, 10**40),
        ),
        lambda: campaigns.create(
            "fuzz",
            nasty_text(rng),
            {"german": ["ann"], "russian": ["bob"]},
            rng.choice(["17 Oct", nasty_text(rng)]),
            {"german": rng.randint(-5, 10**30), "russian": 5},
            rng.randint(-1, 40),
            parse_duration(rng.choice(["24h", "1d12h", "90m"])),
        ),
        lambda: asyncio.sleep(0, parse_duration(nasty_text(rng))),
    ]
    for number in range(watch.share(8000)):
        await refused_or_answered(watch, f"service call {number}", calls[number % len(calls)])
        if number % 1000 == 0:
            await refused_or_answered(watch, "/stats", lambda: stats.stats(["fuzz"]))
    await campaigns.close()


async def refused_or_answered(watch: Watch, asked: str, call: Callable[[], Awaitable[object]]) -> None:
    """A service call answers or refuses clearly; a refusal stores nothing."""

    async def answered() -> str:
        try:
            return str(await call())
        except (GameError, IllegalCommand) as refusal:
            return f"Not allowed: {refusal}"

    answer, stored = await watch.answer(asked, answered)
    assert_no_internal_error(asked, answer)
    if answer.startswith("Not allowed"):
        assert not stored, f"{asked} was refused ({answer[:200]!r}) but stored a change"
