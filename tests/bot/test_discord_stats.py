"""/stats through the real command tree (a scripted firefight and the channel's rolls, by player), and
the service beneath it: several channels add up, hidden units' dice stay out."""

import pytest

from bot.plain_text import plain_reply
from bot.services.dice_service import logged_text, roll_lines
from bot.services.stats_service import StatsService, game_dice
from bot.storage.store import EVENTS
from bot.storage.tables import CommandRow, RollRow
from engine.dice import DieRoll, ScriptedDice, d6, d10
from engine.events import Event
from engine.rolls.expressions import roll
from engine.scenarios.new_game import make_unit, new_game
from tests.bot.discord_harness import ANN, EVE, OTTO, attachments, close_bot, open_bot, reply
from tests.renderer.pixels import png

CHANNEL = "9"


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    yield bot, discord
    await close_bot(bot)


async def firefight(bot, discord):
    """Initiative 1 (Ann's allies) to 6 (Otto's axis); the Grenadiers fire at the GIs, who react
    (test 5) and fire first: 9 and 3 needing 4+, casualty 2; then the Grenadiers, with a marker:
    7 and 8 needing 5+, casualties 6 and 4."""
    state = new_game(
        {"allies": "us", "axis": "german"},
        [
            make_unit(
                "german",
                "Infantry Detachment",
                "axis",
                (50, 32),
                unit_id="gren",
                name="Grenadiers",
                command=True,
            ),
            make_unit(
                "us", "Infantry Detachment", "allies", (50, 20), unit_id="gis", name="GIs", command=True
            ),
        ],
    )
    await bot.games.new_game(CHANNEL, state)
    await discord.slash("game join", user=ANN, channel=CHANNEL, side="allies")
    await discord.slash("game join", user=OTTO, channel=CHANNEL, side="axis")
    bot.games.dice = lambda: ScriptedDice([d6(1), d6(6)])
    await discord.slash("game start", user=OTTO, channel=CHANNEL)
    bot.games.dice = lambda: ScriptedDice([])
    await discord.slash("initiative", user=OTTO, channel=CHANNEL, choice="start")
    await discord.slash("act", user=OTTO, channel=CHANNEL, unit="Grenadiers", fire="GIs")
    bot.games.dice = lambda: ScriptedDice([d6(5), d10(9), d10(3), d6(2), d10(7), d10(8), d6(6), d6(4)])
    text, _ = reply(await discord.slash("react", user=ANN, channel=CHANNEL, unit="GIs", fire="Grenadiers"))
    assert "needs 4+ (+1 close range); rolled 9, 3: 1 hit" in text
    assert "rolled 7, 8: 2 hits" in text


async def test_stats_counts_every_die_of_the_game_and_the_rolls_by_player(bot_and_discord):
    bot, discord = bot_and_discord
    await firefight(bot, discord)
    bot.dice.dice = lambda: ScriptedDice([d10(7), d10(3)])
    await discord.slash("roll", user=ANN, channel=CHANNEL, dice="2d10 5+ sniper")
    bot.dice.dice = lambda: ScriptedDice([d6(2)])
    await discord.slash("chart roll", user=OTTO, channel=CHANNEL, chart="ic-damage")
    bot.dice.dice = lambda: ScriptedDice([d6(1), d6(1)])
    await discord.slash("roll", user=OTTO, channel=CHANNEL, dice="DR", secret=True)

    sent = await discord.slash("stats", user=EVE, channel=CHANNEL)
    text, private = reply(sent)
    assert not private
    ann, otto = text.split("\n\n")[1:3]
    assert ann.startswith(
        f"<@{ANN}> (Allies): 7 dice\n```"
    )  # initiative, reaction, 2 to hit, casualty, /roll 2d10
    assert (
        "d10  to-hit                2  6.00  5.50" in ann
        and "d10  chart/other           2  5.00  5.50" in ann
    )
    assert "d10 faces 1:0 2:0 3:2 4:0 5:0 6:0 7:1 8:0 9:1 10:0 (fair 0.4 each)" in ann
    assert "d6 faces 1:1 2:1 3:0 4:0 5:1 6:0 (fair 0.5 each)" in ann
    assert "hits 1 vs 1.4 expected (2 dice)" in ann  # the /roll's dice need no score the engine knows
    assert otto.startswith(f"<@{OTTO}> (Axis): 6 dice\n```")  # the secret DR is left out
    assert "d6 faces 1:0 2:1 3:0 4:1 5:0 6:2 (fair 0.7 each)" in otto
    assert "hits 2 vs 1.2 expected (2 dice)" in otto
    (picture,) = attachments(sent)
    image = png(picture)
    assert image.width == 760 and image.height > 400  # a panel for each player


async def test_stats_of_a_channel_without_dice(bot_and_discord):
    bot, discord = bot_and_discord
    sent = await discord.slash("stats", user=EVE, channel="12")
    assert reply(sent) == ("No dice have been rolled yet", False)
    assert attachments(sent) == []


