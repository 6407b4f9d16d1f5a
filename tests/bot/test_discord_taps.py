"""A whole game by taps: after /game new, nothing typed, only buttons and menus; the cards'
buttons outlive a restart, and an out-of-date card or a spectator's tap changes nothing."""

import math

import discord
import pytest

from bot.discord_adapter.tap_orders import Draft, place_of, target_step, targets_in_sight
from bot.discord_adapter.tap_setup import squares_to_set_up_in
from bot.text_orders import parse_point
from engine.deployment.placing import whose_turn
from engine.dice import ScriptedDice, SeededDice, d6
from engine.game_state import GameState
from engine.profiles import Special
from engine.scenarios.new_game import make_unit
from engine.scenarios.quick_battle import quick_battle, scenario_battle
from engine.state import Phase
from engine.wording import side_label, side_name
from tests.bot.discord_harness import (
    ANN,
    EVE,
    OTTO,
    answers_in,
    buttons,
    close_bot,
    menus,
    open_bot,
    reply,
)
from tests.bot.test_discord_play import with_a_reserve

PLAYERS = {"allies": ANN, "axis": OTTO}


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    bot, discord = await open_bot(url, monkeypatch)
    yield bot, discord, url
    await close_bot(bot)


def side_of_button(label: str) -> str:
    """``Activate (Axis)``, ``Axis: go first`` -> the side the button is for: the first named."""
    named = {label.casefold().find(side): side for side in PLAYERS if side in label.casefold()}
    return named[min(named)]


async def taps_to_start(bot, discord) -> dict:
    """/game new, then joining and starting by taps; the buttons of the card after the start."""
    new = buttons(await discord.slash("game new", user=ANN, channel="1", table="crossroads"))
    assert set(new) == {"Join the Allies", "Join the Axis", "Start"}
    await discord.click(new["Join the Allies"], user=ANN, channel="1")
    sent = await discord.click(new["Join the Axis"], user=OTTO, channel="1")  # from the same card
    assert reply(sent)[0].startswith("<@302> joins the Axis\n")
    joined = buttons(sent)
    bot.games.dice = lambda: SeededDice(3)  # axis wins the initiative
    started = buttons(await discord.click(joined["Start"], user=OTTO, channel="1"))
    first = next(b for label, b in started.items() if label.endswith("go first"))
    return buttons(await discord.click(first, user=PLAYERS[side_of_button(first["label"])], channel="1"))


async def fire_by_taps(discord, activate: dict, user: str, may_pass: bool) -> list:
    """Activate, the first unit that sees an enemy, Fire, the likeliest target, Confirm; when no
    unit of the side sees one, pass (or, before the side has spent a token, take a CMT). What
    the last tap sent."""
    step = await discord.click(activate, user=user, channel="1")
    (units,) = menus(step)
    for option in units["options"]:
        chosen = await discord.choose(units, [option["value"]], user=user, channel="1")
        aimed = await discord.click(buttons(chosen)["Fire"], user=user, channel="1")
        if menus(aimed):
            (targets,) = menus(aimed)
            best = max(targets["options"], key=lambda o: int(o["label"].rsplit("(", 1)[1].split("%")[0]))
            confirm = await discord.choose(targets, [best["value"]], user=user, channel="1")
            return await discord.click(buttons(confirm)["Confirm"], user=user, channel="1")
    instead = next(b for label, b in buttons(step).items() if label.startswith("Pass" if may_pass else "CMT"))
    return await discord.click(instead, user=user, channel="1")


async def test_a_quick_battle_is_played_to_its_result_by_taps_alone(bot_and_discord):
    bot, discord, _ = bot_and_discord
    shown = await taps_to_start(bot, discord)
    dice = SeededDice(2)
    bot.games.dice = lambda: dice  # one seeded stream for the whole battle
    taps = 0
    while shown and taps < 400:
        taps += 1
        state = await bot.games.game("1")
        first = [b for label, b in shown.items() if label.endswith("go first")]
        if first:
            sent = await discord.click(first[0], user=PLAYERS[side_of_button(first[0]["label"])], channel="1")
        elif "No reaction" in shown:
            sent = await discord.click(
                shown["No reaction"], user=PLAYERS[state.pending.reactor_side], channel="1"
            )
        else:
            label, button = next((label, b) for label, b in shown.items() if label.startswith("Activate"))
            user = PLAYERS[side_of_button(label)]
            sent = await fire_by_taps(discord, button, user, may_pass=state.spent_since_initiative > 0)
        shown = buttons(sent) if any(not private for _, private, _ in answers_in(sent)) else {}
    state = await bot.games.game("1")
    assert state.phase is Phase.OVER, f"stopped at turn {state.turn}, {state.phase} after {taps} taps"
    assert "Result: " in reply(sent)[0]
    _, history = await bot.games.store.history("1")
    fired = [e for _, events in history for e in events if e.kind == "fire"]
    assert fired, "the battle had shots, all ordered by taps"


