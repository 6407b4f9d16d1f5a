"""The React / No reaction buttons under a declaration: persistent, and refused once stale."""

import pytest

from engine.dice import ScriptedDice, d6, d10
from tests.bot.discord_harness import (
    ANN,
    OTTO,
    buttons,
    close_bot,
    form,
    open_bot,
    reply,
    started_game,
    walk,
)


@pytest.fixture
async def declared(tmp_path, monkeypatch):
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    bot, discord = await open_bot(url, monkeypatch)
    await started_game(bot, discord)
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    sent = await discord.slash("act", user=OTTO, channel="1", unit="gruppe-3", move="50,39")
    yield bot, discord, buttons(sent), url
    await close_bot(bot)


async def test_a_declaration_carries_persistent_react_and_no_reaction_buttons(declared):
    bot, discord, shown, _ = declared
    assert {label: b["custom_id"] for label, b in shown.items()} == {
        "React": "ic:1:1:react",
        "No reaction": "ic:1:1:noreact",
    }
    text, private = reply(await discord.click(shown["No reaction"], user=OTTO, channel="1"))
    assert private and "Only the Allies may react" in text
    text, _ = reply(await discord.click(shown["No reaction"], user=ANN, channel="1"))
    assert "The Allies do not react" in text
    text, private = reply(await discord.click(shown["No reaction"], user=ANN, channel="1"))
    assert private and "No reaction window is open" in text


async def test_the_buttons_still_work_after_a_restart(declared, monkeypatch):
    bot, discord, shown, url = declared
    await bot.games.close()
    restarted, discord = await open_bot(url, monkeypatch)
    text, _ = reply(await discord.click(shown["No reaction"], user=ANN, channel="1"))
    assert 'Gruppe 3 moves 3.0" to 50.0,39.0' in text
    await close_bot(restarted)


async def test_react_opens_a_form_whose_answer_is_the_reaction(declared):
    bot, discord, shown, _ = declared
    opened = form(await discord.click(shown["React"], user=ANN, channel="1"))
    bot.games.dice = lambda: ScriptedDice([d6(5), d10(2)])
    answer = {"Reacting unit": "Sherman 2", "Fire at": "gruppe-3"}
    text, _ = reply(await discord.submit(opened, answer, user=ANN, channel="1"))
    assert (
        "The Allies react with Sherman 2: fire at Gruppe 3: needs 4+ (+1 vehicle reacting to infantry)"
        in text
    )
    assert "Sherman 2 fires at Gruppe 3" in text and 'Gruppe 3 moves 3.0" to 50.0,39.0' in text


async def test_a_closed_window_loses_its_buttons(declared):
    bot, discord, shown, _ = declared
    message_id = (await bot.games.store.open_windows())[0].message_id
    assert message_id
    sent = await discord.slash("noreact", user=ANN, channel="1")
    edits = [e for e in sent if e["route"] == "PATCH /channels/{channel_id}/messages/{message_id}"]
    assert len(edits) == 1
    kept = walk(edits[0]["payload"]["components"])  # the card keeps its text and picture
    assert [c["type"] for c in kept] == [17, 10, 12]
    assert "The Axis declare: Gruppe 3" in kept[1]["content"]


async def test_a_window_closing_at_its_deadline_loses_its_buttons_too(declared):
    bot, discord, shown, _ = declared
    before = len(discord.sent)
    await bot.games.clock.advance(120)
    routes = [e["route"] for e in discord.sent[before:]]
    assert routes == [
        "POST /channels/{channel_id}/messages",
        "GET /channels/{channel_id}/messages/{message_id}",
        "PATCH /channels/{channel_id}/messages/{message_id}",
    ]
