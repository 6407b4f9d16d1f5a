"""/campaign through the real command tree: set up, private sealed orders (typed or through the
form), a reminder posted to the players who owe orders, the reveal in the channel, the order of
battle, and the referee's ledger corrections in the table and the CSV file."""

import csv
import io
import json
from datetime import timedelta

import pytest

from engine.dice import ScriptedDice
from tests.bot.discord_harness import (
    ANN,
    EVE,
    OTTO,
    answers_in,
    attachments,
    buttons,
    close_bot,
    form,
    messages,
    open_bot,
    reply,
)


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
    return [(body["content"], hidden) for body, hidden, _ in answers_in(sent) if body.get("content")]


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
        ("German orders sealed for phase 1 (17 Oct purchases): M2 Sniper (1 of 10 CPP spent)", True)
    ]
    assert posted(sent) == []
    sent = await discord.slash("campaign submit", user=EVE, channel="1", buy="none")
    assert private(sent) == [("You do not play in the campaign Barrikady", True)]

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
        "Russian orders sealed for phase 1 (17 Oct purchases): no purchase (0 of 12 CPP spent)",
        True,
    ) in private(sent)
    text, _ = reply(await discord.slash("campaign ledger", user=EVE, channel="1"))
    assert "Bought M2 Sniper (1 CPP); 9 CPP left" in text
    assert messages(await discord.slash("campaign ledger", user=EVE, channel="1", csv=True)) == [
        "The campaign ledger"
    ]


REF = "304"


async def new_campaign(discord, days=2, referee=True):
    return await discord.slash(
        "campaign new",
        user=ANN,
        channel="1",
        name="Barrikady",
        german=f"<@{ANN}>",
        russian=f"<@{OTTO}>",
        german_cpp=10,
        russian_cpp=12,
        days=days,
        **({"referee": f"<@{REF}>"} if referee else {}),
    )


def channel_buttons(sent):
    """The buttons under the messages posted in channels, by label."""
    return {
        item["label"]: item
        for e in sent
        if e["route"] == "POST /channels/{channel_id}/messages"
        for row in e["payload"].get("components", [])
        for item in row["components"]
    }


async def test_orders_are_sealed_through_a_form_from_the_command_or_the_phase_button(bot_and_discord):
    bot, discord = bot_and_discord
    bot.games.dice = lambda: ScriptedDice([])
    button = buttons(await new_campaign(discord))["Submit orders"]

    # someone who does not play gets no form, only a private refusal
    sent = await discord.click(button, user=EVE, channel="1")
    assert private(sent) == [("You do not play in the campaign Barrikady", True)]

    # Otto opens the form from the button; an order that cannot be read seals nothing
    opened = form(await discord.click(button, user=OTTO, channel="1"))
    assert [i["label"] for row in opened["components"] for i in row["components"]] == [
        "RG purchases: one ID a line, or none",
        "Fortifications (FPP), one a line",
    ]
    sent = await discord.submit(opened, {"RG": "I3\ntwo tanks"}, user=OTTO, channel="1")
    (refusal,) = private(sent)
    assert refusal == (
        "Nothing was sealed: Cannot read 'two tanks' as an RG: write its ID from the RG chart, e.g. "
        '"I1, O2 2 hexes, S1 at 2 CPP, A1 dug-in, A9 251/10, O5 for O2", or "none" for no purchase',
        True,
    )
    opened = form(await discord.slash("campaign submit", user=OTTO, channel="1"))
    answer = {"RG": "M1", "Fort": "2 x Trench\nWire\nBooby Traps"}
    sent = await discord.submit(opened, answer, user=OTTO, channel="1")
    assert private(sent) == [
        (
            "Nothing was sealed: Russian has 11 FPP left on 17 Oct; 1 x Booby Traps at 40 FPP per item "
            "would cost 40 FPP (29 short)",
            True,
        )
    ]
    text, _ = reply(await discord.slash("campaign status", user=ANN, channel="1"))
    assert f"Russian (<@{OTTO}>): not yet submitted" in text

    # Ann's form from /campaign submit: her answer is for her eyes only, nothing is posted
    opened = form(await discord.slash("campaign submit", user=ANN, channel="1"))
    sent = await discord.submit(opened, {"RG": "M1\nM2", "Fort": "2 x Trench"}, user=ANN, channel="1")
    assert private(sent) == [
        (
            "German orders sealed for phase 1 (17 Oct purchases): M1 Fortifications, M2 Sniper; "
            "fortifications: 2 x Trench (2 of 10 CPP spent; 14 of 20 FPP spent)",
            True,
        )
    ]
    assert posted(sent) == []

    late = form(await discord.slash("campaign submit", user=ANN, channel="1"))  # sent after the reveal

    # Otto's answer reveals the phase; its announcement carries the button for phase 2
    opened = form(await discord.click(button, user=OTTO, channel="1"))
    sent = await discord.submit(opened, {"RG": "none"}, user=OTTO, channel="1")
    (revealed,) = posted(sent)
    assert revealed.splitlines()[1:3] == [
        "German: M1 Fortifications, M2 Sniper; fortifications: 2 x Trench",
        "Russian: no purchase",
    ]
    next_button = channel_buttons(sent)["Submit orders"]
    assert next_button["custom_id"] == "icc:1:2:submit"
    text, _ = reply(await discord.slash("campaign orbat", user=EVE, channel="1", side="german"))
    assert text.splitlines()[1:] == [
        "17 Oct  M1 Fortifications: 20 FPP",
        "17 Oct  M2 Sniper: SAN Increase +1",
        "17 Oct  Fortifications: 2 x Trench (14 FPP)",
    ]
    # the old button now refuses at once, with no form to fill in vain
    sent = await discord.click(button, user=OTTO, channel="1")
    assert private(sent) == [("Phase 1 (17 Oct purchases) is closed: it has been revealed", True)]
    # a form opened for phase 1 but sent after its reveal seals nothing, for phase 2 either
    (refusal,) = private(await discord.submit(late, {"RG": "A4"}, user=ANN, channel="1"))
    assert refusal == ("Nothing was sealed: Phase 1 (17 Oct purchases) is closed: it has been revealed", True)
    text, _ = reply(await discord.slash("campaign status", user=ANN, channel="1"))
    assert f"German (<@{ANN}>): not yet submitted" in text