async def test_a_stale_card_or_a_spectator_changes_nothing_and_the_buttons_outlive_a_restart(
    bot_and_discord, monkeypatch
):
    bot, discord, url = bot_and_discord
    shown = await taps_to_start(bot, discord)
    version = (await bot.games.store.load("1")).version

    text, private = reply(await discord.click(shown["Activate (Axis)"], user=EVE, channel="1"))
    assert private and "You are not playing in this game" in text
    text, private = reply(await discord.click(shown["Pass (Axis)"], user=ANN, channel="1"))
    assert (text, private) == (
        "The Axis have the initiative, not the Allies",
        True,
    )  # the other side's button
    assert (await bot.games.store.load("1")).version == version

    await bot.games.close()  # a restart: a new client reads the same custom ids
    restarted, discord = await open_bot(url, monkeypatch)
    step = await discord.click(shown["Activate (Axis)"], user=OTTO, channel="1")
    (units,) = menus(step)
    assert reply(step) == ("**The Axis**: choose the unit to activate.", True)
    assert [o["label"] for o in units["options"]][:3] == ["Gruppe 1", "Gruppe 2", "Gruppe 3"]
    declared = await fire_by_taps(discord, shown["Activate (Axis)"], OTTO, may_pass=False)
    text, private = reply(declared)
    assert not private and text.startswith("The Axis declare: Gruppe 1: fire at ")

    chosen = await discord.choose(units, [units["options"][0]["value"]], user=OTTO, channel="1")
    text, private = reply(chosen)
    assert private and "This card is out of date" in text  # the game moved on with the shot
    text, private = reply(await discord.click(shown["Pass (Axis)"], user=OTTO, channel="1"))
    assert private and "This card is out of date" in text
    await close_bot(restarted)


async def test_a_move_by_taps_goes_to_a_grid_square_and_offset_or_toward_a_unit(bot_and_discord):
    bot, discord, _ = bot_and_discord
    shown = await taps_to_start(bot, discord)
    (units,) = menus(await discord.click(shown["Activate (Axis)"], user=OTTO, channel="1"))
    gruppe = next(o for o in units["options"] if o["label"] == "Gruppe 1")
    actions = buttons(await discord.choose(units, [gruppe["value"]], user=OTTO, channel="1"))
    step = await discord.click(actions["Move"], user=OTTO, channel="1")
    (where,) = menus(step)
    assert reply(step)[0] == '**Gruppe 1**: move, up to 6". Where to? (a grid square, or toward a unit)'
    square = where["options"][0]["value"]
    (spot,) = menus(await discord.choose(where, [square], user=OTTO, channel="1"))
    assert len(spot["options"]) == 25 and spot["options"][12]["value"] == square  # the centre
    confirm = buttons(await discord.choose(spot, [f"{square}+1,-1"], user=OTTO, channel="1"))
    assert list(confirm) == ["Confirm"]
    declared = await discord.click(confirm["Confirm"], user=OTTO, channel="1")
    text, private = reply(declared)
    assert not private and text.startswith("The Axis declare: Gruppe 1: move")
    (move,) = (await bot.games.game("1")).pending.order.actions
    assert move.path == (parse_point(f"{square}+1,-1"),)

    shown = buttons(await discord.click(buttons(declared)["No reaction"], user=ANN, channel="1"))
    (units,) = menus(await discord.click(shown["Activate (Axis)"], user=OTTO, channel="1"))
    gruppe = next(o for o in units["options"] if o["label"] == "Gruppe 2")
    actions = buttons(await discord.choose(units, [gruppe["value"]], user=OTTO, channel="1"))
    (where,) = menus(await discord.click(actions["Move"], user=OTTO, channel="1"))
    toward = next(o for o in where["options"] if o["value"].startswith("~"))
    assert toward["label"].startswith('6" toward ')
    confirm = buttons(await discord.choose(where, [toward["value"]], user=OTTO, channel="1"))
    text, private = reply(await discord.click(confirm["Confirm"], user=OTTO, channel="1"))
    assert not private and "Gruppe 2: move" in text  # not refused as a path longer than 6"


