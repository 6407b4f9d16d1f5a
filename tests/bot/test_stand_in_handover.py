"""Sides handed to the bot and back without a referee (issue 34): a daily game hands a side over
by itself after its player misses the game's number of deadlines in a row (reaction windows
closed by their timer, a referee's deadlines passed), told in the channel, and hands it back when
the player gives a command again; a player hands their own side over and takes it back; what the
stand-in does by itself is posted through the outbox of deadline posts, so a post Discord
refuses, or one a dying process left, is made later, once."""

import io
from datetime import timedelta

import pytest
from sqlalchemy import insert, select

from bot.app import Services
from bot.console import ConsoleTable
from bot.picture_pool import PicturePool
from bot.services import stand_in_service
from bot.services.deadline_loop import DeadlineLoop
from bot.services.game_service import GameService
from bot.storage.missed_store import MISSED
from bot.storage.store import GameStore
from bot.storage.tables import STAND_IN_POST, DeadlinePostRow
from engine.commands import (
    ChooseInitiative,
    Concede,
    Declare,
    JoinSide,
    Move,
    RefereeCorrection,
    StartGame,
    UndoActions,
    UnitOrder,
)
from engine.dice import ScriptedDice, SeededDice, d6
from engine.errors import IllegalCommand
from engine.game import apply
from engine.runtime import VirtualClock
from engine.scenarios.quick_battle import quick_battle
from engine.stand_in import STAND_IN, stand_in_command
from engine.state import Phase, Point
from tests.bot.discord_double import Fault
from tests.bot.discord_harness import ANN, EVE, OTTO, Pick, channel_posts, close_bot, open_bot, reply
from tests.storage.databases import seed_sqlite

DAY = timedelta(hours=24)
MOVE = Move(path=(Point(x=20, y=9),))
MESSAGES = "POST /channels/{channel_id}/messages"
STRANGER = "304"  # plays no side and referees nothing


async def daily_game(bot, discord, **options) -> None:
    """A daily quick battle in channel 1 refereed by Eve, Ann on the Allies and Otto on the Axis,
    the Axis active (they won the initiative, 5 to 2)."""
    await discord.slash("game new", user=ANN, channel="1", pace="daily", referee=Pick(EVE), **options)
    await discord.slash("game join", user=ANN, channel="1", side="allies")
    await discord.slash("game join", user=OTTO, channel="1", side="axis")
    bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])
    await discord.slash("game start", user=OTTO, channel="1")
    bot.games.dice = lambda: ScriptedDice([])
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")


async def otto_moves(discord, unit: str, to: str) -> None:
    """Otto's order (a unit's first this turn: no reactivation) opens a window for the Allies."""
    await discord.slash("act", user=OTTO, channel="1", unit=unit, move=to)


def posted(discord, since: int) -> list[str]:
    return [text for where, text, _ in channel_posts(discord.sent[since:]) if where == "1"]


async def posts_left(store: GameStore) -> list[str]:
    async with store.sessions() as session:
        return [row.kind for row in (await session.execute(select(DeadlinePostRow))).scalars()]


async def test_a_daily_game_hands_a_side_to_the_bot_after_missed_deadlines_and_back_when_its_player_acts(
    tmp_path, monkeypatch
):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    clock = bot.games.clock
    try:
        made = await discord.slash("game new", user=ANN, channel="1", pace="daily", stand_in_after=2)
        assert "A side whose player misses 2 deadlines in a row is played by the bot" in reply(made)[0]
        await daily_game(bot, discord, stand_in_after=2)
        await otto_moves(discord, "Gruppe 3", "50,39")
        await clock.advance(DAY)  # Ann misses the window: one
        await otto_moves(discord, "Gruppe 2", "36,39")
        await discord.slash("noreact", user=ANN, channel="1")  # she answers: the count starts again
        await otto_moves(discord, "Gruppe 1", "22,39")
        before = len(discord.sent)
        await clock.advance(DAY)  # missed: one
        assert "The reaction window closed." in [p.split("\n")[0] for p in posted(discord, before)]
        assert (await bot.games.game("1")).sides["allies"].players == [ANN]
        await otto_moves(discord, "MG 42", "30,41")
        await discord.slash("ref clock deadline", user=EVE, channel="1", side="allies", hours=2)
        before = len(discord.sent)
        await clock.advance(timedelta(hours=2))  # the referee's deadline passes: two in a row
        await bot.stand_ins.settled()
        posts = posted(discord, before)  # after the ping (a daily game waits ten minutes for it)
        assert posts[-2].startswith("The Allies did not act by the referee's deadline")
        taken = posts[-1].split("\n")
        assert taken[:2] == [
            "The stand-in takes over.",
            f"The bot plays the Allies for <@{ANN}> (2 deadlines missed in a row)",
        ]
        assert "**Allies** (us): the bot, 9 tokens" in posts[-1]
        state = await bot.games.game("1")
        assert state.sides["allies"].players == [STAND_IN] and state.sides["allies"].stood_in_for == ANN

        bot.games.dice = lambda: SeededDice(2)
        before = len(discord.sent)
        await discord.slash("act", user=OTTO, channel="1", unit="Panzer IV", move="14,37")
        await bot.stand_ins.settled()
        reacted = posted(discord, before)[-1]
        assert reacted.startswith("The stand-in plays.") and "\nThe Allies react with Sherman 1: " in reacted

        before = len(discord.sent)
        conceded = await discord.slash("game concede", user=ANN, channel="1")  # Ann is back
        assert posted(discord, before)[0].split("\n")[:2] == [
            "The stand-in hands back.",
            f"<@{ANN}> is back: they play the Allies again",
        ]
        assert reply(conceded)[0].startswith("Game over: the Axis win (the Allies conceded)")  # hers
        final = await bot.games.game("1")
        assert final.phase is Phase.OVER and final.sides["allies"].players == [ANN]
        _, history = await bot.games.history("1")
        handed = [c for c, _ in history if isinstance(c, RefereeCorrection) and c.change == "stand_in"]
        assert [(c.referee, c.value) for c in handed] == [(STAND_IN, 1), (STAND_IN, 0)]  # in the log
        assert await posts_left(bot.games.store) == []
    finally:
        await bot.stand_ins.close()
        await close_bot(bot)


