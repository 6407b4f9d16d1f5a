"""The options of /act come from the actions (issue 20): an action's module declares the option
that asks for it, and the schema, the Discord command tree and the console's grammar all take it
with no change to any of them. The proof is a throwaway action written in a test module
(:mod:`tests.bot.throwaway_action`) and imported, as a rule set's package is, before the front
ends are built: a fresh interpreter, so the action stays out of every other test."""

import json
import subprocess
import sys
from pathlib import Path

from bot.command_schema import COMMANDS
from bot.discord_adapter.play_commands import PLAY_COMMANDS
from engine.actions.registry import order_options

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import asyncio, io, json, sys

import tests.bot.throwaway_action  # noqa: F401  registered before the front ends are built
from bot.app import Services
from bot.command_schema import COMMANDS
from bot.console import play_console
from bot.console_grammar import Line
from bot.discord_adapter.client import IronCrossBot
from bot.discord_adapter.schema_commands import check_tree, walk
from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.dice import SeededDice


async def main(database_url):
    bot = IronCrossBot(Services.around(GameService(GameStore(database_url))))
    check_tree(bot.tree)  # every command still takes exactly its spec's options
    act = next(c for c in walk(bot.tree.get_commands()) if c.qualified_name == "act")
    option = {p.name: p for p in act.parameters}["stand_fast"]
    await bot.close()
    lines = [
        "/game new ruleset:steadfast",
        "/start",
        "/initiative start",
        "/act gruppe-2 stand_fast",
        "/noreact",
        "/act gruppe-3 move:50,40 stand_fast:yes",
    ]
    out = io.StringIO()
    await play_console(io.StringIO("\\n".join(lines) + "\\n"), out, database_url, dice=lambda: SeededDice(1))
    return {
        "schema": COMMANDS["act"].option("stand_fast").description,
        "discord": [option.type.name, option.description, option.required],
        "console": Line.read("/act gruppe-2 stand_fast", "ann").options,
        "played": out.getvalue(),
    }


print(json.dumps(asyncio.run(main(sys.argv[1]))))
"""


def test_an_action_written_in_its_own_module_reaches_act_in_discord_and_at_the_console(tmp_path):
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'steadfast.db'}"
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, database_url], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout.splitlines()[-1])
    assert found["schema"] == "Hold the ground where the unit stands"
    assert found["discord"] == ["boolean", "Hold the ground where the unit stands", False]
    assert found["console"] == {"unit": "gruppe-2", "stand_fast": "true"}
    played = found["played"]
    assert "The Axis declare: Gruppe 2: stand fast" in played
    assert "Gruppe 2 stands fast" in played
    assert "The Axis declare: Gruppe 3: move to 50.0,40.0, then stand fast" in played


def test_the_act_options_are_the_actions_own_in_every_front_end():
    declared = order_options()
    assert [o.name for o in COMMANDS["act"].shared()] == ["unit", *declared]
    (act,) = [command for command in PLAY_COMMANDS if command.name == "act"]
    assert [p.name for p in act.parameters] == ["unit", *declared]
    assert len(act.parameters) <= 25  # Discord's limit for one command
    for parameter in act.parameters[1:]:
        assert parameter.description == declared[parameter.name].description
        assert parameter.autocomplete is (declared[parameter.name].kind == "unit")


def test_the_orders_help_names_every_order_the_house_rules_add_and_no_other():
    from bot.help_pages import PAGES
    from engine.actions.registry import rule_set_order_options

    page = "".join(str(piece) for piece in next(p for p in PAGES if p.key == "orders").text)
    house = page[page.index("House Rules V1.0") :]
    added = set(rule_set_order_options("house_v1")) - set(rule_set_order_options("core_2015"))
    assert added and all(f"`{name}:" in house for name in added)
    named = {word.split(":")[0] for word in house.split("`")[1::2] if word.endswith((":", ":true"))}
    assert named == added
