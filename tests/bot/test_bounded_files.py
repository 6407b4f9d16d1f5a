"""Table files and force texts bounded in size, depth and numbers (issue 33), through the real
paths: /table import and /force import in Discord and at the console. Each is refused with the
limit it breaks, nothing is stored, and another channel's game goes on meanwhile."""

import asyncio
import io

import pytest

from bot.console import play_console
from engine.dice import SeededDice
from tests.bot.discord_harness import ANN, Upload, close_bot, form, messages, open_bot, reply

TABLE = "name: Farm\nwidth: 72\ndepth: 48\npieces:\n"
WOOD = "- {id: wood, kind: woods, at: C3, size: [12, 9]}\n"
BAD_TABLES = [  # (file, the refusal it gets)
    (TABLE + "- {id: wood, kind: woods, at: [.nan, 10], size: [12, 9]}\n", "line 5: .nan is not a measure"),
    (
        TABLE + "- {id: wood, kind: woods, at: C3, size: [12, 9], turn: .nan}\n",
        "line 5: .nan is not a measure",
    ),
    (TABLE.replace("72", ".inf"), "line 2: .inf is not a measure: numbers in a table file are finite"),
    (
        TABLE.replace("pieces:\n", "pieces: " + "[" * 45_000 + "]" * 45_000),
        "line 4: lists and mappings nest at most 6 deep in a table file",
    ),
    (TABLE + "seed: " + "9" * 401 + "\n", "line 5: a number in a table file has at most 24 characters"),
    (
        TABLE.replace("pieces:\n", "pieces: [" + "1, " * 20_000 + "1]"),
        "line 4: a table file has at most 10,000 values (numbers, names and lists)",
    ),
    (TABLE + "- {id: wood\uffff, kind: woods}\n", "line 5: a table file has only printable characters"),
]
FORCE = "Force: KG Meyer\nNation: German\nPoints limit: 300\n"
BAD_FORCES = [  # (text, the refusal it gets)
    (
        FORCE.replace("300", "9" * 401),
        "points limit: a whole number from 1 to 100,000, not '9999999999999999999999999999999999999999'…",
    ),
    (FORCE.replace("300", "100001"), "points limit: a whole number from 1 to 100,000, not 100,001"),
    (
        FORCE + "".join(f"- Gruppe {n}: Infantry Detachment\n" for n in range(1, 202)),
        "line 204 ('- Gruppe 201: Infantry Detachment'): a force has at most 200 units",
    ),
]


@pytest.fixture
async def discord_(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    yield discord
    await close_bot(bot)


async def other_channel_plays(discord) -> None:
    """A game set up in channel 9 while the refused file is read, and stored."""
    await discord.slash("game new", user=ANN, channel="9")
    text, _ = reply(await discord.slash("game status", user=ANN, channel="9"))
    assert text.startswith("Turn 0 · setup")


async def run(lines: str, url: str) -> str:
    out = io.StringIO()
    assert await play_console(io.StringIO(lines), out, url, dice=lambda: SeededDice(1)) == 0
    return out.getvalue()


@pytest.mark.parametrize(("text", "refusal"), BAD_TABLES)
async def test_a_table_file_past_a_limit_is_refused_by_table_import_and_nothing_is_stored(
    discord_, text, refusal
):
    upload = Upload("farm.yaml", text.encode())
    sent, _ = await asyncio.gather(
        discord_.slash("table import", user=ANN, channel="1", file=upload), other_channel_plays(discord_)
    )
    assert any(said.startswith(refusal) for said in messages(sent))  # among channel 9's, sent meanwhile
    assert reply(await discord_.slash("table list", user=ANN, channel="1"))[0].startswith(
        "No tables here yet"
    )
    good = Upload("farm.yaml", (TABLE + WOOD).encode())
    assert reply(await discord_.slash("table import", user=ANN, channel="1", file=good))[0].startswith(
        "**Farm**"
    )


@pytest.mark.parametrize(("text", "refusal"), BAD_TABLES)
async def test_a_table_file_past_a_limit_is_refused_at_the_console(tmp_path, text, refusal):
    (tmp_path / "farm.yaml").write_text(text, encoding="utf-8")
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    out = await run(f"/table import {tmp_path / 'farm.yaml'}\n/table list\n", url)
    assert f"Not allowed: {refusal}" in out
    assert "No tables here yet" in out


@pytest.mark.parametrize(("text", "refusal"), BAD_FORCES[:2])
async def test_a_force_text_past_a_limit_is_refused_by_the_import_form_and_nothing_is_stored(
    discord_, text, refusal
):
    opened = form(await discord_.slash("force import", user=ANN, channel="1"))
    sent, _ = await asyncio.gather(
        discord_.submit(opened, {"Paste": text}, user=ANN, channel="1"), other_channel_plays(discord_)
    )
    assert any(refusal in said for said in messages(sent))  # among channel 9's, sent meanwhile
    listed, _ = reply(await discord_.slash("force list", user=ANN, channel="1"))
    assert listed.startswith("You have no forces here yet")


@pytest.mark.parametrize(("text", "refusal"), BAD_FORCES)
async def test_a_force_file_past_a_limit_is_refused_by_the_console_and_nothing_is_stored(
    tmp_path, text, refusal
):
    (tmp_path / "force.txt").write_text(text, encoding="utf-8")
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    out = await run(f"/force import {tmp_path / 'force.txt'}\n/force list\n", url)
    assert "Not allowed: line " in out and refusal in out
    assert "You have no forces here yet" in out


async def test_a_force_file_of_4000_lines_is_refused_by_its_length_before_it_is_read(tmp_path):
    units = "".join(f"- Gruppe {n}: Infantry Detachment\n" for n in range(1, 4001))
    (tmp_path / "force.txt").write_text(FORCE + units, encoding="utf-8")
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    out = await run(f"/force import {tmp_path / 'force.txt'}\n/force list\n", url)
    length = len(FORCE + units)
    assert f"Not allowed: A force's text has at most 40,000 characters; this one has {length:,}" in out
    assert "You have no forces here yet" in out
