"""The picture on an action's card is drawn while the action's write commits (issue 33): begun in
the picture pool as soon as the action is decided, posted only once it is stored, drawn once; a
write that fails posts none and leaves the game as it was, and a write retried over a game
changed by another process posts the retried game's picture, not the one begun before."""

import asyncio
import threading
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot import picture_pool
from bot.services.game_service import GameError, GameService
from bot.services.outcome import pictured, unpictured
from bot.storage.store import GameStore
from engine.commands import AppointReferee, RefereeCorrection
from engine.dice import ScriptedDice, d6
from engine.geometry import Point
from engine.scenarios.quick_battle import quick_battle
from tests.bot.discord_harness import (
    ANN,
    EVE,
    MANAGE_GUILD,
    OTTO,
    Pick,
    attachments,
    buttons,
    channel_posts,
    close_bot,
    open_bot,
    reply,
    started_game,
)

ADMIN = "305"  # manages the server
ADVANCE = {"unit": "gruppe-3", "move": "50,39"}  # Otto's Gruppe 3 moves 3": a reaction window opens


@dataclass
class Table:
    """The bot and its Discord, and every picture its pool draws: (viewer, the game drawn, the
    game before, the PNG); ``pictured`` is set once one is drawn, and none is drawn while
    ``gate`` is shut."""

    bot: Any
    discord: Any
    url: str
    draws: list[tuple] = field(default_factory=list)
    pictured: threading.Event = field(default_factory=threading.Event)
    gate: threading.Event = field(default_factory=threading.Event)


