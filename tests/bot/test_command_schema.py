"""One declaration of every command (bot/command_schema/): the real Discord command tree and
the console's grammar are both made from it, and take the same options; the message menu's
commands (Discord's alone) are the schema's too."""

import discord
import pytest
from discord import AppCommandType

from bot.app import Services
from bot.command_schema import COMMANDS, MENUS, Option
from bot.console_grammar import Line, console_path
from bot.discord_adapter.client import IronCrossBot
from bot.discord_adapter.schema_commands import OPTION_TYPES, SchemaDrift, check_tree, schema_command, walk
from bot.services.game_service import GameService
from bot.text_orders import ORDER_WORDS
from engine.errors import IllegalCommand
from tests.bot.discord_harness import IN_A_PRIVATE_CHANNEL, IN_A_SERVER, IN_THE_BOTS_DM, close_bot, open_bot

CHAT_INPUT = AppCommandType.chat_input
CONSOLE_ONLY = {  # what a keyboard needs that Discord gives by a form, an upload or a user's seat
    ("game map", "side"),
    ("force import", "file"),
    ("cards deck", "file"),
    ("ref markers", "value"),
    ("ref tokens", "value"),
    ("ref turn", "value"),
    ("ref prep zone", "area"),
}


def sample(option: Option) -> str:
    """A value of the option's kind, as typed at the console."""
    if option.choices:
        return option.choices[-1]
    return {
        "integer": str(int(option.low or 1)),
        "number": str(option.low if option.low is not None else 2.5),
        "flag": "yes",
        "position": "12,14",
        "path": "12,14;D3",
        "user": "ann",
    }.get(option.kind, "Sherman-1")


@pytest.fixture
async def tree(store):
    bot = IronCrossBot(Services.around(GameService(store)))
    yield {command.qualified_name: command for command in walk(bot.tree.get_commands(type=CHAT_INPUT))}
    await bot.close()


async def test_the_message_menu_is_the_schemas_and_no_other_menu_is_registered(store):
    bot = IronCrossBot(Services.around(GameService(store)))
    menus = bot.tree.get_commands(type=AppCommandType.message)
    assert [menu.name for menu in menus] == ["Look up rules", "Roll dice"] == list(MENUS)
    assert bot.tree.get_commands(type=AppCommandType.user) == []
    bot.tree.remove_command("Roll dice", type=AppCommandType.message)
    with pytest.raises(SchemaDrift, match=r"the message menu is \['Look up rules'\], declared"):
        check_tree(bot.tree)
    await bot.close()


async def test_discord_has_every_command_of_the_schema_with_its_options(tree):
    assert tree.keys() == COMMANDS.keys()
    for path, command in tree.items():
        spec = COMMANDS[path]
        assert command.description == spec.description, path
        declared = {option.name: option for option in spec.shared()}
        assert {parameter.name for parameter in command.parameters} == declared.keys(), path
        for parameter in command.parameters:
            option = declared[parameter.name]
            assert parameter.type == OPTION_TYPES[option.kind], (path, option.name)
            assert parameter.required == option.required, (path, option.name)
            assert tuple(str(c.value) for c in parameter.choices) == option.choices, (path, option.name)
            assert (parameter.min_value, parameter.max_value) == (option.low, option.high), (
                path,
                option.name,
            )
            assert parameter.description == (option.description or "…"), (path, option.name)


def test_the_console_takes_every_option_of_every_command_by_name():
    assert len({console_path(spec) for spec in COMMANDS.values()}) == len(COMMANDS)  # no two alike
    for spec in COMMANDS.values():
        for typed_path in {console_path(spec), tuple(spec.path.split())}:
            for option in spec.options:
                value = sample(option)
                line = Line.read(f"/{' '.join(typed_path)} {option.name}:{value}", "ann")
                assert line is not None and line.spec is spec, (spec.path, typed_path)
                assert line.options[option.name] == value, (spec.path, option.name)
                if option.kind == "flag":  # a bare yes/no word sets it, unless the rest of the line is text
                    bare = Line.read(f"/{' '.join(typed_path)} {option.name}", "ann")
                    assert bare.flag(option.name) is (spec.rest is None), (spec.path, option.name)


