"""The slash commands as the bot registers them keep within what Discord accepts: Discord refuses
the whole registration for one command over its limits, and a test harness never sees it.

Discord counts a command's characters as the sum of the name, the description and every
option's (at every depth, subcommands and groups included) name, description, and each choice's
name and value, taking of each text the longest of its localizations; at most 4,000. The budget
here keeps room under it for the next options a command gains."""

import re

import pytest

from tests.bot.discord_harness import close_bot, open_bot

BUDGET = 3_500  # characters a command, of Discord's 4,000
MOST_COMMANDS = 100  # global slash commands an application registers
MOST_MENU_COMMANDS = 5  # global message commands (and as many user commands)
MOST_OPTIONS = 25  # options of a command, subcommands of a group, choices of an option
NAME = re.compile(r"[-_a-z0-9]{1,32}")
MENU_NAME = re.compile(r"\S(?:[\w '-]{0,30}\S)?")  # a menu's: 1-32 characters, capitals and spaces allowed
DESCRIPTION = range(1, 101)
SLASH, MESSAGE = 1, 3  # the command types


@pytest.fixture
async def registered(tmp_path, monkeypatch) -> list[dict]:
    """What ``CommandTree.sync`` sends Discord: every global command's payload."""
    bot, _ = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    tree, translator = bot.tree, bot.tree.translator
    yield [
        await command.get_translated_payload(tree, translator) if translator else command.to_dict(tree)
        for command in tree._get_all_commands()
    ]
    await close_bot(bot)


def longest(item: dict, field: str) -> int:
    """The length Discord counts of a text: its longest localization, the default among them."""
    texts = [item.get(field) or "", *(item.get(f"{field}_localizations") or {}).values()]
    return max(len(str(text)) for text in texts)


def characters(item: dict) -> int:
    """A command's (or an option's) characters as Discord counts them against its 4,000."""
    own = longest(item, "name") + longest(item, "description")
    chosen = sum(longest(choice, "name") + len(str(choice["value"])) for choice in item.get("choices") or [])
    return own + chosen + sum(characters(option) for option in item.get("options") or [])


def everything(item: dict, path: str = "") -> list[tuple[str, dict]]:
    """The command and each of its options at every depth, by its path (``/game new table``)."""
    path = f"{path} {item['name']}".strip()
    return [(path, item)] + [
        found for option in item.get("options") or [] for found in everything(option, path)
    ]


def test_discord_accepts_every_command_with_room_to_spare(registered):
    menus = [command for command in registered if command["type"] != SLASH]
    assert {command["type"] for command in menus} == {MESSAGE} and len(menus) <= MOST_MENU_COMMANDS
    for menu in menus:  # a menu command: its name as the menu shows it, no description, no options
        assert MENU_NAME.fullmatch(menu["name"]) and not menu.get("description") and not menu.get("options")
    registered = [command for command in registered if command["type"] == SLASH]
    assert len(registered) <= MOST_COMMANDS
    for command in registered:
        for path, item in everything(command):
            assert NAME.fullmatch(item["name"]), f"/{path}: a name is 1-32 lowercase letters, digits, - or _"
            if "description" in item:
                assert len(item["description"]) in DESCRIPTION, f"/{path}: a description is 1-100 characters"
            assert len(item.get("options") or []) <= MOST_OPTIONS, f"/{path} has over {MOST_OPTIONS} options"
            choices = item.get("choices") or []
            assert len(choices) <= MOST_OPTIONS, f"/{path} has over {MOST_OPTIONS} choices"
            for choice in choices:
                assert 1 <= len(choice["name"]) <= 100, f"/{path}: the choice {choice['name']!r}"
                assert len(str(choice["value"])) <= 100, f"/{path}: the choice {choice['value']!r}"
    sizes = {command["name"]: characters(command) for command in registered}
    largest = max(sizes, key=sizes.get)
    assert sizes[largest] <= BUDGET, (
        f"/{largest} is {sizes[largest]:,} characters of names, descriptions and choices, "
        f"over the budget of {BUDGET:,} (Discord refuses 4,000): shorten its descriptions"
    )