async def test_the_referee_corrects_the_ledger_and_the_table_and_csv_show_both(bot_and_discord):
    bot, discord = bot_and_discord
    bot.games.dice = lambda: ScriptedDice([])
    await new_campaign(discord)
    await discord.slash("campaign submit", user=ANN, channel="1", buy="M2")
    await discord.slash("campaign submit", user=OTTO, channel="1", buy="M2")
    before, _ = reply(await discord.slash("campaign ledger", user=ANN, channel="1"))

    for user in (ANN, OTTO, EVE):
        sent = await discord.slash("campaign correct", user=user, channel="1", entry=2, to="void", reason="x")
        assert private(sent) == [("Only the campaign's referee may correct its ledger", True)]
    sent = await discord.slash("campaign correct", user=REF, channel="1", entry=9, to="void", reason="x")
    assert private(sent) == [("The ledger has no entry #9: its entries are #0 to #5", True)]
    assert reply(await discord.slash("campaign ledger", user=ANN, channel="1"))[0] == before

    correction = {"entry": 2, "to": "void", "reason": "no snipers"}
    sent = await discord.slash("campaign correct", user=REF, channel="1", **correction)
    text, ephemeral = reply(sent)
    assert not ephemeral and text == (
        "Ledger entry #2 corrected:\n6  17 Oct  German   correction  -1 CPP        corrects #2: Void: "
        "M2 Sniper; 1 CPP back, 10 CPP left (reason: no snipers)"
    )
    table, _ = reply(await discord.slash("campaign ledger", user=EVE, channel="1"))
    assert "Bought M2 Sniper (1 CPP); 9 CPP left [corrected by #6]" in table
    assert "corrects #2: Void: M2 Sniper" in table
    sent = await discord.slash("campaign ledger", user=EVE, channel="1", csv=True)
    (csv_file,) = attachments(sent)
    rows = list(csv.reader(io.StringIO(csv_file.decode())))
    assert [row[0] for row in rows] == ["index", "0", "1", "2", "3", "4", "5", "6"]
    assert rows[3][7] == "Bought M2 Sniper (1 CPP); 9 CPP left"
    assert rows[7][3:] == [
        "correction",
        "-1",
        "CPP",
        "",
        "Void: M2 Sniper; 1 CPP back, 10 CPP left",
        "2",
        "no snipers",
    ]
    text, _ = reply(await discord.slash("campaign orbat", user=EVE, channel="1", side="german"))
    assert "Sniper" not in text


