"""The tap menus offer only what the engine takes: every destination a unit's menus offer, by
taps, is a move ``apply`` accepts, though the squares in its reach hold spots it would refuse (a
path longer than the unit's move, a way through a building a vehicle cannot cross); and a target
menu leaves out a target in sight that the shot cannot hurt."""

from dataclasses import replace

import pytest

from bot.discord_adapter.tap_orders import (
    Draft,
    order_command,
    place_of,
    reachable,
    spots_in_reach,
    targets_in_sight,
)
from engine.dice import SeededDice
from engine.errors import IllegalCommand
from engine.firing.odds import ShotOutcome, shot_odds, table_shot
from engine.game import apply
from engine.game_state import GameState
from engine.rulesets import with_rule_set
from engine.scenarios.new_game import make_unit
from engine.scenarios.quick_battle import quick_battle
from engine.state import Point
from tests.bot.discord_harness import OTTO, buttons, close_bot, menus, open_bot, reply
from tests.bot.test_discord_taps import crowded_and_started
from tests.engine.helpers import game


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    yield bot, discord
    await close_bot(bot)


def stug_by_the_church() -> GameState:
    """The quick battle with the StuG just west of the church, which vehicles cannot cross."""
    state = quick_battle()
    state.units["stug"] = state.units["stug"].model_copy(update={"position": Point(x=39.0, y=30.0)})
    return state


def refusal(state: GameState, draft: Draft) -> str | None:
    try:
        apply(state, order_command(state, "axis", draft), SeededDice(0))
    except IllegalCommand as refused:
        return str(refused)
    return None


async def every_option(discord, step) -> list[dict]:
    """The options of a step's menu, on every page."""
    (menu,) = menus(step)
    options = list(menu["options"])
    while more := next((b for label, b in buttons(step).items() if label.startswith("More")), None):
        step = await discord.click(more, user=OTTO, channel="1")
        options += menus(step)[0]["options"]
    return options


async def test_a_destination_menu_offers_no_move_the_engine_refuses(bot_and_discord):
    bot, discord = bot_and_discord
    await bot.games.new_game("1", stug_by_the_church())
    shown = await crowded_and_started(bot, discord)  # the axis to act first
    state = await bot.games.game("1")
    (units,) = menus(await discord.click(shown["Activate (Axis)"], user=OTTO, channel="1"))
    stug = next(o for o in units["options"] if o["label"] == "StuG")
    actions = buttons(await discord.choose(units, [stug["value"]], user=OTTO, channel="1"))
    where = await discord.click(actions["Move"], user=OTTO, channel="1")
    destinations = await every_option(discord, where)
    (menu,) = menus(where)
    offered = [o["value"] for o in destinations if o["value"].startswith("~")]
    for square in (o["value"] for o in destinations if not o["value"].startswith("~")):
        (spots,) = menus(await discord.choose(menu, [square], user=OTTO, channel="1"))
        offered += [o["value"] for o in spots["options"]]
    draft = Draft(place_of(state, "stug"), "move")
    assert len(offered) > 20
    assert {to: refusal(state, Draft(draft.unit, "move", to)) for to in offered} == dict.fromkeys(offered)

    in_reach = [spot.value for spot in spots_in_reach(state, state.units["stug"], draft)]
    refused = [refusal(state, Draft(draft.unit, "move", to)) for to in in_reach if to not in offered]
    assert any("cannot cross building (church)" in (r or "") for r in refused)
    assert any("may move" in (r or "") and "that path is" in (r or "") for r in refused)


def mg_facing_a_sherman() -> GameState:
    """The quick battle with Sherman 2 and the 2nd Squad in front of the MG 42."""
    state = quick_battle()
    for unit, at in (("sherman-2", Point(x=33.0, y=38.0)), ("2nd-squad", Point(x=27.0, y=38.0))):
        state.units[unit] = state.units[unit].model_copy(update={"position": at})
    return state


async def test_a_target_menu_offers_no_target_the_shot_cannot_hurt(bot_and_discord):
    """The MG 42 sees Sherman 2 but cannot hurt its armour: the menu offers only the squad it
    can, with the chance of an effect."""
    bot, discord = bot_and_discord
    await bot.games.new_game("1", mg_facing_a_sherman())
    shown = await crowded_and_started(bot, discord)  # the axis to act first
    state = await bot.games.game("1")
    assert shot_odds(table_shot(state, "mg-42", "sherman-2")).outcomes == {ShotOutcome.NO_EFFECT: 1}
    (units,) = menus(await discord.click(shown["Activate (Axis)"], user=OTTO, channel="1"))
    chosen = next(o for o in units["options"] if o["label"] == "MG 42")
    actions = buttons(await discord.choose(units, [chosen["value"]], user=OTTO, channel="1"))
    (targets,) = menus(await discord.click(actions["Fire"], user=OTTO, channel="1"))
    labels = [o["label"] for o in targets["options"]]
    assert labels and not any(label.startswith("Sherman 2") for label in labels)
    assert any(label.startswith("2nd Squad (") and "to have an effect)" in label for label in labels)


