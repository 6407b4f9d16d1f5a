"""``/ref clock`` and ``/ref prep`` through the real discord.py command tree (2015 rulebook
p. 25): the referee pauses, resumes, extends and closes in virtual time, sets a deadline the
channel hears about, and prepares side-only rules, objectives, briefings, force guidelines and
deployment zones that reach only that side."""

from datetime import timedelta

import pytest

from bot.storage.thread_store import side_threads
from engine.dice import ScriptedDice, d6
from engine.scenarios.quick_battle import quick_battle, scenario_battle
from engine.state import Phase
from tests.bot.discord_harness import ANN, EVE, OTTO, THREADS, channel_posts, close_bot, open_bot, reply

REF = "304"
HOUR = 3600


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    yield bot, discord
    await close_bot(bot)


async def started(bot, discord, permissions=THREADS) -> None:
    """Ann (allies) against Otto (axis), refereed by Ref; the Axis start and moves Gruppe 3, so
    a 2-minute reaction window is open for the Allies."""
    state = quick_battle()
    state.referees = [REF]
    await bot.games.new_game("1", state)
    await discord.slash("game join", user=ANN, channel="1", side="allies")
    await discord.slash("game join", user=OTTO, channel="1", side="axis")
    discord.app_permissions = permissions
    bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])
    await discord.slash("game start", user=OTTO, channel="1")
    bot.games.dice = lambda: ScriptedDice([])
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    await discord.slash("act", user=OTTO, channel="1", unit="gruppe-3", move="50,39")


async def refused(bot, discord, command, why, **options) -> None:
    before = await bot.games.store.load("1")
    text, private = reply(await discord.slash(command, channel="1", **options))
    assert private and why in text, text
    after = await bot.games.store.load("1")
    assert (after.version, after.state) == (before.version, before.state)


async def test_the_referee_pauses_and_resumes_the_window_in_virtual_time(bot_and_discord):
    bot, discord = bot_and_discord
    clock = bot.games.clock
    await started(bot, discord)
    await clock.advance(30)
    await refused(bot, discord, "ref clock pause", "Only the game's referees may do that", user=ANN)
    text, private = reply(await discord.slash("ref clock pause", user=REF, channel="1"))
    assert not private and "Referee: the clock stops" in text
    await refused(bot, discord, "ref clock pause", "already paused", user=REF)
    await clock.advance(5 * HOUR)
    assert (await bot.games.game("1")).phase is Phase.REACTION
    text, _ = reply(await discord.slash("ref clock resume", user=REF, channel="1"))
    closes = int((clock.now() + timedelta(seconds=90)).timestamp())
    assert "Referee: the clock runs again" in text and f"The reaction window closes <t:{closes}:R>." in text
    await refused(bot, discord, "ref clock resume", "not paused", user=REF)
    text, _ = reply(await discord.slash("ref clock extend", user=REF, channel="1", minutes=10))
    assert "stays open 10 minutes longer" in text and f"<t:{closes + 600}:R>" in text
    await clock.advance(689)
    assert (await bot.games.game("1")).phase is Phase.REACTION
    await clock.advance(1)
    assert (await bot.games.game("1")).phase is Phase.ACTIVE


async def test_closing_the_window_and_a_deadline_the_channel_hears_about(bot_and_discord):
    bot, discord = bot_and_discord
    clock = bot.games.clock
    await started(bot, discord)
    await refused(bot, discord, "ref clock close", "Only the game's referees may do that", user=EVE)
    text, private = reply(await discord.slash("ref clock close", user=REF, channel="1"))
    assert not private and "The Allies do not react" in text
    await refused(bot, discord, "ref clock close", "No reaction window is open", user=REF)
    await refused(
        bot, discord, "ref clock deadline", "not waiting for the Allies", user=REF, side="allies", hours=2.0
    )
    text, _ = reply(await discord.slash("ref clock deadline", user=REF, channel="1", side="axis", hours=2.0))
    due = int((clock.now() + timedelta(hours=2)).timestamp())
    assert "the Axis have 2 hours to act, or the game passes the initiative for them" in text
    assert f"Deadline: <t:{due}:f>." in text
    before = len(discord.sent)
    await clock.advance(2 * HOUR)
    posts = [(where, text) for where, text, _ in channel_posts(discord.sent[before:]) if "deadline" in text]
    assert posts == [
        (
            "1",
            "The Axis did not act by the referee's deadline: the game passes the initiative for them\n"
            "The Allies take the initiative",
        )
    ]
    assert (await bot.games.game("1")).active_side == "allies"