async def test_a_long_ledger_comes_in_several_fenced_messages(bot_and_discord):
    _, discord = bot_and_discord
    await new_campaign(discord, referee=False)  # Ann organised it: with no referee, she corrects
    for cpp in range(20):
        await discord.slash("campaign correct", user=ANN, channel="1", entry=0, to=str(cpp), reason="trying")
    pieces = messages(await discord.slash("campaign ledger", user=EVE, channel="1"))
    assert len(pieces) > 1
    assert all(len(piece) <= 2000 for piece in pieces)
    assert all(piece.startswith("```\n") and piece.endswith("\n```") for piece in pieces)
    rows = [line for piece in pieces for line in piece.splitlines() if line != "```"]
    assert len(rows) == 1 + 2 + 20 and rows[-1].startswith("21  17 Oct  German   correction")


async def test_no_reply_to_the_other_side_shows_sealed_orders_before_the_reveal(bot_and_discord):
    bot, discord = bot_and_discord
    bot.games.dice = lambda: ScriptedDice([])
    button = buttons(await new_campaign(discord))["Submit orders"]
    opened = form(await discord.slash("campaign submit", user=ANN, channel="1"))
    await discord.submit(opened, {"RG": "S1\nM1", "Fort": "Wire"}, user=ANN, channel="1")

    seen = []
    for command, options in [
        ("campaign status", {}),
        ("campaign ledger", {}),
        ("campaign ledger", {"csv": True}),
        ("campaign orbat", {}),
        ("campaign correct", {"entry": 0, "to": "void", "reason": "peek"}),
        ("campaign submit", {"buy": "Z9"}),
        ("campaign submit", {"buy": "none", "side": "german"}),
        ("campaign submit", {"phase": 2}),
    ]:
        seen.append(await discord.slash(command, user=OTTO, channel="1", **options))
    seen.append(await discord.click(button, user=OTTO, channel="1"))
    opened = form(seen[-1])  # a refused form shows nothing of the other side either
    seen.append(await discord.submit(opened, {"RG": "A4", "Fort": "Trench"}, user=OTTO, channel="1"))
    for sent in seen:
        shown = json.dumps(sent, default=repr) + "".join(f.decode() for f in attachments(sent))
        assert not any(word in shown for word in ("Stuka", "Wire", "M1 Fortifications", "20 FPP")), shown
    assert posted([entry for sent in seen for entry in sent]) == []

    opened = form(await discord.click(button, user=OTTO, channel="1"))
    (revealed,) = posted(await discord.submit(opened, {"RG": "none"}, user=OTTO, channel="1"))
    assert "German: S1 Stuka, M1 Fortifications; fortifications: 1 x Wire" in revealed


def filled(opened):
    """What each input of a form opens with, by label (None for an empty input)."""
    return {
        item["label"]: item.get("value")
        for row in opened["components"]
        for item in row["components"]
        if item.get("type") == 4
    }


async def test_a_form_opened_again_before_the_reveal_holds_the_side_s_sealed_orders(bot_and_discord):
    bot, discord = bot_and_discord
    bot.games.dice = lambda: ScriptedDice([])
    button = buttons(await new_campaign(discord))["Submit orders"]
    groups, forts = "RG purchases: one ID a line, or none", "Fortifications (FPP), one a line"
    opened = form(await discord.slash("campaign submit", user=ANN, channel="1"))
    assert filled(opened) == {groups: None, forts: None}
    answer = {"RG": "m1, O1 2 hexes", "Fort": "2 x trench, 3 Foxhole at 2"}
    first = private(await discord.submit(opened, answer, user=ANN, channel="1"))

    # Ann opens the form again, from the command or the button: her sealed orders, as she would type them
    for sent in (
        await discord.slash("campaign submit", user=ANN, channel="1"),
        await discord.click(button, user=ANN, channel="1"),
    ):
        opened = form(sent)
        assert filled(opened) == {groups: "M1\nO1 2 hexes", forts: "2 x Trench\n3 x Foxhole at 2"}
    # sent back unchanged, they seal the same orders
    again = {"RG": "M1\nO1 2 hexes", "Fort": "2 x Trench\n3 x Foxhole at 2"}
    assert private(await discord.submit(opened, again, user=ANN, channel="1")) == first

    # the other side's form opens empty: nothing of Ann's orders
    opened = form(await discord.click(button, user=OTTO, channel="1"))
    assert filled(opened) == {groups: None, forts: None}
    # the referee's form for a side holds that side's orders; no form opens for phase 2 yet
    opened = form(await discord.slash("campaign submit", user=REF, channel="1", side="german"))
    assert filled(opened) == {groups: "M1\nO1 2 hexes", forts: "2 x Trench\n3 x Foxhole at 2"}
    sent = await discord.slash("campaign submit", user=ANN, channel="1", phase=2)
    assert reply(sent) == (
        "Phase 2 (18 Oct purchases) is not open yet: it opens when phase 1 is revealed",
        True,
    )


