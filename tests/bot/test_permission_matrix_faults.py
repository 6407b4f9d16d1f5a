"""Every command and button of the permission matrix that changes a game, sent by a user who may,
in every phase, while Discord fails the request that follows its acknowledgement (issue 30). The
failures are dealt out in turn over the rows, so that every row meets one in each phase and every
failure meets many rows. The command is stored once or not at all, and the player is never told
otherwise; nothing is posted twice; nothing escapes the bot (the harness would raise it here).

The whole sequence of requests of a few actions, each failing in every way, is
tests/bot/test_discord_faults.py; this is the breadth of it."""

from __future__ import annotations

import pytest

from tests.bot.discord_double import FAULTS, quick_retries
from tests.bot.discord_harness import close_bot, text_of
from tests.bot.test_permission_matrix import (  # noqa: F401 (the module's fixtures)
    GAME,
    PHASES,
    changed_tables,
    copies,
    open_table,
    phases,
    send,
)
from tests.storage.copies import SqliteCopies

NOT_STORED = "your command was not stored"


@pytest.mark.parametrize("phase", PHASES)
async def test_every_change_survives_discord_failing_after_its_acknowledgement(
    phase, phases, copies, monkeypatch  # noqa: F811
):
    if not isinstance(copies, SqliteCopies):
        pytest.skip("Discord's failures reach the same services on either database")
    await copies.restore(phase)
    pristine = await copies.rows()
    bot, discord = await open_table(copies.url, monkeypatch)
    quick_retries(monkeypatch)
    before = await copies.mark()
    stored = await bot.games.store.load(GAME.channel)
    state = stored and stored.state
    faults, wrong, met = list(FAULTS), [], 0
    for number, entry in enumerate(GAME.rows):
        user = next((user for user in GAME.users.values() if user in entry.may_in(phase)), None)
        if user is None or entry.kind == "form" or entry.answer != "changed":
            continue
        fault = faults[(number + PHASES.index(phase)) % len(faults)]
        failing = discord.fail("*", FAULTS[fault]())
        failing.after = 1  # the acknowledgement goes through
        first = len(discord.delivered)
        await send(discord, GAME, phases["window open"], state, entry, user)
        discord.faults.clear()
        met += failing.hits > 0
        delivered = discord.delivered[first:]
        told = " ".join(text_of(message) for _, message, _ in delivered)
        changed = await changed_tables(copies, pristine, before)
        where = f"{entry.name} with {fault}"
        if changed and NOT_STORED in told:
            wrong.append(f"{where}: stored, but the player read it was not: {told[:120]!r}")
        if not changed and NOT_STORED not in told and delivered:
            wrong.append(f"{where}: not stored, and the player read: {told[:120]!r}")
        if "Check what it changed" in told:
            wrong.append(f"{where}: the player was not told whether it was stored: {told[:300]!r}")
        posts = [message["id"] for route, message, _ in delivered if route.startswith("POST")]
        if len(posts) != len(set(posts)):
            wrong.append(f"{where}: posted twice")
        if changed:
            await copies.restore(phase)
            before = await copies.mark()
    await bot.campaigns.close()
    await close_bot(bot)
    await copies.close()
    assert not wrong, "\n".join(wrong)
    assert met > 0 or phase == "game over"  # the failures were met (a finished game changes little)
