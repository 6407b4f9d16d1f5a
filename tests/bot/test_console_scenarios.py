"""Each of the book's four scenarios played to its result at the console table, as text typed
by two joined players with seeded dice: forces built with /force, the game set up with
/game new scenario: on a table generated from a seed (table:random seed:N, so any table will
do: its objectives and set-up areas are placed for the scenario), forces brought with /game
join, set up with /deploy, reserves called with /reserves, then random legal orders until the
result (Iron Cross 2015, pp. 26-31); and the game replayed from its log to the same end.

In Capture the defender deploys hidden (p. 26); every reply the attacker reads, and the /units,
/log and /game status it asks for along the way, are checked never to name what is under a
marker that has not been revealed."""

import random
import re

import pytest

from bot.app import Services
from bot.console import ConsoleTable
from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.commands import CallReserves, Command
from engine.deployment.placing import whose_turn
from engine.dice import SeededDice
from engine.game import awaiting, replay
from engine.profiles import Special
from engine.state import Phase
from tests.bot.test_console_battle import as_text
from tests.engine.random_play import random_command
from tests.storage.databases import seed_sqlite

PLAYERS = {"allies": "ann", "axis": "otto"}
# the defender's units carry labels of their own, so that a leak cannot hide behind a name
# the attacker also uses
ALLIED = [
    ("Infantry Detachment", "Able"),
    ("Infantry Detachment", "Baker"),
    ("Infantry Detachment", "Charlie"),
    ("Sherman 75mm", "Dog"),
]
GERMAN = ["Infantry Detachment", "Infantry Detachment", "Infantry Detachment", "Panzer IV G (late) to J"]
SCENARIOS = [
    ("meeting", ""),
    ("escalating", ""),
    ("capture", " attacker:axis"),
    ("breakthrough", " attacker:axis attacker_choice:preliminary_bombardment"),
]


def line(command: Command) -> str:
    if isinstance(command, CallReserves):
        return f'/reserves units:"{",".join(command.units)}"'
    return as_text(command)


async def build_forces(table: ConsoleTable, scenario: str) -> None:
    allied_units = ALLIED + ([("Sniper Team", "Easy")] if scenario == "capture" else [])
    german_limit = 300 if scenario == "capture" else 150
    answers = [await table.handle("as ann /force new nation:us name:Easy points:150")]
    for profile, label in allied_units:
        answers.append(await table.handle(f'as ann /force add force:Easy unit:"{profile}" label:{label}'))
    answers.append(await table.handle("as ann /force upgrade force:Easy unit:Able command:true"))
    answers.append(await table.handle(f"as otto /force new nation:german name:KG points:{german_limit}"))
    # in Capture, twice what the defender's 138 points cost (p. 30)
    extra = ["Panther", "Infantry Detachment", "PaK40 Anti-tank Gun"] if scenario == "capture" else []
    for profile in GERMAN + extra:
        answers.append(await table.handle(f'as otto /force add force:KG unit:"{profile}"'))
    answers.append(await table.handle('as otto /force upgrade force:KG unit:"Infantry Detachment 1" command'))
    assert not [a for a in answers if a.startswith("Not allowed")]


async def set_up(table: ConsoleTable, rng: random.Random) -> list[str]:
    """Each side in turn puts its next waiting unit at a random legal point (a sniper team with
    its decoy), and says it is done when nothing more may go down."""
    replies = []
    while (side := whose_turn(table.state.deployment)) is not None:
        player, plan = PLAYERS[side], table.state.deployment.sides[side]
        for _ in range(300):
            if not plan.waiting:
                break
            unit = table.state.units[plan.waiting[0]]
            x, y = rng.uniform(1, table.state.table.width - 1), rng.uniform(1, table.state.table.depth - 1)
            decoy = f" decoy:{x / 2:.1f},{y / 2:.1f}" if unit.profile.has(Special.SNIPER) else ""
            reply = await table.handle(f"as {player} /deploy unit:{unit.id} at:{x:.1f},{y:.1f}{decoy}")
            if not reply.startswith("Not allowed"):
                replies.append((player, reply))
                break
        else:
            replies.append((player, await table.handle(f"as {player} /deploy done")))
    return replies


async def random_step(table: ConsoleTable, player: str, rng: random.Random) -> str:
    """``player`` types a random legal order (up to 40 tries), else declines or tests morale."""
    for _attempt in range(40):
        reply = await table.handle(f"as {player} {line(random_command(table.state, rng))}")
        if not reply.startswith("Not allowed"):
            return reply
    fallback = "/noreact" if table.state.phase is Phase.REACTION else "/cmt"
    return await table.handle(f"as {player} {fallback}")


def unrevealed(table: ConsoleTable) -> list[str]:
    """Every word that would tell the attacker what lies under a marker still hidden."""
    secrets = []
    for unit in table.state.units_of("allies"):
        if unit.hidden and unit.marker is not None and not unit.destroyed:
            secrets += [unit.id, unit.true_name or ""]
            if unit.dummy or unit.profile.name != "Infantry Detachment":  # the attacker has those too
                secrets.append("dummy" if unit.dummy else unit.profile.name)
    return [s for s in secrets if s]


def leaks(table: ConsoleTable, reply: str) -> list[str]:
    """The secrets the reply gives away, as whole words."""
    return [s for s in unrevealed(table) if re.search(rf"\b{re.escape(s)}\b", reply, re.IGNORECASE)]


@pytest.mark.parametrize(("scenario", "options"), SCENARIOS, ids=[s for s, _ in SCENARIOS])
async def test_each_scenario_is_played_to_its_result_at_the_console(tmp_path, scenario, options):
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'console.db'}", shipped=True))
    table, _ = await ConsoleTable.open(Services.around(GameService(store, dice=lambda: SeededDice(3))))
    await build_forces(table, scenario)
    news = await table.handle(f"/game new scenario:{scenario} table:random seed:11{options}")
    assert 'on the random-11 (72" x 48"' in news
    objectives = {"meeting": 4, "escalating": 0, "capture": 1, "breakthrough": 0}[scenario]  # pp. 28-31
    assert len(table.state.objectives) == objectives
    assert "joins the Allies" in await table.handle("as ann /game join side:allies force:Easy")
    assert "Both forces are here" in await table.handle("as otto /game join side:axis force:KG")
    rng = random.Random(7)
    replies = await set_up(table, rng)
    replies.append(("otto", await table.handle("as otto /game start")))
    if scenario == "capture":  # 4 units and 2 dummies under markers 1-6, the sniper apart
        markers = sorted(u.marker for u in table.state.units_of("allies") if u.marker)
        assert markers == [1, 2, 3, 4, 5, 6]  # (some may be turned over at once, if in plain sight)
    for step in range(3000):
        if table.state.phase is Phase.OVER:
            break
        player = PLAYERS[awaiting(table.state) or "axis"]
        replies.append((player, await random_step(table, player, rng)))
        if step % 25 == 0:
            for view in ("/units", "/log", "/game status"):
                replies.append(("otto", await table.handle(f"as otto {view}")))
        if scenario == "capture":
            assert [leaks(table, r) for p, r in replies[-4:] if p == "otto"] == [[]] * sum(
                p == "otto" for p, _ in replies[-4:]
            )
    assert table.state.phase is Phase.OVER, f"{scenario} never ended"
    assert table.state.result is not None and table.state.scenario == scenario
    assert not any(r.startswith("Something went wrong") for _, r in replies)
    initial, history = await store.history(ConsoleTable.CHANNEL)
    assert replay(initial, history)[0] == table.state
    await store.close()
