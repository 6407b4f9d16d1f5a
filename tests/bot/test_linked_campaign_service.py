"""Linked campaigns over real storage: refusals that change nothing, a battle ended by a
concession carried through the game service's hook, and campaigns of both kinds in one channel."""

from datetime import timedelta

import pytest

from bot.app import Services
from bot.console import ConsoleTable
from bot.plain_text import plain_reply
from bot.services.campaign_service import CampaignService
from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.dice import SeededDice
from engine.scenarios.quick_battle import table_title
from engine.state import Phase
from engine.tables.generate import random_table
from tests.bot.test_console_linked_campaign import build_forces
from tests.storage.databases import seed_sqlite

NEW = "/campaign linked new name:Normandy allies:ann allies_force:Able axis:otto axis_force:KG"


@pytest.fixture
async def table(tmp_path):
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'linked.db'}", shipped=True))
    games = GameService(store, dice=lambda: SeededDice(1))
    table, _ = await ConsoleTable.open(Services.around(games))
    await build_forces(table)
    yield table
    await games.close()
    await store.close()


async def test_bad_input_is_refused_and_changes_nothing(table):
    for line, refusal in [
        (NEW.replace("Able", "Baker"), "You have no force called 'Baker': see /force list"),
        (NEW + " winner:lots", "winner is a whole number from 0 to 1,000, not 'lots'"),
        (NEW + " damaged:never", "damaged: choose return or sit_out, not 'never'"),
        (NEW + " loser:5000", "loser is a whole number from 0 to 1,000, not 5,000"),
        ("/campaign linked standings", "There is no linked campaign in this channel"),
    ]:
        assert (await table.handle(line)).startswith(f"Not allowed: {refusal}")
    assert (await table.handle(NEW + " winner:60 damaged:sit_out")).startswith("Linked campaign Normandy")
    standings = await table.handle("/campaign linked standings")
    for line, refusal in [
        (
            'as otto /campaign linked buy side:allies unit:"MG Team"',
            "Only the Allies' player, ann, may do that",
        ),
        (
            'as ann /campaign linked buy side:allies unit:"MG Team"',
            "The Allies have 0 reinforcement points but MG Team costs 20: 20 short",
        ),
        ("as ann /campaign linked buy side:navy unit:x", "side: choose allies or axis, not 'navy'"),
        ("as cat /campaign linked battle scenario:meeting", "Only the players of Normandy may do that"),
        ("as ann /campaign linked battle scenario:capture", "Capture needs an attacker: allies or axis"),
        ("as ann /campaign linked retreat", "Try /campaign linked new, /campaign linked battle, "),
    ]:
        assert (await table.handle(line)).startswith(f"Not allowed: {refusal}")
    assert await table.handle("/campaign linked standings") == standings
    assert (
        "winner 60, loser 30, draw 40" in standings and "damaged units sit out the next battle" in standings
    )


async def test_a_battle_refused_by_a_running_game_is_called_off(table):
    await table.handle(NEW)
    await table.handle("/game new")
    await table.handle("/game start")
    assert table.state.phase is not Phase.SETUP
    reply = await table.handle("as ann /campaign linked battle scenario:meeting")
    assert reply == "Not allowed: A game is already running in this channel: finish or concede it first"
    assert "being fought" not in await table.handle("/campaign linked standings")


async def test_a_conceded_battle_is_carried_into_the_campaign(table):
    await table.handle(NEW)
    assert "battle 1" in await table.handle("as ann /campaign linked battle scenario:meeting")
    assert "being fought" in await table.handle("/campaign linked standings")
    await table.handle("as otto /game concede")
    standings = await table.handle("/campaign linked standings")
    news = "[campaign] Normandy, battle 1. Meeting Engagement: the Allies won (the Axis conceded)"
    assert news in standings
    assert "Allies (ann), Able (US): 1 battle, 1 win, 0 draws, 0 losses; 50 reinforcement points" in standings
    assert "Axis (otto), KG (German): 1 battle, 0 wins, 0 draws, 1 loss; 0 reinforcement points" in standings
    # a later game in the channel that is not a campaign battle carries nothing
    await table.handle("/game new")
    await table.handle("/game concede")
    assert (await table.handle("/campaign linked standings")).endswith(
        "History:\n1. Meeting Engagement: the Allies won (the Axis conceded); "
        "the Allies lost nothing, +50 points; "
        "the Axis lost nothing, +0 points (conceded before spending a token)"
    )


async def test_a_linked_battle_is_fought_on_a_saved_table_through_the_service(table):
    await table.handle(NEW)
    linked = table.campaigns.linked
    saved = await linked.tables.create("console", "ann", "Hedgerows", 48, 48)
    text, outcome = await linked.battle("console", "ann", "meeting", "hedgerows", guild_id="console")
    assert 'on the Hedgerows (48" x 48", 0 pieces)' in plain_reply(text)
    assert (outcome.state.table.width, outcome.state.table.depth) == (saved.width, saved.depth) == (48, 48)
    assert {side.name: side.entry_edge for side in outcome.state.sides.values()} == {
        "allies": "near",
        "axis": "far",
    }


async def test_a_linked_battle_on_a_random_table_at_the_console_and_a_missing_table_refused(table):
    await table.handle(NEW)
    refused = await table.handle("as ann /campaign linked battle scenario:meeting table:Nowhere")
    assert refused.startswith("Not allowed: There is no table 'Nowhere': choose village, crossroads, random")
    assert "being fought" not in await table.handle("/campaign linked standings")  # nothing changed
    reply = await table.handle("as ann /campaign linked battle scenario:meeting table:random seed:7")
    laid = random_table(7, 72.0, 48.0)
    assert f"on the {table_title(laid)}" in reply
    assert table.state.terrain == laid.terrain() and table.state.phase is Phase.SETUP
    assert "being fought" in await table.handle("/campaign linked standings")


async def test_red_barricades_and_linked_campaigns_share_a_channel(table):
    await table.handle(NEW)
    red_barricades = CampaignService(table.service.store, clock=table.service.clock)
    await red_barricades.create(
        "console",
        "Barrikady",
        {"german": ["g"], "russian": ["r"]},
        "17 Oct",
        {"german": 1, "russian": 1},
        1,
        timedelta(hours=24),
    )
    assert "Barrikady" in plain_reply(await red_barricades.status("console"))
    assert (await table.handle("/campaign linked standings")).startswith("Normandy")
    await red_barricades.close()


async def test_a_channel_runs_one_linked_campaign_until_its_players_end_it(table):
    await table.handle(NEW)
    assert await table.handle(NEW.replace("Normandy", "Arnhem")) == (
        "Not allowed: Normandy is still running in this channel: its players end it first with "
        "/campaign linked end"
    )
    refused = await table.handle("as cat /campaign linked end")
    assert refused == "Not allowed: Only the players of Normandy may do that"
    assert await table.handle('as otto /campaign linked retire side:allies unit:"Infantry Detachment 2"') == (
        "Not allowed: Only the Allies' player, ann, may do that"
    )
    ended = await table.handle("as ann /campaign linked end")
    assert ended.splitlines()[0] == "Normandy is over after 0 battles: a draw, 0 wins each"
    assert ended.endswith("History:\nNormandy has fought no battle yet")
    arnhem = await table.handle(NEW.replace("Normandy", "Arnhem"))
    assert arnhem.startswith("Linked campaign Arnhem set up.")