@pytest.fixture
async def table(tmp_path, monkeypatch):
    """A started game in channel 1, Otto holding the initiative; its pictures counted from now on."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    bot, discord = await open_bot(url, monkeypatch)
    await started_game(bot, discord)
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    kept = Table(bot, discord, url)
    kept.gate.set()
    real = picture_pool.drawn

    def counted(state, viewer, events=(), before=None):
        kept.gate.wait(10)
        picture = real(state, viewer, events, before)
        kept.draws.append((viewer, state, before, picture[0]))
        kept.pictured.set()
        return picture

    monkeypatch.setattr(picture_pool, "drawn", counted)
    yield kept
    kept.gate.set()
    await close_bot(bot)


def begun_by(bot) -> list:
    """The pictures the game service begins from now on, each (the scene, its task)."""
    begun = []
    begin = bot.games.picturing

    def recorded(scene):
        task = begin(scene)
        begun.append((scene, task))
        return task

    bot.games.picturing = recorded
    return begun


async def test_the_cards_picture_is_drawn_once_while_its_action_commits(table):
    bot, discord, draws, pictured = table.bot, table.discord, table.draws, table.pictured
    before = (await bot.games.store.load("1")).state
    at_commit = []

    def commit_waits_for_a_picture(_connection, _game, _user, _after):
        at_commit.append(pictured.wait(10))  # on only once a picture is drawn, or none was begun

    bot.games.in_commit.append(commit_waits_for_a_picture)
    sent = await discord.slash("act", user=OTTO, channel="1", **ADVANCE)

    stored = (await bot.games.store.load("1")).state
    assert at_commit == [True]  # the picture was drawn before the action had committed
    assert [draw[:3] for draw in draws] == [(None, stored, before)]  # once, the spectators'
    assert attachments(sent) == [draws[0][3]]  # the card's picture is that one
    assert "The Axis declare: Gruppe 3: move to 50.0,39.0" in reply(sent)[0]


@pytest.mark.parametrize(
    ("failure", "told"),
    [(GameError("The game is locked for a ruling"), "locked for a ruling"), (OSError("disk full"), "wrong")],
)
async def test_a_write_that_fails_posts_no_picture_and_leaves_the_game(table, failure, told):
    """The picture begun for the action is dropped before it is drawn (drawing waits meanwhile)."""
    bot, discord = table.bot, table.discord
    game = await bot.games.store.load("1")
    begun = begun_by(bot)
    table.gate.clear()

    def failing(_connection, _game, _user, _after):
        raise failure

    bot.games.in_commit.append(failing)
    sent = await discord.slash("act", user=OTTO, channel="1", **ADVANCE)

    text, private = reply(sent)
    assert private and told in text and attachments(sent) == []
    after = await bot.games.store.load("1")
    assert (after.version, after.state) == (game.version, game.state)
    assert [task.cancelled() for _, task in begun] == [True]  # begun, then dropped
    table.gate.set()


async def test_a_retried_write_posts_the_retried_games_picture(table, monkeypatch):
    """Another bot process on the same database (a referee moves Sherman 1) writes while Otto's
    advance is being stored: the write is stale, the advance is decided again on the game as it
    is now, and its card shows that game (Sherman 1 where the referee put it)."""
    bot, discord = table.bot, table.discord
    await bot.games.act("1", EVE, AppointReferee(by=EVE, user=EVE), admin=True)
    other = GameService(GameStore(table.url))
    moved = RefereeCorrection(
        referee=EVE, reason="misplaced", change="move", unit="sherman-1", at=Point(x=12, y=20)
    )
    appending, loop = bot.games.store.appending, asyncio.get_running_loop()
    interrupted = []

    def after_the_other_process(*args, **kwargs):  # where the advance was decided, off the loop
        if not interrupted:
            interrupted.append(asyncio.run_coroutine_threadsafe(other.act("1", EVE, moved), loop).result(10))
        return appending(*args, **kwargs)

    monkeypatch.setattr(bot.games.store, "appending", after_the_other_process)
    begun = begun_by(bot)
    sent = await discord.slash("act", user=OTTO, channel="1", **ADVANCE)

    stored = await bot.games.store.load("1")
    (stale, _), (fresh, _) = begun  # the first dropped (cancelled, or left unposted if drawn already)
    assert stale.before.units["sherman-1"].position == Point(x=12, y=8)
    assert fresh.before == interrupted[0].state and fresh.state == stored.state
    assert fresh.state.units["sherman-1"].position == Point(x=12, y=20)
    png, _ = picture_pool.drawn(fresh.state, None, fresh.events, fresh.before)
    assert (
        attachments(sent) == [png] != [picture_pool.drawn(stale.state, None, stale.events, stale.before)[0]]
    )
    await other.store.close()


async def test_no_picture_is_begun_for_a_card_that_shows_no_battlefield(tmp_path, monkeypatch):
    """Joining a side (by the card's button and by command), a referee appointed, the clock
    paused and resumed, a briefing: their cards show no battlefield, so no picture is begun for
    them; the start's card, the initiative's and an order's still have theirs, begun as each is
    decided."""
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    try:
        begun = begun_by(bot)
        new = buttons(await discord.slash("game new", user=ANN, channel="1"))
        await discord.click(new["Join the Allies"], user=ANN, channel="1")
        await discord.slash("game join", user=OTTO, channel="1", side="axis")
        discord.permissions[ADMIN] = MANAGE_GUILD
        await discord.slash("ref appoint", user=ADMIN, channel="1", referee=Pick(EVE))
        await discord.slash("ref clock pause", user=EVE, channel="1")
        await discord.slash("ref clock resume", user=EVE, channel="1")
        await discord.slash("ref prep brief", user=EVE, channel="1", side="axis", text="Shermans at dawn")
        assert (await bot.games.store.load("1")).version == 6 and begun == []  # six actions, no picture
        bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])
        started = await discord.slash("game start", user=OTTO, channel="1")
        bot.games.dice = lambda: ScriptedDice([])
        initiative = await discord.slash("initiative", user=OTTO, channel="1", choice="start")
        acted = await discord.slash("act", user=OTTO, channel="1", **ADVANCE)
        cards = [attachments(sent) for sent in (started, initiative, acted)]
        assert cards == [[(await task)[0]] for _, task in begun]  # one begun for each, posted
    finally:
        await close_bot(bot)


async def test_a_task_started_while_no_picture_is_wanted_begins_them_again_once_that_is_over():
    """A timer's task started by an action shown without a picture outlives that action's card:
    the actions it applies later have their pictures begun."""
    seen = []
    later = asyncio.Event()

    async def timer() -> None:
        seen.append(pictured())
        await later.wait()
        seen.append(pictured())

    with unpictured():
        task = asyncio.ensure_future(timer())
        await asyncio.sleep(0)
        assert not pictured()
    later.set()
    await task
    assert seen == [False, True] and pictured()


async def test_no_picture_is_begun_for_what_the_game_does_at_a_referees_deadline(tmp_path, monkeypatch):
    """The Axis miss the referee's deadline: the game passes the initiative for them, and the
    channel is told so in words (from the log), so no picture is begun for it."""
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    try:
        state = quick_battle()
        state.referees = [EVE]
        await bot.games.new_game("1", state)
        await discord.slash("game join", user=ANN, channel="1", side="allies")
        await discord.slash("game join", user=OTTO, channel="1", side="axis")
        bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])
        await discord.slash("game start", user=OTTO, channel="1")  # the Axis win the initiative
        bot.games.dice = lambda: ScriptedDice([])
        await discord.slash("initiative", user=OTTO, channel="1", choice="start")
        await discord.slash("act", user=OTTO, channel="1", **ADVANCE)  # a token spent
        await discord.slash("ref clock close", user=EVE, channel="1")  # the Allies do not react
        begun = begun_by(bot)
        await discord.slash("ref clock deadline", user=EVE, channel="1", side="axis", hours=2.0)
        await bot.games.clock.advance(2 * 3600)
        told = [text for _, text, _ in channel_posts(discord.sent)]
        assert "The Axis did not act by the referee's deadline: the game passes the initiative" in told[-1]
        assert (await bot.games.game("1")).active_side == "allies"  # passed for the Axis
        assert begun == []
    finally:
        await close_bot(bot)
