"""The permission matrix of tests/bot/test_permission_matrix.py for the buttons and menus of the
action cards (issue 21): a game played by taps, sent by every role in every phase of the same
refereed team game, the whole store compared before and after, on both databases (the same
sample on PostgreSQL).

Each phase sends the buttons of the card that reached it (the initiative's choice, the active
side's Activate, CMT and Pass), and an order built by taps as Bob builds it there (his Sherman:
Activate, the unit, Move, a square, a spot in it, Confirm). A phase whose card offers no such
item sends the first kept card's, as a stale message's would be clicked. The steps before
Confirm are private and change nothing: those who may order are shown the next step, the
others are refused, and the store stays byte-identical for all.

The same rows send a scenario's set-up by taps (the allies' steps, a unit set up, the side's
set-up ended), the reserve calls and the turning of long menus' pages, each made at the phase's
version where no card of that phase shows it.

Beside it: a pending choice answered by the card's menu and by /choose, and the reserves a quick
battle's side calls at a turn's start, by the card's buttons, its menu and /reserves (each a
phase of its own, in another channel), the help's pages shown to change nothing, and a check
that every ``DynamicItem`` the client registers is sent by a row here or named as changing
nothing.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from typing import Any

import discord
import pytest

from bot.discord_adapter.action_card import NO_TARGET, OPENING, step_button, step_id
from bot.discord_adapter.client import IronCrossBot
from bot.discord_adapter.help_command import PageButton, TopicSelect, page_text
from bot.discord_adapter.tap_orders import Draft, destination_options, square_name
from bot.help_pages import PAGES
from bot.text_orders import GRID
from engine.dice import ScriptedDice, d6
from engine.game_state import GameState
from tests.bot.discord_harness import ANN, EVE, OTTO, Pick, close_bot, menus, role
from tests.bot.test_discord_play import with_a_reserve
from tests.bot.test_discord_team_referee import POOL, RUTH, SHERMAN, UMPIRES
from tests.bot.test_permission_matrix import (
    ALLIES,
    AXIS,
    BOB,
    BOSS,
    CAMPAIGN_SETTING,
    CHANNEL,
    GAME,
    NOT_HERE,
    PAT,
    PHASES,
    PLAYING,
    REF,
    REFEREES,
    SERVER,
    SERVER_ITEMS,
    TABLE_BUILDING,
    USERS,
    Setting,
    Snapshot,
    answer,
    axis_start_a_refereed_quick_battle,
    campaign,
    card_items,
    cell,
    copies,
    fixed,
    next_to_set_up,
    open_table,
    phases,
    run_matrix,
)

__all__ = ["campaign", "copies", "phases"]  # the matrix's own fixtures, shared

UNITS, DESTINATION, SPOT, TARGET = "The unit to activate", "Destination", "Exactly where", "Target"
TO_SET_UP, SQUARE, SET_UP_SPOT = "The unit to set up", "Grid square", "Exactly where (set-up)"
RESERVES = "Call up to"  # the menu of a side's reserves to call


def place(state: GameState, unit_id: str | None) -> str:
    """A unit's place in the game's unit list, as a tap order names it ("0" before it exists)."""
    return str(list(state.units).index(unit_id)) if unit_id in state.units else "0"


def the_sherman(state: GameState) -> dict[str, Any]:
    return {"values": [place(state, SHERMAN)]}


def its_square(state: GameState) -> dict[str, Any]:
    """The grid square the Sherman stands in (A1 before it is on the table)."""
    unit = state.units.get(SHERMAN)
    at = unit.position if unit else None
    return {"values": [square_name(int(at.x // GRID), int(at.y // GRID)) if at else "A1"]}


def spot_of(at: str) -> str:
    """The grid square a point lies in, as the set-up's spot menu offers its centre."""
    x, y = (float(v) for v in at.split(","))
    return square_name(int(x // GRID), int(y // GRID))


def the_next_to_set_up(state: GameState) -> dict[str, Any]:
    """The unit whose turn it is to set up (Ann's, in the phase "set-up")."""
    return {"values": [place(state, next_to_set_up(state)["unit"])]}


def in_their_area(state: GameState) -> dict[str, Any]:
    """A grid square of the allies' set-up area (their first 12"), or a spot at its centre."""
    return {"values": ["B1"]}


def the_pool(state: GameState) -> dict[str, Any]:
    """The allied CO's reserve (a team's reserves are the CO's pool, p. 25)."""
    return {"values": [place(state, POOL["allies"])]}


def an_enemy(state: GameState) -> str | None:
    return next((u.id for u in state.units.values() if u.side == "axis"), None)


def toward_an_enemy(state: GameState) -> dict[str, Any]:
    """A move toward an axis unit that the Sherman's destination menu offers (the way toward
    some crosses a building), else toward the first."""
    sherman = state.units.get(SHERMAN)
    draft = Draft(int(place(state, SHERMAN)), "move")
    offered = [o.value for o in destination_options(state, sherman, draft)] if sherman else []
    return {"values": [next((v for v in offered if v.startswith("~")), f"~{place(state, an_enemy(state))}")]}


def at_an_enemy(state: GameState) -> dict[str, Any]:
    return {"values": [place(state, an_enemy(state))]}


MOMENT = "a reaction's moment"  # an axis unit's, made here: no card of this game offers it
STEP = "step"  # a private step of an order: shown to those who may order, nothing stored
TAP_ROWS = (  # as the matrix's rows: who may, in which phases the item does what it says
    # this scenario's sides join with a force (/game join force:): a quick battle's Join by tap is
    # played in tests/bot/test_discord_taps.py; here every role is refused in every phase
    cell("Join the Allies", ALLIES, NOT_HERE, kind="button"),
    cell("Join the Axis", AXIS, NOT_HERE, kind="button"),
    cell("Start", ALLIES | AXIS | REFEREES, "ready", kind="button"),  # as /game start
    cell("Allies: go first", ALLIES, "initiative", kind="button"),  # the allies won it
    cell("Allies: let the Axis start", ALLIES, "initiative", kind="button"),
    cell("Activate (Allies)", ALLIES, PLAYING, kind="button", answer=STEP),
    cell("CMT (Allies)", ALLIES, PLAYING, kind="button"),
    # once a token is spent; a referee for the absent (as /pass)
    cell("Pass (Allies)", ALLIES | REFEREES, "running", kind="button"),
    cell("unit menu", ALLIES, PLAYING, the_sherman, kind="menu", answer=STEP, command=UNITS),
    cell("Move", ALLIES, PLAYING, kind="button", answer=STEP),
    cell("Rapid move", ALLIES, PLAYING, kind="button", answer=STEP),
    # no axis unit is in the Sherman's sight: the step says so and offers the other actions
    cell("Fire", ALLIES, PLAYING, kind="button", answer=STEP),
    cell("Move and fire", ALLIES, PLAYING, kind="button", answer=STEP),
    cell("Fire and move", ALLIES, PLAYING, kind="button", answer=STEP),
    cell("Fall back", ALLIES, PLAYING, kind="button", answer=STEP),
    cell("destination square", ALLIES, PLAYING, its_square, kind="menu", answer=STEP, command=DESTINATION),
    cell(
        "destination toward", ALLIES, PLAYING, toward_an_enemy, kind="menu", answer=STEP, command=DESTINATION
    ),
    cell("spot in the square", ALLIES, PLAYING, its_square, kind="menu", answer=STEP, command=SPOT),
    # no axis unit is in the Sherman's sight: its target menu never offers one (out of date)
    cell("target menu", ALLIES, PLAYING, at_an_enemy, kind="menu", answer="private", command=TARGET),
    cell("Confirm", {BOB}, PLAYING, kind="button"),  # his own unit's order (p. 25)
    # the engine asks for a choice only after fire or a morale test: none is pending (as /choose)
    cell("choice menu", ALLIES, NOT_HERE, fixed(values=[NO_TARGET]), kind="menu", command="choice"),
    # a long unit or target menu's next page, turned in place: a private step like the menus' (this
    # game's menus fill one page, and the page asked for is held to the pages there are)
    cell(  # in the window, the axis's units that may react
        "units page",
        ALLIES,
        PLAYING | {"window open"},
        kind="button",
        but=[("window open", AXIS)],
        answer=STEP,
        command="More units",
    ),
    # a reaction's moments on the declared move, a page on: the axis react in the window
    cell("moments page", AXIS, "window open", kind="button", answer=STEP, command="More moments"),
    cell("moment menu", AXIS, "window open", fixed(values=["now"]), kind="menu", answer=STEP, command=MOMENT),
    cell("targets page", ALLIES, PLAYING, kind="button", answer=STEP, command="More targets"),
    cell("destinations page", ALLIES, PLAYING, kind="button", answer=STEP, command="More destinations"),
    # a long choice's next page, opened privately from the card: no choice is pending here (the
    # phase "choice" below turns it)
    cell("choices page", ALLIES, NOT_HERE, kind="button", command="More choices"),
    # a scenario's set-up by taps, the allies' turn in "set-up": the steps are shown to either
    # allied player (as /deploy's), a unit is set up by its own player (p. 25, Ann's next), and
    # the side's set-up is ended by either, as /deploy done:true
    cell("Set up a unit (Allies)", ALLIES, "set-up", kind="button", answer=STEP),
    cell("set-up units page", ALLIES, "set-up", kind="button", answer=STEP, command="More to set up"),
    cell(
        "set-up unit menu", ALLIES, "set-up", the_next_to_set_up, kind="menu", answer=STEP, command=TO_SET_UP
    ),
    cell("set-up squares page", ALLIES, "set-up", kind="button", answer=STEP, command="More squares"),
    cell("set-up square menu", ALLIES, "set-up", in_their_area, kind="menu", answer=STEP, command=SQUARE),
    cell("set-up spot menu", ALLIES, "set-up", in_their_area, kind="menu", answer=STEP, command=SET_UP_SPOT),
    cell("Set it up", {ANN}, "set-up", kind="button"),
    # a sniper team's set-up, its dummy marker's spot after its own (p. 20): only a defending side
    # fields one, and none does in this Meeting Engagement, so a dummy for Ann's squad is refused
    # by every role (the sniper's taps are played in tests/bot/test_discord_taps.py)
    cell("Set it up with its dummy", (), NOT_HERE, kind="button"),
    # with units the allies may still set up, Done asks first (issue 32): Confirm ends the set-up,
    # Cancel changes nothing; either for an allied player only
    cell("Done setting up (Allies)", ALLIES, "set-up", kind="button", answer=STEP),
    cell("Confirm: done", ALLIES, "set-up", kind="button"),
    cell("Cancel: keep setting up", ALLIES, "set-up", kind="button", answer="private"),
    # a team's reserves are its CO's pool, sent on request (p. 25): no side of this team game
    # calls any at a turn's start, in any phase (a quick battle's calls are played below)
    cell("Call reserves (Allies)", ALLIES, NOT_HERE, kind="button", answer=STEP),
    cell("No reserves (Allies)", ALLIES, NOT_HERE, kind="button"),
    cell("reserves menu", ALLIES, NOT_HERE, the_pool, kind="menu", command=RESERVES),
)
TAPS = replace(GAME, rows=TAP_ROWS)


def drafted(place: str, action: str) -> tuple[object, ...]:
    """The arguments of an order's step for the unit at ``place`` doing ``action``, nothing else
    chosen yet."""
    return Draft(int(place), action).arguments()


def made(state: GameState, version: int) -> dict[str, dict[str, Any]]:
    """The items no card of this game offers, with the ids a card made at ``version`` would
    carry: a quick battle's Join and Start (a card of an earlier game in this channel keeps
    them, and versions start again with each game), the Sherman's target menu (no enemy is in
    its sight here), a pending choice's menu, a side's reserve calls (a team calls none), the
    set-up's steps (the phase "set-up" is kept without its card) with the next unit set up
    where ``/deploy`` sets it, a long menu's second page, and an axis unit's reaction moments."""
    channel = int(CHANNEL)
    sherman, unit = place(state, SHERMAN), place(state, next_to_set_up(state)["unit"])
    reactor = place(state, next((u.id for u in state.units.values() if u.side == "axis" and u.on_table), ""))
    spot = spot_of(next_to_set_up(state)["at"])  # where /deploy sets it, as the spot menu offers it

    def menu(step: str, *arguments: object) -> discord.ui.Select:
        options = [discord.SelectOption(label="?", value="0")]
        return discord.ui.Select(custom_id=step_id(channel, version, step, *arguments), options=options)

    menus = {
        TARGET: menu("at", *drafted(sherman, "fire")),
        MOMENT: menu("when", *drafted(reactor, "fire")),
        "choice": menu("choice"),
        RESERVES: menu("call", "allies"),
        TO_SET_UP: menu("placing"),
        SQUARE: menu("setupsquare", unit),
        SET_UP_SPOT: menu("setupspot", unit),
    }
    buttons = [
        step_button(channel, version, "join", "Join the Allies", "allies"),
        step_button(channel, version, "join", "Join the Axis", "axis"),
        step_button(channel, version, "start", "Start"),
        step_button(channel, version, "units", "More units", 1),
        step_button(channel, version, "targets", "More targets", *drafted(sherman, "fire"), 1),
        step_button(channel, version, "dests", "More destinations", *drafted(sherman, "move"), 1),
        step_button(channel, version, "choices", "More choices", OPENING, 1),
        step_button(channel, version, "whens", "More moments", *drafted(reactor, "fire"), 1),
        step_button(channel, version, "reserves", "Call reserves (Allies)", "allies"),
        step_button(channel, version, "noreserves", "No reserves (Allies)", "allies"),
        step_button(channel, version, "setup", "Set up a unit (Allies)", "allies"),
        step_button(channel, version, "setuppage", "More to set up", 1),
        step_button(channel, version, "setupsquares", "More squares", unit, 1),
        step_button(channel, version, "deploy", "Set it up", unit, spot),
        step_button(channel, version, "deploy", "Set it up with its dummy", unit, spot, "F2"),
        step_button(channel, version, "setupdone", "Done setting up (Allies)", "allies"),
        step_button(channel, version, "setupsure", "Confirm: done", "allies"),
        step_button(channel, version, "setupkeep", "Cancel: keep setting up", "allies"),
    ]
    return {b.label: b.to_component_dict() for b in buttons} | {
        name: menu.to_component_dict() for name, menu in menus.items()
    }


async def order_by_taps(discord, activate: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Bob's order for his Sherman, built by taps up to Confirm (not sent): every item shown on
    the way, by label or placeholder."""
    shown = card_items(await discord.click(activate, user=BOB, channel=CHANNEL))
    sherman = next(o for o in shown[UNITS]["options"] if o["label"].startswith("Sherman"))
    shown |= card_items(await discord.choose(shown[UNITS], [sherman["value"]], user=BOB, channel=CHANNEL))
    shown |= card_items(await discord.click(shown["Move"], user=BOB, channel=CHANNEL))
    square = shown[DESTINATION]["options"][0]["value"]
    shown |= card_items(await discord.choose(shown[DESTINATION], [square], user=BOB, channel=CHANNEL))
    shown |= card_items(await discord.choose(shown[SPOT], [square], user=BOB, channel=CHANNEL))
    assert "Confirm" in shown, shown
    return shown


async def collect(phases: dict[str, Snapshot], copies, monkeypatch) -> dict[str, Snapshot]:
    """Each phase's items to send: those of its own card and of Bob's order built there, else
    the first kept card's and the first order's (stale), and the made ones at its version."""
    first_kept: dict[str, dict[str, Any]] = {}
    for phase in PHASES:
        first_kept = phases[phase].buttons | first_kept
    orders: dict[str, dict[str, dict[str, Any]]] = {}
    kept = {}
    for phase in sorted(PHASES, key=lambda phase: phase not in PLAYING):  # the orders first
        await copies.restore(phase)
        bot, discord = await open_table(copies.url, monkeypatch)
        stored = await bot.games.store.load(CHANNEL)
        items = made(stored.state, stored.version) | first_kept | phases[phase].buttons
        if phase in PLAYING:
            orders[phase] = await order_by_taps(discord, items["Activate (Allies)"])
        kept[phase] = Snapshot(phase, buttons=items | orders.get(phase, orders["turn start"]))
        await bot.campaigns.close()
        await close_bot(bot)
        await copies.close()
    return kept


@pytest.fixture(scope="module")
def cards(phases, copies) -> dict[str, Snapshot]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        return asyncio.run(collect(phases, copies, monkeypatch))


@pytest.mark.parametrize("phase", PHASES)
async def test_every_tap_as_every_role(phase, cards, copies, monkeypatch):
    """Each button and menu of a game played by taps in ``phase``: the store changes exactly
    where the table says; the private steps of an order show the next step to those who may
    order and change nothing for anyone."""
    wrong = await run_matrix(TAPS, phase, cards[phase], copies, monkeypatch)
    assert not wrong, "\n".join(wrong)


CHOOSING = "14"  # a quick battle refereed by the matrix's referee, waiting for the axis' choice
CHOOSERS = {
    "axis player": OTTO,  # whose choice it is
    "allied player": ANN,
    "referee": REF,
    "spectator": EVE,
    "server admin": BOSS,
    "player of another channel": PAT,
}
CHOICE_ROWS = (  # one phase, "choice": a morale test of 4 takes one marker off one of two units
    cell("choice menu", {OTTO}, "choice", fixed(values=["gruppe-2"]), kind="menu", command="choice"),
    cell("choose", {OTTO}, "choice", fixed(unit="gruppe-2")),
    # the menu's next page, opened privately (a page past the last shows the last: two units here)
    cell("choices page", {OTTO}, "choice", kind="button", answer=STEP, command="More choices"),
)
CHOICE = Setting(CHOOSING, CHOOSERS, CHOICE_ROWS, opener=OTTO, opened_by="", typed={})


async def wait_for_a_choice(copies, monkeypatch) -> Snapshot:
    """The card's choice menu of tests/bot/test_discord_action_cards.py, beside the matrix's
    game (its "new" phase, with the other channel's), kept as the phase "choice"."""
    await copies.restore("new")
    bot, discord = await open_table(copies.url, monkeypatch)
    await axis_start_a_refereed_quick_battle(bot, discord, CHOOSING)
    for unit in ("gruppe-1", "gruppe-2"):
        await discord.slash("ref markers", user=REF, channel=CHOOSING, unit=unit, count=1, reason="r")
    bot.games.dice = lambda: ScriptedDice([d6(4)])
    (menu,) = menus(await discord.slash("cmt", user=OTTO, channel=CHOOSING))
    version = (await bot.games.store.load(CHOOSING)).version
    page = step_button(int(CHOOSING), version, "choices", "More choices", OPENING, 1).to_component_dict()
    await copies.keep("choice")
    await bot.campaigns.close()
    await close_bot(bot)
    await copies.close()
    return Snapshot("choice", buttons={"choice": menu, "More choices": page})


@pytest.fixture(scope="module")
def choosing(phases, copies) -> Snapshot:
    with pytest.MonkeyPatch.context() as monkeypatch:
        return asyncio.run(wait_for_a_choice(copies, monkeypatch))


async def test_a_pending_choice_as_every_role(choosing, copies, monkeypatch):
    """The choice the game waits for, by the card's menu and by /choose: only the side it is
    asked of answers it; everyone else is refused privately and nothing is stored."""
    wrong = await run_matrix(CHOICE, "choice", choosing, copies, monkeypatch)
    assert not wrong, "\n".join(wrong)


RESERVING = "16"  # a quick battle with a reserve, refereed by the matrix's referee and its role
RESERVERS = {
    "allied player": ANN,  # whose reserve is due
    "axis player": OTTO,
    "referee": REF,
    "referee role holder": RUTH,
    "spectator": EVE,
    "server admin": BOSS,
    "player of another channel": PAT,
}


def the_reserve(state: GameState) -> dict[str, Any]:
    return {"values": [place(state, "sherman")]}


RESERVE_ROWS = (  # one phase, "reserves": turn 1's start, the allies' Sherman may be called (p. 26)
    cell("Call reserves (Allies)", {ANN}, "reserves", kind="button", answer=STEP),
    cell("No reserves (Allies)", {ANN}, "reserves", kind="button"),
    cell("reserves menu", {ANN}, "reserves", the_reserve, kind="menu", command=RESERVES),
    # the menu's next page, turned in place (one reserve here: the page asked for shows the last)
    cell("reserves page", {ANN}, "reserves", kind="button", answer=STEP, command="More reserves"),
    cell("reserves", {ANN}, "reserves", fixed(units="Sherman 75mm")),
)
RESERVE_CALLS = Setting(RESERVING, RESERVERS, RESERVE_ROWS, opener=ANN, opened_by="", typed={})


async def wait_for_reserves(copies, monkeypatch) -> Snapshot:
    """The game of tests/bot/test_discord_taps.py whose allies may call a reserve from turn 1,
    with the matrix's referee and referee role, beside the matrix's game (its "new" phase),
    started and kept as the phase "reserves": the card's buttons and the menu Ann is shown."""
    await copies.restore("new")
    bot, discord = await open_table(copies.url, monkeypatch)
    state = with_a_reserve()
    state.referees, state.referee_roles = [REF], (UMPIRES,)
    await bot.games.new_game(RESERVING, state)
    await discord.slash("game join", user=ANN, channel=RESERVING, side="allies")
    await discord.slash("game join", user=OTTO, channel=RESERVING, side="axis")
    card = card_items(await discord.slash("game start", user=OTTO, channel=RESERVING))
    await copies.keep("reserves")
    (menu,) = menus(await discord.click(card["Call reserves (Allies)"], user=ANN, channel=RESERVING))
    version = (await bot.games.store.load(RESERVING)).version
    page = step_button(int(RESERVING), version, "reservespage", "More reserves", "allies", 1)
    await bot.campaigns.close()
    await close_bot(bot)
    await copies.close()
    return Snapshot("reserves", buttons=card | {RESERVES: menu, "More reserves": page.to_component_dict()})


@pytest.fixture(scope="module")
def reserving(phases, copies) -> Snapshot:
    with pytest.MonkeyPatch.context() as monkeypatch:
        return asyncio.run(wait_for_reserves(copies, monkeypatch))


async def test_a_reserve_call_as_every_role(reserving, copies, monkeypatch):
    """A side's reserves at a turn's start, by the card's buttons, its menu and /reserves: only
    that side's player calls them or calls none; the other side, the referees (who play no side,
    p. 25) and everyone else are refused privately and nothing is stored."""
    wrong = await run_matrix(RESERVE_CALLS, "reserves", reserving, copies, monkeypatch)
    assert not wrong, "\n".join(wrong)


QUICK = "15"  # a quick battle refereed by the matrix's referee and its referee role
QUICK_USERS = {
    "allied player": ANN,  # once joined (Otto the axis), by the card's buttons
    "axis player": OTTO,
    "referee": REF,
    "referee role holder": RUTH,
    "spectator": EVE,
    "server admin": BOSS,
    "player of another channel": PAT,
}
NEWCOMERS = {EVE, BOSS, PAT}
QUICK_PHASES = ("quick new", "quick joined")  # before anyone joins; once both sides have
# anyone but a referee takes a seat before the start (p. 25), Ann and Otto only once
SEATS, ONCE = NEWCOMERS | {ANN, OTTO}, [("quick joined", NEWCOMERS)]
# a game with referees is theirs to start while nobody plays it; then its players' too
STARTERS, WHILE_NOBODY_PLAYS = {REF, RUTH, ANN, OTTO}, [("quick new", {REF, RUTH})]
QUICK_ROWS = (
    cell("Join the Allies", SEATS, QUICK_PHASES, kind="button", but=ONCE),
    cell("Join the Axis", SEATS, QUICK_PHASES, kind="button", but=ONCE),
    cell("game join", SEATS, QUICK_PHASES, fixed(side="axis"), but=ONCE),
    cell("Start", STARTERS, QUICK_PHASES, kind="button", but=WHILE_NOBODY_PLAYS),
    cell("game start", STARTERS, QUICK_PHASES, but=WHILE_NOBODY_PLAYS),
)
QUICK_BATTLE = Setting(QUICK, QUICK_USERS, QUICK_ROWS, opener=ANN, opened_by="", typed={})


async def set_up_a_quick_battle(copies, monkeypatch) -> dict[str, Snapshot]:
    """The quick battle beside the matrix's game (its "new" phase, with the other channel's),
    kept before anyone joins and once Ann and Otto have joined by the card's buttons, each
    phase with its card's buttons."""
    await copies.restore("new")
    bot, discord = await open_table(copies.url, monkeypatch)
    new = await discord.slash(
        "game new", user=EVE, channel=QUICK, referee=Pick(REF), referee_role=role(UMPIRES)
    )
    await copies.keep("quick new")
    await discord.click(card_items(new)["Join the Allies"], user=ANN, channel=QUICK)
    joined = await discord.click(card_items(new)["Join the Axis"], user=OTTO, channel=QUICK)
    await copies.keep("quick joined")
    await bot.campaigns.close()
    await close_bot(bot)
    await copies.close()
    return {
        "quick new": Snapshot("quick new", buttons=card_items(new)),
        "quick joined": Snapshot("quick joined", buttons=card_items(joined)),
    }


@pytest.fixture(scope="module")
def quick_battle(phases, copies) -> dict[str, Snapshot]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        return asyncio.run(set_up_a_quick_battle(copies, monkeypatch))


@pytest.mark.parametrize("phase", QUICK_PHASES)
async def test_joining_and_starting_a_refereed_quick_battle_as_every_role(
    phase, quick_battle, copies, monkeypatch
):
    """The card's Join and Start buttons, and /game join and /game start beside them, by every
    role before and after the sides have joined: seats for anyone but a referee, the start for
    the referees while nobody plays (the hole this found: anyone could start it, and then nobody
    could join) and for the players too once they do."""
    wrong = await run_matrix(QUICK_BATTLE, phase, quick_battle[phase], copies, monkeypatch)
    assert not wrong, "\n".join(wrong)


# The registered items no matrix row sends, each with why it changes nothing of anyone's.
READ_ONLY_ITEMS = {
    PageButton: "turns the help's pages in its own message; reads and stores nothing",
    TopicSelect: "picks the help's topic in its own message; reads and stores nothing",
}


async def registered_items(copies, monkeypatch) -> list[type[discord.ui.DynamicItem]]:
    """Every DynamicItem class the client registers as it sets up (its own and its command
    groups', through ``add_dynamic_items``)."""
    registered = []

    def add_dynamic_items(client, *items):
        registered.extend(items)
        discord.Client.add_dynamic_items(client, *items)

    monkeypatch.setattr(IronCrossBot, "add_dynamic_items", add_dynamic_items)
    await copies.restore("empty")
    bot, _ = await open_table(copies.url, monkeypatch)
    await bot.campaigns.close()
    await close_bot(bot)
    await copies.close()
    return registered


def steps(item: type[discord.ui.DynamicItem]) -> list[str]:
    """The steps a turn's item tells apart in its custom id (``(?P<step>join|start|...)``);
    none for an item without."""
    template = item.__discord_ui_compiled_template__  # discord.py's compiled ``template=``
    found = re.search(r"\(\?P<step>([\w|]+)\)", template.pattern)
    return found.group(1).split("|") if found else []


def sent_by_rows(phases, cards, campaign, choosing, reserving, quick_battle) -> list[str]:
    """The custom ids of every button and menu a matrix row sends, in every phase."""
    sent = []
    for setting, snapshots in (
        (GAME, [phases["window open"]]),  # the window's buttons, sent in every phase
        (TAPS, cards.values()),
        (CAMPAIGN_SETTING, [campaign]),
        (CHOICE, [choosing]),
        (RESERVE_CALLS, [reserving]),
        (QUICK_BATTLE, quick_battle.values()),
        (SERVER, [Snapshot("server", buttons=SERVER_ITEMS)]),
        (TABLE_BUILDING, [Snapshot("server", buttons=SERVER_ITEMS)]),
    ):
        for row in setting.rows:
            if row.kind in ("button", "menu"):
                sent += [snapshot.buttons[row.command]["custom_id"] for snapshot in snapshots]
    return sent


async def test_every_button_and_menu_is_in_a_matrix_or_changes_nothing(
    phases, cards, campaign, choosing, reserving, quick_battle, copies, monkeypatch
):
    """A DynamicItem the client registers fails here until a matrix row sends it (every step of
    it, for a turn's items) or it is named above as changing nothing."""
    registered = await registered_items(copies, monkeypatch)
    sent = sent_by_rows(phases, cards, campaign, choosing, reserving, quick_battle)
    assert set(READ_ONLY_ITEMS) <= set(registered)
    for item in registered:
        template = item.__discord_ui_compiled_template__
        matched = [m for m in map(template.fullmatch, sent) if m]
        if item in READ_ONLY_ITEMS:
            assert not matched, f"{item.__name__} is named read-only but a row sends it"
            continue
        assert matched, f"{item.__name__} is sent by no matrix row and not named read-only"
        missing = set(steps(item)) - {m.groupdict().get("step") for m in matched}
        assert not missing, f"{item.__name__}: no matrix row sends its steps {sorted(missing)}"


async def test_the_help_pages_change_nothing_for_anyone(phases, copies, monkeypatch):
    """The help's buttons and topic menu, named read-only above: each role turns the pages and
    picks a topic in a running game; each is shown the page, only to them, and the store stays
    byte-identical."""
    await copies.restore("running")
    bot, discord = await open_table(copies.url, monkeypatch)
    before = await copies.rows()
    shown = card_items(await discord.slash("help", user=EVE, channel=CHANNEL))
    for user in USERS.values():
        for label, page in (("Previous", len(PAGES) - 1), ("Next", 1)):
            sent = await discord.click(shown[label], user=user, channel=CHANNEL)
            assert answer(sent) == (page_text(page), "step")
        sent = await discord.choose(shown["Pick a topic"], [PAGES[2].key], user=user, channel=CHANNEL)
        assert answer(sent) == (page_text(2), "step")
    assert await copies.rows() == before
    await bot.campaigns.close()
    await close_bot(bot)
    await copies.close()
