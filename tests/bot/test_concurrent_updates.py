"""No lost updates, no double creations: requests fired at the same moment, as real asyncio tasks
in one process (through one service, and through two services on two engines, which share no
lock) and from two OS processes on one database file. Every "ok" is stored; a channel ends up
with one campaign of a kind and the others are told why; the referee's clock, turn pings,
decks and force names hold the same way. The migration that brings these rules cleans older
databases that broke them, keeping the oldest."""

import asyncio
import json
import sqlite3
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import func, select

from bot.plain_text import plain_reply
from bot.services.card_service import CardService
from bot.services.force_service import ForceService
from bot.services.game_service import GameError, GameService
from bot.storage import clock_store
from bot.storage.clock_store import PlayerDeadline
from bot.storage.migrate import alembic_config
from bot.storage.ping_store import TurnPing, ping_of, save_ping
from bot.storage.store import GameStore
from bot.storage.tables import CampaignRow, CardDeckRow, WindowRow
from engine.cards import read_deck
from engine.commands import DealCards
from engine.dice import SeededDice
from engine.forces import Force, add_unit, upgrade
from engine.scenarios.quick_battle import quick_battle
from tests.bot.concurrent_writer import (
    FORCE,
    GUILD,
    LINKED,
    OWNER,
    RED_BARRICADES,
    Requests,
    answer,
)
from tests.bot.test_console_linked_campaign import FORCES
from tests.engine.test_cards import DECK

pytestmark = pytest.mark.both_databases
ROOT = Path(__file__).resolve().parents[2]
RB = "red_barricades"
RUNNING = "is still running in this channel"  # the refusal of a second campaign, of either kind
CHANGED = "KG changed under you: try again"  # an edit that lost the race to another one TRIES times


async def prepare(url: str) -> None:
    store = await GameStore.open(url)
    forces = ForceService(store)
    await forces.create(GUILD, OWNER, "german", FORCE, 100_000)
    for player, (nation, name, profiles) in FORCES.items():
        await forces.create(GUILD, player, nation, name, 150)
        for profile in profiles:
            await forces.edit(GUILD, player, name, lambda force, p=profile: add_unit(force, p))
        await forces.edit(GUILD, player, name, lambda f: upgrade(f, "Infantry Detachment 1", command=True))
    await store.close()


@pytest.fixture
async def url(new_database) -> str:
    """A fresh database holding ann's force KG to add units to, and the forces of a linked
    campaign, on SQLite or PostgreSQL."""
    url = new_database()
    await prepare(url)
    return url


@pytest.fixture
async def store(url):
    store = GameStore(url)
    yield store
    await store.close()


async def stored_units(store: GameStore) -> int:
    return len((await ForceService(store).force(GUILD, OWNER, FORCE)).units)


async def campaigns_in(store: GameStore, channel: str) -> int:
    async with store.sessions() as session:
        query = select(func.count()).where(CampaignRow.channel_id == channel)
        return await session.scalar(query) or 0


async def fire(senders: list[Requests], job: str, each: int) -> list[str]:
    """Every sender's ``each`` requests of ``job``, all at once."""
    requests = [sender.jobs()[job](n) for sender in senders for n in range(each)]
    return list(await asyncio.gather(*(answer(request) for request in requests)))


@pytest.mark.parametrize("services", [1, 2])
async def test_twenty_force_edits_at_once_are_all_stored(url, store, services):
    stores = [store] + [GameStore(url) for _ in range(services - 1)]
    senders = [Requests(s, f"p{n}") for n, s in enumerate(stores)]
    answers = await fire(senders, "force add", 20 // services)
    assert await stored_units(store) == answers.count("ok") > 0
    if services == 1:  # one service's edits of a force wait their turn: none is refused
        assert answers == ["ok"] * 20
    assert set(answers) <= {"ok", CHANGED}
    for other in stores[1:]:
        await other.close()


@pytest.mark.parametrize(("job", "channel"), [("campaign new", RED_BARRICADES), ("linked new", LINKED)])
async def test_six_campaigns_set_up_at_once_make_one(url, store, job, channel):
    other = GameStore(url)
    senders = [Requests(store, "one"), Requests(other, "two")]
    answers = await fire(senders, job, 3)
    assert answers.count("ok") == 1
    assert all(RUNNING in refusal for refusal in answers if refusal != "ok")
    assert await campaigns_in(store, channel) == 1
    for sender in senders:
        await sender.close()
    await other.close()


async def test_two_processes_on_one_file_lose_nothing_and_create_once(url, store):
    """Two OS processes fire 10 unit additions each, then 3 campaigns of each kind each."""
    workers = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.bot.concurrent_writer",
            url,
            name,
            "10",
            "3",
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        for name in ("first", "second")
    ]
    answers: dict[str, list[str]] = {}
    for job in ("force add", "campaign new", "linked new"):
        for worker in workers:
            assert (await worker.stdout.readline()).decode().strip() == f"ready {job}"
        for worker in workers:
            worker.stdin.write(b"go\n")
            await worker.stdin.drain()
        for worker in workers:
            done = json.loads(await worker.stdout.readline())
            answers.setdefault(done["job"], []).extend(done["answers"])
    for worker in workers:
        assert await worker.wait() == 0

    added = answers["force add"]
    assert len(added) == 20 and set(added) <= {"ok", CHANGED}
    assert await stored_units(store) == added.count("ok") > 0
    for job, channel in (("campaign new", RED_BARRICADES), ("linked new", LINKED)):
        assert answers[job].count("ok") == 1
        assert all(RUNNING in refusal for refusal in answers[job] if refusal != "ok")
        assert await campaigns_in(store, channel) == 1