def crowded_battle() -> GameState:
    """The quick battle with 33 more German squads along the axis edge: 40 units a side for the
    axis, more than one menu holds."""
    state = quick_battle()
    for n in range(33):
        squad = make_unit("german", "Infantry Detachment", "axis", (3 + 2 * n, 46), unit_id=f"extra-{n}")
        state.units[squad.id] = squad.model_copy(update={"name": f"Extra {n}"})
    return state


async def test_a_force_of_40_units_is_ordered_by_taps_through_the_menus_pages(bot_and_discord):
    bot, discord, _ = bot_and_discord
    await bot.games.new_game("1", crowded_battle())
    await discord.slash("game join", user=ANN, channel="1", side="allies")
    await discord.slash("game join", user=OTTO, channel="1", side="axis")
    bot.games.dice = lambda: SeededDice(3)  # axis wins the initiative
    await discord.slash("game start", user=OTTO, channel="1")
    shown = buttons(await discord.slash("initiative", user=OTTO, channel="1", choice="start"))
    assert len([u for u in (await bot.games.game("1")).units.values() if u.side == "axis"]) == 40

    step = await discord.click(shown["Activate (Axis)"], user=OTTO, channel="1")
    (first,) = menus(step)
    assert len(first["options"]) == 25 and reply(step)[0].endswith("(page 1 of 2)")
    assert "Previous (0 of 2)" not in buttons(step)
    text, private = reply(await discord.click(buttons(step)["More (2 of 2)"], user=EVE, channel="1"))
    assert private and "You are not playing in this game" in text  # a spectator turns no page
    step = await discord.click(buttons(step)["More (2 of 2)"], user=OTTO, channel="1")
    (second,) = menus(step)
    assert len(second["options"]) == 15 and "Previous (1 of 2)" in buttons(step)
    labels = {o["label"]: o["value"] for o in second["options"]}
    assert "Extra 32" in labels and not {o["label"] for o in first["options"]} & set(labels)

    actions = buttons(await discord.choose(second, [labels["Extra 32"]], user=OTTO, channel="1"))
    (where,) = menus(await discord.click(actions["Move"], user=OTTO, channel="1"))
    square = next(o["value"] for o in where["options"] if not o["value"].startswith("~"))
    (offsets,) = menus(await discord.choose(where, [square], user=OTTO, channel="1"))
    confirm = buttons(await discord.choose(offsets, [square], user=OTTO, channel="1"))
    text, private = reply(await discord.click(confirm["Confirm"], user=OTTO, channel="1"))
    assert not private and text.startswith("The Axis declare: Extra 32: move")
    assert (await bot.games.game("1")).pending.order.unit == "extra-32"


async def crowded_and_started(bot, discord, choice: str = "start") -> dict:
    """The crowded battle joined and started, the axis winning the initiative (``choice``:
    whether it starts): the card's buttons."""
    await discord.slash("game join", user=ANN, channel="1", side="allies")
    await discord.slash("game join", user=OTTO, channel="1", side="axis")
    bot.games.dice = lambda: SeededDice(3)  # axis wins the initiative
    await discord.slash("game start", user=OTTO, channel="1")
    return buttons(await discord.slash("initiative", user=OTTO, channel="1", choice=choice))


