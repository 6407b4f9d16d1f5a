"""Issue 19, item 10, for the referee's clock and ``/game new``: a failure after the commit says
what was stored, and the same interaction sent again changes nothing more (the clock is not
moved twice, a game set up and joined since is not set up over)."""

from datetime import timedelta

import pytest

from bot.discord_adapter import referee_clock_commands
from bot.storage import clock_store
from bot.storage.tables import CommandRow, PausedClockRow
from tests.bot.discord_harness import ANN, OTTO, close_bot, open_bot, reply
from tests.bot.test_discord_referee_clock import REF, started

pytestmark = pytest.mark.both_databases


@pytest.fixture
async def table(database_url, monkeypatch):
    """Ann against Otto, refereed by Ref, a reaction window open for the allies."""
    bot, discord = await open_bot(database_url, monkeypatch)
    await started(bot, discord)
    yield bot, discord
    await close_bot(bot)


async def commands_stored(bot) -> int:
    async with bot.games.store.sessions() as session:
        return len((await session.execute(CommandRow.__table__.select())).all())


async def paused_rows(bot) -> int:
    async with bot.games.store.sessions() as session:
        return len((await session.execute(PausedClockRow.__table__.select())).all())


def summary_fails(monkeypatch) -> None:
    """Telling the channel fails: after the clock's request was stored."""

    def broken(*args, **kwargs):
        raise RuntimeError("the summary fell over")

    monkeypatch.setattr(referee_clock_commands, "summary", broken)


async def resent_after_a_failure(bot, discord, monkeypatch, command: str, **options) -> int:
    """Send the referee's ``command``, which fails after its commit and says so; send the same
    interaction again once the failure is gone: it is only reminded of. The game's version."""
    version = (await bot.games.store.load("1")).version
    with monkeypatch.context() as patched:
        summary_fails(patched)
        text, private = reply(await discord.slash(command, user=REF, channel="1", **options))
    assert private and text.startswith(f"Your command was stored (action {version + 1} of this game)"), text
    stored = await commands_stored(bot)
    text, private = reply(await discord.resend())
    assert private and text.startswith(f"Already done (action {version + 1})"), text
    assert (await bot.games.store.load("1")).version == version + 1
    assert await commands_stored(bot) == stored
    return version + 1


async def test_a_resent_extension_moves_the_window_once(table, monkeypatch):
    bot, discord = table
    (before,) = await bot.games.store.open_windows()
    await resent_after_a_failure(bot, discord, monkeypatch, "ref clock extend", minutes=10)
    (after,) = await bot.games.store.open_windows()
    assert after.deadline - before.deadline == timedelta(minutes=10)
    assert bot.games.timers.deadline(("1", after.window)) == after.deadline


async def test_a_resent_pause_and_resume_are_each_applied_once(table, monkeypatch):
    bot, discord = table
    await resent_after_a_failure(bot, discord, monkeypatch, "ref clock pause")
    assert await paused_rows(bot) == 1
    assert not bot.games.timers.armed  # the resend did not start the clock again
    (paused,) = await bot.games.store.open_windows()
    await bot.games.clock.advance(600)
    await resent_after_a_failure(bot, discord, monkeypatch, "ref clock resume")
    assert await paused_rows(bot) == 0
    (resumed,) = await bot.games.store.open_windows()
    assert resumed.deadline - paused.deadline == timedelta(seconds=600)  # moved on once, not twice


async def test_a_resent_deadline_and_close_are_each_applied_once(table, monkeypatch):
    bot, discord = table
    await resent_after_a_failure(bot, discord, monkeypatch, "ref clock deadline", side="allies", hours=2.0)
    (deadline,) = await clock_store.player_deadlines(bot.games.store, "1")
    assert deadline.deadline == bot.games.clock.now() + timedelta(hours=2)
    version = (await bot.games.store.load("1")).version
    text, _ = reply(await discord.slash("ref clock close", user=REF, channel="1"))
    assert "The Allies do not react" in text
    text, private = reply(await discord.resend())
    assert private and text.startswith(f"Already done (action {version + 1})")
    assert (await bot.games.store.load("1")).version == version + 1


async def test_a_clock_request_failing_inside_the_service_after_its_commit_is_told_as_stored(
    table, monkeypatch
):
    """The service fails after the commit (asking whether the clock is paused, to arm the
    timer): the store is asked, and the resend, with the failure gone, arms the timer with the
    window's one extension."""
    bot, discord = table
    version = (await bot.games.store.load("1")).version
    (before,) = await bot.games.store.open_windows()
    is_paused = bot.games.clocks.is_paused

    async def unreadable(*args):
        raise OSError("the disk hiccupped")

    monkeypatch.setattr(bot.games.clocks, "is_paused", unreadable)
    text, private = reply(await discord.slash("ref clock extend", user=REF, channel="1", minutes=5))
    assert private and text.startswith(f"Your command was stored (action {version + 1} of this game)"), text
    monkeypatch.setattr(bot.games.clocks, "is_paused", is_paused)
    text, _ = reply(await discord.resend())
    assert text.startswith(f"Already done (action {version + 1})")
    (window,) = await bot.games.store.open_windows()
    assert window.deadline - before.deadline == timedelta(minutes=5)
    assert bot.games.timers.deadline(("1", window.window)) == window.deadline


async def test_a_resent_game_new_does_not_set_up_over_the_game_it_made(database_url, monkeypatch):
    """Ann's /game new fails after its commit; she joins the game it made; the same /game new
    sent again finds that game and leaves it (set up again, it would drop her seat)."""
    bot, discord = await open_bot(database_url, monkeypatch)
    set_delay = bot.pings.set_delay

    async def broken(*args):
        raise RuntimeError("the pings fell over")

    monkeypatch.setattr(bot.pings, "set_delay", broken)
    text, private = reply(await discord.slash("game new", user=ANN, channel="1"))
    assert private and text.startswith("Your command was stored (action 0 of this game)"), text
    set_up = discord.last_payload
    monkeypatch.setattr(bot.pings, "set_delay", set_delay)
    await discord.slash("game join", user=ANN, channel="1", side="allies")
    discord.last_payload = set_up
    text, private = reply(await discord.resend())
    assert private and text.startswith("Already done: this set up the channel's game"), text
    game = await bot.games.store.load("1")
    assert game.version == 1 and game.state.sides["allies"].players == [ANN]
    text, private = reply(await discord.slash("game new", user=OTTO, channel="1"))  # a new interaction
    assert private and "Players have joined the game set up here" in text
    await close_bot(bot)
