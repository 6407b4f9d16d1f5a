"""The options of /react come from the actions too (issue 31): an option whose action declares
that a reaction may be given it reaches the /react slash command, the console's /react line, the
tap flow's order choice (where it declares a tap button) and /help, with no change to any of
them. The proof is a throwaway action written in a test module
(:mod:`tests.bot.throwaway_reaction`), with a second one that has a tap button but is no
reaction, imported before the front ends are built: a fresh interpreter, so they stay out of
every other test. And the one option of /react a rule set adds today, the House Rules' assault,
is named in no production module but the one that declares it."""

import ast
import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.command_schema import COMMANDS
from bot.discord_adapter.play_commands import PLAY_COMMANDS
from engine.actions.base import OrderOption, TapButton
from engine.actions.registry import ACTION_TYPES, reaction_options

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import asyncio, io, json, sys

import pytest

import tests.bot.throwaway_reaction  # noqa: F401  registered before the front ends are built
from bot.console import play_console
from bot.console_grammar import Line
from bot.discord_adapter.schema_commands import check_tree, walk
from bot.help_pages import PAGES
from engine.dice import ScriptedDice, d6
from engine.rich_text import unmarked
from tests.bot.discord_harness import ANN, OTTO, buttons, close_bot, menus, open_bot


async def discord_side(folder):
    with pytest.MonkeyPatch.context() as monkeypatch:
        bot, discord = await open_bot(f"sqlite+aiosqlite:///{folder}/discord.db", monkeypatch)
        check_tree(bot.tree)  # every command still takes exactly its spec's options
        react = next(c for c in walk(bot.tree.get_commands()) if c.qualified_name == "react")
        option = {p.name: p for p in react.parameters}["take_cover"]
        found = {"names": [p.name for p in react.parameters]}
        found["option"] = [option.type.name, option.description, option.required]
        built = {}
        for channel in ("1", "2"):  # by taps in channel 1, by /react in channel 2
            await discord.slash("game new", user=ANN, channel=channel, ruleset="cautious")
            await discord.slash("game join", user=ANN, channel=channel, side="allies")
            await discord.slash("game join", user=OTTO, channel=channel, side="axis")
            bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])
            await discord.slash("game start", user=OTTO, channel=channel)
            card = buttons(await discord.slash("initiative", user=OTTO, channel=channel, choice="start"))
            if channel == "1":
                (units,) = menus(await discord.click(card["Activate (Axis)"], user=OTTO, channel=channel))
                gruppe = next(o["value"] for o in units["options"] if o["label"] == "Gruppe 3")
                chosen = buttons(await discord.choose(units, [gruppe], user=OTTO, channel=channel))
                found["activating"] = list(chosen)
            declared = await discord.slash("act", user=OTTO, channel=channel, unit="Gruppe 3", move="50,39")
            card = buttons(declared)
            bot.games.dice = lambda: ScriptedDice([d6(5)])
            if channel == "1":
                (units,) = menus(await discord.click(card["React"], user=ANN, channel=channel))
                sherman = next(o["value"] for o in units["options"] if o["label"] == "Sherman 2")
                chosen = buttons(await discord.choose(units, [sherman], user=ANN, channel=channel))
                found["reacting"] = list(chosen)
                (when,) = menus(await discord.click(chosen["Take cover"], user=ANN, channel=channel))
                confirm = buttons(await discord.choose(when, ["now"], user=ANN, channel=channel))
                await discord.click(confirm["Confirm"], user=ANN, channel=channel)
            else:
                await discord.slash("react", user=ANN, channel=channel, unit="Sherman 2", take_cover=True)
            _, history = await bot.games.store.history(channel)
            built[channel] = history[-1][0].model_dump(mode="json")
        await close_bot(bot)
    found["by taps"], found["by /react"] = built["1"], built["2"]
    return found