async def test_a_move_toward_the_26th_unit_is_chosen_through_the_destination_menus_pages(bot_and_discord):
    """40 enemies to move toward after the squares in reach: the destination menu turns its
    pages, for the allies alone, and a move toward an enemy past the first 25 options is
    declared."""
    bot, discord, _ = bot_and_discord
    await bot.games.new_game("1", crowded_battle())
    shown = await crowded_and_started(bot, discord, "pass")
    (units,) = menus(await discord.click(shown["Activate (Allies)"], user=ANN, channel="1"))
    actions = buttons(await discord.choose(units, [units["options"][0]["value"]], user=ANN, channel="1"))
    step = await discord.click(actions["Move"], user=ANN, channel="1")
    (first,) = menus(step)
    assert len(first["options"]) == 25 and reply(step)[0].endswith("(page 1 of 2)")
    assert set(buttons(step)) == {"More (2 of 2)"}
    text, private = reply(await discord.click(buttons(step)["More (2 of 2)"], user=OTTO, channel="1"))
    assert private and "It is not the Axis' turn to activate" in text
    step = await discord.click(buttons(step)["More (2 of 2)"], user=ANN, channel="1")
    (second,) = menus(step)
    assert set(buttons(step)) == {"Previous (1 of 2)"}
    assert all(o["value"].startswith("~") for o in second["options"])
    toward = [o for o in first["options"] + second["options"] if o["value"].startswith("~")]
    assert len(toward) == 40 and len({o["value"] for o in toward}) == 40  # every axis unit, once
    the_26th = second["options"][0]
    goal = list((await bot.games.game("1")).units)[int(the_26th["value"][1:])]
    confirm = buttons(await discord.choose(second, [the_26th["value"]], user=ANN, channel="1"))
    text, private = reply(await discord.click(confirm["Confirm"], user=ANN, channel="1"))
    assert not private and text.startswith("The Allies declare: "), text
    state = await bot.games.game("1")
    (move,) = state.pending.order.actions
    start, end = state.units[state.pending.order.unit].position, move.path[-1]
    there = state.units[goal].position
    assert math.dist((end.x, end.y), (there.x, there.y)) < math.dist((start.x, start.y), (there.x, there.y))


def crowded_with_markers() -> GameState:
    """The crowded battle with a morale marker on 30 of the axis' units."""
    state = crowded_battle()
    marked = [u for u in state.units.values() if u.side == "axis"][:30]
    for unit in marked:
        state.units[unit.id] = unit.model_copy(update={"morale_markers": 1})
    return state


async def test_the_26th_unit_of_a_choice_is_chosen_through_its_menus_pages(bot_and_discord):
    """A Company Morale Test of 4 takes a marker off one of 30 units (p. 13): the card's menu
    shows 25; its page button opens the next page privately, for the axis alone; the 26th unit
    is chosen there, as /choose would."""
    bot, discord, _ = bot_and_discord
    await bot.games.new_game("1", crowded_with_markers())
    shown = await crowded_and_started(bot, discord)
    bot.games.dice = lambda: ScriptedDice([d6(4)])
    card = await discord.click(shown["CMT (Axis)"], user=OTTO, channel="1")
    (first,) = menus(card)
    assert len(first["options"]) == 25 and first["placeholder"].endswith("(page 1 of 2)")
    version = (await bot.games.store.load("1")).version
    for user, refusal in ((ANN, "Nothing waits for the Allies' choice"), (EVE, "You are not playing")):
        text, private = reply(await discord.click(buttons(card)["More (2 of 2)"], user=user, channel="1"))
        assert private and refusal in text, text
    step = await discord.click(buttons(card)["More (2 of 2)"], user=OTTO, channel="1")
    (second,) = menus(step)
    assert reply(step)[1] and len(second["options"]) == 5 and set(buttons(step)) == {"Previous (1 of 2)"}
    assert not {o["value"] for o in first["options"]} & {o["value"] for o in second["options"]}
    back = await discord.click(buttons(step)["Previous (1 of 2)"], user=OTTO, channel="1")
    assert [o["value"] for o in menus(back)[0]["options"]] == [o["value"] for o in first["options"]]
    assert (await bot.games.store.load("1")).version == version  # turning pages stores nothing

    the_26th = second["options"][0]["value"]
    text, private = reply(await discord.choose(second, [the_26th], user=OTTO, channel="1"))
    state = await bot.games.game("1")
    assert not private and state.units[the_26th].morale_markers == 0, text
    assert sum(u.morale_markers for u in state.units.values() if u.side == "axis") == 29


