"""/rule and /rules through the real command tree: lookups, long answers, imports by admins only."""

from pathlib import Path

import pytest

from bot.discord_adapter.common import split_message
from tests.bot.discord_harness import ANN, EVE, MANAGE_GUILD, Upload, close_bot, messages, open_bot, reply

NUMBERED = (Path(__file__).parent / "data" / "numbered-rules.txt").read_bytes()
RUN_ON = (Path(__file__).parent / "data" / "run-on-rules.txt").read_bytes()


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    discord.permissions[ANN] = MANAGE_GUILD
    yield bot, discord
    await close_bot(bot)


async def test_rule_by_number_and_by_words(bot_and_discord):
    _, discord = bot_and_discord
    text, private = reply(await discord.slash("rule", user=EVE, channel="5", query="IC13.1"))
    assert not private and text.startswith("**IC13.1 Company Morale Test (p. 13)**")
    text, private = reply(await discord.slash("rule", user=EVE, channel="5", query="cmt", private=True))
    assert private and text.startswith("**IC13.1 Company Morale Test (p. 13)**")
    assert await discord.autocomplete("rule", "query", "ic26.", user=EVE, channel="5") == [
        f"IC26.{n}" for n in range(1, 8)
    ]


async def test_an_admin_imports_a_document_for_the_server(bot_and_discord):
    _, discord = bot_and_discord
    sent = await discord.slash("rules import", user=ANN, channel="5", document=Upload("asl.txt", NUMBERED))
    assert messages(sent)[-1].startswith("Indexed **asl** from asl.txt: 12 sections")
    text, _ = reply(await discord.slash("rule", user=EVE, channel="5", query="O11.6133"))
    assert text.startswith("**O11.6133 Sewer Exit** · asl")
    listed, private = reply(await discord.slash("library", user=EVE, channel="5"))
    assert private and f"**asl** (asl.txt): 12 sections, imported by <@{ANN}>" in listed


async def test_only_server_managers_import_or_remove(bot_and_discord):
    _, discord = bot_and_discord
    text, private = reply(
        await discord.slash("rules import", user=EVE, channel="5", document=Upload("asl.txt", NUMBERED))
    )
    assert private and text == "Only members with the Manage Server permission can change the rules library"
    text, _ = reply(await discord.slash("rules remove", user=EVE, channel="5", name="asl"))
    assert "Manage Server" in text
    text, private = reply(await discord.slash("rule", user=EVE, channel="5", query="O11.6133"))
    assert private and text.startswith("No section O11.6133")


async def test_a_bad_upload_gets_a_clear_refusal(bot_and_discord):
    _, discord = bot_and_discord
    sent = await discord.slash("rules import", user=ANN, channel="5", document=Upload("rules.pdf", b"%PDF"))
    assert messages(sent)[-1] == "rules.pdf is not a text or Markdown file (.txt, .md, .markdown, .text)"


async def test_a_long_section_comes_whole_in_several_messages_split_between_words(bot_and_discord):
    _, discord = bot_and_discord
    words = [f"word{n}" for n in range(1500)]
    document = ("RB9 Long Rule: " + " ".join(words) + "\n").encode()
    await discord.slash("rules import", user=ANN, channel="5", document=Upload("long.txt", document))
    pieces = messages(await discord.slash("rule", user=EVE, channel="5", query="RB9"))
    assert len(pieces) > 1 and all(len(p) <= 2000 for p in pieces)
    assert " ".join(pieces).split()[-1500:] == words


def test_split_message_breaks_between_paragraphs_lines_and_words_and_keeps_code_blocks_closed():
    paragraphs = "\n\n".join(" ".join(f"p{p}w{w}" for w in range(40)) for p in range(20))
    pieces = split_message(paragraphs, limit=500)
    assert all(len(piece) <= 500 for piece in pieces)
    assert " ".join(pieces).split() == paragraphs.split()
    assert all(piece.split()[0].endswith("w0") for piece in pieces)  # every piece starts a paragraph
    code = "```\n" + "\n".join(f"row {n}" for n in range(200)) + "\n```"
    pieces = split_message(code, limit=300)
    assert len(pieces) > 1 and all(p.startswith("```\n") and p.endswith("\n```") for p in pieces)


async def test_a_search_past_the_limits_is_refused_privately_with_them(bot_and_discord):
    _, discord = bot_and_discord
    words = " ".join(["smoke", "fire", "move", "rally", "tank"] * 200)
    text, private = reply(await discord.slash("rule", user=EVE, channel="5", query=words))
    assert private and text == "A rules search has at most 200 characters; this one has 5,399"


async def test_rules_mid_paragraph_and_chapters_through_the_commands(bot_and_discord):
    _, discord = bot_and_discord
    sent = await discord.slash("rules import", user=ANN, channel="5", document=Upload("mess.txt", RUN_ON))
    assert messages(sent)[-1].startswith(
        "Indexed **mess** from mess.txt: 12 sections (11 numbered, numbered 40 to 41.1)"
    )
    text, _ = reply(await discord.slash("rule", user=EVE, channel="5", query="40.12"))
    assert text.startswith("**40.12 SOUP** · mess\nSOUP − Any kitchen may serve soup")
    text, _ = reply(await discord.slash("rule", user=EVE, channel="5", query="41"))
    assert text.startswith("**41 PANTRY** · mess") and text.endswith("Sections inside it: 41.1")
