"""The console reads its lines with the command schema: the four lines a new user typed, as the
README and /help give them, that the console used to misread."""

import pytest

from bot.app import Services
from bot.console import ConsoleTable
from bot.console_grammar import Line
from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.commands import React
from engine.dice import SeededDice
from engine.state import Point
from engine.view import REFEREE
from renderer import render
from tests.storage.databases import seed_sqlite


@pytest.fixture
async def table(tmp_path):
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'console.db'}", shipped=True))
    service = GameService(store, dice=lambda: SeededDice(1))
    table, _ = await ConsoleTable.open(Services.around(service))
    yield table
    await service.close()
    await store.close()


async def ok(table: ConsoleTable, text: str) -> str:
    reply = await table.handle(text)
    assert not reply.startswith(("Not allowed", "Something went wrong")), (text, reply)
    return reply


async def test_a_reaction_at_a_point_of_the_enemy_move_is_understood(table):
    for text in ("/start", "/initiative start", "/act gruppe-2 move:36,36"):
        await ok(table, text)
    typed = "/react unit:2nd-squad fire:gruppe-2 at:36,38"
    command = table.parse(Line.read(typed, table.PLAYER))
    assert isinstance(command, React) and command.at == Point(x=36, y=38)
    assert "The Allies react with 2nd Squad: fire at Gruppe 2" in await ok(table, typed)
    _, history = await table.service.store.history(table.CHANNEL)
    assert history[-1][0] == command


async def test_a_chart_named_by_its_option_is_that_chart(table):
    by_option = await ok(table, "/chart show chart:rb-german-leaders")
    assert by_option.startswith("rb-german-leaders: German leaders received")
    assert by_option == await ok(table, "/chart show rb-german-leaders")


async def test_a_rule_asked_for_by_its_option_is_that_section(table):
    await table.rules.ship()
    answer = await ok(table, "/rule query:IC12.6")
    assert answer.startswith("IC12.6 Smoke (p. 12) · ")
    assert answer == await ok(table, "/rule IC12.6")


async def test_the_referee_map_at_the_console_is_the_referees_view(table, tmp_path):
    table.pictures = tmp_path / "pictures"
    await ok(table, "/game new scenario:meeting referee:ref")
    reply = await ok(table, "as ref /game map")
    assert reply.startswith("Turn 0, referee view") and "map-referee.png" in reply
    drawn = (tmp_path / "pictures" / "map-referee.png").read_bytes()
    assert drawn == render(table.state, REFEREE) != render(table.state, None)


async def test_an_option_the_command_does_not_have_is_refused_by_name(table):
    reply = await table.handle("/act unit:sherman-1 move:12,14 speed:fast")
    assert reply == "Not allowed: I don't understand speed (see /help)"


async def test_the_referees_discord_commands_work_at_the_console_too(table, tmp_path):
    table.pictures = tmp_path / "pictures"
    await ok(table, "/game new scenario:meeting referee:ref")
    shown = await ok(table, "as ref /ref map")
    assert shown.startswith("Turn 0, the referees' view") and shown.endswith("map-referee.png")
    assert await table.handle("as ann /ref map") == "Not allowed: Only the game's referees may do that"
    assert "bob is a referee of this game (by ref)" in await ok(table, "as ref /ref appoint referee:bob")
    assert "bob is a referee of this game (by ref)" in await ok(table, "as bob /ref log")
    await ok(table, "as bob /ref dismiss referee:ref")
    assert table.state.referees == ["bob"]


async def test_a_number_is_refused_outside_the_bounds_the_schema_declares(table):
    reply = await table.handle("/campaign balance side:german drm:9")
    assert reply == "Not allowed: drm is a whole number from -6 to 6, not 9"


async def test_a_value_runs_to_the_next_option_as_in_discord(table):
    assert "2d10 5+: 3, 10 -> 1 success" in await ok(table, "/roll dice:2d10 5+")
    assert "Original DR 7, DRM +2, Final DR 9" in await ok(table, "/roll dice:DR +2")
    reaction = await ok(table, "/chart roll chart:ic-reaction choices:tokens=1, markers=2")
    assert "+2 morale marker" in reaction and "-> 6+" in reaction
    assert Line.read("/rule query:smoke dissipate", "ann").options == {"query": "smoke dissipate"}
    as_discord = table.parse(Line.read("/act unit:Sherman 1 move:12,14 fire:Panzer IV", table.PLAYER))
    quoted = table.parse(Line.read('/act unit:"Sherman 1" move:12,14 fire:"Panzer IV"', table.PLAYER))
    assert as_discord == quoted and as_discord.order.unit == "sherman-1"


async def test_secret_is_the_option_secret_true_and_never_a_word_of_the_dice(table):
    said = "Not allowed: The word secret in the dice would be a label, shown to everyone: to roll in secret"
    for typed in ("/roll dice:2d6 secret", "/roll 2d6 secret", "/roll dice:1d6; 2d6 secret"):
        assert (await table.handle(typed)).startswith(said), typed
    assert await table.dice.log(table.CHANNEL, table.PLAYER) == []
    assert "(secret: only you" in await ok(table, "/roll dice:2d6 secret:true")


async def test_a_yes_no_word_at_the_end_of_a_value_is_refused_saying_how_to_give_it(table):
    await ok(table, "/start")
    await ok(table, "/initiative start")
    reply = await table.handle("/act unit:gruppe-2 move:36,36 rapid")
    assert reply == "Not allowed: move:36,36 rapid: a value runs to the next option; write rapid:true"
    assert "Gruppe 2" in await ok(table, "/act gruppe-2 rapid move:36,36")
