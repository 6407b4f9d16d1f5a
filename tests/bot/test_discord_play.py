"""Playing Iron Cross by slash commands, through the real discord.py command tree."""

import pytest

from engine.commands import ChooseInitiative, StartGame
from engine.dice import ScriptedDice, d6, d10
from engine.game import apply
from engine.game_state import GameState
from engine.scenarios.new_game import make_unit, new_game
from engine.state import Point
from tests.bot.discord_harness import ANN, EVE, OTTO, attachments, close_bot, open_bot, reply, started_game


@pytest.fixture
async def table(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    await started_game(bot, discord)
    yield bot, discord
    await close_bot(bot)


async def test_declare_then_the_other_side_is_told_its_window_and_answers(table):
    bot, discord = table
    text, _ = reply(await discord.slash("initiative", user=OTTO, channel="1", choice="start"))
    assert "The Axis start as the active player" in text
    text, private = reply(await discord.slash("act", user=OTTO, channel="1", unit="Gruppe 3", move="50,39"))
    assert not private and "The Axis declare: Gruppe 3: move to 50.0,39.0" in text
    deadline = int(bot.games.clock.now().timestamp()) + 120
    assert f"<@{ANN}> may react until <t:{deadline}:R>" in text
    text, private = reply(await discord.slash("act", user=ANN, channel="1", unit="sherman-1", move="12,12"))
    assert private and "Wait: a reaction window is open" in text
    text, _ = reply(await discord.slash("noreact", user=ANN, channel="1"))
    assert 'The Allies do not react\nGruppe 3 moves 3.0" to 50.0,39.0' in text
    text, private = reply(await discord.slash("game log", user=EVE, channel="1"))
    assert private and 'Gruppe 3 moves 3.0"' in text


async def test_moves_by_grid_square_and_refusals_explain_themselves(table):
    bot, discord = table
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    text, private = reply(await discord.slash("act", user=OTTO, channel="1", unit="gruppe-3", move="north"))
    assert private and "is not a position" in text
    text, private = reply(await discord.slash("act", user=OTTO, channel="1", unit="sherman-1", move="12,12"))
    assert private and "No unit called 'sherman-1'" in text
    text, private = reply(await discord.slash("act", user=EVE, channel="1", unit="gruppe-3", move="I7"))
    assert private and "You are not playing in this game" in text
    text, _ = reply(await discord.slash("act", user=OTTO, channel="1", unit="gruppe-3", move="I7"))
    assert "move to 51.0,39.0" in text


async def test_autocomplete_offers_own_units_for_unit_and_enemies_for_fire(table):
    bot, discord = table
    own = await discord.autocomplete("act", "unit", "gru", user=OTTO, channel="1")
    assert own == ["gruppe-1", "gruppe-2", "gruppe-3"]
    enemies = await discord.autocomplete("act", "fire", "sher", user=OTTO, channel="1")
    assert enemies == ["sherman-1", "sherman-2"]
    assert (await discord.autocomplete("act", "fire", "Sh2", user=OTTO, channel="1"))[0] == "sherman-2"
    assert await discord.autocomplete("act", "unit", "", user=EVE, channel="1") == []


async def test_concede_ends_the_game(table):
    bot, discord = table
    text, _ = reply(await discord.slash("game concede", user=ANN, channel="1"))
    assert "Game over: the Axis win (the Allies conceded)" in text


async def test_every_action_posts_the_picture_and_map_is_private(table):
    bot, discord = table
    sent = await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    (picture,) = attachments(sent)
    assert picture.startswith(b"\x89PNG")
    sent = await discord.slash("game map", user=ANN, channel="1")
    text, private = reply(sent)
    assert private and "allies view" in text
    assert attachments(sent)[0].startswith(b"\x89PNG")


async def test_the_other_side_spectators_and_players_of_another_channel_cannot_act(table):
    bot, discord = table
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    await discord.slash("game new", user=EVE, channel="2")
    await discord.slash("game join", user=EVE, channel="2", side="allies")
    before = (await bot.games.store.load("1")).version
    not_playing = "You are not playing in this game"
    attempts = [
        (ANN, "1", "act", {"unit": "gruppe-3", "move": "50,39"}, "No unit called 'gruppe-3'"),  # not hers
        (ANN, "1", "pass", {}, "The Axis have the initiative, not the Allies"),
        (EVE, "1", "act", {"unit": "gruppe-3", "move": "50,39"}, not_playing),  # a spectator
        (EVE, "1", "cmt", {}, not_playing),
        (EVE, "1", "game concede", {}, not_playing),
        (OTTO, "2", "act", {"unit": "gruppe-3", "move": "50,39"}, not_playing),  # channel 1's player
        (OTTO, "2", "game start", {}, "Nobody is playing axis yet"),
    ]
    for user, channel, command, options, reason in attempts:
        text, private = reply(await discord.slash(command, user=user, channel=channel, **options))
        assert private and reason in text, (user, channel, command, text)
    assert (await bot.games.store.load("1")).version == before
    assert (await bot.games.store.load("2")).version == 1


async def test_react_at_a_point_of_the_enemy_move(table):
    bot, discord = table
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    await discord.slash("act", user=OTTO, channel="1", unit="Gruppe 3", move="50,39")
    text, private = reply(
        await discord.slash("react", user=ANN, channel="1", unit="2nd Squad", move="32,8", at="40,40")
    )
    assert private and text == "40.0,40.0 is not on Gruppe 3's declared route"
    bot.games.dice = lambda: ScriptedDice([d6(4)])
    text, _ = reply(
        await discord.slash("react", user=ANN, channel="1", unit="2nd Squad", move="32,8", at="50,40.5")
    )
    moves = [line for line in text.splitlines() if " moves " in line]
    assert moves == [
        'Gruppe 3 moves 1.5" to 50.0,40.5',
        '2nd Squad moves 2.0" to 32.0,8.0',
        'Gruppe 3 moves 1.5" to 50.0,39.0',
    ]


def with_a_reserve() -> GameState:
    """A small game where the allies may call their one reserve, a Sherman, from turn 1."""
    state = new_game(
        {"allies": "us", "axis": "german"},
        [
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="a", command=True),
            make_unit("us", "Sherman 75mm", "allies", (0, 0), unit_id="sherman", in_reserve=True),
            make_unit("german", "Infantry Detachment", "axis", (10, 60), unit_id="x", command=True),
        ],
    )
    state.sides["allies"].reserves_from_turn = 1
    return state


