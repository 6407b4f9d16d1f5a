"""A two-against-two game with a referee at the console (2015 rulebook p. 25), typed as text with
seeded dice: both COs hand out bonus tokens, a reserve request is granted and one refused, a
CO's unit is lost (no bonus the next turn), the referee corrects the game, takes back two
actions and rolls in secret, and the game runs to its result."""

import random

from bot.app import Services
from bot.console import ConsoleTable
from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.commands import Declare, React
from engine.dice import SeededDice
from engine.errors import IllegalCommand
from engine.game import awaiting, replay
from engine.referee import live_history
from engine.state import Phase
from tests.bot.test_console_scenarios import line
from tests.engine.random_play import random_command
from tests.storage.databases import seed_sqlite

FORCES = {  # player: (nation, units, the command unit's label)
    "ann": ("us", ["Infantry Detachment", "Infantry Detachment"], "Infantry Detachment 1"),
    "bob": ("us", ["Sherman 75mm", "Infantry Detachment"], "Sherman 75mm 1"),
    "cat": ("german", ["Infantry Detachment", "Infantry Detachment"], "Infantry Detachment 1"),
    "dan": ("german", ["Panzer IV G (late) to J", "Infantry Detachment"], "Panzer IV G (late) to J 1"),
}
SIDES = {"ann": "allies", "bob": "allies", "cat": "axis", "dan": "axis"}
COS = {"allies": "ann", "axis": "cat"}
POOL = {"allies": "allies-infantry-detachment-2", "axis": "axis-infantry-detachment-2"}  # held back
HELD = frozenset(POOL.values())


async def ok(table: ConsoleTable, text: str) -> str:
    reply = await table.handle(text)
    assert not reply.startswith(("Not allowed", "Something went wrong")), (text, reply)
    return reply


async def refused(table: ConsoleTable, text: str, why: str) -> None:
    before = table.state
    reply = await table.handle(text)
    assert reply.startswith("Not allowed") and why in reply, (text, reply)
    assert table.state == before


def speaker(state, command) -> str:
    """Who types a command: the owner of the unit it orders; for a Company Morale Test the
    player with most tokens in hand; else the side's CO."""
    side = awaiting(state) or state.active_side or "axis"
    if isinstance(command, Declare | React):
        unit = getattr(command.order, "unit", None)
        if unit:
            return state.units[unit].player
        tokens = state.sides[side].team.tokens
        return max(tokens, key=tokens.get)
    return COS[side]


async def set_up(table: ConsoleTable, rng: random.Random, held: frozenset[str] = HELD) -> None:
    """Each side in turn: the owner of its next waiting unit puts it down; the pool is held back."""
    while table.state.deployment is not None and (side := _deploying(table)) is not None:
        every = table.state.deployment.sides[side].waiting
        waiting = [u for u in every if u not in held]
        if not waiting:  # the owner of a unit held back is done
            await ok(table, f"as {table.state.units[every[0]].player} /deploy done confirm:true")
            continue
        unit = table.state.units[waiting[0]]
        for _ in range(300):
            x, y = rng.uniform(1, 71), rng.uniform(1, 47)
            reply = await table.handle(f"as {unit.player} /deploy unit:{unit.id} at:{x:.1f},{y:.1f}")
            if not reply.startswith("Not allowed"):
                break
        else:
            await ok(table, f"as {COS[side]} /deploy done confirm:true")


def _deploying(table: ConsoleTable) -> str | None:
    from engine.deployment.placing import whose_turn

    return whose_turn(table.state.deployment)


async def team_game_set_up(tmp_path, held: frozenset[str] = HELD) -> tuple[ConsoleTable, GameStore]:
    """The four players' forces, the meeting scenario with a referee, every unit set up but those
    ``held`` back in the reserve pool."""
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'console.db'}", shipped=True))
    table, _ = await ConsoleTable.open(Services.around(GameService(store, dice=lambda: SeededDice(5))))
    for player, (nation, units, command) in FORCES.items():
        await ok(table, f"as {player} /force new nation:{nation} name:F points:200")
        for profile in units:
            await ok(table, f'as {player} /force add force:F unit:"{profile}"')
        await ok(table, f'as {player} /force upgrade force:F unit:"{command}" command')
    await ok(table, "/game new scenario:meeting table:village teams:2 referee:ref")
    await refused(table, "as ann /team give bob:1", "You are not playing in this game: join with /game join")
    for player, side in SIDES.items():
        await ok(table, f"as {player} /game join side:{side} force:F")
    assert table.state.planned_scenario is None and table.state.deployment is not None
    await refused(table, "as bob /deploy unit:allies-infantry-detachment-1 at:10,3", "another player's unit")
    await set_up(table, random.Random(3), held)
    return table, store


async def test_a_hot_seat_console_tells_each_side_its_private_news(tmp_path):
    """One keyboard, no threads: the axis CO's bonus tokens, news for the axis alone, still reach
    the axis when an allied player starts the turn, under a header naming the side."""
    table, store = await team_game_set_up(tmp_path)
    reply = await ok(table, "as ann /game start")
    own = "ann, the Allies' commanding officer, has 4 bonus tokens to hand out (/team give)"
    theirs = "cat, the Axis' commanding officer, has 4 bonus tokens to hand out (/team give)"
    assert own in reply and f"[for the Axis only]\n{theirs}" in reply
    assert reply.index(own) < reply.index("[for the Axis only]")
    await store.close()