def gruppe_facing_static_tommies() -> GameState:
    """House rules: German infantry and an MG team (a support squad) 25" from British infantry in
    the open that has neither moved nor fired, a little beyond the 24" at which it is observed
    (House Rules V1.0, s. 8 Observation distances), within a move of 6" toward it."""
    state = game(
        make_unit("german", "Infantry Detachment", "axis", (30, 40), name="Gruppe"),
        make_unit("german", "MG Team", "axis", (44, 44), name="MG"),
        make_unit("british", "Infantry Detachment", "allies", (30, 13), name="Tommies"),
        sides={"allies": "british", "axis": "german"},
    )
    return with_rule_set(state, "house-v1")


async def action_step(discord, shown, label: str, action: str) -> list[dict]:
    """The step after choosing the unit ``label`` and its action."""
    (units,) = menus(await discord.click(shown["Activate (Axis)"], user=OTTO, channel="1"))
    chosen = next(o for o in units["options"] if o["label"] == label)
    actions = buttons(await discord.choose(units, [chosen["value"]], user=OTTO, channel="1"))
    return await discord.click(actions[action], user=OTTO, channel="1")


async def every_destination(discord, where) -> list[str]:
    """Every destination the menus offer, on every page: each square's spots, and the moves toward."""
    destinations = await every_option(discord, where)
    (menu,) = menus(where)
    offered = [o["value"] for o in destinations if o["value"].startswith("~")]
    for square in (o["value"] for o in destinations if not o["value"].startswith("~")):
        (spots,) = menus(await discord.choose(menu, [square], user=OTTO, channel="1"))
        offered += [o["value"] for o in spots["options"]]
    return offered


async def test_a_move_and_fire_menu_offers_only_spots_whose_shot_the_engine_takes(bot_and_discord):
    """Every destination offered has a target menu whose first target the engine takes; the spots
    a plain move may go to but a move and fire is not offered are exactly those from which every
    shot is refused (the enemy beyond observation distance, s. 8)."""
    bot, discord = bot_and_discord
    await bot.games.new_game("1", gruppe_facing_static_tommies())
    shown = await crowded_and_started(bot, discord)  # the axis to act first
    state = await bot.games.game("1")
    gruppe = state.units["gruppe"]
    draft = Draft(place_of(state, "gruppe"), "movefire")
    offered = await every_destination(discord, await action_step(discord, shown, "Gruppe", "Move and fire"))
    assert offered
    for to in offered:
        seen = targets_in_sight(state, gruppe, replace(draft, to=to))
        assert seen, f"no enemy unit to fire at from {to}"
        assert refusal(state, replace(draft, to=to, target=place_of(state, seen[0][0].id))) is None

    in_reach = [spot.value for spot in spots_in_reach(state, gruppe, draft)]
    moves = reachable(state, gruppe, Draft(draft.unit, "move"), in_reach)
    removed = [to for to in moves if to not in offered]
    assert removed and set(offered) - {to for to in offered if to.startswith("~")} < set(moves)
    tommies = place_of(state, "tommies")
    refused = [refusal(state, replace(draft, to=to, target=tommies)) for to in removed]
    assert all("beyond observation distance" in (r or "") for r in refused)


async def test_no_destination_when_the_order_cannot_fire_wherever_it_goes(bot_and_discord):
    """A support squad never moves and fires (House Rules V1.0, s. 4), and nothing is observed
    from where the Gruppe stands to fire at before it moves (s. 8): each is told so at once, with
    its other actions, instead of a menu of spots that would each be refused."""
    bot, discord = bot_and_discord
    await bot.games.new_game("1", gruppe_facing_static_tommies())
    shown = await crowded_and_started(bot, discord)
    for unit, action in (("MG", "Move and fire"), ("MG", "Fire and move"), ("Gruppe", "Fire and move")):
        step = await action_step(discord, shown, unit, action)
        assert not menus(step)
        assert reply(step)[0].startswith(f"**{unit}** has nowhere to {action.lower()} to")
        assert "Move" in buttons(step)


async def test_a_destination_menu_never_offers_the_spot_the_unit_stands_on(bot_and_discord):
    """The Gruppe stands on the centre of square E7: the square is offered, for its other spots,
    but not its centre (a move there goes nowhere)."""
    state = gruppe_facing_static_tommies()
    state.units["gruppe"] = state.units["gruppe"].model_copy(update={"position": Point(x=27.0, y=39.0)})
    bot, discord = bot_and_discord
    await bot.games.new_game("1", state)
    shown = await crowded_and_started(bot, discord)
    for action in ("Move", "Rapid move", "Move and fire"):
        where = await action_step(discord, shown, "Gruppe", action)
        squares = [o["value"] for o in await every_option(discord, where)]
        assert "E7" in squares
        (spots,) = menus(await discord.choose(menus(where)[0], ["E7"], user=OTTO, channel="1"))
        values = [o["value"] for o in spots["options"]]
        assert "E7" not in values and "E7+1,0" in values