def test_a_target_menu_pages_through_more_enemies_than_a_menu_holds():
    """With 40 enemies in sight, the target menu shows 25, then the other 15 on its next page."""
    state = crowded_battle()
    state.units["sherman-1"] = state.units["sherman-1"].model_copy(update={"position": parse_point("36,40")})
    state.phase, state.active_side = Phase.ACTIVE, "allies"  # the menu offers what they may declare
    state.sides["allies"].tokens = 2
    sherman = place_of(state, "sherman-1")
    draft = Draft(sherman, "fire")
    seen = targets_in_sight(state, state.units["sherman-1"], draft)
    assert len(seen) > 25
    pages = [target_step(state, 1, 7, draft, page) for page in (0, 1)]
    menus_shown = [[i for i in card.walk_children() if isinstance(i, discord.ui.Select)][0] for card in pages]
    assert [len(m.options) for m in menus_shown] == [25, len(seen) - 25]
    labels = [{o.value for o in m.options} for m in menus_shown]
    assert not labels[0] & labels[1]
    turns = [[i.label for i in card.walk_children() if isinstance(i, discord.ui.Button)] for card in pages]
    assert turns == [["More (2 of 2)"], ["Previous (1 of 2)"]]


async def test_reserves_are_called_by_taps_and_only_by_their_own_side(bot_and_discord, monkeypatch):
    """At a turn's start a side may call its reserves (p. 26): the card's button opens a menu of
    them for that side's player alone; the other side and a spectator change nothing; the
    buttons and the menu still work after a restart."""
    bot, discord, url = bot_and_discord
    await bot.games.new_game("7", with_a_reserve())
    await discord.slash("game join", user=ANN, channel="7", side="allies")
    await discord.slash("game join", user=OTTO, channel="7", side="axis")
    bot.games.dice = lambda: ScriptedDice([])
    shown = buttons(await discord.slash("game start", user=OTTO, channel="7"))
    assert set(shown) == {"Call reserves (Allies)", "No reserves (Allies)"}
    version = (await bot.games.store.load("7")).version

    for user, refusal in (
        (OTTO, "These are the Allies' reserves, not the Axis'"),
        (EVE, "You are not playing in this game"),
    ):
        for label in shown:
            text, private = reply(await discord.click(shown[label], user=user, channel="7"))
            assert private and refusal in text
    assert (await bot.games.store.load("7")).version == version

    step = await discord.click(shown["Call reserves (Allies)"], user=ANN, channel="7")
    await bot.games.close()  # a restart: a new client reads the same custom ids
    bot, discord = await open_bot(url, monkeypatch)
    (menu,) = menus(step)
    assert reply(step)[1] and [o["label"] for o in menu["options"]] == ["Sherman 75mm"]
    assert menu["max_values"] == 1
    text, private = reply(await discord.choose(menu, [menu["options"][0]["value"]], user=OTTO, channel="7"))
    assert private and "These are the Allies' reserves, not the Axis'" in text
    bot.games.dice = lambda: ScriptedDice([d6(5), d6(6), d6(2)])
    sent = await discord.choose(menu, [menu["options"][0]["value"]], user=ANN, channel="7")
    text, private = reply(sent)
    assert not private and "available this turn: Sherman 75mm" in text and "the Allies draw 4 tokens" in text
    assert (await bot.games.game("7")).units["sherman"].reserve_available
    await close_bot(bot)  # the restarted one (the fixture closes the first)


async def test_the_27th_reserve_is_called_from_the_menus_second_page(bot_and_discord):
    """A side with 30 reserves: its menu shows 25 a page; the other side may not turn the page;
    the allies turn it in place and call the 27th from it (p. 26)."""
    bot, discord, _ = bot_and_discord
    state = with_a_reserve()
    for n in range(2, 31):
        spare = make_unit("us", "Sherman 75mm", "allies", (0, 0), unit_id=f"sherman-{n}", in_reserve=True)
        state.units[spare.id] = spare.model_copy(update={"name": f"Sherman {n}"})
    await bot.games.new_game("7", state)
    await discord.slash("game join", user=ANN, channel="7", side="allies")
    await discord.slash("game join", user=OTTO, channel="7", side="axis")
    bot.games.dice = lambda: ScriptedDice([])
    shown = buttons(await discord.slash("game start", user=OTTO, channel="7"))
    step = await discord.click(shown["Call reserves (Allies)"], user=ANN, channel="7")
    (menu,) = menus(step)
    assert len(menu["options"]) == 25 and "(page 1 of 2)" in menu["placeholder"]
    more = buttons(step)["More (2 of 2)"]
    text, private = reply(await discord.click(more, user=OTTO, channel="7"))
    assert private and "These are the Allies' reserves, not the Axis'" in text
    (second,) = menus(await discord.click(more, user=ANN, channel="7"))
    assert [o["label"] for o in second["options"]] == [f"Sherman {n}" for n in range(26, 31)]
    bot.games.dice = lambda: ScriptedDice([d6(5), d6(6), d6(2)])
    sent = await discord.choose(second, [second["options"][1]["value"]], user=ANN, channel="7")
    assert "available this turn: Sherman 27" in reply(sent)[0]
    assert (await bot.games.game("7")).units["sherman-27"].reserve_available


