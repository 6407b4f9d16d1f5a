"""Campaign-wide /stats: a linked campaign of scripted battles at the console (every die known, the
battle being fought counted so far), and a Red Barricades campaign's ledger rolls by side."""

import io

import pytest

from bot.app import Services
from bot.console import ConsoleTable
from bot.plain_text import plain_reply
from bot.services.campaign_stats import CampaignStats
from bot.services.game_service import GameError, GameService
from bot.services.stats_service import StatsService
from bot.storage.store import GameStore
from engine.dice import ScriptedDice, d6, d10
from engine.runtime import VirtualClock
from tests.bot.test_campaign_service import Heard, service_for, start
from tests.bot.test_console_linked_campaign import build_forces
from tests.storage.databases import seed_sqlite


@pytest.fixture
async def store(tmp_path):
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'stats.db'}", shipped=True))
    yield store
    await store.close()


class Table:
    """The console table, each line given exactly the dice it must roll."""

    def __init__(self, table: ConsoleTable, faces: list) -> None:
        self.table, self.faces = table, faces

    async def say(self, line: str, *faces) -> str:
        self.faces[:] = [ScriptedDice(faces)]
        reply = await self.table.handle(line)
        assert self.faces[0].remaining == 0, (line, reply)
        return reply

    async def battle(self, starter: str, *initiative) -> None:
        """The campaign's next Meeting Engagement, one detachment a side in the open 26" apart,
        started with these initiative dice."""
        assert "battle" in await self.say(f"as {starter} /campaign linked battle scenario:meeting")
        await self.say("as ann /deploy unit:allies-infantry-detachment-1 at:66,11")
        await self.say("as otto /deploy unit:axis-infantry-detachment-1 at:66,37")
        await self.say("as ann /deploy done confirm:true")  # the rest to reserve, confirmed (issue 32)
        await self.say("as otto /deploy done confirm:true")
        assert "Initiative" in await self.say("as otto /game start", *initiative)


@pytest.fixture
async def table(store):
    faces = [ScriptedDice([])]
    console, _ = await ConsoleTable.open(Services.around(GameService(store, dice=lambda: faces[0])))
    console.campaigns.out = io.StringIO()
    await build_forces(console)
    new = "/campaign linked new name:Normandy allies:ann allies_force:Able axis:otto axis_force:KG"
    await console.handle(new)
    return Table(console, faces)


async def test_campaign_stats_add_up_every_battle_and_the_one_being_fought(table):
    # battle 1: initiative 5-2; the GIs fire unopposed, needing 6+: 8 hits, casualty 4; Ann rolls 2d10
    await table.battle("ann", d6(5), d6(2))
    await table.say("as ann /initiative start")
    await table.say("as ann /act unit:allies-infantry-detachment-1 fire:axis-infantry-detachment-1")
    shot = await table.say("as otto /noreact", d10(8), d6(4))
    assert "needs 6+ (-1 target moved); rolled 8: 1 hit" in shot
    await table.say("as ann /roll 2d10", d10(7), d10(3))
    await table.say("as otto /game concede")
    # battle 2: initiative 1-6; the Grenadiers fire and the GIs react (3+: 4), firing first: 6 hits
    # (6+), casualty 2; then the Grenadiers, with a marker, need 7+: 2 misses
    await table.battle("otto", d6(1), d6(6))
    await table.say("as otto /initiative start")
    await table.say("as otto /act unit:axis-infantry-detachment-1 fire:allies-infantry-detachment-1")
    fight = await table.say(
        "as ann /react unit:allies-infantry-detachment-1 fire:axis-infantry-detachment-1",
        d6(4),
        d10(6),
        d6(2),
        d10(2),
    )
    assert "needs 3+, rolled 4: success" in fight and "needs 7+" in fight and "rolled 2: miss" in fight
    await table.say("as ann /game concede")
    # battle 3, being fought: initiative 3-4 so far
    await table.battle("ann", d6(3), d6(4))

    text = await table.say("/stats campaign")
    top, ann, otto = text.split("\n\n")
    assert top == "Campaign Normandy: 2 battles fought, battle 3 so far\nDice statistics: 14 dice"
    # Ann: initiative 5, 1, 3; casualties 4, 2 (both detachments are "Infantry Detachment 1": each
    # die counts for the firer its event names first); reaction 4; to hit 8, 6; /roll 7, 3
    assert ann.startswith("ann (Allies): 10 dice\n")
    assert "d6 faces 1:1 2:1 3:1 4:2 5:1 6:0 (fair 1.0 each)" in ann
    assert "d10 faces 1:0 2:0 3:1 4:0 5:0 6:1 7:1 8:1 9:0 10:0 (fair 0.4 each)" in ann
    assert "d6   casualty              2  3.00  3.50" in ann and "d6   reaction              1  4.00" in ann
    assert ann.endswith("hits 2 vs 1.0 expected (2 dice)\nreaction successes 1 vs 0.7 expected (1 die)")
    # Otto: initiative 2, 6, 4; to hit 2 needing 7+
    assert otto.startswith("otto (Axis): 4 dice\n")
    assert "d6 faces 1:0 2:1 3:0 4:1 5:0 6:1 (fair 0.5 each)" in otto
    assert otto.endswith("hits 0 vs 0.4 expected (1 die)")
    # /stats alone is the channel's game: battle 3
    game = await table.say("/stats")
    assert game.startswith("Dice statistics: 2 dice\n\nann (Allies): 1 die\n")

    assert await table.say("as ann /campaign linked end") == (
        "Not allowed: Battle 3 is being fought: end the campaign after it"
    )
    await table.say("as otto /game concede")
    ended = await table.say("as otto /campaign linked end")
    assert (
        ended.splitlines()[0]
        == "Normandy is over after 3 battles: the Allies (ann) win the campaign, 2 wins to 1"
    )
    after = await table.say("/stats campaign")
    assert after.splitlines()[:2] == ["Campaign Normandy: 3 battles fought", "Dice statistics: 14 dice"]


async def test_stats_of_a_channel_without_a_campaign_are_refused(store):
    console, _ = await ConsoleTable.open(Services.around(GameService(store, dice=lambda: ScriptedDice([]))))
    assert await console.handle("/stats campaign") == (
        "Not allowed: There is no campaign in this channel: /stats without campaign counts the channel's game"
    )


async def test_a_red_barricades_campaign_counts_its_ledger_rolls_by_side(store):
    # A4's strength: DR 4 + 4 on the German side; the Russians buy nothing
    service = service_for(store, VirtualClock(), Heard(), dice=[d6(4), d6(4)])
    await start(service)
    await service.submit("c1", "ann", "A4, M2")
    await service.submit("c1", "cat", "none")
    stats = await CampaignStats(store, StatsService(store)).stats("c1")
    (german,) = stats.report.players
    assert (german.player, german.faces(6).counts) == ("German", (0, 0, 0, 2, 0, 0))
    assert plain_reply(stats.reply()).splitlines()[:3] == [
        "Campaign Barrikady: 1 ledger roll, 2 dice",
        "Dice statistics: 2 dice",
        "",
    ]
    with pytest.raises(GameError, match="There is no campaign in this channel"):
        await CampaignStats(store, StatsService(store)).stats("c2")
    await service.close()