async def test_live_games_and_team_games_do_not_hand_sides_over_by_themselves(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    try:
        live = reply(await discord.slash("game new", user=ANN, channel="1", stand_in_after=2))
        assert live == (
            "Only a game played over days (pace:daily, or windows of an hour or more) hands a side to the "
            "bot by itself: at a live pace a referee hands an absent player's side to it",
            True,
        )
        teams = await discord.slash(
            "game new", user=ANN, channel="2", pace="daily", scenario="meeting", teams=2, stand_in_after=2
        )
        team_refusal = "The bot plays no team's side: only a game of one player a side hands one to it"
        assert reply(teams)[0] == team_refusal
        assert await bot.games.store.load("1") is None and await bot.games.store.load("2") is None
    finally:
        await bot.stand_ins.close()
        await close_bot(bot)


async def test_a_player_hands_their_own_side_to_the_bot_and_takes_it_back(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    try:
        await daily_game(bot, discord)
        before = await bot.games.game_now("1")
        for user, play, refusal in (
            (STRANGER, "on", "Only a side's player may hand it to the bot: you play no side here"),
            (EVE, "on", "Only a side's player may hand it to the bot: you play no side here"),
            (ANN, "off", "The bot plays no side for you: you play yours"),
        ):
            text, private = reply(await discord.slash("game stand_in", user=user, channel="1", play=play))
            assert private and text == refusal
        assert await bot.games.game_now("1") == before  # nothing changed

        bot.games.dice = lambda: SeededDice(4)
        handed = reply(await discord.slash("game stand_in", user=OTTO, channel="1", play="on"))
        assert handed[0].startswith(f"<@{OTTO}> hands the Axis to the bot") and not handed[1]
        await bot.stand_ins.settled()  # the bot plays the Axis' turn
        state = await bot.games.game("1")
        assert state.sides["axis"].players == [STAND_IN] and state.sides["axis"].stood_in_by == OTTO
        again = reply(await discord.slash("game stand_in", user=OTTO, channel="1", play="on"))
        assert again == ("The bot already plays the Axis for you", True)
        back = reply(await discord.slash("game stand_in", user=OTTO, channel="1", play="off"))
        assert back[0].startswith(f"<@{OTTO}> takes the Axis back from the bot")
        assert (await bot.games.game("1")).sides["axis"].players == [OTTO]

        await discord.slash("ref stand_in", user=EVE, channel="1", side="allies", play="on", reason="away")
        refused = reply(await discord.slash("game stand_in", user=ANN, channel="1", play="off"))
        assert refused == ("A referee handed the Allies to the bot: a referee hands it back", True)
        assert (await bot.games.game("1")).sides["allies"].players == [STAND_IN]
        refused = reply(await discord.slash("game stand_in", user=OTTO, channel="1", play="on"))
        assert refused == ("The bot plays the other side: it plays no game against itself", True)
        assert (await bot.games.game("1")).sides["axis"].players == [OTTO]
    finally:
        await bot.stand_ins.close()
        await close_bot(bot)


def test_the_engine_lets_only_a_referee_the_sides_player_or_a_game_that_hands_sides_over_hand_one():
    """The bot's own take-over needs a game that hands sides over; a player hands only their own
    side (engine.referee._may_hand)."""
    state, _ = apply(quick_battle(), JoinSide(side="allies", player="ann"), ScriptedDice([]))
    state, _ = apply(state, JoinSide(side="axis", player="otto"), ScriptedDice([]))
    for by, why in (
        (STAND_IN, "This game hands no side to the bot by itself"),
        ("otto", "Only the game's referees, or the side's own player, may do that"),
    ):
        hand = RefereeCorrection(referee=by, reason="r", change="stand_in", side="allies", value=1)
        with pytest.raises(IllegalCommand) as refusal:
            apply(state, hand, ScriptedDice([]))
        assert str(refusal.value) == why
    mine = RefereeCorrection(referee="ann", reason="r", change="stand_in", side="allies", value=1)
    handed, events = apply(state, mine, ScriptedDice([]))
    assert handed.sides["allies"].players == [STAND_IN] and handed.sides["allies"].stood_in_by == "ann"
    assert [e.text for e in events] == ["ann hands the Allies to the bot"]


async def test_the_stand_ins_post_refused_by_discord_is_made_again_once(tmp_path, monkeypatch):
    """The bot's first turn is posted; Discord refuses the post of its second (a 503), which is
    made again from its row, once."""
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    try:
        await discord.slash("game new", user=ANN, channel="1", stand_in="axis")
        await discord.slash("game join", user=ANN, channel="1", side="allies")
        failing = discord.fail(MESSAGES, Fault(503, 0, "503: Service Unavailable", after=1))
        bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])  # the bot wins the initiative
        await discord.slash("game start", user=ANN, channel="1")
        bot.games.dice = lambda: SeededDice(2)
        await bot.stand_ins.settled()
        await bot.games.clock.advance(0)  # tried again from its row
        cards = [p.split("\n")[1] for p in posted(discord, 0) if p.startswith("The stand-in plays.")]
        assert failing.hits == 1 and cards == [
            "The Axis start as the active player",
            "The Axis declare: Panzer IV: fire at Sherman 1",  # refused,
            "The Axis declare: Panzer IV: fire at Sherman 1",  # then made
        ]
        assert await posts_left(bot.games.store) == []
    finally:
        await bot.stand_ins.close()
        await close_bot(bot)