async def test_a_force_name_is_taken_once_whatever_its_case(store):
    forces = ForceService(store)
    names = ["Panzer Lehr", "panzer lehr", "PANZER LEHR", "Panzer Lehr", "panzer Lehr", "Panzer lehr"]
    answers = await asyncio.gather(
        *(answer(forces.create(GUILD, OWNER, "german", name, 500)) for name in names)
    )
    assert answers.count("ok") == 1
    assert all("You already have a force called" in a for a in answers if a != "ok")
    assert [n.casefold() for n in await forces.names(GUILD, OWNER)].count("panzer lehr") == 1


async def test_a_deck_saved_six_times_at_once_is_one_deck(url, store):
    other = GameStore(url)
    decks = [CardService(store), CardService(other)]
    names = ["Generic", "generic", "GENERIC"]
    saved = await asyncio.gather(*(decks[n % 2].save(GUILD, names[n % 3], DECK) for n in range(6)))
    assert all(plain_reply(answer).startswith("Saved the deck") for answer in saved)
    async with store.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(CardDeckRow)) == 1
    await other.close()


async def test_turn_pings_are_written_over_the_version_read(store):
    ping = await ping_of(store, "c")
    first = await asyncio.gather(*(save_ping(store, replace(ping, minutes=m)) for m in range(1, 7)))
    assert first.count(True) == 1  # the others read a version that is gone: they read again
    stored = await ping_of(store, "c")
    assert stored.version == 1 and stored.minutes == first.index(True) + 1
    again = await asyncio.gather(*(save_ping(store, replace(stored, minutes=m)) for m in (20, 30)))
    assert again.count(True) == 1 and (await ping_of(store, "c")).version == 2


async def test_the_referees_clock_moves_each_deadline_once(url, store):
    """Two resumes at once move the deadlines by the time the clock stood, once; two pauses at
    once stop it once; five extensions at once give five times the time."""
    other = GameStore(url)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    await store.create("c", quick_battle())
    async with store.sessions() as session, session.begin():
        session.add(WindowRow(channel_id="c", window=1, deadline=(start + timedelta(hours=1)).isoformat()))
    await clock_store.set_player_deadline(store, PlayerDeadline("c", "axis", start + timedelta(hours=2), "r"))
    await save_ping(store, TurnPing("c", 10, ("ann",), start + timedelta(hours=3)))

    paused = await asyncio.gather(clock_store.pause(store, "c", start), clock_store.pause(other, "c", start))
    assert sorted(paused) == [False, True]
    later = start + timedelta(hours=5)
    await asyncio.gather(clock_store.resume(store, "c", later), clock_store.resume(other, "c", later))
    window = await clock_store.window_of(store, "c")
    assert window is not None and window.deadline == start + timedelta(hours=6)
    assert [d.deadline for d in await clock_store.player_deadlines(store, "c")] == [
        start + timedelta(hours=7)
    ]
    assert (await ping_of(store, "c")).due == start + timedelta(hours=8)

    minute = timedelta(minutes=1)
    await asyncio.gather(*(clock_store.extend_window(s, "c", minute) for s in [store, other] * 3))
    window = await clock_store.window_of(store, "c")
    assert window is not None and window.deadline == start + timedelta(hours=6, minutes=6)
    await other.close()


