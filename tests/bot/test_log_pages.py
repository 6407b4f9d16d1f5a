"""/game log a page at a time (issue 32): the latest page first, each as much as one message
holds, saying which lines it shows and the command that shows the rest; the same at the console
and in Discord (one handler)."""

import io

import pytest

import bot.console
from bot.console import play_console
from bot.log_pages import log_page, log_pages
from bot.plain_text import plain_reply
from bot.services.game_service import GameError
from engine.dice import SeededDice

LINES = [f"line {n:02d}" for n in range(1, 31)]  # 30 lines of 7 characters, 8 with the newline


def test_the_pages_run_from_the_latest_back_and_lose_no_line():
    pages = log_pages(LINES, 80, len)  # 10 lines a page
    assert pages == [LINES[20:], LINES[10:20], LINES[:10]]


def test_each_page_says_which_lines_it_shows_and_how_to_see_the_others():
    first = plain_reply(log_page(LINES, 1, 230, len))  # 80 characters for lines, 150 for the notice
    assert first.splitlines()[0] == "Lines 21-30 of 30, page 1 of 3; earlier: /game log page:2"
    assert first.splitlines()[1:] == LINES[20:]
    middle = plain_reply(log_page(LINES, 2, 230, len)).splitlines()
    assert middle[0] == (
        "Lines 11-20 of 30, page 2 of 3; earlier: /game log page:3; later: /game log page:1"
    )
    last = plain_reply(log_page(LINES, 3, 230, len)).splitlines()
    assert last[0] == "Lines 1-10 of 30, page 3 of 3; later: /game log page:2" and last[1] == "line 01"
    with pytest.raises(GameError, match="^The log has 3 pages: choose 1 to 3$"):
        log_page(LINES, 4, 230, len)


def test_a_log_that_fits_one_message_is_shown_whole_without_a_notice():
    assert plain_reply(log_page(LINES, 1, 1000, len)).splitlines() == LINES


async def test_the_console_pages_its_log(tmp_path, monkeypatch):
    monkeypatch.setattr(bot.console, "CONSOLE_PAGE", 300)
    out = io.StringIO()
    lines = "/start\n/initiative start\n/pass\n/pass\n/game log\n/game log page:2\n"
    await play_console(io.StringIO(lines), out, f"sqlite+aiosqlite:///{tmp_path / 'c.db'}", SeededDice)
    text = out.getvalue()
    assert "page 1 of " in text and "; earlier: /game log page:2" in text
    assert "page 2 of " in text and "later: /game log page:1" in text


async def test_discord_takes_the_page_as_the_console_does(tmp_path, monkeypatch):
    from tests.bot.discord_harness import ANN, close_bot, open_bot, reply

    bot_, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    await discord.slash("game new", user=ANN, channel="1")
    await discord.slash("game join", user=ANN, channel="1", side="allies")
    text, private = reply(await discord.slash("game log", user=ANN, channel="1", page=2))
    assert private and text == "The log has 1 page: choose 1 to 1"
    await close_bot(bot_)