async def test_the_stand_ins_post_a_dying_process_left_is_made_after_the_restart(tmp_path, monkeypatch):
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    bot, discord = await open_bot(url, monkeypatch)
    try:
        await discord.slash("game new", user=ANN, channel="1", stand_in="axis")
        await discord.slash("game join", user=ANN, channel="1", side="allies")

        async def dies(post, send=None) -> None:
            """Killed between the bot's turn stored and its post."""

        bot.games.posts.deliver = dies  # type: ignore[method-assign]
        bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])
        await discord.slash("game start", user=ANN, channel="1")
        bot.games.dice = lambda: SeededDice(2)
        await bot.stand_ins.settled()
        left = await posts_left(bot.games.store)
        assert left and set(left) == {STAND_IN_POST}  # each of its turns' posts, still to make
        assert not any(p.startswith("The stand-in plays.") for p in posted(discord, 0))
    finally:
        await bot.stand_ins.close()
        await close_bot(bot)

    bot, discord = await open_bot(url, monkeypatch)  # the restart
    try:
        await bot.games.clock.advance(timedelta(seconds=31))  # the dead process's claim runs out
        assert await DeadlineLoop(bot.games).claim_once() == len(left)  # the client's claim loop
        await bot.games.clock.advance(0)
        cards = [p for p in posted(discord, 0) if p.startswith("The stand-in plays.")]
        assert sorted(card.split("\n")[1] for card in cards) == [  # each of its turns, once
            "The Axis declare: Panzer IV: fire at Sherman 1",
            "The Axis start as the active player",
        ]
        assert await posts_left(bot.games.store) == []
    finally:
        await bot.stand_ins.close()
        await close_bot(bot)


@pytest.mark.both_databases
async def test_a_side_due_to_be_taken_over_when_the_process_stopped_is_taken_over_at_its_start(store):
    services = Services.around(GameService(store, dice=lambda: ScriptedDice([d6(2), d6(5)])))
    games = services.games
    battle = quick_battle()
    battle.stand_in_after = 2
    await games.new_game("c", battle, reaction_seconds=24 * 3600)
    await games.act("c", "ann", JoinSide(side="allies", player="ann"))
    await games.act("c", "otto", JoinSide(side="axis", player="otto"))
    await games.act("c", "otto", StartGame())
    await games.act("c", "otto", ChooseInitiative(side="axis", go_first=True))
    async with store.sessions() as session, session.begin():  # the second miss, stored as it died
        await session.execute(insert(MISSED).values(channel_id="c", side="allies", missed=2))
    await services.stand_ins.resume()
    state = await games.game("c")
    assert state.sides["allies"].players == [STAND_IN] and state.sides["allies"].stood_in_by == STAND_IN
    async with store.sessions() as session:
        assert list((await session.execute(select(MISSED))).all()) == []  # counted afresh
    await services.stand_ins.close()
    await games.close()


