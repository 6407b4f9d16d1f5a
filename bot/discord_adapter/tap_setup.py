"""Setting up a scenario by taps (pp. 28-31): the card's "Set up a unit" opens private steps (a
unit still waiting, or one set up already, to set it up again; a grid square of the side's
set-up area, then a spot in it), each unit facing into the table from its side's edge, declared
like ``/deploy``; "Done setting up" ends the side's set-up as ``/deploy done:true`` does, asking
first, with Confirm and Cancel, while the side could still set units up. A sniper team (only a
defending side fields one) goes anywhere on the table, hidden, with a dummy marker (p. 20): its
square and spot, then its dummy's, the steps carrying its own spot on.

The custom ids are the turn steps' (bot.discord_adapter.action_card.step_id): each carries the
game's version, so a step the game has moved past is refused as out of date; and, read as the
turn steps' are, a unit, a square or a spot only if the side's menus offer it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import discord

from bot.discord_adapter.action_card import step_button
from bot.discord_adapter.answers import answer
from bot.discord_adapter.common import games
from bot.discord_adapter.custom_ids import Shape, number, offered, out_of_date, word
from bot.discord_adapter.reaction_buttons import show_result
from bot.discord_adapter.referees import acting_side, apply_as_user, is_admin, server_roles
from bot.discord_adapter.tap_orders import (
    TurnButton,
    TurnSelect,
    card_side,
    menu,
    of_pages,
    page_buttons,
    page_of,
    place_of,
    private_card,
    public_step,
    spot_menu,
    spot_options,
    square_name,
    step_card,
    step_template,
    unit_at,
)
from bot.services.game_service import GameError, permitted
from bot.services.next_steps import setting_up
from bot.set_up_done import ConfirmFirst, finish_set_up
from bot.text_orders import FACING_FROM_EDGE, GRID, parse_point
from engine.commands import Command, Deploy, FinishDeployment
from engine.deployment.placing import may_still_set_up
from engine.game_state import GameState
from engine.profiles import Special
from engine.referee_prep import deployment_zone
from engine.state import Point, Unit
from engine.wording import side_name


def own_side(state: GameState, side: str, called: str) -> str:
    """A card's button names the side it is for: only that side's player (or referee) uses it."""
    if side != card_side(state, called):
        raise GameError(f"This button is for {side_name(called)}, not {side_name(side)}")
    return side


def may_set_up(state: GameState, interaction: discord.Interaction) -> str:
    """The user's side, if it may set a unit up now; else a refusal to show them."""
    side = acting_side(state, interaction)
    permitted(
        state,
        str(interaction.user.id),
        FinishDeployment(side=side),
        is_admin(interaction),
        server_roles(interaction),
    )
    if side not in setting_up(state):
        turn = setting_up(state)
        raise GameError(f"It is {side_name(turn[0])}' turn to set up a unit" if turn else "Set-up is over")
    return side


def waiting(state: GameState, side: str) -> list[Unit]:
    """The side's units its menu offers to set up (none once set-up is over): those it may still
    set up (at its share of the table, only those that do not count against it), then those it
    has set up, to set up again elsewhere."""
    plan = state.deployment
    if plan is None or side not in plan.sides:
        return []
    again = [state.units[u] for u in plan.set_up if u in state.units and state.units[u].side == side]
    return [state.units[u] for u in may_still_set_up(state, side)] + again


def is_sniper_team(unit: Unit) -> bool:
    return unit.profile.has(Special.SNIPER)


def squares_to_set_up_in(state: GameState, side: str, unit: Unit) -> list[str]:
    """The grid squares whose centre lies in the side's set-up area (the referee's, if drawn);
    for a sniper team, every square on the table (p. 20)."""
    zone = deployment_zone(state, side) or state.deployment.sides[side].zone  # type: ignore[union-attr]
    found = []
    for row in range(math.ceil(state.table.depth / GRID)):
        for column in range(math.ceil(state.table.width / GRID)):
            centre = Point(x=column * GRID + GRID / 2, y=row * GRID + GRID / 2)
            on_table = centre.x <= state.table.width and centre.y <= state.table.depth
            if (is_sniper_team(unit) and on_table) or zone.problem(unit, centre, state.table) is None:
                found.append(square_name(column, row))
    return found