async def test_side_only_preparation_reaches_only_that_sides_thread(bot_and_discord):
    bot, discord = bot_and_discord
    await started(bot, discord)
    threads = await side_threads(bot.games.store, "1")
    await refused(bot, discord, "ref prep brief", "Only the game's referees", user=ANN, side="axis", text="x")
    sent = await discord.slash("ref prep brief", user=REF, channel="1", side="axis", text="Shermans at dawn")
    assert reply(sent) == ("Intelligence for the Axis: Shermans at dawn", True)
    sent += await discord.slash(
        "ref prep objective", user=REF, channel="1", id="ford", at="12,10", side="allies"
    )
    sent += await discord.slash(
        "ref prep special", user=REF, channel="1", to="referee", text="The bridge is mined"
    )
    posts = channel_posts(sent)
    assert [(where, text) for where, text, _ in posts if "Shermans" in text] == [
        (threads["axis"], "Intelligence for the Axis: Shermans at dawn"),
        (threads["referee"], "Intelligence for the Axis: Shermans at dawn"),
    ]
    assert [where for where, text, _ in posts if "ford" in text] == [threads["allies"], threads["referee"]]
    assert [where for where, text, _ in posts if "mined" in text] == [threads["referee"]]
    text, private = reply(
        await discord.slash("ref prep special", user=REF, channel="1", to="both", text="Rain")
    )
    assert (text, private) == ("Referee: a special rule for both sides: Rain", False)
    ann_list, private = reply(await discord.slash("ref prep list", user=ANN, channel="1"))
    assert private and "ford at 12.0,10.0" in ann_list and "Rain" in ann_list and "mined" not in ann_list
    otto_list, _ = reply(await discord.slash("ref prep list", user=OTTO, channel="1"))
    assert "ford" not in otto_list and "Rain" in otto_list
    ref_list, _ = reply(await discord.slash("ref prep list", user=REF, channel="1"))
    assert "(for the referee only) The bridge is mined" in ref_list


async def test_without_threads_a_briefing_is_still_kept_from_the_channel(bot_and_discord):
    bot, discord = bot_and_discord
    await started(bot, discord, permissions=0)
    sent = await discord.slash("ref prep brief", user=REF, channel="1", side="allies", text="Panthers east")
    assert reply(sent) == ("Intelligence for the Allies: Panthers east", True)
    assert len([e for e in sent if "Panthers" in str(e["payload"])]) == 1  # the referee's reply alone
    ann_log = await discord.slash("game log", user=ANN, channel="1")
    otto_log = await discord.slash("game log", user=OTTO, channel="1")
    assert "Panthers east" in str(ann_log) and "Panthers" not in str(otto_log)


async def test_a_sides_force_guideline_and_zone_are_told_to_the_referee_and_that_side(bot_and_discord):
    bot, discord = bot_and_discord
    state = scenario_battle("meeting")  # on the Village, 72" by 48"
    state.referees = [REF]
    await bot.games.new_game("1", state)
    for user, nation in ((ANN, "us"), (OTTO, "german")):
        await discord.slash("force new", user=user, channel="1", nation=nation, name="F", points=1000)
        for _ in range(2):
            await discord.slash("force add", user=user, channel="1", force="F", unit="Infantry Detachment")
        await discord.slash(
            "force upgrade", user=user, channel="1", force="F", unit="Infantry Detachment 1", command=True
        )
    not_ref = "Only the game's referees"
    await refused(bot, discord, "ref prep force", not_ref, user=ANN, side="axis", points=40)
    sent = await discord.slash(
        "ref prep force", user=REF, channel="1", side="allies", points=40, guideline="one platoon"
    )
    assert reply(sent) == ("Referee: the Allies bring a force of at most 40 points: one platoon", True)
    over = "The referee allows the Allies at most 40 points; this force comes to 50"
    await refused(bot, discord, "game join", over, user=ANN, side="allies", force="F")
    await discord.slash("ref prep force", user=REF, channel="1", side="allies", points=50)
    await discord.slash("game join", user=ANN, channel="1", side="allies", force="F")
    await discord.slash("game join", user=OTTO, channel="1", side="axis", force="F")
    corners = {"x1": 0.0, "y1": 20.0, "x2": 30.0, "y2": 30.0}
    off = {**corners, "y1": 40.0, "y2": 50.0}
    await refused(bot, discord, "ref prep zone", 'runs off the 72" by 48"', user=REF, side="allies", **off)
    sent = await discord.slash("ref prep zone", user=REF, channel="1", side="allies", **corners)
    assert reply(sent) == ("Referee: the Allies set up within 0.0,20.0 to 30.0,30.0", True)
    deploy = {"user": ANN, "channel": "1", "unit": "Infantry Detachment 1"}
    text, _ = reply(await discord.slash("deploy", **deploy, at="10,5"))
    assert "must set up in the referee's zone for the Allies, 0.0,20.0 to 30.0,30.0" in text
    text, _ = reply(await discord.slash("deploy", **deploy, at="10,25"))
    assert "Allies set up" in text or "Axis set up" in text, text
    await refused(bot, discord, "ref prep zone", "Set-up has begun", user=REF, side="axis", **corners)
    ann_list, _ = reply(await discord.slash("ref prep list", user=ANN, channel="1"))
    assert "at most 50 points" in ann_list and "0.0,20.0 to 30.0,30.0" in ann_list
    otto_list, _ = reply(await discord.slash("ref prep list", user=OTTO, channel="1"))
    assert "at most 50 points" not in otto_list and "0.0,20.0" not in otto_list