@pytest.mark.both_databases
async def test_only_the_games_the_bot_plays_in_are_read_at_a_start(store):
    games = GameService(store, dice=lambda: ScriptedDice([]))
    for channel in ("plain", "bot", "bot over"):
        await games.new_game(channel)
    await games.act("plain", "ann", JoinSide(side="allies", player="ann"))
    for channel in ("bot", "bot over"):
        await games.act(channel, STAND_IN, JoinSide(side="axis", player=STAND_IN))
        await games.act(channel, "ann", JoinSide(side="allies", player="ann"))
    await games.act("bot over", "ann", Concede(side="allies"))
    assert [channel for channel, _ in await store.stood_in()] == ["bot"]
    await games.close()


async def test_the_stand_in_decides_in_a_worker_process_as_it_would_in_the_bots(tmp_path, monkeypatch):
    """Its decision comes from the worker: in the bot's own process the stand-in is broken."""
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'pool.db'}", shipped=True))
    pool = PicturePool(workers=1)
    await pool.start()
    try:
        services = Services.around(GameService(store), pool)
        state, _ = apply(quick_battle(), StartGame(), ScriptedDice([d6(2), d6(5)]))
        expected = stand_in_command(state, "axis", 7)

        def broken(*_args, **_kwargs):
            raise AssertionError("decided in the bot's own process")

        monkeypatch.setattr(stand_in_service, "stand_in_command", broken)
        assert await services.stand_ins.decide(state, "axis", 7) == expected
        assert len(pool.pids) == 1
    finally:
        await pool.close()
        await store.close()


async def test_at_the_console_a_side_is_taken_over_and_handed_back_with_a_line_each(tmp_path):
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'console.db'}", shipped=True))
    clock = VirtualClock()
    services = Services.around(GameService(store, dice=lambda: ScriptedDice([d6(2), d6(5)]), clock=clock))
    table, _ = await ConsoleTable.open(services)
    table.out = io.StringIO()
    await table.handle("/game new pace:daily stand_in_after:1")
    await table.handle("as ann /game join side:allies")
    await table.handle("as otto /game join side:axis")
    await table.handle("as otto /game start")
    services.games.dice = lambda: ScriptedDice([])
    await table.handle("as otto /initiative start")
    await table.handle("as otto /act gruppe-3 move:50,39")
    await clock.advance(DAY)
    told = table.out.getvalue()
    assert told.index("[the reaction window closed]") < told.index(
        "[the stand-in takes over]\nThe bot plays the Allies for ann (1 deadline missed in a row)"
    )
    table.out = io.StringIO()
    answer = await table.handle("as ann /game concede")
    assert table.out.getvalue() == "\n[the stand-in hands back]\nann is back: they play the Allies again\n"
    assert answer.startswith("Game over: the Axis win (the Allies conceded)")  # her command, as hers
    await services.stand_ins.close()
    await services.games.close()
    await store.close()


async def test_a_turn_of_the_bots_a_referee_undid_is_taken_again(tmp_path):
    """Ann moves, the bot (the Axis) answers the window at once; the referee takes its answer
    back, and the game, waiting for the bot again, has it answer again by itself."""
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'undo.db'}", shipped=True))
    services = Services.around(GameService(store, dice=lambda: ScriptedDice([d6(5), d6(2)])))
    games = services.games
    battle = quick_battle()
    battle.referees = ["ref"]
    await games.new_game("c", battle)
    await games.act("c", STAND_IN, JoinSide(side="axis", player=STAND_IN))
    await games.act("c", "ann", JoinSide(side="allies", player="ann"))
    await games.act("c", "ann", StartGame())  # the Allies win the roll
    games.dice = lambda: SeededDice(3)
    await games.act("c", "ann", ChooseInitiative(side="allies", go_first=True))
    await games.act("c", "ann", Declare(side="allies", order=UnitOrder(unit="1st-squad", actions=(MOVE,))))
    await services.stand_ins.settled()
    _, history = await games.history("c")
    answered = len(history)
    assert getattr(history[-1][0], "side", None) == "axis"  # the bot's answer to the window
    await games.undo("c", "ref", 1, "again")
    await services.stand_ins.settled()
    _, history = await games.history("c")
    assert isinstance(history[answered][0], UndoActions) and len(history) == answered + 2
    assert getattr(history[-1][0], "side", None) == "axis"  # answered again
    await services.stand_ins.close()
    await games.close()
    await store.close()
