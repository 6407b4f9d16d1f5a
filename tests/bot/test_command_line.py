"""``python -m bot`` at the command line: --help tells the options and the environment and
touches nothing; --sync without a token says what is missing; commands published to one test
server."""

import pytest

from bot.__main__ import main
from bot.config import Settings
from tests.bot.discord_harness import close_bot, open_bot


@pytest.fixture
def bare_directory(tmp_path, monkeypatch):
    """An empty working directory (no .env) and no token in the environment."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("DEV_GUILD_ID", raising=False)
    return tmp_path


def test_help_prints_the_options_and_every_setting_and_creates_nothing(bare_directory, capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    said = capsys.readouterr().out
    assert said.startswith("usage: python -m bot [-h] [--check] [--sync] [--sync-guild ID]")
    for setting in Settings.model_fields:
        assert f"\n  {setting.upper()} " in said
    assert list(bare_directory.iterdir()) == []  # no ./ironcross.db


def test_sync_without_a_token_says_what_is_missing_and_creates_nothing(bare_directory, capsys):
    assert main(["--sync"]) == 1
    assert main(["--sync-guild", "123"]) == 1
    told = capsys.readouterr()
    assert (
        told.err.splitlines()
        == [
            "--sync needs DISCORD_TOKEN, the bot's token from the Discord developer portal, in the "
            "environment or a .env file"
        ]
        * 2
    )
    assert list(bare_directory.iterdir()) == []


def test_a_bad_option_is_refused_with_the_usage(bare_directory, capsys):
    with pytest.raises(SystemExit) as done:
        main(["--sync-guild", "my-server"])
    assert done.value.code == 2 and "--sync-guild: invalid int value: 'my-server'" in capsys.readouterr().err


async def test_commands_are_published_to_the_test_server_only_or_to_every_server(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    try:
        bot.sync_guild = 555
        await bot.publish_commands()
        (put,) = [e for e in discord.sent if e["route"].startswith("PUT ")]
        assert put["route"] == "PUT /applications/{application_id}/guilds/{guild_id}/commands"
        assert put["url"].endswith("/guilds/555/commands")
        assert {"game", "help", "measure", "rules"} <= {c["name"] for c in put["payload"]}
        bot.sync_guild = None
        await bot.publish_commands()
        assert discord.sent[-1]["route"] == "PUT /applications/{application_id}/commands"
    finally:
        await close_bot(bot)