async def test_upgrading_keeps_one_of_the_rows_the_new_rules_refuse(tmp_path):
    """A database at 0012 with two unfinished campaigns of a kind in a channel, one force and one
    deck under two cases of a name, and a rule document imported twice: after the upgrade the
    newest running campaign (the one the bot read) and the oldest of the others stand, finished
    campaigns are marked, and the rules hold."""
    path = tmp_path / "old.db"
    url = f"sqlite+aiosqlite:///{path}"
    await asyncio.to_thread(command.upgrade, alembic_config(url), "0012")
    force = Force(nation="german", name="KG", points_limit=500).model_dump_json()
    running = json.dumps({"name": "A", "phases": [{"state": "open"}]})
    over = json.dumps({"name": "B", "phases": [{"state": "revealed"}]})
    with sqlite3.connect(path) as db:
        now = datetime.now(UTC).isoformat()
        db.executemany(
            "INSERT INTO campaigns (channel_id, kind, version, campaign, created_at, updated_at) "
            "VALUES (?, ?, 0, ?, ?, ?)",
            [
                ("c", "red_barricades", over, now, now),
                ("c", "red_barricades", running, now, now),
                ("c", "red_barricades", running.replace("A", "A2"), now, now),
                ("c", "linked", json.dumps({"name": "L", "ended": True}), now, now),
                ("c", "linked", json.dumps({"name": "L2"}), now, now),
            ],
        )
        db.executemany(
            "INSERT INTO forces (guild_id, owner_id, name, force, updated_at) VALUES ('g', 'ann', ?, ?, ?)",
            [("KG", force, now), ("kg", force, now), ("Other", force, now)],
        )
        db.executemany(
            "INSERT INTO card_decks (guild_id, name, text, updated_at) VALUES ('g', ?, 'x', ?)",
            [("Deck", now), ("DECK", now)],
        )
        for name in ("Rules", "rules"):
            source = db.execute(
                "INSERT INTO rule_sources (guild_id, name, filename, checksum, size, sections, imported_by, "
                "imported_at) VALUES ('g', ?, 'r.md', '', 1, 1, 'ann', ?)",
                (name, now),
            ).lastrowid
            db.execute(
                "INSERT INTO rule_sections (source_id, position, number, number_key, title, body) "
                "VALUES (?, 0, '1', '1', 'Smoke', 'smoke')",
                (source,),
            )
    store = await GameStore.open(url)
    with sqlite3.connect(path) as db:
        kept = db.execute("SELECT id, kind, finished FROM campaigns ORDER BY id").fetchall()
        assert kept == [
            (1, "red_barricades", 1),
            (3, "red_barricades", 0),  # the newest running one, which the channel was using
            (4, "linked", 1),
            (5, "linked", 0),
        ]
        assert db.execute("SELECT name FROM forces ORDER BY id").fetchall() == [("KG",), ("Other",)]
        assert db.execute("SELECT name FROM card_decks").fetchall() == [("Deck",)]
        assert db.execute("SELECT name FROM rule_sources").fetchall() == [("Rules",)]
        assert db.execute("SELECT COUNT(*) FROM rule_sections").fetchone() == (1,)
        found = db.execute("SELECT rowid FROM rule_search WHERE rule_search MATCH 'smoke'").fetchall()
        assert found == [(1,)]
        with pytest.raises(sqlite3.IntegrityError):
            db.execute(
                "INSERT INTO campaigns (channel_id, kind, version, campaign, created_at, updated_at) "
                "VALUES ('c', 'linked', 0, '{}', ?, ?)",
                (now, now),
            )
    with pytest.raises(GameError, match="You already have a force called kG"):
        await ForceService(store).create("g", "ann", "german", "kG", 500)
    await store.close()


async def test_a_finished_campaign_makes_room_for_the_next(store):
    """The one-per-channel rule counts unfinished campaigns only."""
    sender = Requests(store, "first")
    assert await answer(sender.new_linked(0)) == "ok"
    assert RUNNING in await answer(sender.new_linked(1))
    await sender.linked.end(LINKED, "ann")
    assert await answer(sender.new_linked(2)) == "ok"
    async with store.sessions() as session:
        rows = (await session.execute(select(CampaignRow.finished).order_by(CampaignRow.id))).scalars()
        assert list(rows) == [True, False]
    await sender.close()


async def test_cards_dealt_at_once_are_each_stored_or_refused(url, store):
    """Six deals at once through two game services on two engines: one is dealt and logged, the
    others are told the cards are dealt."""
    other = GameStore(url)
    games = [GameService(store, dice=lambda: SeededDice(1)), GameService(other, dice=lambda: SeededDice(2))]
    await games[0].new_game("c")
    deal = DealCards(deck=tuple(read_deck(DECK)))
    deals = [games[n % 2].act("c", "ann", deal, admin=True) for n in range(6)]
    answers = await asyncio.gather(*(answer(request) for request in deals))
    _, log = await store.history("c")
    assert [command for command, _ in log] == [deal]
    assert sorted(answers) == ["The cards have already been dealt in this game"] * 5 + ["ok"]
    for game in games:
        await game.close()
    await other.close()
