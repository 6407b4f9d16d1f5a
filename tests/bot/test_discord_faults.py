"""Discord failing the bot's requests as it really does (issue 30): a slash command, a button, a
reaction's Confirm at the end of its taps and the kinds of deadline post, each with every failure
Discord sends, at each request the action makes. The game
and its store are always as the action left them (its one command stored, or none), the player is
told what became of it when an answer can still reach them, a deadline's post is made in the end,
and nothing is posted twice."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.storage.store import StoredGame
from engine.dice import ScriptedDice, d6, d10
from tests.bot.discord_double import FAULTS, quick_retries
from tests.bot.discord_harness import (
    ANN,
    MANAGE_GUILD,
    OTTO,
    Pick,
    buttons,
    close_bot,
    menus,
    open_bot,
    started_game,
    text_of,
)

DECLARED = "The Axis declare: Gruppe 3: move to 50.0,39.0"
MOVED = 'Gruppe 3 moves 3.0" to 50.0,39.0'


async def declare(bot, discord) -> list:
    return await discord.slash("act", user=OTTO, channel="1", unit="Gruppe 3", move="50,39")


async def opening(bot, discord) -> None:
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")


async def declared(bot, discord) -> None:
    await opening(bot, discord)
    discord.card = buttons(await declare(bot, discord))


async def no_reaction(bot, discord) -> list:
    return await discord.click(discord.card["No reaction"], user=ANN, channel="1")


def option(menu: dict, label: str) -> str:
    return next(o["value"] for o in menu["options"] if o["label"].startswith(label))


async def reacting(bot, discord) -> None:
    """Sherman 2's shot at Gruppe 3 before it moves, built by taps up to its Confirm."""
    await declared(bot, discord)
    (units,) = menus(await discord.click(discord.card["React"], user=ANN, channel="1"))
    chosen = await discord.choose(units, [option(units, "Sherman 2")], user=ANN, channel="1")
    (when,) = menus(await discord.click(buttons(chosen)["Fire"], user=ANN, channel="1"))
    (targets,) = menus(await discord.choose(when, ["now"], user=ANN, channel="1"))
    aimed = await discord.choose(targets, [option(targets, "Gruppe 3")], user=ANN, channel="1")
    discord.confirm = buttons(aimed)["Confirm"]
    bot.games.dice = lambda: ScriptedDice([d6(5), d10(2)])


async def react_by_taps(bot, discord) -> list:
    return await discord.click(discord.confirm, user=ANN, channel="1")


def after(delay: int):
    """Time passing, till a deadline is met and its post made."""

    async def waiting(bot, discord) -> list:
        before = len(discord.sent)
        await bot.games.clock.advance(delay)
        return discord.sent[before:]

    return waiting


async def nothing(bot, discord) -> None:
    return None


REFEREE, ADMIN = "304", "305"


async def refereed_with_a_deadline(bot, discord) -> None:
    """A referee appointed by a server admin gives the Axis, who start, two hours to act."""
    discord.permissions[ADMIN] = MANAGE_GUILD
    await discord.slash("ref appoint", user=ADMIN, channel="1", referee=Pick(REFEREE))
    await opening(bot, discord)
    await discord.slash("ref clock deadline", user=REFEREE, channel="1", side="axis", hours=2.0)


async def a_campaign_phase(bot, discord) -> None:
    """A Red Barricades campaign in another channel, its first phase open 90 minutes with a
    reminder 30 minutes before its end, one side sealed (short phases: a lasting failure is
    tried again through the phase's every minute)."""
    await discord.slash(
        "campaign new",
        user=ANN,
        channel="5",
        name="Barrikady",
        german=f"<@{ANN}>",
        russian=f"<@{OTTO}>",
        german_cpp=10,
        russian_cpp=12,
        days=2,
        every="90m",
        reminders="30m",
    )
    await discord.slash("campaign submit", user=ANN, channel="5", buy="M2")


