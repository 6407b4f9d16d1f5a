"""Admin-only commands are hidden from members by default (Discord's default_member_permissions),
while the bot still checks the permission itself: a server may show them to anyone."""

from bot.discord_adapter.client import IronCrossBot
from tests.bot.discord_harness import ANN, MANAGE_GUILD, Upload, close_bot, open_bot, reply

ADMIN_ONLY = {"rules"}  # /rules import and /rules remove: the server's library upkeep (not /library)


def published(bot: IronCrossBot) -> dict[str, dict]:
    """Each top-level command as the bot would publish it to Discord."""
    return {c.name: c.to_dict(bot.tree) for c in bot.tree.get_commands()}


async def test_only_the_library_upkeep_is_hidden_and_the_bot_still_checks_it(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    try:
        commands = published(bot)
        hidden = {name for name, c in commands.items() if c["default_member_permissions"] is not None}
        assert hidden == ADMIN_ONLY
        assert commands["rules"]["default_member_permissions"] == MANAGE_GUILD
        notes = Upload("notes.md", b"# Smoke\nIt clears.\n")
        text, private = reply(await discord.slash("rules import", user=ANN, channel="1", document=notes))
        assert (
            private and text == "Only members with the Manage Server permission can change the rules library"
        )
    finally:
        await close_bot(bot)


async def test_library_sources_are_listed_to_members_outside_the_hidden_rules_group(tmp_path, monkeypatch):
    """/library (once /rules sources) is published without default permissions, so a member who
    may not manage the server sees it and reads what /rule searches; /rules has no sources."""
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    try:
        commands = published(bot)
        assert commands["library"]["default_member_permissions"] is None
        assert "sources" not in {option["name"] for option in commands["rules"]["options"]}
        text, private = reply(await discord.slash("library", user=ANN, channel="1"))
        assert private and "Iron Cross" in text
    finally:
        await close_bot(bot)
