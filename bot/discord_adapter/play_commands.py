"""Playing by slash commands: /act, /cmt, /fallback, /pass, /react, /noreact, /choose."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.discord_adapter import referees
from bot.discord_adapter.common import players_game
from bot.discord_adapter.reaction_buttons import show_result
from bot.text_orders import (
    FACING_FROM_EDGE,
    OrderWords,
    WeaponName,
    find_unit,
    parse_path,
    parse_point,
    reserve_call,
    unit_order,
)
from engine.commands import (
    ChooseDefender,
    ChooseFallBack,
    ChooseInitiative,
    ChooseTarget,
    Command,
    Declare,
    DeclineReaction,
    Deploy,
    FallBackOrder,
    FinishDeployment,
    MoraleTestOrder,
    Order,
    PassInitiative,
    React,
    RemoveMarkers,
)
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.state import Phase


async def play(interaction: discord.Interaction, build) -> None:
    """Turn the options into a command for the user's side, from the game as loaded once, apply
    it and report."""
    outcome = await referees.act(
        interaction, lambda state: build(state, referees.acting_side(state, interaction))
    )
    await show_result(interaction, outcome)


async def _units(interaction: discord.Interaction, current: str, own: bool) -> list[app_commands.Choice[str]]:
    """Autocomplete (no deferring, at most 25): the user's units, or the enemy's that are not
    hidden (a hidden sniper is never offered, so its presence is not given away)."""
    playing = await players_game(interaction)
    if playing is None:
        return []
    state, side = playing
    wanted = current.casefold()
    choices = [
        app_commands.Choice(
            name=f"{u.name}{f' = {u.true_name}' if u.true_name else ''} ({u.profile.name})"[:100], value=u.id
        )
        for u in state.units.values()
        if u.on_table
        and (u.side == side) == own
        and (own or not u.hidden)
        and wanted in (u.id + u.name.casefold() + (u.true_name or "").casefold())
    ]
    return choices[:25]


async def own_units(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await _units(interaction, current, own=True)


async def enemy_units(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await _units(interaction, current, own=False)


POSITION = "x,y in inches or a grid square like D3; separate waypoints with ;"


@app_commands.command(name="act", description="Activate a unit: move and/or fire")
@app_commands.describe(
    unit="Your unit",
    move=f"Where to ({POSITION})",
    fire="The enemy to fire at",
    first="With a move and a shot, which comes first",
    rapid="Rapid move (no firing)",
    reverse="Move in reverse (vehicles)",
    road="Rapid move along a road (set rapid too)",
    smoke="Lay smoke instead of firing",
    embark="Get into this transport (after any move)",
    disembark="Get out of the transport here first (x,y or a grid square)",
    assault='House rules: the enemy within 3" (after any move) to close with, last',
    call_fire="House rules: a spotter calls indirect fire onto this spot (its whole activation)",
    bombard="House rules: a mortar, infantry gun or howitzer fires at your fire marker (with smoke: smoke)",
    smoke_at='House rules: a gun fires a smoke round at this spot (a 2" puff)',
    weapon=(
        "Which weapon fires: flamethrower (flame tank), light_mortar; house rules: gun, mg, +hull_mg joins in"
    ),
    overrun="House rules: an AFV's assault drives through after the round (default), or falls back",
    enter="House rules: the building to go into (after any move), e.g. church",
    leave="House rules: come out of the building to here first (x,y or a grid square)",
    shell="House rules: fire medium or heavy HE at this building as a whole, e.g. church",
    face="House rules: the building's side to fire out of: north, east... (default: facing the target)",
    storey="House rules: the storey to fire out of: ground (0), 1, 2... (default: the one held, else ground)",
)
@app_commands.autocomplete(unit=own_units, fire=enemy_units, embark=own_units, assault=enemy_units)
async def act(
    interaction: discord.Interaction,
    unit: str,
    move: str | None = None,
    fire: str | None = None,
    first: Literal["move", "fire"] = "move",
    rapid: bool = False,
    reverse: bool = False,
    road: bool = False,
    smoke: bool = False,
    embark: str | None = None,
    disembark: str | None = None,
    assault: str | None = None,
    call_fire: str | None = None,
    bombard: bool = False,
    smoke_at: str | None = None,
    weapon: WeaponName | None = None,
    enter: str | None = None,
    leave: str | None = None,
    shell: str | None = None,
    overrun: bool = True,
    face: str | None = None,
    storey: str | None = None,
) -> None:
    words = OrderWords(**{name: value for name, value in locals().items() if name != "interaction"})
    await play(interaction, lambda state, side: Declare(side=side, order=unit_order(state, side, words)))


@app_commands.command(name="initiative", description="Having won the initiative, start or pass it over")
async def initiative(interaction: discord.Interaction, choice: Literal["start", "pass"]) -> None:
    await play(interaction, lambda state, side: ChooseInitiative(side=side, go_first=choice == "start"))


@app_commands.command(name="cmt", description="Spend a token on a Company Morale Test")
async def cmt(interaction: discord.Interaction) -> None:
    await play(interaction, lambda state, side: Declare(side=side, order=MoraleTestOrder()))


@app_commands.command(name="fallback", description="Fall back with a unit, away from the enemy")
@app_commands.describe(
    unit="Your unit", to=f"Where to ({POSITION})", reverse="Reverse (vehicles, normal rate)"
)
@app_commands.autocomplete(unit=own_units)
async def fallback(interaction: discord.Interaction, unit: str, to: str, reverse: bool = False) -> None:
    await play(
        interaction,
        lambda state, side: Declare(
            side=side,
            order=FallBackOrder(unit=find_unit(state, unit, side), path=parse_path(to), reverse=reverse),
        ),
    )


@app_commands.command(name="pass", description="Pass the initiative to the other side")
async def pass_initiative(interaction: discord.Interaction) -> None:
    await play(interaction, lambda state, side: PassInitiative(side=side))


def _window(state: GameState) -> int:
    if state.phase is not Phase.REACTION or state.pending is None:
        raise IllegalCommand("No reaction window is open")
    return state.pending.window


@app_commands.command(name="react", description="React to the enemy's declared action")
@app_commands.describe(
    unit="Your reacting unit (leave empty with cmt)",
    move=f"Where to ({POSITION})",
    fire="The enemy to fire at",
    first="With a move and a shot, which comes first",
    cmt="React with a Company Morale Test instead",
    at=f"React as the enemy reaches this point of its move ({POSITION})",
    assault='House rules: the enemy within 3" to close with',
)
@app_commands.autocomplete(unit=own_units, fire=enemy_units, assault=enemy_units)
async def react(
    interaction: discord.Interaction,
    unit: str | None = None,
    move: str | None = None,
    fire: str | None = None,
    first: Literal["move", "fire"] = "move",
    cmt: bool = False,
    at: str | None = None,
    assault: str | None = None,
) -> None:
    def build(state: GameState, side: str) -> React:
        order: Order
        if cmt:
            order = MoraleTestOrder()
        elif unit:
            order = unit_order(state, side, OrderWords(unit, move, fire, first, assault=assault))
        else:
            raise IllegalCommand("Name the reacting unit, or set cmt")
        point = parse_point(at) if at else None
        return React(side=side, window=_window(state), order=order, at=point)

    await play(interaction, build)


@app_commands.command(name="noreact", description="Let the enemy's declared action go ahead")
async def noreact(interaction: discord.Interaction) -> None:
    await play(interaction, lambda state, side: DeclineReaction(side=side, window=_window(state)))


@app_commands.command(
    name="choose", description="Answer a choice: the unit that loses markers, or a new target"
)
@app_commands.describe(
    unit="The unit chosen: loses markers, new target (empty wastes the shot) or defends your building",
    close_combat="House rules: your vehicle attacked in close combat falls back, or fights on",
)
async def choose(
    interaction: discord.Interaction,
    unit: str | None = None,
    close_combat: Literal["fall_back", "fight_on"] | None = None,
) -> None:
    def build(state: GameState, side: str) -> Command:
        choice = state.pending.choice if state.pending else None
        if choice is None:
            raise IllegalCommand("Nothing is waiting to be chosen")
        if choice.kind == "close_combat_fall_back":
            if close_combat is None:
                raise IllegalCommand("Choose close_combat: fall_back or fight_on")
            return ChooseFallBack(side=side, fall_back=close_combat == "fall_back")
        picked = find_unit(state, unit, known_to=side) if unit else None
        if choice.kind == "building_defender":
            if picked is None:
                raise IllegalCommand("Choose the unit that defends the building")
            return ChooseDefender(side=side, unit=picked)
        if choice.kind == "remove_markers":
            if picked is None:
                raise IllegalCommand("Choose the unit that loses its markers")
            return RemoveMarkers(side=side, unit=picked)
        return ChooseTarget(side=side, target=picked)

    await play(interaction, build)


@app_commands.command(
    name="reserves", description="Call reserves at the start of a turn: a d6 each, 3+ brings one"
)
@app_commands.describe(units="Reserve units, comma separated, most wanted first; leave empty to call none")
async def reserves(interaction: discord.Interaction, units: str = "") -> None:
    await play(interaction, lambda state, side: reserve_call(state, side, units))


async def waiting_units(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: the user's units still waiting to be set up."""
    playing = await players_game(interaction)
    if playing is None:
        return []
    state, side = playing
    plan = state.deployment.sides.get(side) if state.deployment else None
    wanted = current.casefold()
    names = [state.units[u].name for u in (plan.waiting if plan else [])]
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names if wanted in n.casefold()][:25]