async def console_side(folder):
    lines = [
        "/game new ruleset:cautious",
        "/start",
        "/initiative start",
        "/act gruppe-3 move:50,39",
        "/react sherman-2 take_cover",
        "/help",
    ]
    out = io.StringIO()
    database_url = f"sqlite+aiosqlite:///{folder}/console.db"
    rolls = ScriptedDice([d6(2), d6(5), d6(5)])  # the Axis win the initiative; the reaction passes
    await play_console(io.StringIO("\\n".join(lines) + "\\n"), out, database_url, dice=lambda: rolls)
    return {"line": Line.read("/react sherman-2 take_cover", "ann").options, "played": out.getvalue()}


async def main(folder):
    found = await discord_side(folder) | await console_side(folder)
    found["help"] = next(unmarked(page.text) for page in PAGES if page.key == "reactions")
    return found


print(json.dumps(asyncio.run(main(sys.argv[1]))))
"""


def test_an_option_that_may_react_reaches_react_in_discord_by_taps_at_the_console_and_in_help(tmp_path):
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout.splitlines()[-1])
    assert "take_cover" in found["names"] and "dig_in" not in found["names"]
    assert found["option"] == ["boolean", "Get down where the unit stands", False]
    assert "Take cover" in found["reacting"] and "Dig in" not in found["reacting"]
    assert {"Take cover", "Dig in"} <= set(found["activating"])
    assert found["by taps"] == found["by /react"]
    assert found["by taps"]["order"]["actions"] == [{"kind": "take_cover"}]
    assert found["line"] == {"unit": "sherman-2", "take_cover": "true"}
    played = found["played"]
    assert "The Allies react with Sherman 2: take cover: needs 4+" in played
    assert "Sherman 2 gets down" in played
    assert "[take_cover:true] [cmt:true]" in played  # /react's line in the console's /help
    assert "`take_cover:`" in found["help"] and "dig_in" not in found["help"]


def named_in(tree: ast.AST, name: str) -> bool:
    """Whether a module's code names ``name``: as a string, a variable, an argument or a keyword."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value == name:
            return True
        if isinstance(node, ast.Name | ast.Attribute | ast.arg | ast.keyword):
            if name in (getattr(node, "id", None), getattr(node, "attr", None), getattr(node, "arg", None)):
                return True
    return False


def test_a_rule_set_s_reaction_option_is_named_only_by_the_module_of_its_action():
    """A new option of /react is written in one production file: its action's."""
    declaring = {
        option.name: Path(inspect.getfile(type(kind))).resolve()
        for kind in ACTION_TYPES.values()
        if type(kind).__module__.startswith("engine.variants.")
        for option in vars(type(kind)).get("options", ())  # written there, not inherited
        if option.name in reaction_options()
    }
    assert "assault" in declaring  # the House Rules' close combat
    modules = {
        path: ast.parse(path.read_text())
        for folder in ("bot", "engine")
        for path in (ROOT / folder).rglob("*.py")
    }
    for name, module in declaring.items():
        assert [path for path, tree in modules.items() if named_in(tree, name)] == [module], name


def test_the_react_options_are_the_reacting_actions_own_then_its_own_in_every_front_end():
    declared = reaction_options()
    names = ["unit", *declared, "cmt", "at", "fallback", "to"]
    assert [o.name for o in COMMANDS["react"].shared()] == names
    (react,) = [command for command in PLAY_COMMANDS if command.name == "react"]
    assert [p.name for p in react.parameters] == names
    assert len(react.parameters) <= 25  # Discord's limit for one command
    for parameter in react.parameters[1 : 1 + len(declared)]:
        option = declared[parameter.name]
        assert parameter.description == (option.reaction_description or option.description)
        assert parameter.autocomplete is (option.kind == "unit")


def test_a_tap_button_is_declared_only_for_a_flag_or_an_enemy_aimed_at():
    OrderOption("brace", "flag", "Brace", tap=TapButton("Brace"))
    OrderOption("rush", "unit", "Rush", whose="enemy", tap=TapButton("Rush"))
    for kind, whose in (("position", None), ("unit", "own"), ("text", None)):
        with pytest.raises(TypeError, match="a tap button sets a flag or aims at an enemy unit"):
            OrderOption("dash", kind, "Dash", whose=whose, tap=TapButton("Dash"))