AGAIN = " (set up again)"  # a unit the menu offers that is set up already


def waiting_options(state: GameState, side: str) -> list[discord.SelectOption]:
    """The side's units still to set up, as its menu offers them (every page)."""
    return [
        discord.SelectOption(
            label=f"{u.name}{f' = {u.true_name}' if u.true_name else ''}{AGAIN * u.on_table}"[:100],
            value=str(place_of(state, u.id)),
            description=u.profile.name[:100],
        )
        for u in waiting(state, side)
    ]


def spots_to_set_up_in(state: GameState, side: str, unit: Unit) -> list[discord.SelectOption]:
    """Every spot the unit's spot menus offer, whichever of its squares was chosen."""
    return [spot for square in squares_to_set_up_in(state, side, unit) for spot in spot_options(square)]


def placing(state: GameState, side: str, place: int, spots: tuple[str, ...], *, done: bool = False) -> Unit:
    """The unit being set up, if the side's menu offers it, and its spots, if its menus offer
    them: while it is set up, a sniper team's own spot as its dummy marker's is chosen; ``done``,
    every spot it takes (a sniper team two, its own and its dummy marker's; another unit one).
    Else the step is out of date."""
    offered([str(place)], waiting_options(state, side))
    unit = unit_at(state, place)
    takes = 2 if is_sniper_team(unit) else 1
    if len(spots) not in ((takes,) if done else range(takes)):
        raise out_of_date()
    shown = spots_to_set_up_in(state, side, unit)
    for spot in spots:
        offered([spot], shown)
    return unit


def unit_menu_step(
    state: GameState, side: str, channel: int, version: int, page: int = 0
) -> discord.ui.LayoutView:
    shown, page, pages = page_of(waiting_options(state, side), page)
    if not shown:
        return private_card(
            f"**{side_name(side, start=True)}** have no unit left to set up by taps: tap Done setting up."
        )
    return private_card(
        f"**{side_name(side, start=True)}**: choose the unit to set up.{of_pages(page, pages)}",
        [menu(channel, version, "placing", (), f"The unit to set up{of_pages(page, pages)}", shown)],
        page_buttons(channel, version, "setuppage", (), page, pages),
    )


def square_question(unit: Unit, side: str, placed: tuple[str, ...]) -> str:
    if placed:
        return f"**{unit.name}** goes at {placed[0]}: in which grid square does its dummy marker go?"
    if is_sniper_team(unit):
        return f"**{unit.name}**, a sniper team, sets up hidden anywhere (p. 20): in which grid square?"
    return f"**{unit.name}**: in which grid square of {side_name(side)}' set-up area?"


def square_options(state: GameState, side: str, unit: Unit) -> list[discord.SelectOption]:
    """The grid squares the unit may go in, as its menu offers them (every page)."""
    return [
        discord.SelectOption(label=f"Square {name}", value=name)
        for name in squares_to_set_up_in(state, side, unit)
    ]


def square_step(
    state: GameState, side: str, channel: int, version: int, place: int, page: int = 0, *placed: str
) -> discord.ui.LayoutView:
    """The grid square the unit goes in (``placed``: a sniper team's own spot, once chosen: then
    its dummy marker's square)."""
    unit = unit_at(state, place)
    shown, page, pages = page_of(square_options(state, side, unit), page)
    if not shown:
        return private_card(
            f"No grid square's centre lies in {side_name(side)}' set-up area: use /deploy unit: at:."
        )
    drafted = (place, *placed)
    return private_card(
        square_question(unit, side, placed) + of_pages(page, pages),
        [menu(channel, version, "setupsquare", drafted, f"Grid square{of_pages(page, pages)}", shown)],
        page_buttons(channel, version, "setupsquares", drafted, page, pages),
    )