async def test_a_scenario_is_set_up_by_taps_turn_about_and_started(bot_and_discord):
    """A Meeting Engagement (p. 28): each side's units go down by grid square and spot in its own
    12" area, turn about; the other side and a spectator are refused; then Start."""
    bot, discord, _ = bot_and_discord
    await bot.games.new_game("1", scenario_battle("meeting"))
    for user, nation in ((ANN, "us"), (OTTO, "german")):
        await discord.slash("force new", user=user, channel="1", nation=nation, name="F", points=1000)
        for _ in range(2):  # one may start on the table, the other waits in reserve
            await discord.slash("force add", user=user, channel="1", force="F", unit="Infantry Detachment")
        await discord.slash(
            "force upgrade", user=user, channel="1", force="F", unit="Infantry Detachment 1", command=True
        )
    await discord.slash("game join", user=ANN, channel="1", side="allies", force="F")
    shown = buttons(await discord.slash("game join", user=OTTO, channel="1", side="axis", force="F"))
    state = await bot.games.game("1")
    first = whose_turn(state.deployment)
    other = state.other_side(first)
    label, named, other_named = side_label(first), side_name(first), side_name(other)
    assert set(shown) == {f"Set up a unit ({label})", f"Done setting up ({label})"}
    version = (await bot.games.store.load("1")).version
    refusals = {
        (PLAYERS[other], f"Set up a unit ({label})"): f"It is {named}' turn to set up a unit",
        (PLAYERS[other], f"Done setting up ({label})"): f"This button is for {named}, not {other_named}",
        (EVE, f"Set up a unit ({label})"): "You are not playing in this game",
        (EVE, f"Done setting up ({label})"): "You are not playing in this game",
    }
    for (user, label), refusal in refusals.items():
        text, private = reply(await discord.click(shown[label], user=user, channel="1"))
        assert private and refusal in text
    assert (await bot.games.store.load("1")).version == version

    other_side = {first: other, other: first}
    for side in (first, other):
        user = PLAYERS[side]
        step = await discord.click(shown[f"Set up a unit ({side_label(side)})"], user=user, channel="1")
        (units,) = menus(step)
        assert reply(step)[1] and [o["label"] for o in units["options"]] == [  # both sides' names
            f"Infantry Detachment 1 ({side.capitalize()})",
            f"Infantry Detachment 2 ({side.capitalize()})",
        ]
        (squares,) = menus(
            await discord.choose(units, [units["options"][0]["value"]], user=user, channel="1")
        )
        edge_rows = {"allies": ("1", "2"), "axis": ("7", "8")}[side]  # 12" from its own edge
        assert squares["options"] and all(o["value"][1:] in edge_rows for o in squares["options"])
        (spots,) = menus(
            await discord.choose(squares, ["C2" if side == "allies" else "C7"], user=user, channel="1")
        )
        spot = next(o["value"] for o in spots["options"] if o["value"].endswith("+1,1"))
        confirm = buttons(await discord.choose(spots, [spot], user=user, channel="1"))
        text, private = reply(
            await discord.click(confirm["Set it up"], user=PLAYERS[other_side[side]], channel="1")
        )
        assert private and "This card is out of date" in text  # not a unit of theirs to set up
        sent = await discord.click(confirm["Set it up"], user=user, channel="1")
        text, private = reply(sent)
        assert (
            not private
            and f"{side.capitalize()} set up Infantry Detachment 1 ({side.capitalize()}) at " in text
        ), text
        unit = (await bot.games.game("1")).units[f"{side}-infantry-detachment-1"]
        assert unit.position == parse_point(spot) and unit.facing == {"allies": 90.0, "axis": 270.0}[side]
        shown = buttons(sent)
    for side in (first, other):
        sent = await discord.click(
            shown[f"Done setting up ({side_label(side)})"], user=PLAYERS[side], channel="1"
        )
        assert reply(sent)[0].startswith(f"The {side.capitalize()} have finished setting up")
        shown = buttons(sent)
    assert set(shown) == {"Start"}
    bot.games.dice = lambda: SeededDice(3)
    sent = await discord.click(shown["Start"], user=ANN, channel="1")
    assert (await bot.games.game("1")).phase is Phase.INITIATIVE