def test_the_console_names_the_same_options_as_discord_and_refuses_others():
    extra = {(spec.path, o.name) for spec in COMMANDS.values() for o in spec.options if o.console_only}
    assert extra == CONSOLE_ONLY
    for spec in COMMANDS.values():
        typed = f"/{' '.join(console_path(spec))} nonsense:1"
        if spec.pairs:  # /team give ann:3 bob:1
            assert Line.read(typed, "ann").options == {"nonsense": "1"}
        elif spec.rest:  # a ruling, a search, a dice expression: words, not options
            taken_by = (*spec.words, spec.rest)[0]
            assert Line.read(typed, "ann").options == {taken_by: "nonsense:1"}, spec.path
        else:
            with pytest.raises(IllegalCommand, match="I don't understand nonsense"):
                Line.read(typed, "ann")


def test_bare_words_fill_the_options_the_spec_gives_them():
    for spec in COMMANDS.values():
        path = " ".join(console_path(spec))
        if spec.words:
            line = Line.read(f"/{path} first-word", "ann")
            assert line.options[spec.words[0]] == "first-word", spec.path
        if spec.rest:
            line = Line.read(f"/{path} {'x ' * len(spec.words)}some more words", "ann")
            assert line.options[spec.rest] == "some more words", spec.path


def test_a_group_alone_asks_for_its_everyday_subcommand():
    assert {text: Line.read(text, "ann").spec.path for text in ("/force", "/team", "/campaign linked")} == {
        "/force": "force list",
        "/team": "team show",
        "/campaign linked": "campaign linked standings",
    }


def test_act_declares_exactly_the_words_of_an_order():
    assert {option.name for option in COMMANDS["act"].shared()} == ORDER_WORDS
    assert {option.name for option in COMMANDS["react"].shared()} <= ORDER_WORDS | {
        "cmt",
        "at",
        "fallback",
        "to",
    }


def test_a_command_whose_options_differ_from_its_spec_is_refused():
    async def cmt(interaction: discord.Interaction, token: int) -> None: ...

    async def fallback(
        interaction: discord.Interaction, unit: str, to: int, reverse: bool = False
    ) -> None: ...

    with pytest.raises(SchemaDrift, match=r"/cmt: token is not declared"):
        schema_command("cmt")(cmt)
    with pytest.raises(SchemaDrift, match=r"/fallback: to is \(<AppCommandOptionType.integer"):
        schema_command("fallback")(fallback)


LOOKUPS = {"roll", "chart", "odds", "rule", "library", *MENUS}  # a user may install these
KEPT_BY_USERS = {"table", "force", "cards", "campaign", "help"}  # a user's own things, in the bot's DMs too
GUILD_INSTALL, USER_INSTALL = 0, 1  # the integration types


async def test_the_lookups_install_for_users_and_work_everywhere_and_the_games_stay_in_servers(
    tmp_path, monkeypatch
):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    try:
        await bot.publish_commands()  # the payload is checked against Discord's published schema
    finally:
        await close_bot(bot)
    assert discord.violations == []
    (put,) = [
        entry for entry in discord.sent if entry["route"] == "PUT /applications/{application_id}/commands"
    ]
    offered = {c["name"]: (c["integration_types"], c["contexts"]) for c in put["payload"]}
    everywhere = [IN_A_SERVER, IN_THE_BOTS_DM, IN_A_PRIVATE_CHANNEL]
    assert {name for name, places in offered.items() if USER_INSTALL in places[0]} == LOOKUPS
    for name in LOOKUPS:
        assert offered[name] == ([GUILD_INSTALL, USER_INSTALL], everywhere), name
    for name in KEPT_BY_USERS:
        assert offered[name] == ([GUILD_INSTALL], [IN_A_SERVER, IN_THE_BOTS_DM]), name
    for name in offered.keys() - LOOKUPS - KEPT_BY_USERS:
        assert offered[name] == ([GUILD_INSTALL], [IN_A_SERVER]), name
    assert {"game", "act", "ref", "rules", "stats"} <= offered.keys() - LOOKUPS - KEPT_BY_USERS