def spot_step(
    state: GameState, channel: int, version: int, drafted: tuple[str, ...], square: str
) -> discord.ui.LayoutView:
    return spot_menu(state, channel, version, "setupspot", drafted, square)


def confirm_set_up(
    state: GameState, channel: int, version: int, place: int, *spots: str
) -> discord.ui.LayoutView:
    """Confirm the unit's spot (and a sniper team's dummy marker's, the second spot)."""
    unit = unit_at(state, place)
    confirm = step_button(
        channel, version, "deploy", "Set it up", place, *spots, style=discord.ButtonStyle.success
    )
    if len(spots) == 2:
        where = f"set up hidden at {spots[0]}, its dummy marker at {spots[1]}"
    else:
        where = f"set up at {spots[0]}, facing into the table"
    return private_card(f"**{unit.name}**: {where}. Confirm?", [confirm])


def after_spot(
    state: GameState, side: str, channel: int, version: int, place: int, *spots: str
) -> discord.ui.LayoutView:
    """Once a spot is chosen: a sniper team's dummy marker next, if it has none yet; else confirm."""
    if is_sniper_team(unit_at(state, place)) and len(spots) == 1:
        return square_step(state, side, channel, version, place, 0, *spots)
    return confirm_set_up(state, channel, version, place, *spots)


def deploy_command(state: GameState, side: str, place: int, spot: str, decoy: str | None = None) -> Command:
    """The set-up the taps stand for, as ``/deploy`` makes it (``decoy``: a sniper team's dummy
    marker's spot, which it must have), of a unit and at spots the side's menus offer."""
    unit = placing(state, side, place, (spot, decoy) if decoy else (spot,), done=True)
    facing = FACING_FROM_EDGE[state.sides[side].entry_edge]
    dummy = parse_point(decoy) if decoy else None
    return Deploy(side=side, unit=unit.id, at=parse_point(spot), facing=facing, decoy=dummy)


def confirm_done(channel: int, version: int, asked: ConfirmFirst) -> discord.ui.LayoutView:
    """The question of a side's set-up done (:mod:`bot.set_up_done`), asked privately: Confirm
    sends the units still waiting into reserve, Cancel leaves the set-up as it is."""
    sure = step_button(
        channel, version, "setupsure", "Confirm: done", asked.side, style=discord.ButtonStyle.danger
    )
    keep = step_button(channel, version, "setupkeep", "Cancel: keep setting up", asked.side)
    return private_card(asked.question, [sure, keep])


async def ask_to_confirm(interaction: discord.Interaction, asked: ConfirmFirst) -> None:
    """Ask the question privately, its buttons made for the game as it stands."""
    _, version = await games(interaction).game_now(str(interaction.channel_id))
    await answer(interaction, view=confirm_done(interaction.channel_id or 0, version, asked), ephemeral=True)


async def apply_or_confirm(
    interaction: discord.Interaction, build: Callable[[GameState], Command], version: int | None = None
) -> None:
    """Apply the command ``build`` makes from the game as loaded (a play command's builder, or a
    card's button) and show the result; or, for a step to be confirmed first (:class:`ConfirmFirst`:
    a side done setting up while it could still set units up), ask its question privately."""
    try:
        outcome = await apply_as_user(interaction, build, version=version)
    except ConfirmFirst as asked:
        await ask_to_confirm(interaction, asked)
        return
    await show_result(interaction, outcome)