@app_commands.command(
    name="deploy", description="Set a unit up before a scenario game starts, or say you are done"
)
@app_commands.describe(
    unit="A unit of yours still waiting",
    at=f"Where ({POSITION})",
    facing="Degrees: 90 faces the far edge, 270 the near one (default: toward the enemy's edge)",
    done="You have set up all you want; the rest wait in reserve",
    decoy="A sniper team only: where its dummy marker goes",
)
@app_commands.autocomplete(unit=waiting_units)
async def deploy(
    interaction: discord.Interaction,
    unit: str | None = None,
    at: str | None = None,
    facing: app_commands.Range[float, 0, 360] | None = None,
    done: bool = False,
    decoy: str | None = None,
) -> None:
    def build(state: GameState, side: str) -> Command:
        if done:
            return FinishDeployment(side=side)
        if not unit or not at:
            raise IllegalCommand("Name the unit and where it goes (unit: at:), or say done:true")
        face = facing if facing is not None else FACING_FROM_EDGE[state.sides[side].entry_edge]
        return Deploy(
            side=side,
            unit=find_unit(state, unit, side),
            at=parse_point(at),
            facing=face,
            decoy=parse_point(decoy) if decoy else None,
        )

    await play(interaction, build)


PLAY_COMMANDS = (initiative, act, cmt, fallback, pass_initiative, react, noreact, choose, reserves, deploy)