async def test_the_referee_records_retained_units_for_the_order_of_battle(bot_and_discord):
    bot, discord = bot_and_discord
    await new_campaign(discord)
    sent = await discord.slash("campaign retain", user=ANN, channel="1", side="german", units="9 x 4-6-7")
    assert private(sent) == [("Only the campaign's referee may record retained units", True)]
    units = "9 x 4-6-7, 8-1"
    sent = await discord.slash("campaign retain", user=REF, channel="1", side="german", units=units)
    text, ephemeral = reply(sent)
    assert not ephemeral and text == (
        "Retained units recorded:\n2  17 Oct  German   retained              Retained: 9 x 4-6-7, 8-1"
    )
    text, _ = reply(await discord.slash("campaign orbat", user=OTTO, channel="1", side="german"))
    assert text == "**German order of battle**\nRetained: 9 x 4-6-7, 8-1"


async def test_the_organiser_sets_the_reminders_at_campaign_new(bot_and_discord):
    bot, discord = bot_and_discord
    options = {"name": "Barrikady", "german": f"<@{ANN}>", "russian": f"<@{OTTO}>", "days": 1}
    cpp = {"german_cpp": 10, "russian_cpp": 12}
    sent = await discord.slash("campaign new", user=ANN, channel="1", **options, **cpp, reminders="soon")
    assert private(sent) == [
        ("Cannot read 'soon' as a length of time: write e.g. 24h, 90m, 1d12h or 2w", True)
    ]
    await discord.slash("campaign new", user=ANN, channel="1", **options, **cpp, reminders="6h")
    before = len(discord.sent)
    await bot.games.clock.advance(timedelta(hours=18) - timedelta(seconds=1))
    assert posted(discord.sent[before:]) == []
    await bot.games.clock.advance(timedelta(seconds=1))
    (reminder,) = posted(discord.sent[before:])
    assert reminder.startswith(
        f"Barrikady, phase 1 (17 Oct purchases): <@{ANN}>, <@{OTTO}>, your side still owes"
    )
    await bot.games.clock.advance(timedelta(hours=6))  # no 1 h reminder: only the one asked for
    assert [text.splitlines()[0] for text in posted(discord.sent[before:])] == [
        reminder,
        "**Barrikady**: phase 1 (17 Oct purchases) revealed",
    ]


async def test_the_organiser_may_say_unspent_cpp_do_not_carry_over(bot_and_discord):
    bot, discord = bot_and_discord
    options = {"name": "Barrikady", "german": f"<@{ANN}>", "russian": f"<@{OTTO}>"}
    await discord.slash(
        "campaign new", user=ANN, channel="1", **options, german_cpp=10, russian_cpp=12, carry_over=False
    )
    await discord.slash("campaign submit", user=ANN, channel="1", buy="M2")
    await discord.slash("campaign submit", user=OTTO, channel="1", buy="none")
    table, _ = reply(await discord.slash("campaign ledger", user=EVE, channel="1"))
    assert "CPP for 18 Oct set to 10; 10 CPP left" in table  # 9 unspent on 17 Oct, not carried over
    assert "CPP for 18 Oct set to 12; 12 CPP left" in table


async def test_the_referee_sets_the_balance_provision_cg_ii_and_records_chits(bot_and_discord):
    """/campaign balance (RB 11.32), cg2 (German Leader DRM) and chit (compilation rule 11)."""
    bot, discord = bot_and_discord
    await new_campaign(discord)
    sent = await discord.slash("campaign balance", user=ANN, channel="1", side="russian", drm=-1)
    assert private(sent) == [("Only the campaign's referee may set a Balance provision DRM", True)]
    text, ephemeral = reply(
        await discord.slash("campaign balance", user=REF, channel="1", side="russian", drm=-1)
    )
    assert not ephemeral and text.endswith(
        "Balance provision (11.32) DRM -1 (was +0) on RG strength, gun battery and OBA ammo rolls"
    )
    text, _ = reply(await discord.slash("campaign cg2", user=REF, channel="1", on=True))
    assert text.endswith("CG II scenarios: +1 German Leader DRM (Leader DRM table)")
    sent = await discord.slash("campaign chit", user=REF, channel="1", entry=0, colour="red")
    assert private(sent) == [
        ("Ledger entry #0 is not the purchase of an OBA module in the order of battle", True)
    ]