PLACED = (number, word)  # a unit being set up, and its own spot (a sniper team's, before its dummy's)
SET_UP_BUTTONS: dict[str, tuple[Shape, ...]] = {
    "setup": ((word,),),
    "setupdone": ((word,),),
    "setupsure": ((word,),),
    "setupkeep": ((word,),),
    "setuppage": ((number,),),
    "setupsquares": ((number, number), (*PLACED, number)),
    "deploy": (PLACED, (*PLACED, word)),
}
SET_UP_MENUS: dict[str, tuple[Shape, ...]] = {
    "placing": ((),),
    "setupsquare": ((number,), PLACED),
    "setupspot": ((number,), PLACED),
}


class SetUpButton(TurnButton, template=step_template(SET_UP_BUTTONS)):
    """The set-up card's buttons and those of a unit being set up."""

    shapes = SET_UP_BUTTONS

    async def _setup(self, interaction: discord.Interaction) -> None:
        (called,), channel, version = self.arguments, self.channel_id, self.version

        def make(state: GameState, side: str, version: int) -> discord.ui.LayoutView:
            own_side(state, side, called)
            return unit_menu_step(state, side, channel, version)

        await step_card(interaction, version, make, new=True, may=may_set_up)

    async def _setuppage(self, interaction: discord.Interaction) -> None:
        channel, version, (page,) = self.channel_id, self.version, self.arguments
        await step_card(
            interaction,
            version,
            lambda state, side, version: unit_menu_step(state, side, channel, version, page),
            may=may_set_up,
        )

    async def _setupsquares(self, interaction: discord.Interaction) -> None:
        channel, version = self.channel_id, self.version
        (place, *placed, page) = self.arguments

        def make(state: GameState, side: str, version: int) -> discord.ui.LayoutView:
            placing(state, side, place, tuple(placed))
            return square_step(state, side, channel, version, place, page, *placed)

        await step_card(interaction, version, make, may=may_set_up)

    async def _setupdone(self, interaction: discord.Interaction) -> None:
        await self._finish(interaction, confirmed=False)

    async def _setupsure(self, interaction: discord.Interaction) -> None:
        await self._finish(interaction, confirmed=True)

    async def _finish(self, interaction: discord.Interaction, *, confirmed: bool) -> None:
        (called,) = self.arguments

        def build(state: GameState) -> Command:
            side = own_side(state, acting_side(state, interaction), called)
            return finish_set_up(state, side, confirmed=confirmed)

        await public_step(interaction, lambda: apply_or_confirm(interaction, build, self.version))

    async def _setupkeep(self, interaction: discord.Interaction) -> None:
        (called,) = self.arguments
        kept = f"Nothing went into reserve: {side_name(called)} go on setting up."

        def theirs(state: GameState, interaction: discord.Interaction) -> str:
            return own_side(state, acting_side(state, interaction), called)

        await step_card(interaction, None, lambda state, side, version: private_card(kept), may=theirs)

    async def _deploy(self, interaction: discord.Interaction) -> None:
        place, spot, *dummy = self.arguments
        decoy = next(iter(dummy), None)
        await self._play(interaction, lambda state, side: deploy_command(state, side, place, spot, decoy))


class SetUpSelect(TurnSelect, template=step_template(SET_UP_MENUS)):
    """The menus of a unit being set up: the unit, its grid square, its spot (and a sniper
    team's dummy marker's)."""

    shapes = SET_UP_MENUS

    async def take(self, interaction: discord.Interaction) -> None:
        channel, version, values = self.channel_id, self.version, tuple(self.item.values)

        def make(state: GameState, side: str, version: int) -> discord.ui.LayoutView:
            if self.step == "placing":
                (chosen,) = offered(values, waiting_options(state, side))
                return square_step(state, side, channel, version, int(chosen))
            place, *placed = self.arguments
            unit = placing(state, side, place, tuple(placed))
            if self.step == "setupsquare":
                (chosen,) = offered(values, square_options(state, side, unit))
                return spot_step(state, channel, version, (str(place), *placed), chosen)
            (chosen,) = offered(values, spots_to_set_up_in(state, side, unit))
            return after_spot(state, side, channel, version, place, *placed, chosen)

        await step_card(interaction, version, make, may=may_set_up)
