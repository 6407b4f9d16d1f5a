"""Answering inside Discord's three seconds, and telling the truth after a fault: every
interaction is acknowledged before any work, a failure after the order was stored says so, and
an interaction sent again is never applied twice."""

import asyncio

import pytest
from sqlalchemy import event

from bot.discord_adapter import reaction_buttons
from bot.services.game_service import GameService
from bot.storage.ping_store import ping_of
from bot.storage.store import GameStore
from bot.storage.tables import CommandRow
from bot.text_orders import unit_order
from engine.commands import Declare
from engine.dice import ScriptedDice, d6
from engine.runtime import VirtualClock
from tests.bot.discord_harness import ANN, OTTO, buttons, close_bot, open_bot, reply, started_game

pytestmark = pytest.mark.both_databases


@pytest.fixture
async def table(database_url, monkeypatch):
    bot, discord = await open_bot(database_url, monkeypatch)
    await started_game(bot, discord)
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    yield bot, discord
    await close_bot(bot)


async def commands_stored(bot) -> int:
    async with bot.games.store.sessions() as session:
        return len((await session.execute(CommandRow.__table__.select())).all())


async def test_an_action_is_acknowledged_before_the_game_is_loaded(table, monkeypatch):
    bot, discord = table
    seen_when_loaded = []
    load, load_then_append = bot.games.store.load, bot.games.store.load_then_append

    async def watched_load(channel_id, interaction_id=None):
        seen_when_loaded.append([entry["route"] for entry in discord.sent])
        return await load(channel_id, interaction_id)

    async def watched_load_then_append(channel_id, interaction_id, then):
        seen_when_loaded.append([entry["route"] for entry in discord.sent])
        return await load_then_append(channel_id, interaction_id, then)

    monkeypatch.setattr(bot.games.store, "load", watched_load)
    monkeypatch.setattr(bot.games.store, "load_then_append", watched_load_then_append)
    before = len(discord.sent)
    sent = await discord.slash("act", user=OTTO, channel="1", unit="Gruppe 3", move="50,39")
    assert sent[0]["route"].endswith("/callback") and sent[0]["payload"]["type"] == 5  # "thinking..."
    assert len(seen_when_loaded) == 1  # one load for the whole action
    assert len(seen_when_loaded[0]) == before + 1  # ... after the acknowledgement and nothing else
    text, private = reply(sent)
    assert not private and "The Axis declare: Gruppe 3: move to 50.0,39.0" in text
    assert set(buttons(sent)) == {"React", "No reaction"}


async def test_the_window_s_buttons_are_stored_with_the_action_that_opened_it(table, monkeypatch):
    bot, discord = table
    writes = []
    monkeypatch.setattr(bot.games.store, "set_window_message", lambda *a: writes.append(a))
    await discord.slash("act", user=OTTO, channel="1", unit="Gruppe 3", move="50,39")
    (window,) = await bot.games.store.open_windows()
    assert window.message_id is not None and writes == []  # no second write after the reply


async def test_a_failure_after_the_order_is_stored_says_so_and_the_order_is_not_sent_twice(
    table, monkeypatch
):
    bot, discord = table
    version = (await bot.games.store.load("1")).version
    stored = await commands_stored(bot)

    def broken_card(*args, **kwargs):
        raise RuntimeError("the card fell over")

    card = reaction_buttons.outcome_card  # made once the order is stored
    monkeypatch.setattr(reaction_buttons, "outcome_card", broken_card)
    text, private = reply(await discord.slash("act", user=OTTO, channel="1", unit="Gruppe 3", move="50,39"))
    assert private and text.startswith(f"Your command was stored (action {version + 1} of this game)")
    assert "Do not send it again" in text
    assert (await bot.games.store.load("1")).version == version + 1

    monkeypatch.setattr(reaction_buttons, "outcome_card", card)
    text, private = reply(await discord.resend())  # the same interaction, with the same id
    assert private and text.startswith(f"Already done (action {version + 1})")
    assert "The Axis declare: Gruppe 3: move to 50.0,39.0" in text
    assert (await bot.games.store.load("1")).version == version + 1
    assert await commands_stored(bot) == stored + 1


async def test_a_failure_before_the_order_is_stored_says_nothing_was_stored(table, monkeypatch):
    bot, discord = table
    version = (await bot.games.store.load("1")).version

    def broken_append(*args, **kwargs):
        def write(connection):
            raise OSError("disk full")

        return write

    appending = bot.games.store.appending
    monkeypatch.setattr(bot.games.store, "appending", broken_append)
    text, private = reply(await discord.slash("act", user=OTTO, channel="1", unit="Gruppe 3", move="50,39"))
    assert private and text.startswith("Something went wrong on our side; your command was not stored")
    monkeypatch.setattr(bot.games.store, "appending", appending)
    assert (await bot.games.store.load("1")).version == version
    text, _ = reply(await discord.resend())  # now it goes through, once
    assert "The Axis declare: Gruppe 3: move to 50.0,39.0" in text
    assert (await bot.games.store.load("1")).version == version + 1


