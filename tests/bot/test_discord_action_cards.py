"""One card per action: a Components V2 message with the result, the picture and the buttons for
what comes next, for the side the game waits for."""

import pytest

from engine.dice import ScriptedDice, d6
from tests.bot.discord_harness import (
    ANN,
    OTTO,
    Pick,
    answers_in,
    attachments,
    buttons,
    close_bot,
    menus,
    open_bot,
    reply,
    started_game,
    text_of,
)

COMPONENTS_V2 = 1 << 15
REF = "309"


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    await started_game(bot, discord)
    yield bot, discord
    await close_bot(bot)


def card_of(sent):
    """The public card among an interaction's answers: its container's parts by type."""
    (body,) = [body for body, private, _ in answers_in(sent) if not private]
    assert body["flags"] & COMPONENTS_V2 and not body.get("content") and not body.get("embeds")
    (container,) = body["components"]
    assert container["type"] == 17
    return body, [part["type"] for part in container["components"]], container["components"]


async def test_an_action_card_holds_the_result_the_picture_and_the_next_steps(bot_and_discord):
    bot, discord = bot_and_discord
    sent = await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    body, kinds, parts = card_of(sent)
    assert kinds == [10, 12, 1]  # text, media gallery, one action row
    text = parts[0]["content"]
    assert "The Axis start as the active player" in text and "Waiting for **the Axis**" in text
    assert parts[1]["items"][0]["media"]["url"] == "attachment://battlefield.png"
    assert attachments(sent)[0].startswith(b"\x89PNG")
    version = (await bot.games.store.load("1")).version
    assert {label: b["custom_id"] for label, b in buttons(sent).items()} == {
        "Activate (Axis)": f"ic:1:v{version}:activate",
        "CMT (Axis)": f"ic:1:v{version}:cmt",
        "Pass (Axis)": f"ic:1:v{version}:pass",
    }

    sent = await discord.slash("act", user=OTTO, channel="1", unit="gruppe-3", move="50,39")
    body, kinds, parts = card_of(sent)
    assert kinds == [10, 12, 1]
    assert "may react until" in text_of(body)
    assert [b["label"] for b in parts[2]["components"]] == ["React", "No reaction"]  # allies' answers

    sent = await discord.slash("noreact", user=ANN, channel="1")
    _, kinds, _ = card_of(sent)
    assert kinds == [10, 12, 1] and set(buttons(sent)) == {"Activate (Axis)", "CMT (Axis)", "Pass (Axis)"}


async def test_a_choice_the_game_waits_for_is_a_menu_on_the_card(tmp_path, monkeypatch):
    """A Company Morale Test of 3-5 takes one marker off one unit (p. 13): with two units
    carrying markers, the card asks which, and the menu answers as /choose would."""
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    await discord.slash("game new", user=ANN, channel="1", referee=Pick(REF))
    await discord.slash("game join", user=ANN, channel="1", side="allies")
    await discord.slash("game join", user=OTTO, channel="1", side="axis")
    bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])
    await discord.slash("game start", user=OTTO, channel="1")
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    for unit in ("gruppe-1", "gruppe-2"):
        await discord.slash("ref markers", user=REF, channel="1", unit=unit, count=1, reason="shot at")
    bot.games.dice = lambda: ScriptedDice([d6(4)])
    sent = await discord.slash("cmt", user=OTTO, channel="1")
    (menu,) = menus(sent)
    version = (await bot.games.store.load("1")).version
    assert menu["custom_id"] == f"ic:1:v{version}:choice"
    assert [(o["label"], o["value"]) for o in menu["options"]] == [
        ("Gruppe 1", "gruppe-1"),
        ("Gruppe 2", "gruppe-2"),
    ]
    text, private = reply(await discord.choose(menu, ["gruppe-2"], user=ANN, channel="1"))
    assert private and "Axis" in text  # not the allies' choice
    assert (await bot.games.store.load("1")).version == version
    text, private = reply(await discord.choose(menu, ["gruppe-2"], user=OTTO, channel="1"))
    state = await bot.games.game("1")
    assert not private and state.units["gruppe-2"].morale_markers == 0
    assert state.units["gruppe-1"].morale_markers == 1
    await close_bot(bot)
