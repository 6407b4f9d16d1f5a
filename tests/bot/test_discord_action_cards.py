"""One card per action: a Components V2 message with the result, the picture and the buttons for
what comes next, for the side the game waits for."""

import pytest

from tests.bot.discord_harness import (
    ANN,
    OTTO,
    answers_in,
    attachments,
    buttons,
    close_bot,
    open_bot,
    started_game,
    text_of,
)

COMPONENTS_V2 = 1 << 15


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
    assert "axis starts as the active player" in text and "Waiting for **axis**" in text
    assert parts[1]["items"][0]["media"]["url"] == "attachment://battlefield.png"
    assert attachments(sent)[0].startswith(b"\x89PNG")
    version = (await bot.games.store.load("1")).version
    assert {label: b["custom_id"] for label, b in buttons(sent).items()} == {
        "Activate (axis)": f"ic:1:v{version}:activate",
        "CMT (axis)": f"ic:1:v{version}:cmt",
        "Pass (axis)": f"ic:1:v{version}:pass",
    }

    sent = await discord.slash("act", user=OTTO, channel="1", unit="gruppe-3", move="50,39")
    body, kinds, parts = card_of(sent)
    assert kinds == [10, 12, 1]
    assert "may react until" in text_of(body)
    assert [b["label"] for b in parts[2]["components"]] == ["React", "No reaction"]  # allies' answers

    sent = await discord.slash("noreact", user=ANN, channel="1")
    _, kinds, _ = card_of(sent)
    assert kinds == [10, 12, 1] and set(buttons(sent)) == {"Activate (axis)", "CMT (axis)", "Pass (axis)"}