async def test_a_defenders_sniper_team_is_set_up_by_taps_hidden_with_its_dummy_marker(bot_and_discord):
    """Capture (p. 30), the allies defending with a sniper team (p. 20): the team is offered by
    the allies' set-up menu, goes in any grid square (the menu's pages hold the whole table), then
    its dummy marker's square and spot; the channel is told only of two markers, and the team is
    set up hidden with its dummy where the taps put it. The axis cannot confirm it."""
    bot, discord, _ = bot_and_discord
    await bot.games.new_game("1", scenario_battle("capture", attacker="axis"))
    forces = {
        ANN: ("us", ["Infantry Detachment"] * 2 + ["Sniper Team"]),
        OTTO: ("german", ["Infantry Detachment"] * 6),
    }
    for user, (nation, units) in forces.items():
        await discord.slash("force new", user=user, channel="1", nation=nation, name="F", points=1000)
        for unit in units:
            await discord.slash("force add", user=user, channel="1", force="F", unit=unit)
        await discord.slash(
            "force upgrade", user=user, channel="1", force="F", unit="Infantry Detachment 1", command=True
        )
    await discord.slash("game join", user=ANN, channel="1", side="allies", force="F")
    shown = buttons(await discord.slash("game join", user=OTTO, channel="1", side="axis", force="F"))
    state = await bot.games.game("1")
    while whose_turn(state.deployment) != "allies":  # the axis' turn first, if theirs: one unit down
        await discord.slash("deploy", user=OTTO, channel="1", unit="Infantry Detachment 1", at="36,44")
        state = await bot.games.game("1")
        shown = buttons(await discord.slash("game status", user=OTTO, channel="1")) or shown
    (units,) = menus(await discord.click(shown["Set up a unit (Allies)"], user=ANN, channel="1"))
    sniper = next(o for o in units["options"] if o["label"].startswith("Sniper Team"))
    step = await discord.choose(units, [sniper["value"]], user=ANN, channel="1")
    assert "a sniper team, sets up hidden anywhere (p. 20)" in reply(step)[0]
    squads = [u for u in state.units.values() if u.side == "allies" and not u.profile.has(Special.SNIPER)]
    their_area = set(squares_to_set_up_in(state, "allies", squads[0]))
    offered = [o["value"] for o in menus(step)[0]["options"]]
    for page in (2, 3, 4):  # 8 rows of 12 squares
        step = await discord.click(buttons(step)[f"More ({page} of 4)"], user=ANN, channel="1")
        offered += [o["value"] for o in menus(step)[0]["options"]]
    assert len(set(offered)) == 96 and their_area < set(offered)
    (squares,) = menus(step)
    square = next(o["value"] for o in squares["options"] if o["value"] not in their_area)
    (spots,) = menus(await discord.choose(squares, [square], user=ANN, channel="1"))
    step = await discord.choose(spots, [f"{square}+1,1"], user=ANN, channel="1")
    assert f"goes at {square}+1,1: in which grid square does its dummy marker go?" in reply(step)[0]
    (squares,) = menus(step)
    (spots,) = menus(await discord.choose(squares, [squares["options"][0]["value"]], user=ANN, channel="1"))
    confirm = await discord.choose(spots, ["A1"], user=ANN, channel="1")
    assert f"set up hidden at {square}+1,1, its dummy marker at A1" in reply(confirm)[0]
    text, private = reply(await discord.click(buttons(confirm)["Set it up"], user=OTTO, channel="1"))
    assert private and "This card is out of date" in text and "Sniper" not in text, text
    sent = await discord.click(buttons(confirm)["Set it up"], user=ANN, channel="1")
    text, private = reply(sent)
    assert not private and "set up a sniper team's two markers" in text and "Sniper" not in text, text
    state = await bot.games.game("1")
    (team,) = [u for u in state.units.values() if u.profile.has(Special.SNIPER)]
    assert team.hidden and team.position == parse_point(f"{square}+1,1") and team.decoy == parse_point("A1")
