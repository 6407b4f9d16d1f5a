"""A whole quick battle played to its result through the console table, as text, by two
hot-seat players who have joined (so every line also passes the service's permission check)."""

import random

import pytest

from bot.app import Services
from bot.console import ConsoleTable
from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.commands import (
    ChooseInitiative,
    ChooseTarget,
    Command,
    Declare,
    DeclineReaction,
    FallBackOrder,
    Fire,
    MoraleTestOrder,
    Move,
    PassInitiative,
    React,
    RemoveMarkers,
    StartGame,
    UnitOrder,
)
from engine.dice import SeededDice
from engine.game import awaiting, replay
from engine.state import Phase
from engine.wording import side_name
from tests.engine.random_play import random_command
from tests.storage.databases import seed_sqlite

PLAYERS = {"allies": "ann", "axis": "otto"}


def path_text(path) -> str:
    return ";".join(f"{p.x},{p.y}" for p in path)


def order_text(order) -> str:
    if isinstance(order, MoraleTestOrder):
        return "cmt"
    if isinstance(order, FallBackOrder):
        return f"fallback unit:{order.unit} to:{path_text(order.path)}"
    assert isinstance(order, UnitOrder)
    words = [f"unit:{order.unit}"]
    for action in order.actions:
        if isinstance(action, Move):
            words.append(f'move:"{path_text(action.path)}"' + (" rapid" if action.rapid else ""))
        elif isinstance(action, Fire):
            words.append(f"fire:{action.target}")
    if isinstance(order.actions[0], Fire) and len(order.actions) > 1:
        words.append("first:fire")
    return " ".join(words)


def as_text(command: Command) -> str:
    """The line a player would type for ``command``."""
    match command:
        case StartGame():
            return "/game start"
        case ChooseInitiative(go_first=first):
            return "/initiative " + ("start" if first else "pass")
        case Declare(order=MoraleTestOrder()):
            return "/cmt"
        case Declare(order=FallBackOrder() as order):
            return "/" + order_text(order)
        case Declare(order=order):
            return "/act " + order_text(order)
        case PassInitiative():
            return "/pass"
        case React(order=order):
            return "/react " + order_text(order)
        case DeclineReaction():
            return "/noreact"
        case RemoveMarkers(unit=unit):
            return f"/choose unit:{unit}"
        case ChooseTarget(target=target):
            return f"/choose unit:{target or 'none'}"
    raise AssertionError(command)


@pytest.mark.parametrize(
    "ruleset, title", [("core_2015", "Iron Cross 2015"), ("house_v1", "House Rules V1.0")]
)
async def test_a_whole_quick_battle_is_played_to_its_result_as_typed_text(tmp_path, ruleset, title):
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'console.db'}", shipped=True))
    service = GameService(store, dice=lambda: SeededDice(11))
    table, _ = await ConsoleTable.open(Services.around(service))
    assert "Crossroads" in await table.handle(f"/game new table:crossroads forces:british ruleset:{ruleset}")
    assert title in await table.handle("/status")
    for side, player in PLAYERS.items():
        assert f"{player} joins {side_name(side)}" in await table.handle(
            f"as {player} /game join side:{side}"
        )
    rng = random.Random(5)
    replies = []
    for _ in range(3000):
        if table.state.phase is Phase.OVER:
            break
        player = PLAYERS.get(awaiting(table.state) or "axis")
        for _attempt in range(40):
            reply = await table.handle(f"as {player} {as_text(random_command(table.state, rng))}")
            if not reply.startswith("Not allowed"):
                break
        else:
            fallback = "/noreact" if table.state.phase is Phase.REACTION else "/cmt"
            reply = await table.handle(f"as {player} {fallback}")
        replies.append(reply)
    assert table.state.phase is Phase.OVER, "the battle never ended"
    assert "Result: " in replies[-1]
    assert not any(r.startswith("Something went wrong") for r in replies)

    stored = await store.load(ConsoleTable.CHANNEL)
    initial, history = await store.history(ConsoleTable.CHANNEL)
    assert stored.state == table.state
    assert replay(initial, history)[0] == table.state
    assert len(history) > 50  # joins, start, and a real battle's worth of orders
    await store.close()


async def test_the_other_sides_player_is_refused_at_the_console(tmp_path):
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'console.db'}", shipped=True))
    table, _ = await ConsoleTable.open(Services.around(GameService(store, dice=lambda: SeededDice(1))))
    await table.handle("as ann /game join side:allies")
    await table.handle("as otto /game join side:axis")
    await table.handle("as ann /game start")  # seed 1: axis wins the initiative
    assert "The Axis won the initiative and choose" in await table.handle("as ann /initiative start")
    assert "choice: choose start or pass" in await table.handle("as otto /initiative maybe")
    assert "The Axis start as the active player" in await table.handle("as otto /initiative start")
    refused = await table.handle('as ann /act unit:"Sherman 1" move:12,12')
    assert refused.startswith("Not allowed") and "Axis" in refused
    await store.close()
