"""/help: its pages name only commands and options the bot has, and they are turned with
buttons and a select that answer at once and keep working after a restart."""

import io
import re

import pytest
from discord import app_commands

from bot.command_schema import COMMANDS
from bot.console import play_console
from bot.discord_adapter.client import IronCrossBot
from bot.discord_adapter.markdown import markdown
from bot.help_pages import PAGES
from bot.reply import Reply
from engine.rich_text import unmarked
from tests.bot.discord_harness import ANN, _message, callback_payload, close_bot, open_bot, reply


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    yield bot, discord
    await close_bot(bot)


def commands_of(bot: IronCrossBot) -> dict[str, app_commands.Command | app_commands.Group]:
    """Every command and command group of the tree, by its name as typed after the slash."""
    return {c.qualified_name: c for c in bot.tree.walk_commands()}


def named_on(text: str) -> list[str]:
    """The spans of a page in backticks that name a command or give an option."""
    return [span for span in re.findall(r"`([^`]+)`", text) if span.startswith("/") or ":" in span]


def check_span(span: str, last: app_commands.Command | None, commands) -> app_commands.Command:
    """The command a span names (or, for bare options, the one named before it on the page);
    fail on a command the tree lacks, an option it does not take, or a choice it does not offer."""
    words = span.split()
    command = last
    if span.startswith("/"):
        names = [w for w in words if ":" not in w]
        found = [" ".join(names[:n]).lstrip("/") for n in range(len(names), 0, -1)]
        named = next((name for name in found if name in commands), None)
        assert named is not None, f"/help names {span!r}, which is no command"
        command = commands[named]
        ends = isinstance(command, app_commands.Command) or named == found[0]
        assert ends, f"/help names {span!r}: {named} has no such subcommand"
    assert command is not None, f"/help gives the option {span!r} before naming any command"
    parameters = {p.name: p for p in getattr(command, "parameters", ())}  # a group takes none
    for word in words:
        name, colon, value = word.partition(":")
        if not colon or not name.isidentifier():
            continue
        assert name in parameters, f"/help gives /{command.qualified_name} an option {name}: it lacks"
        choices = [str(c.value) for c in parameters[name].choices]
        if choices and value and value != "...":
            assert value in choices, f"/help gives /{command.qualified_name} {word}, not one of {choices}"
    return command


async def test_every_command_and_option_the_help_names_exists(bot_and_discord):
    bot, _ = bot_and_discord
    commands = commands_of(bot)
    checked = 0
    for page in PAGES:
        last = None
        for span in named_on(unmarked(page.text)):
            last = check_span(span, last, commands)
            checked += 1
        assert len(markdown(Reply.of(page.text))) < 1800  # a page fits one Discord message with its title
    assert checked > 80
    for wrong in ("/game begin", "/act unit:... aim:x", "/initiative choice:later"):
        with pytest.raises(AssertionError):
            check_span(wrong, None, commands)


def components(body: dict) -> dict[str, dict]:
    """The buttons (by label) and the select (as "select") of a message."""
    found = {}
    for row in body.get("components") or []:
        for item in row["components"]:
            found[item.get("label", "select")] = item
    return found


async def select(discord, menu: dict, value: str, *, user: str, channel: str):
    """Pick ``value`` in a select menu the bot sent."""
    message = _message(int(channel), "")
    message["components"] = [{"type": 1, "components": [menu]}]
    data = {"custom_id": menu["custom_id"], "component_type": 3, "values": [value]}
    return await discord._dispatch(discord._payload(3, user, channel, data, message=message))


def page_shown(sent: list[dict]) -> tuple[int, str, dict]:
    """A click's answer: the callback type it was acknowledged with, and the page written."""
    callback = callback_payload(next(e for e in sent if e["route"].endswith("/callback")))
    (edit,) = [e for e in sent if e["route"].startswith("PATCH /webhooks/")]
    body = callback_payload(edit)
    return callback["type"], body["content"], body


async def test_help_is_private_and_turned_by_buttons_and_a_select_across_a_restart(tmp_path, monkeypatch):
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    bot, discord = await open_bot(url, monkeypatch)
    try:
        sent = await discord.slash("help", user=ANN, channel="1")
        text, private = reply(sent)
        assert private and text.startswith("## Getting started\n") and "Page 1 of 9" in text
        first = components(next(e for e in sent if e["route"].startswith("PATCH"))["payload"])
        assert set(first) == {"Previous", "Next", "select"}
        assert [o["label"] for o in first["select"]["options"]] == [p.title for p in PAGES]

        kind, text, shown = page_shown(await discord.click(first["Next"], user=ANN, channel="1"))
        assert kind == 6 and text.startswith("## A turn\n")  # acknowledged as an update, then written
        kind, text, _ = page_shown(await discord.click(first["Previous"], user=ANN, channel="1"))
        assert text.startswith("## Server admin\n") and "Page 9 of 9" in text  # round to the last
        second = components(shown)
    finally:
        await close_bot(bot)

    bot, discord = await open_bot(url, monkeypatch)  # a restart: only the custom ids are left
    try:
        kind, text, _ = page_shown(await discord.click(second["Next"], user=ANN, channel="1"))
        assert kind == 6 and text.startswith("## Reactions\n")
        kind, text, shown = page_shown(
            await select(discord, second["select"], "campaigns", user=ANN, channel="1")
        )
        assert kind == 6 and text.startswith("## Campaigns\n")
        chosen = [o["value"] for o in components(shown)["select"]["options"] if o.get("default")]
        assert chosen == ["campaigns"]
    finally:
        await close_bot(bot)


async def test_help_opens_at_a_topic(bot_and_discord):
    _, discord = bot_and_discord
    text, private = reply(await discord.slash("help", user=ANN, channel="1", topic="orders"))
    assert private and text.startswith("## Orders and positions\n") and "`/measure unit:... to:...`" in text


async def test_the_console_shows_its_command_list_or_a_topic(tmp_path):
    out = io.StringIO()
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    await play_console(io.StringIO("/help topic:orders\n/help\n/help frob\n"), out, url)
    said = out.getvalue()
    assert "Orders and positions\n/act unit:Panzer IV move:C6 fire:Sherman 1 moves then fires" in said
    assert "Getting started\nA battle is played in a channel" in said  # the first page, as in Discord
    assert "  /help [topic:start|turn|reactions" in said and "  /units " in said  # then the list
    assert "Not allowed: topic: choose start or turn or reactions or orders" in said


async def test_the_consoles_list_is_the_schemas_every_command_with_every_option(tmp_path):
    out = io.StringIO()
    await play_console(io.StringIO("/help\n"), out, f"sqlite+aiosqlite:///{tmp_path / 'console.db'}")
    entries = re.split(r"\n  (?=/)", out.getvalue())
    for spec in COMMANDS.values():
        entry = next((e for e in entries if re.match(rf"/{spec.path}( |\n)", e)), None)
        assert entry is not None, f"the console's /help lacks /{spec.path}"
        for option in spec.options:
            assert f"{option.name}:" in entry, f"the console's /help lacks /{spec.path} {option.name}:"
        assert spec.description in " ".join(entry.split()), spec.path
