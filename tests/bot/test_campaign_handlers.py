"""/campaign handled once (bot.handlers.campaigns): Discord's orders form hands the handler what the
console's line does; a player option names exactly one player in either front end; a linked
battle set up by its handler is told to the front ends through the service's ``on_battle``; and a
yes/no option at the console takes yes or no only, as Discord's client does."""

import pytest

from bot.app import Services
from bot.console import ConsoleTable
from bot.console_grammar import Line
from bot.handlers import HANDLERS
from bot.services.game_service import GameError, GameService
from bot.storage.store import GameStore
from engine.dice import SeededDice
from engine.errors import IllegalCommand
from engine.scenarios.quick_battle import quick_battle
from tests.bot.discord_harness import ANN, EVE, OTTO, close_bot, form, open_bot, reply
from tests.bot.test_console_linked_campaign import build_forces
from tests.storage.databases import seed_sqlite


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'discord.db'}", monkeypatch)
    yield bot, discord
    await bot.campaigns.close()
    await close_bot(bot)


@pytest.fixture
async def table(tmp_path):
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'console.db'}", shipped=True))
    games = GameService(store, dice=lambda: SeededDice(1))
    table, _ = await ConsoleTable.open(Services.around(games))
    yield table
    await table.campaigns.close()
    await games.close()
    await store.close()


async def test_the_orders_form_hands_the_handler_what_the_console_line_does(
    bot_and_discord, table, monkeypatch
):
    bot, discord = bot_and_discord
    await discord.slash(
        "campaign new",
        user=ANN,
        channel="1",
        name="Barrikady",
        german=f"<@{ANN}>",
        russian=f"<@{OTTO}>",
        german_cpp=10,
        russian_cpp=12,
    )
    handed = []

    async def noting(ask, **options):
        handed.append(options)
        raise GameError("noted")

    opened = form(await discord.slash("campaign submit", user=OTTO, channel="1"))
    monkeypatch.setitem(HANDLERS, "campaign submit", noting)
    sent = await discord.submit(
        opened, {"RG": "I1, O2 2 hexes", "Fort": "2 x Trench"}, user=OTTO, channel="1"
    )
    assert reply(sent) == ("Nothing was sealed: noted", True)
    line = "as otto /campaign submit buy:I1, O2 2 hexes fortify:2 x Trench phase:1"
    assert await table.handle(line) == "Not allowed: noted"
    assert handed == [{"buy": "I1, O2 2 hexes", "fortify": "2 x Trench", "side": None, "phase": 1}] * 2


async def test_a_player_option_names_exactly_one_player_in_both_front_ends(bot_and_discord, table):
    _, discord = bot_and_discord
    await build_forces(table)
    for allies, several in ((f"<@{ANN}> <@{EVE}>", "ann, eve"), ("ann", "")):
        sent = await discord.slash(
            "campaign linked new",
            user=ANN,
            channel="1",
            name="Normandy",
            allies=allies,
            allies_force="Able",
            axis=f"<@{OTTO}>",
            axis_force="KG",
        )
        refusal = "Mention the allied player (@name)" + (": one, not 2" if several else "")
        assert reply(sent) == (refusal, True)
        line = (
            f"/campaign linked new name:Normandy allies:{several} allies_force:Able axis:otto axis_force:KG"
        )
        if several:
            assert await table.handle(line) == f"Not allowed: {refusal}"
    assert "no linked campaign" in await table.handle("/campaign linked standings")


async def test_a_linked_battle_is_told_to_the_service_s_on_battle(table):
    await build_forces(table)
    await table.handle(
        "/campaign linked new name:Normandy allies:ann allies_force:Able axis:otto axis_force:KG"
    )
    told = []

    async def on_battle(channel, outcome):
        told.append((channel, outcome.state))

    table.services.linked_campaigns.on_battle = on_battle
    table.state = quick_battle()  # not the battle: the table learns of it only by the hook
    assert (await table.handle("as ann /campaign linked battle scenario:meeting")).startswith(
        "Normandy, battle 1"
    )
    ((channel, state),) = told
    assert channel == "console" and state == await table.service.game("console")
    assert {side: s.players for side, s in state.sides.items()} == {"allies": ["ann"], "axis": ["otto"]}


def test_a_console_yes_no_option_takes_yes_or_no_only():
    assert Line.read("/campaign ledger csv:no", "ann").typed() == {"csv": False}
    assert Line.read("/campaign ledger csv:yes", "ann").typed() == {"csv": True}
    with pytest.raises(IllegalCommand, match="csv: choose yes or no, not 'maybe'"):
        Line.read("/campaign ledger csv:maybe", "ann").typed()