async def test_stats_add_up_over_several_channels(bot_and_discord):
    bot, discord = bot_and_discord
    bot.dice.dice = lambda: ScriptedDice([d6(3)])
    await discord.slash("roll", user=ANN, channel="21", dice="dr")
    bot.dice.dice = lambda: ScriptedDice([d6(3), d6(6)])
    await discord.slash("roll", user=ANN, channel="22", dice="DR")
    bot.dice.dice = lambda: ScriptedDice([d6(1), d6(5), d6(6), d6(6)])
    await discord.slash("roll", user=ANN, channel="22", dice="4d6kh3 5+")  # the dropped 1 is kept too
    stats = await StatsService(bot.games.store).stats(["21", "22"])
    (ann,) = stats.report.players
    assert (ann.player, ann.faces(6).counts) == (ANN, (1, 0, 2, 0, 1, 3))
    assert stats.unread_rolls == 0


async def test_rolls_logged_before_their_dice_were_kept_are_read_back_from_their_text(bot_and_discord):
    bot, _ = bot_and_discord
    assert (
        logged_text(roll_lines(roll("2d6", ScriptedDice([d6(3), d6(6)])))) == "2d6 (3, **6**) = `9`"
    )  # as logged before
    shown = {
        "2d6": logged_text(roll_lines(roll("2d6", ScriptedDice([d6(3), d6(6)])))),
        "4d6kh3 5+": logged_text(roll_lines(roll("4d6kh3 5+", ScriptedDice([d6(1), d6(5), d6(6), d6(6)])))),
    }
    async with bot.games.store.sessions() as session, session.begin():
        session.add_all(RollRow(channel_id="23", user_id=ANN, asked=a, result=r) for a, r in shown.items())
    stats = await StatsService(bot.games.store).stats(["23"])
    (ann,) = stats.report.players
    assert ann.faces(6).counts == (0, 0, 1, 0, 0, 1)
    assert stats.unread_rolls == 1  # the dropped die of the second is not in its text
    assert plain_reply(stats.reply()).endswith(
        "(1 logged roll left out: their dice cannot be told for sure from what was shown)"
    )


def test_hidden_units_dice_are_left_out_and_a_team_unit_counts_for_its_player():
    state = new_game(
        {"allies": "us", "axis": "german"},
        [
            make_unit("german", "Infantry Detachment", "axis", (50, 32), unit_id="gren", name="Grenadiers"),
            make_unit("us", "Infantry Detachment", "allies", (50, 20), unit_id="gis", name="GIs"),
        ],
    )
    state.sides["allies"].players = [ANN, EVE]
    state.sides["axis"].players = [OTTO]
    state.units["gis"].player = EVE
    events = [
        Event(
            kind="fire",
            text="",
            side="allies",
            rolls=(DieRoll(sides=10, value=7, purpose="to hit, GIs at Grenadiers"),),
        ),
        Event(
            kind="reaction_test",
            text="",
            side="axis",
            public="",
            rolls=(DieRoll(sides=6, value=3, purpose="reaction test, Grenadiers"),),
        ),
        Event(kind="smoke", text="", side="axis", rolls=(DieRoll(sides=6, value=4, purpose="smoke drift"),)),
        Event(kind="initiative", text="", rolls=(DieRoll(sides=6, value=2, purpose="initiative, allies"),)),
    ]
    row = CommandRow(
        channel_id="1", seq=1, user_id=ANN, command="{}", events=EVENTS.dump_json(events).decode()
    )
    dice = game_dice(state, [row])
    assert [(player, die.value) for player, die in dice] == [(EVE, 7), (OTTO, 4), (ANN, 2)]


def test_a_die_naming_a_unit_both_sides_have_counts_for_the_unit_its_event_names_first():
    state = new_game(
        {"allies": "us", "axis": "german"},
        [
            make_unit("german", "Infantry Detachment", "axis", (50, 32), unit_id="axis-1", name="Squad 1"),
            make_unit("us", "Infantry Detachment", "allies", (50, 20), unit_id="allies-1", name="Squad 1"),
        ],
    )
    state.sides["allies"].players = [ANN]
    state.sides["axis"].players = [OTTO]

    def event(side, sides, value, purpose, *units):
        die = DieRoll(sides=sides, value=value, purpose=purpose)
        return Event(kind="x", text="", side=side, units=units, rolls=(die,))

    shot = "to hit, Squad 1 at Squad 1"
    events = [
        event("allies", 10, 7, shot, "allies-1", "axis-1"),
        event("axis", 10, 2, shot, "axis-1", "allies-1"),
        event("axis", 6, 5, "fall back rally, Squad 1"),  # no unit named: the event's side's
    ]
    row = CommandRow(
        channel_id="1", seq=1, user_id=ANN, command="{}", events=EVENTS.dump_json(events).decode()
    )
    dice = game_dice(state, [row])
    assert [(player, die.value) for player, die in dice] == [(ANN, 7), (OTTO, 2), (OTTO, 5)]