async def test_a_button_clicked_twice_with_one_interaction_answers_once(table):
    bot, discord = table
    sent = await discord.slash("act", user=OTTO, channel="1", unit="Gruppe 3", move="50,39")
    no_reaction = buttons(sent)["No reaction"]

    bot.games.dice = lambda: ScriptedDice([d6(4)])
    text, _ = reply(await discord.click(no_reaction, user=ANN, channel="1"))
    assert "The Allies do not react" in text
    version = (await bot.games.store.load("1")).version
    text, private = reply(await discord.resend())
    assert private and text.startswith(f"Already done (action {version})")
    assert (await bot.games.store.load("1")).version == version


async def test_one_interaction_sent_to_two_services_at_once_is_applied_once(table):
    """Two bot processes (two services, two connection pools on one database) handed the same
    interaction at the same moment: one applies it, the other finds it applied."""
    bot, _ = table
    other = GameService(GameStore(bot.games.store.database_url), clock=VirtualClock())
    version = (await bot.games.store.load("1")).version
    state = (await bot.games.store.load("1")).state
    order = Declare(side="axis", order=unit_order(state, "axis", "Gruppe 3", move="50,39"))
    outcomes = await asyncio.gather(
        *(service.act("1", OTTO, order, interaction_id="4242") for service in (bot.games, other))
    )
    assert sorted(outcome.repeated for outcome in outcomes) == [False, True]
    assert {outcome.version for outcome in outcomes} == {version + 1}
    assert (await bot.games.store.load("1")).version == version + 1
    await other.close()
    await other.store.close()


async def test_a_secret_roll_is_private_from_its_first_response(table):
    """Not even the "thinking..." of a secret roll shows in the channel."""
    _, discord = table
    sent = await discord.slash("roll", user=OTTO, channel="1", dice="2d6", secret=True)
    assert sent[0]["payload"] == {"type": 5, "data": {"flags": 64}}
    text, private = reply(sent)
    assert private and text.startswith(f"<@{OTTO}> rolls `2d6`")
    sent = await discord.slash("roll", user=OTTO, channel="1", dice="2d6")
    assert sent[0]["payload"] == {"type": 5} and not reply(sent)[1]


async def test_a_failure_inside_the_service_after_its_commit_is_told_as_stored(table, monkeypatch):
    """The command's own path never learns it was stored (the service failed just after the
    commit): the store is asked before the user is told."""
    bot, discord = table
    version = (await bot.games.store.load("1")).version

    def timers_broken(*args):
        raise RuntimeError("the timers fell over")

    monkeypatch.setattr(bot.games, "_follow_windows", timers_broken)
    text, private = reply(await discord.slash("act", user=OTTO, channel="1", unit="Gruppe 3", move="50,39"))
    assert private and text.startswith(f"Your command was stored (action {version + 1} of this game)")
    assert (await bot.games.store.load("1")).version == version + 1


async def test_an_action_is_stored_in_one_write_with_its_turn_ping(table):
    """The command, the game, its reaction window and the turn ping it starts: one transaction."""
    bot, discord = table
    commits = []
    for engine in bot.games.store.engines:
        event.listen(engine, "commit", lambda connection: commits.append(1))
    await discord.slash("act", user=OTTO, channel="1", unit="Gruppe 3", move="50,39")
    assert len(commits) == 1
    ping = await ping_of(bot.games.store, "1")
    assert ping.players == (ANN,) and ping.due is not None  # the allies are waited for, and told


async def test_one_action_reads_in_one_session_and_writes_in_one_transaction(table):
    """Issue 19, item 7: one /act takes two connections from the pool, one to load (the game
    with its clock's pause, open window, deadlines and threads) and one to write; no other read
    runs beside them. Before the clock's, deadlines' and threads' reads were folded into the
    load it took seven, and 21 statements on SQLite; then 14, with seven SELECTs. Issue 33: the
    load is one SELECT, the write reads only the turn ping it replaces (the window it replaces
    comes back from its DELETE): nine statements on SQLite with its two BEGINs; then the load
    alone, without a BEGIN, and no DELETE of a window when none was open: seven, one BEGIN; now
    the turn ping comes with the load, and the write reads nothing: six. The store's worker
    threads keep their connections, so a connection is taken from the pool only by a thread's
    first transaction (at most one for the load and one for the write)."""
    bot, discord = table
    statements, checkouts = [], []

    def executed(connection, cursor, statement, *args) -> None:
        statements.append(statement.split(None, 1)[0].upper())

    for engine in bot.games.store.engines:
        event.listen(engine, "before_cursor_execute", executed)
        event.listen(engine.pool, "checkout", lambda *args: checkouts.append(1))
    try:
        await discord.slash("act", user=OTTO, channel="1", unit="Gruppe 3", move="50,39")
    finally:
        for engine in bot.games.store.engines:
            event.remove(engine, "before_cursor_execute", executed)
    assert len(checkouts) <= 2
    begun = ["BEGIN"] if bot.games.store.engine.dialect.name == "sqlite" else []  # asyncpg's own
    assert statements == ["SELECT", *begun, "UPDATE", "INSERT", "INSERT", "INSERT"], statements