async def test_reserves_are_called_by_slash_command(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    await bot.games.new_game("7", with_a_reserve())
    await discord.slash("game join", user=ANN, channel="7", side="allies")
    await discord.slash("game join", user=OTTO, channel="7", side="axis")
    bot.games.dice = lambda: ScriptedDice([])
    text, _ = reply(await discord.slash("game start", user=OTTO, channel="7"))
    assert "the Allies may call up to 1 reserve" in text
    text, private = reply(await discord.slash("reserves", user=OTTO, channel="7", units="Sherman 75mm"))
    assert private and "No unit called 'Sherman 75mm'" in text
    bot.games.dice = lambda: ScriptedDice([d6(5), d6(6), d6(2)])
    text, _ = reply(await discord.slash("reserves", user=ANN, channel="7", units="Sherman 75mm"))
    assert "available this turn: Sherman 75mm" in text and "the Allies draw 4 tokens" in text
    await close_bot(bot)


async def test_a_finished_game_and_its_log_are_kept_when_a_new_one_starts(table):
    bot, discord = table
    await discord.slash("game concede", user=ANN, channel="1")
    await discord.slash("game new", user=EVE, channel="1")
    listed, private = reply(await discord.slash("game history", user=EVE, channel="1"))
    assert private and listed.splitlines()[0].endswith("UTC: axis won: the Allies conceded")
    log, _ = reply(await discord.slash("game history", user=EVE, channel="1", number=1))
    assert (
        log.startswith("**axis won: the Allies conceded**")
        and "Game over: the Axis win (the Allies conceded)" in log
    )
    refused, _ = reply(await discord.slash("game history", user=EVE, channel="1", number=2))
    assert refused == "This channel has 1 finished game: choose 1 to 1"


async def test_a_hidden_enemy_is_never_offered_by_autocomplete(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    state = new_game(
        {"allies": "us", "axis": "german"},
        [
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="gis", command=True),
            make_unit("us", "Sniper Team", "allies", (30, 30), unit_id="sniper", hidden=True),
            make_unit("german", "Infantry Detachment", "axis", (10, 60), unit_id="gren", command=True),
        ],
    )
    await bot.games.new_game("8", state)
    await discord.slash("game join", user=ANN, channel="8", side="allies")
    await discord.slash("game join", user=OTTO, channel="8", side="axis")
    assert await discord.autocomplete("act", "fire", "", user=OTTO, channel="8") == ["gis"]
    assert await discord.autocomplete("act", "unit", "", user=ANN, channel="8") == ["gis", "sniper"]
    await close_bot(bot)


def mg_nest_under_the_mortar() -> GameState:
    """p. 13's table: the allies to act, a British mortar 40" from a German MG nest that has
    three morale markers and one activation token, a Cromwell away to the side."""
    state = new_game(
        {"allies": "british", "axis": "german"},
        [
            make_unit("german", "MG Team", "axis", (30, 60), unit_id="mg-nest", morale_markers=3),
            make_unit("british", "Mortar Team", "allies", (30, 20), facing=90, unit_id="mortar"),
            make_unit("british", "Cromwell IV", "allies", (60, 30), facing=90, unit_id="cromwell"),
        ],
    )
    state.sides["allies"].players = [ANN]
    state.sides["axis"].players = [OTTO]
    state, _ = apply(state, StartGame(), ScriptedDice([d6(6), d6(1)]))
    for side in state.sides.values():
        side.tokens = 10
    state, _ = apply(state, ChooseInitiative(side="allies", go_first=True), ScriptedDice([]))
    state.units["mg-nest"].tokens = 1
    return state


async def test_react_by_falling_back_from_the_mortar_p13(tmp_path, monkeypatch):
    """The MG nest reacts to the mortar's declared fire by falling back, on 4+ (+1 token, markers
    ignored): it rallies a marker on its way and the mortar needs 9+ at a target that moved."""
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    await bot.games.new_game("13", mg_nest_under_the_mortar())
    await discord.slash("act", user=ANN, channel="13", unit="mortar", fire="mg-nest")
    bot.games.dice = lambda: ScriptedDice([d6(4), d6(5), d10(9), d6(3)])
    text, private = reply(
        await discord.slash("react", user=OTTO, channel="13", unit="mg-nest", fallback=True, to="30,69")
    )
    assert not private
    assert "needs 4+ (+1 token), rolled 4: success" in text
    assert "rallies on 5" in text and "needs 9+ (-1 target moved)" in text
    nest = (await bot.games.store.load("13")).state.units["mg-nest"]
    assert (nest.position, nest.morale_markers, nest.fell_back_this_turn) == (Point(x=30, y=69), 3, True)
    await close_bot(bot)


async def test_fallback_and_to_go_together_or_the_reaction_is_refused(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    await bot.games.new_game("13", mg_nest_under_the_mortar())
    await discord.slash("act", user=ANN, channel="13", unit="mortar", fire="mg-nest")
    before = await bot.games.store.load("13")
    bot.games.dice = lambda: ScriptedDice([])
    text, private = reply(
        await discord.slash("react", user=OTTO, channel="13", unit="mg-nest", fallback=True)
    )
    assert private and text == "Say where to: /react unit:UNIT fallback:true to:X,Y"
    text, private = reply(await discord.slash("react", user=OTTO, channel="13", unit="mg-nest", to="30,69"))
    assert private and text == "to: is where a unit falls back to: add fallback:true"
    after = await bot.games.store.load("13")
    assert (after.version, after.state.units["mg-nest"].position) == (before.version, Point(x=30, y=60))
    await close_bot(bot)


async def test_a_game_just_conceded_is_in_the_history_at_once_and_once_only(table):
    bot, discord = table
    await discord.slash("game concede", user=ANN, channel="1")
    listed, _ = reply(await discord.slash("game history", user=EVE, channel="1"))
    assert listed.splitlines()[0].endswith("UTC: axis won: the Allies conceded")
    log, _ = reply(await discord.slash("game history", user=EVE, channel="1", number=1))
    assert "Game over: the Axis win (the Allies conceded)" in log
    await discord.slash("game new", user=EVE, channel="1")  # archived now: listed as before, once
    listed, _ = reply(await discord.slash("game history", user=EVE, channel="1"))
    assert len([line for line in listed.splitlines() if "conceded" in line]) == 1