# each state-changing action: how its game is set up, the action, what its answer says, and for a
# deadline the start of the post it must make once
ACTIONS = {
    "slash command": (opening, declare, DECLARED, None),
    "button": (declared, no_reaction, MOVED, None),
    "reaction's Confirm": (reacting, react_by_taps, "Sherman 2 fires at Gruppe 3", None),
    "window's deadline": (declared, after(120), MOVED, "The reaction window closed"),
    "turn ping": (nothing, after(600), "the game waits for you", f"<@{OTTO}>: the game waits for you"),
    "referee's deadline": (refereed_with_a_deadline, after(7200), "deadline", "The Axis did not act by"),
    "campaign reminder": (a_campaign_phase, after(60 * 60), "still owes", "Barrikady, phase 1"),
    "campaign reveal": (a_campaign_phase, after(90 * 60), "revealed", "**Barrikady**: phase 1"),
}


async def game_after(action: str, database_url: str, monkeypatch, fault: str | None = None, at: int = 0):
    """Play ``action`` with Discord failing its request number ``at`` (and, for a lasting fault,
    every one after) with ``fault``; then Discord is well again. The bot, the harness, what the
    action sent, and the stored game before it."""
    bot, discord = await open_bot(database_url, monkeypatch)
    quick_retries(monkeypatch)
    await started_game(bot, discord)
    set_up, act, _, _ = ACTIONS[action]
    await set_up(bot, discord)
    before = await bot.games.store.load("1")
    discord.delivered.clear()
    failing = discord.fail("*", FAULTS[fault]()) if fault is not None else None
    if failing is not None:
        failing.after = at
    sent = await act(bot, discord)
    assert failing is None or failing.hits > 0, "the fault was never met"
    discord.faults.clear()
    await bot.games.clock.advance(5)  # the outbox tries a deadline's post again
    return bot, discord, sent, before


# Discord fails every request from then on, till it is well (an interaction's token is dead for good)
def posts(discord) -> Counter:
    """The messages Discord posted (not edits), by their text: how many times each."""
    return Counter(text_of(message) for route, message, _ in discord.delivered if route.startswith("POST"))


WELL: dict[str, tuple[int, StoredGame, Counter]] = {}


async def with_discord_well(action: str, database_url: str, monkeypatch) -> tuple[int, StoredGame, Counter]:
    """The action played with Discord failing nothing: how many requests it makes, the stored
    game after it, and what it posted. The same whatever fault a test then tries (the game, its
    dice and its clock are the same each time), so played once for each action."""
    if action not in WELL:
        bot, discord, sent, _ = await game_after(action, database_url, monkeypatch)
        WELL[action] = (len(sent), await bot.games.store.load("1"), posts(discord))
        await bot.campaigns.close()
        await close_bot(bot)
    return WELL[action]


LASTING = {"server error", "bad gateway", "unknown interaction", "token expired"}


@pytest.mark.parametrize("fault", list(FAULTS))
@pytest.mark.parametrize("action", list(ACTIONS))
async def test_a_failure_at_any_request_leaves_the_game_as_the_action_left_it(
    action, fault, new_database, monkeypatch
):
    requests, finished, shown = await with_discord_well(action, new_database(), monkeypatch)
    _, _, result, deadline_post = ACTIONS[action]
    for at in range(requests):
        bot, discord, sent, before = await game_after(action, new_database(), monkeypatch, fault, at)
        where = f"{fault} at request {at + 1} of {requests} of the {action} ({sent[at]['route']})"
        stored = await bot.games.store.load("1")
        made = (stored.version, stored.state) == (finished.version, finished.state)
        assert made or (stored.version, stored.state) == (before.version, before.state), where
        assert made or deadline_post is None, where  # a deadline's command owes Discord nothing
        told = [text_of(message) for _, message, _ in discord.delivered]
        if made and deadline_post is None and fault not in LASTING and at > 0:  # an answer can reach them
            assert any(result in text or "Your command was stored" in text for text in told), (where, told)
        if not made:
            assert not any(result in text for text in told), (where, told)
        twice = [text for text, times in posts(discord).items() if times > max(shown[text], 1)]
        assert not twice, (where, twice)  # nothing posted twice
        if deadline_post is not None:  # posted in the end, once
            assert sum(text.startswith(deadline_post) for text in told) == 1, (where, told)
        await bot.campaigns.close()
    await close_bot(bot)
