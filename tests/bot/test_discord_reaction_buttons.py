"""The React / No reaction buttons under a declaration: persistent, and refused once stale."""

import pytest

from engine.dice import ScriptedDice, d6, d10
from tests.bot.discord_harness import (
    ANN,
    OTTO,
    buttons,
    close_bot,
    menus,
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


def option(menu: dict, label: str) -> str:
    """The value of the menu's option whose label starts so."""
    return next(o["value"] for o in menu["options"] if o["label"].startswith(label))


async def test_react_builds_the_reaction_by_taps_from_the_units_that_may_react(declared):
    bot, discord, shown, _ = declared
    step = await discord.click(shown["React"], user=ANN, channel="1")
    (units,) = menus(step)
    assert reply(step)[1] and "needs 4+ (+1 vehicle reacting to infantry)" in next(
        o["description"] for o in units["options"] if o["label"] == "Sherman 2"
    )
    assert set(buttons(step)) == {"CMT (Allies)", "No reaction (Allies)"}
    chosen = await discord.choose(units, [option(units, "Sherman 2")], user=ANN, channel="1")
    when = menus(await discord.click(buttons(chosen)["Fire"], user=ANN, channel="1"))[0]
    assert [o["label"] for o in when["options"]] == [  # Gruppe 3 moves 3" from 50,42 to 50,39
        "Before it acts",
        'As it reaches 50.0,41.0 (1" along its move)',
        'As it reaches 50.0,40.0 (2" along its move)',
        'As it reaches 50.0,39.0 (3" along its move)',
    ]
    (targets,) = menus(await discord.choose(when, ["now"], user=ANN, channel="1"))
    confirm = await discord.choose(targets, [option(targets, "Gruppe 3")], user=ANN, channel="1")
    assert reply(confirm)[0] == "**Sherman 2**: fire at Gruppe 3. Confirm to react so."
    bot.games.dice = lambda: ScriptedDice([d6(5), d10(2)])
    text, private = reply(await discord.click(buttons(confirm)["Confirm"], user=ANN, channel="1"))
    assert not private
    assert (
        "The Allies react with Sherman 2: fire at Gruppe 3: needs 4+ (+1 vehicle reacting to infantry)"
        in text
    )
    assert "Sherman 2 fires at Gruppe 3" in text and 'Gruppe 3 moves 3.0" to 50.0,39.0' in text


async def test_react_is_refused_privately_to_the_acting_side_and_after_the_window_closed(declared):
    bot, discord, shown, _ = declared
    text, private = reply(await discord.click(shown["React"], user=OTTO, channel="1"))
    assert private and "Only the Allies may react" in text
    await discord.click(shown["No reaction"], user=ANN, channel="1")
    text, private = reply(await discord.click(shown["React"], user=ANN, channel="1"))
    assert private and "No reaction window is open" in text


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
