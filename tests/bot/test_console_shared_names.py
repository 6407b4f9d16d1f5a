"""Two forces built apart with /force, both holding an "Infantry Detachment 1", in one game at the
console, typed as text with seeded dice: every unit's name is unique in the game, a name both
sides' units answer to means the player's own unit when it acts and the enemy's when it is aimed
at, and one nobody's side tells apart is refused with the units it could be."""

from bot.app import Services
from bot.console import ConsoleTable
from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.dice import SeededDice
from tests.storage.databases import seed_sqlite

FORCES = {  # player: nation, force, units (the first in command)
    "ann": ("us", "Able", ["Infantry Detachment", "Infantry Detachment", "Sherman 75mm", "Sherman 75mm"]),
    "otto": ("german", "KG", ["Infantry Detachment"] * 4),
}


async def ok(table: ConsoleTable, text: str) -> str:
    reply = await table.handle(text)
    assert not reply.startswith(("Not allowed", "Something went wrong")), (text, reply)
    return reply


async def set_up_game(tmp_path) -> ConsoleTable:
    """Both forces in a refereed Meeting Engagement, two units each set up by their typed names."""
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'names.db'}", shipped=True))
    table, _ = await ConsoleTable.open(Services.around(GameService(store, dice=lambda: SeededDice(1))))
    for player, (nation, name, units) in FORCES.items():
        await ok(table, f"as {player} /force new nation:{nation} name:{name} points:300")
        for unit in units:
            await ok(table, f'as {player} /force add force:{name} unit:"{unit}"')
        await ok(table, f'as {player} /force upgrade force:{name} unit:"{units[0]} 1" command')
    await ok(table, "/game new scenario:meeting table:village referee:ref")
    await ok(table, "as ann /game join side:allies force:Able")
    await ok(table, "as otto /game join side:axis force:KG")
    set_ups = [
        await ok(table, 'as ann /deploy unit:"Infantry Detachment 1" at:30,6'),
        await ok(table, 'as otto /deploy unit:"Infantry Detachment 1" at:30,38'),
        await ok(table, 'as ann /deploy unit:"Sherman 75mm 1" at:34,10'),
        await ok(table, 'as otto /deploy unit:"Infantry Detachment 2" at:40,40'),
    ]
    assert [reply.splitlines()[0] for reply in set_ups] == [
        "The Allies set up Infantry Detachment 1 (Allies) at 30.0,6.0",
        "The Axis set up Infantry Detachment 1 (Axis) at 30.0,38.0",
        "The Allies set up Sherman 75mm 1 at 34.0,10.0",  # a name only one unit has stays as it is
        "The Axis set up Infantry Detachment 2 (Axis) at 40.0,40.0",
    ]
    return table


async def test_both_sides_infantry_detachment_1_are_set_up_and_ordered_by_the_name_they_typed(tmp_path):
    table = await set_up_game(tmp_path)
    await ok(table, "as ann /deploy done confirm:true")
    await ok(table, "as otto /deploy done confirm:true")
    await ok(table, "as otto /game start")
    await ok(table, "as otto /initiative choice:pass")
    fired = await ok(table, 'as ann /act unit:"Sherman 75mm 1" fire:"Infantry Detachment 1"')
    assert fired.splitlines()[0] == "The Allies declare: Sherman 75mm 1: fire at Infantry Detachment 1 (Axis)"
    reaction = await ok(table, 'as otto /react unit:"Infantry Detachment 1" fire:"Infantry Detachment 1"')
    assert "Infantry Detachment 1 (Axis)" in reaction and "at Infantry Detachment 1 (Allies)" in reaction


async def test_a_name_both_sides_units_answer_to_is_refused_with_the_units_it_could_be(tmp_path):
    table = await set_up_game(tmp_path)
    before = table.state
    reply = await table.handle(
        'as ref /ref markers unit:"Infantry Detachment 1" value:1 reason:"forgot a hit"'
    )
    assert reply == (
        "Not allowed: 'Infantry Detachment 1' could be Infantry Detachment 1 (Allies) or "
        "Infantry Detachment 1 (Axis): name the one you mean in full"
    )
    assert table.state == before
    await ok(table, 'as ref /ref markers unit:"Infantry Detachment 1 (Axis)" value:1 reason:"forgot a hit"')
    assert table.state.units["axis-infantry-detachment-1"].morale_markers == 1
    assert table.state.units["allies-infantry-detachment-1"].morale_markers == 0
