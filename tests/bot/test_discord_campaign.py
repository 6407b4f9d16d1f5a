"""/campaign through the real command tree: set up, private sealed orders, a reminder posted to
the players who owe orders, and the reveal in the channel."""

from datetime import timedelta

import pytest

from tests.bot.discord_harness import ANN, EVE, OTTO, close_bot, messages, open_bot, reply


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    yield bot, discord
    await bot.campaigns.close()
    await close_bot(bot)


def posted(sent):
    """The messages posted in channels (not interaction replies)."""
    return [e["payload"]["content"] for e in sent if e["route"] == "POST /channels/{channel_id}/messages"]


def private(sent):
    """Every text sent, each with whether only the user who asked could see it."""
    found = []
    for entry in sent:
        body = entry["payload"] or {}
        data = body.get("data", body)
        if data.get("content"):
            found.append((data["content"], bool(data.get("flags", 0) & 64)))
    return found


async def test_a_campaign_in_discord_seals_reminds_and_reveals(bot_and_discord):
    bot, discord = bot_and_discord
    text, ephemeral = reply(
        await discord.slash(
            "campaign new",
            user=ANN,
            channel="1",
            name="Barrikady",
            german=f"<@{ANN}>",
            russian=f"<@{OTTO}>",
            german_cpp=10,
            russian_cpp=12,
            days=2,
        )
    )
    deadline = int((bot.games.clock.now() + timedelta(days=1)).timestamp())
    assert not ephemeral and f"1. 17 Oct purchases: open, deadline <t:{deadline}:R>" in text
    assert f"German (<@{ANN}>): not yet submitted" in text

    sent = await discord.slash("campaign submit", user=ANN, channel="1", buy="M2")
    assert private(sent) == [
        ("German orders sealed for phase 1 (17 Oct purchases): M2 Sniper (1 CPP of 10 left)", True)
    ]
    assert posted(sent) == []
    sent = await discord.slash("campaign submit", user=EVE, channel="1", buy="none")
    assert private(sent) == [(f"{EVE} does not play in the campaign Barrikady", True)]

    text, ephemeral = reply(await discord.slash("campaign status", user=OTTO, channel="1"))
    assert not ephemeral and f"German (<@{ANN}>): submitted" in text and "Sniper" not in text

    before = len(discord.sent)
    await bot.games.clock.advance(timedelta(hours=23))
    assert posted(discord.sent[before:]) == [
        f"Barrikady, phase 1 (17 Oct purchases): <@{OTTO}>, your side still owes its RG purchases for "
        f"the CG Day (or none); deadline <t:{deadline}:R>. Submit with /campaign submit"
    ]

    sent = await discord.slash("campaign submit", user=OTTO, channel="1", buy="none")
    (revealed,) = posted(sent)
    assert revealed.splitlines()[:3] == [
        "**Barrikady**: phase 1 (17 Oct purchases) revealed",
        "German: M2 Sniper",
        "Russian: no purchase",
    ]
    assert (
        "Russian orders sealed for phase 1 (17 Oct purchases): no purchase (0 CPP of 12 left)",
        True,
    ) in private(sent)
    text, _ = reply(await discord.slash("campaign ledger", user=EVE, channel="1"))
    assert "Bought M2 Sniper (1 CPP); 9 CPP left" in text
    assert messages(await discord.slash("campaign ledger", user=EVE, channel="1", csv=True)) == [
        "The campaign ledger"
    ]