async def test_a_name_team_mates_share_is_granted_as_the_unit_asked_for(tmp_path):
    """Both allied "Infantry Detachment 1"s wait in the pool: bob asks for his by its plain name,
    and the CO grants that name, which means the unit asked for, not a refusal naming both."""
    pooled = frozenset({"allies-infantry-detachment-1", "allies-infantry-detachment-1-2", POOL["axis"]})
    table, store = await team_game_set_up(tmp_path, held=pooled)
    await ok(table, "as ann /game start")
    asked = await ok(table, 'as bob /team request unit:"Infantry Detachment 1"')
    assert "bob asks the commanding officer for Infantry Detachment 1 (bob)" in asked
    granted = await ok(table, 'as ann /team grant unit:"Infantry Detachment 1"')
    assert "ann sends Infantry Detachment 1 (bob) to bob" in granted
    assert table.state.units["allies-infantry-detachment-1-2"].reserve_available
    assert not table.state.units["allies-infantry-detachment-1"].reserve_available
    await refused(table, 'as ann /team grant unit:"Infantry Detachment 1"', "name the one you mean in full")
    await store.close()


async def test_a_two_against_two_game_with_a_referee_at_the_console(tmp_path):
    table, store = await team_game_set_up(tmp_path)
    await ok(table, "as ann /game start")

    # turn 1: both COs hand out their bonus; a request granted, one refused
    await refused(table, "as bob /team give bob:4", "Only the Allies' commanding officer")
    await ok(table, "as ann /team give bob:3 ann:1")
    await ok(table, "as cat /team give dan:2 cat:2")
    assert "bob: " in await ok(table, "as ann /team")
    await ok(table, f"as bob /team request unit:{POOL['allies']}")
    await ok(table, f"as dan /team request unit:{POOL['axis']}")
    assert "dan asks for" not in await ok(table, "as ann /team")  # the other side's requests stay private
    await refused(table, f"as dan /team grant unit:{POOL['axis']}", "commanding officer")
    await ok(table, f"as ann /team grant unit:{POOL['allies']}")
    await ok(table, f"as cat /team refuse unit:{POOL['axis']}")
    assert table.state.units[POOL["allies"]].player == "bob"
    assert table.state.units[POOL["axis"]].player == "cat"

    # the referee: a correction, a ruling, a secret roll
    await refused(table, "as ann /ref markers unit:allies-sherman-75mm-1 value:1 reason:x", "referees")
    assert "Referee sets Sherman 75mm 1's morale markers to 1 (forgot a hit)" in await ok(
        table, 'as ref /ref markers unit:allies-sherman-75mm-1 value:1 reason:"forgot a hit"'
    )
    assert "Referee's ruling: the stream is fordable" in await ok(
        table, "as ref /ref ruling the stream is fordable"
    )
    secret = await ok(table, "as ref /roll 2d6 secret:true")
    assert "secret" in secret
    assert "2d6" not in await ok(table, "as ann /roll log")
    assert "2d6 (secret)" in await ok(table, "as ref /roll log")

    rng = random.Random(11)
    undone = co_lost = False
    for step in range(3000):
        state = table.state
        if state.phase is Phase.OVER:
            break
        if step == 6 and not undone:
            before_two = len(live_history((await store.history(ConsoleTable.CHANNEL))[1]))
            await ok(table, 'as ref /ref undo count:2 reason:"played out of turn"')
            initial, history = await store.history(ConsoleTable.CHANNEL)
            assert len(live_history(history)) == before_two - 2 + 1
            undone = True
            continue
        if state.turn == 2 and not co_lost:
            await ok(
                table,
                'as ref /ref destroy unit:axis-infantry-detachment-1 reason:"sniper, agreed at the table"',
            )
            co_lost = True
        for co in COS.values():
            side = SIDES[co]
            if table.state.sides[side].team.bonus and table.state.phase is not Phase.OVER:
                await ok(table, f"as {co} /team give {co}:{table.state.sides[side].team.bonus}")
        reply = "Not allowed"
        for _attempt in range(40):
            try:
                command = random_command(table.state, rng)
            except IllegalCommand:  # nothing of the side can act
                break
            reply = await table.handle(f"as {speaker(table.state, command)} {line(command)}")
            if not reply.startswith("Not allowed"):
                break
        if reply.startswith("Not allowed"):
            fallback = "/noreact" if table.state.phase is Phase.REACTION else "/pass"
            side = awaiting(table.state) or table.state.active_side
            reply = await table.handle(f"as {COS[side]} {fallback}")
        assert not reply.startswith("Something went wrong"), reply
        if co_lost and table.state.turn == 3 and "lost" not in getattr(table, "_seen_co", ""):
            log = await ok(table, "as cat /log")
            assert "The Axis' commanding officer is lost: no bonus tokens this turn (p. 25)" in log
            table._seen_co = "lost"
    assert undone and co_lost
    assert table.state.phase is Phase.OVER and table.state.result is not None
    assert table.state.sides["axis"].team.bonus == 0
    initial, history = await store.history(ConsoleTable.CHANNEL)
    assert replay(initial, live_history(history))[0] == table.state
    await store.close()
