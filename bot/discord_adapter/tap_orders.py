"""A whole game by taps: the buttons of a card (join, start, the initiative choice, activate,
CMT, pass), and an activation built step by step in messages only its player sees (a unit, what
it does, where it goes, what it fires at, confirm), then declared like ``/act``.

Every step's custom id (bot.discord_adapter.action_card.step_id) carries the game's version and
the order so far, so a step works after a restart and a step of a card the game has moved past
is refused as out of date. Units are named in ids by their place in the game's unit list (ids
of the game at that version, so they cannot shift under the order).

An id is input like any other (bot.discord_adapter.custom_ids): every argument is read by its
kind, and every unit, destination and target it carries must be one the step's menu offers the
user's side at that version (its own units ready to act; only enemies its view lets it name),
so a forged id is answered as out of date, the same for every unit it may not know of.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from fractions import Fraction

import discord

from bot.discord_adapter.action_card import (
    NO_TARGET,
    OPENING,
    OPTIONS,
    STEP,
    action_card,
    choice_menu,
    choice_options,
    of_pages,
    page_buttons,
    page_of,
    step_button,
    step_id,
)
from bot.discord_adapter.answers import acknowledge, acknowledge_in_place, answer, carry_out
from bot.discord_adapter.common import display_name, games, shown_on
from bot.discord_adapter.custom_ids import (
    ARGUMENTS,
    ReadFirst,
    Shape,
    given,
    number,
    number_of,
    of_this_channel,
    offered,
    out_of_date,
    parsed,
    word,
)
from bot.discord_adapter.game_commands import show_joined, show_started
from bot.discord_adapter.reaction_buttons import ID as WINDOW
from bot.discord_adapter.reaction_buttons import WindowButton, show_result
from bot.discord_adapter.referees import acting_side, apply_as_user, is_admin, server_roles
from bot.services.game_service import GameError, permitted
from bot.text_orders import GRID, choice_command, parse_move, unit_order
from engine.actions.base import OrderOption
from engine.actions.registry import game_order_options, order_options
from engine.commands import (
    CallReserves,
    ChooseInitiative,
    ChooseTarget,
    Command,
    DeclineReaction,
    FallBackOrder,
    JoinSide,
    MoraleTestOrder,
    Order,
    PassInitiative,
    StartGame,
)
from engine.errors import IllegalCommand
from engine.flow.sequence import reserves_to_call
from engine.game import awaiting
from engine.game_state import GameState
from engine.legality import (
    MayAct,
    MoveKind,
    check,
    destinations,
    is_legal,
    moved_to,
    order_now,
    reaction_points,
    seen_at,
    targets,
    units_that_may_act,
)
from engine.rules.movement import fall_back_allowance, movement_allowance
from engine.state import Phase, Point, Unit
from engine.view import may_name
from engine.wording import counted, side_label, side_name

SQUARES = 20  # grid squares offered as destinations; the "toward" moves follow them, page by page
OFFSETS = range(-2, 3)  # inches from a square's centre, each way
NONE = "-"  # no destination, or no target, in a custom id


@dataclass(frozen=True)
class Action:
    """What a unit may be ordered to do by taps (``gives``: the option of an action it gives, by
    the action's tap button: a flag set, or an enemy aimed at, such as the one close combat is
    with, where the game's rule set has that action)."""

    label: str
    moves: bool = False
    fires: bool = False
    rapid: bool = False
    fire_first: bool = False
    fall_back: bool = False
    gives: OrderOption | None = None

    @property
    def aims(self) -> bool:
        """Whether the order names an enemy: what it fires at, or what the option it gives is aimed at."""
        return self.fires or (self.gives is not None and self.gives.kind == "unit")

    @property
    def verb(self) -> str:
        """What it does to the enemy it names, in words: fires at it, or as its option's button says."""
        return self.gives.tap.label.lower() if self.gives and self.gives.tap else "fire at"

    def given(self, aimed_at: str | None) -> dict[str, object]:
        """The option it gives, by name, with its value: the enemy aimed at, or the flag set."""
        if self.gives is None:
            return {}
        return {self.gives.name: aimed_at if self.gives.kind == "unit" else True}


def tapped_options() -> dict[str, Action]:
    """The buttons the actions' options declare (:attr:`~engine.actions.base.OrderOption.tap`):
    each alone, under the option's name, and after a move, under ``move`` and its name."""
    buttons: dict[str, Action] = {}
    for option in order_options().values():
        if option.tap is not None:
            buttons[option.name] = Action(option.tap.label, gives=option)
            if option.tap.after_move is not None:
                buttons[f"move{option.name}"] = Action(option.tap.after_move, moves=True, gives=option)
    return buttons


ORDER_BUTTONS = {
    "move": Action("Move", moves=True),
    "rapid": Action("Rapid move", moves=True, rapid=True),
    "fire": Action("Fire", fires=True),
    "movefire": Action("Move and fire", moves=True, fires=True),
    "firemove": Action("Fire and move", moves=True, fires=True, fire_first=True),
    "fallback": Action("Fall back", moves=True, fall_back=True),
    **tapped_options(),
}
NOW = "now"  # a reaction's moment: before the enemy acts


@dataclass(frozen=True)
class Draft:
    """An order being built: the unit (its place in the game's unit list), what it does, where
    it goes (a square such as ``D3+1,-2``, or ``~N``: toward unit N), what it fires at or aims
    at otherwise (an assault's enemy), and, for a reaction, when it cuts in (``now``, or how
    many inches along the enemy's declared move; not asked yet while :data:`NONE`)."""

    unit: int
    action: str
    to: str = NONE
    target: int | None = None
    when: str = NONE

    @property
    def does(self) -> Action:
        return ORDER_BUTTONS[self.action]

    def arguments(self) -> tuple[object, ...]:
        return (self.unit, self.action, self.to, NONE if self.target is None else self.target, self.when)


# --- reading the game ------------------------------------------------------------------------


def action(text: str) -> str:
    """An action as an id names it (:data:`ORDER_BUTTONS`)."""
    if text not in ORDER_BUTTONS:
        raise ValueError(text)
    return text


def target(text: str) -> int | None:
    """A target as an id names it: a place in the unit list, or none yet."""
    return None if text == NONE else number(text)


def unit_at(state: GameState, place: int) -> Unit:
    units = list(state.units.values())
    if not 0 <= place < len(units):
        raise out_of_date()
    return units[place]


def place_of(state: GameState, unit_id: str) -> int:
    return list(state.units).index(unit_id)


def reacting(state: GameState) -> bool:
    """Whether the order being built is a reaction: a window is open (the step's version says
    which; the unit menu offers only the side's units that may react in it)."""
    return state.phase is Phase.REACTION and state.pending is not None


def ready_units(state: GameState, side: str) -> list[MayAct]:
    """The side's units that may be ordered by taps: those the engine lets it activate, or react
    with, now (:func:`engine.legality.units_that_may_act`), on the table and not carried."""
    return [may for may in units_that_may_act(state, side) if may.unit.on_table and not may.unit.embarked_in]


def offered_actions(state: GameState) -> dict[str, Action]:
    """The actions the game's rule set has: a button that gives an option only where one of its
    actions declares the option, and in a reaction only if a reaction may be given it."""
    declared = game_order_options(state)
    return {
        name: a
        for name, a in ORDER_BUTTONS.items()
        if a.gives is None or (a.gives.name in declared and (a.gives.reacts or not reacting(state)))
    }


def move_kind(action: Action) -> MoveKind:
    return "fall_back" if action.fall_back else "rapid" if action.rapid else "move"


def allowance(unit: Unit, action: Action) -> float:
    if action.fall_back:
        return fall_back_allowance(unit.profile, reverse=False)
    return movement_allowance(unit.profile, rapid=action.rapid, road=False)


def square_name(column: int, row: int) -> str:
    return f"{chr(ord('A') + column)}{row + 1}"


def squares_in_reach(state: GameState, unit: Unit, reach: float) -> list[str]:
    """The grid squares whose centre (give or take an offset) the unit may reach, nearest first."""
    here = unit.position
    found = []
    for column in range(math.ceil(state.table.width / GRID)):
        for row in range(math.ceil(state.table.depth / GRID)):
            x, y = column * GRID + GRID / 2, row * GRID + GRID / 2
            gap = math.dist((here.x, here.y), (x, y))
            if gap <= reach + max(OFFSETS) and x <= state.table.width and y <= state.table.depth:
                found.append((gap, square_name(column, row)))
    return [name for _, name in sorted(found)[:SQUARES]]


def enemies(state: GameState, unit: Unit) -> list[Unit]:
    """The enemy units the side may name (a hidden marker never: it would give itself away)."""
    return sorted(
        (
            u
            for u in state.units.values()
            if u.side != unit.side and u.on_table and may_name(u, unit.side, aiming=True)
        ),
        key=lambda u: math.dist((unit.position.x, unit.position.y), (u.position.x, u.position.y)),
    )


def moments(state: GameState) -> dict[str, Point]:
    """When a reaction may cut in, by the value a menu gives it: inches along the enemy's declared
    move (:func:`engine.legality.reaction_points`)."""
    return {f"{along:g}": point for along, point in reaction_points(state)}


def reaction_at(state: GameState, draft: Draft) -> Point | None:
    """The point of the enemy's move the reaction cuts in at, or None (before it acts, or no
    reaction); a moment the step's menu no longer offers is out of date."""
    if draft.when in (NONE, NOW):
        return None
    point = moments(state).get(draft.when)
    if point is None:
        raise out_of_date()
    return point


def move_words(state: GameState, unit: Unit, draft: Draft) -> str | None:
    """The move as ``/act`` takes it: a square with its offset, or a distance toward a unit."""
    if not draft.does.moves or draft.to == NONE:
        return None
    if draft.to.startswith("~"):
        goal = unit_at(state, int(draft.to[1:]))
        return f"{allowance(unit, draft.does):g} toward {goal.id}"
    return draft.to


def at_destination(state: GameState, table: GameState, unit: Unit, draft: Draft) -> GameState:
    """The table (``table``: as the order sees it) with the unit at its destination, facing the
    way the move leaves it, to measure its shots (:func:`engine.legality.moved_to`)."""
    words = move_words(state, unit, draft)
    if words is None:
        return table
    return moved_to(table, unit.id, parse_move(state, unit.id, words)[-1])


def reachable(
    state: GameState, unit: Unit, draft: Draft, values: list[str], enough: int | None = None
) -> list[str]:
    """Those of the destinations (spots of squares, or ``~N``: toward unit N) that the move rules
    accept for the draft's move, at its moment if it is a reaction, and from which (or after
    firing first) it has an enemy to fire at if it fires too (:func:`engine.legality.destinations`);
    the spot it stands on, or a move toward a unit already in contact, goes nowhere and is left out
    (``enough``: at most that many, the first found)."""
    points = {}
    for value in values:
        try:
            points[value] = parse_move(
                state, unit.id, move_words(state, unit, replace(draft, to=value)) or ""
            )
        except IllegalCommand:
            continue
    ends = [path[-1] for path in points.values()]
    fire = ("before" if draft.does.fire_first else "after") if draft.does.fires else None
    kept = set(
        destinations(state, unit.id, move_kind(draft.does), ends, reaction_at(state, draft), fire, enough)
    )
    return [value for value, path in points.items() if path[-1] in kept]


def targets_in_sight(
    state: GameState, unit: Unit, draft: Draft, among: Iterable[str] | None = None
) -> list[tuple[Unit, Fraction | None]]:
    """The enemy units the side may name (of ``among``, if given) that the draft's order may be
    given against, the whole order being one the engine takes: for a shot, those the unit could
    fire at (from its destination, if it moves first; with the enemy where the reaction cuts in)
    and hurt, with the chance of an effect (:func:`engine.legality.targets`); for an option
    aimed otherwise (an assault), those it may be aimed at (no chance shown)."""
    named = [enemy for enemy in enemies(state, unit) if among is None or enemy.id in among]
    candidates: dict[str, Fraction | None]
    if draft.does.fires:
        table = seen_at(state, reaction_at(state, draft))
        seen_from = table if draft.does.fire_first else at_destination(state, table, unit, draft)
        aimed_at = targets(seen_from, unit.id, moving=draft.does.moves, among=[enemy.id for enemy in named])
        candidates = {enemy.id: effect for enemy, effect in aimed_at}
    else:
        candidates = dict.fromkeys(enemy.id for enemy in named)
    return [
        (enemy, candidates[enemy.id])
        for enemy in named
        if enemy.id in candidates
        and is_legal(state, order_command(state, unit.side, replace(draft, target=place_of(state, enemy.id))))
    ]


def percent(chance: Fraction) -> str:
    return f"{float(chance) * 100:.0f}%"


def order_command(state: GameState, side: str, draft: Draft) -> Command:
    """The declaration, or the reaction, the draft stands for, its order made as ``/act`` (or
    ``/fallback``) makes it."""
    unit = unit_at(state, draft.unit)
    move = move_words(state, unit, draft)
    if draft.does.moves and move is None:
        raise out_of_date()  # a Confirm is drawn only once the unit knows where it goes
    order: Order
    if draft.does.fall_back:
        assert move is not None
        order = FallBackOrder(unit=unit.id, path=parse_move(state, unit.id, move))
    else:
        aimed_at = unit_at(state, draft.target).id if draft.does.aims and draft.target is not None else None
        if draft.does.aims and aimed_at is None:
            raise out_of_date()  # and what it fires at or closes with
        order = unit_order(
            state,
            side,
            unit.id,
            move=move,
            fire=aimed_at if draft.does.fires else None,
            first="fire" if draft.does.fire_first else "move",
            rapid=draft.does.rapid,
            **draft.does.given(aimed_at),
        )
    return order_now(state, side, order, reaction_at(state, draft))


def may_order(state: GameState, interaction: discord.Interaction) -> str:
    """The user's side, if it may give an order now (declare one on its turn to act, or react in
    a window open to it); else a refusal to show them."""
    side = acting_side(state, interaction)
    giving = order_now(state, side, MoraleTestOrder())
    permitted(state, str(interaction.user.id), giving, is_admin(interaction), server_roles(interaction))
    if reacting(state):
        check(state, DeclineReaction(side=side, window=state.pending.window))  # type: ignore[union-attr]
    elif state.phase is not Phase.ACTIVE or state.active_side != side:
        raise GameError(
            f"It is not {side_name(side)}' turn to activate: the game waits for {_waited_for(state)}"
        )
    return side


# --- the private steps -----------------------------------------------------------------------


def private_card(text: str, *rows: list[discord.ui.Item]) -> discord.ui.LayoutView:
    """A step only its player sees: the same card as an action's, without a picture."""
    return action_card(text, None, [item for row in rows for item in row])


def menu(channel: int, version: int, step: str, arguments: tuple[object, ...], placeholder: str, options):
    return discord.ui.Select(
        custom_id=step_id(channel, version, step, *arguments),
        placeholder=placeholder[:150],
        options=options[:OPTIONS],
    )


def turn_buttons(state: GameState, channel: int, version: int, side: str) -> list[discord.ui.Item]:
    """A side's other answers: a Company Morale Test, or passing (in a reaction window: no
    reaction)."""
    other = "No reaction" if reacting(state) else "Pass"
    return [
        step_button(channel, version, "cmt", f"CMT ({side_label(side)})"),
        step_button(channel, version, "pass", f"{other} ({side_label(side)})"),
    ]


def unit_options(state: GameState, side: str) -> list[discord.SelectOption]:
    """The side's units ready to act, or to react, as its unit menu offers them (every page)."""
    return [
        discord.SelectOption(
            label=f"{u.name}{f' = {u.true_name}' if u.true_name else ''}"[:100],  # its own side's eyes only
            value=str(place_of(state, u.id)),
            description=", ".join(
                (
                    u.profile.name,
                    counted(u.morale_markers, "morale marker"),
                    counted(u.tokens, "token"),
                    *([f"needs {may.test.describe()}"] if may.test else []),
                )
            )[:100],
        )
        for may in ready_units(state, side)
        for u in [may.unit]
    ]


def unit_step(
    state: GameState, side: str, channel: int, version: int, page: int = 0
) -> discord.ui.LayoutView:
    options = unit_options(state, side)
    shown, page, pages = page_of(options, page)
    verb = "react" if reacting(state) else "activate"
    if not options:
        return private_card(
            f"No unit of {side_name(side)} may {'react' if reacting(state) else 'act'} now: take a CMT or "
            f"{'let the order go ahead' if reacting(state) else 'pass'}.",
            turn_buttons(state, channel, version, side),
        )
    ask = "react with (the score its test needs shown)" if reacting(state) else "activate"
    return private_card(
        f"**{side_name(side, start=True)}**: choose the unit to {ask}.{of_pages(page, pages)}",
        [menu(channel, version, "unit", (), f"The unit to {verb}{of_pages(page, pages)}", shown)],
        [
            *page_buttons(channel, version, "units", (), page, pages),
            *turn_buttons(state, channel, version, side),
        ],
    )


def action_buttons(state: GameState, channel: int, version: int, draft: Draft) -> list[discord.ui.Item]:
    """What the draft's unit may be ordered to do, its moment kept (a reaction's)."""
    return [
        step_button(channel, version, "do", action.label, *replace(draft, action=name, to=NONE).arguments())
        for name, action in offered_actions(state).items()
    ]


def own_unit(state: GameState, side: str, place: int) -> Unit:
    """The unit a step names, if the side's unit menu offers it; else the step is out of date (the
    same for every unit not the side's own, known to it or not)."""
    offered([str(place)], unit_options(state, side))
    return unit_at(state, place)


def spot_options(square: str) -> list[discord.SelectOption]:
    """The spots of a grid square a menu offers: its centre and those around it, an inch apart."""
    return [
        discord.SelectOption(
            label=f"The centre of {square}" if dx == dy == 0 else f'{square} {dx:+d}" across, {dy:+d}" deep',
            value=square if dx == dy == 0 else f"{square}+{dx},{dy}",
        )
        for dy in OFFSETS
        for dx in OFFSETS
    ]


def destination_options(state: GameState, unit: Unit, draft: Draft) -> list[discord.SelectOption]:
    """Where the unit may go, as its destination menu offers it (every page): the grid squares
    in its reach with a spot the move rules accept, then a full move toward each enemy unit the
    side may name, where the rules accept it (each with a shot, if the order fires too:
    :func:`reachable`)."""
    reach = allowance(unit, draft.does)
    squares = [
        discord.SelectOption(label=f"Square {name}", value=name)
        for name in squares_in_reach(state, unit, reach)
        if reachable(state, unit, draft, [spot.value for spot in spot_options(name)], enough=1)
    ]
    towards = toward_options(state, unit, draft)
    kept = set(reachable(state, unit, draft, [option.value for option in towards]))
    return squares + [option for option in towards if option.value in kept]


def toward_options(state: GameState, unit: Unit, draft: Draft) -> list[discord.SelectOption]:
    """A full move toward each enemy unit the side may name."""
    reach = allowance(unit, draft.does)
    return [
        discord.SelectOption(
            label=f'{reach:g}" toward {enemy.name}'[:100], value=f"~{place_of(state, enemy.id)}"
        )
        for enemy in enemies(state, unit)
    ]


def spots_in_reach(state: GameState, unit: Unit, draft: Draft) -> list[discord.SelectOption]:
    """Every spot of the squares in the unit's reach, whichever of them was chosen."""
    return [
        spot
        for square in squares_in_reach(state, unit, allowance(unit, draft.does))
        for spot in spot_options(square)
    ]


def reachable_spots(state: GameState, unit: Unit, draft: Draft, square: str) -> list[discord.SelectOption]:
    """The spots of a square its spot menu offers: those the move rules accept."""
    spots = spot_options(square)
    kept = set(reachable(state, unit, draft, [spot.value for spot in spots]))
    return [spot for spot in spots if spot.value in kept]


def when_options(state: GameState) -> list[discord.SelectOption]:
    """When a reaction may cut in, as its menu offers it (every page): before the enemy acts, or
    as it reaches a point of its declared move."""
    return [
        discord.SelectOption(label="Before it acts", value=NOW),
        *(
            discord.SelectOption(label=f'As it reaches {point} ({along}" along its move)'[:100], value=along)
            for along, point in moments(state).items()
        ),
    ]


def drafted(state: GameState, side: str, draft: Draft) -> Unit:
    """The draft's unit, if the side's menus offer it, what it does, when (a reaction's moment)
    and where it goes (a unit that does not move goes nowhere): else the step is out of date.
    Its target is checked where it is chosen (:func:`aimed`)."""
    unit = own_unit(state, side, draft.unit)
    if draft.action not in offered_actions(state):
        raise out_of_date()
    if draft.when != NONE:
        offered([draft.when], when_options(state) if reacting(state) else [])
    if draft.to != NONE:
        if not draft.does.moves:
            raise out_of_date()
        offered([draft.to], spots_in_reach(state, unit, draft) + toward_options(state, unit, draft))
        if not reachable(state, unit, draft, [draft.to]):
            raise out_of_date()
    if draft.target is not None and not draft.does.aims:
        raise out_of_date()
    return unit


def aimed(state: GameState, side: str, draft: Draft) -> Unit:
    """The draft's unit (:func:`drafted`), if its target is one its target menu offers."""
    unit = drafted(state, side, draft)
    if draft.target is not None:
        chosen = [unit_at(state, draft.target).id]  # only its own odds are worked out again
        offered([str(draft.target)], target_options(state, targets_in_sight(state, unit, draft, chosen)))
    return unit


def action_step(state: GameState, side: str, channel: int, version: int, place: int) -> discord.ui.LayoutView:
    unit = own_unit(state, side, place)
    buttons = action_buttons(state, channel, version, Draft(place, "move"))
    return private_card(  # the card lays the buttons out in rows of five
        f"**{unit.name}**: what does it do{' in reaction' if reacting(state) else ''}?",
        buttons,
        turn_buttons(state, channel, version, side),
    )


def menu_step(
    channel: int,
    version: int,
    draft: Draft,
    steps: tuple[str, str],
    text: str,
    placeholder: str,
    options: list[discord.SelectOption],
    page: int,
) -> discord.ui.LayoutView:
    """A step of the draft that is one menu, a page at a time: ``steps`` names the menu's step
    and its page turns'."""
    shown, page, pages = page_of(options, page)
    chosen, turned = steps
    return private_card(
        f"{text}{of_pages(page, pages)}",
        [menu(channel, version, chosen, draft.arguments(), f"{placeholder}{of_pages(page, pages)}", shown)],
        page_buttons(channel, version, turned, draft.arguments(), page, pages),
    )


def when_step(
    state: GameState, channel: int, version: int, draft: Draft, page: int = 0
) -> discord.ui.LayoutView:
    """When the reaction cuts in: before the enemy acts, or as it reaches a point on its route."""
    unit = unit_at(state, draft.unit)
    text = (
        f"**{unit.name}**: {draft.does.label.lower()}, when? (before the enemy acts, or as it "
        "reaches a point of its move)"
    )
    return menu_step(channel, version, draft, ("when", "whens"), text, "When", when_options(state), page)


def other_actions(
    state: GameState, channel: int, version: int, draft: Draft, problem: str
) -> discord.ui.LayoutView:
    """A step with nothing to offer: why, and the unit's other actions instead."""
    return private_card(
        f"**{unit_at(state, draft.unit).name}** {problem}: choose another action.",
        action_buttons(state, channel, version, draft),
    )


def destination_step(
    state: GameState, channel: int, version: int, draft: Draft, page: int = 0
) -> discord.ui.LayoutView:
    """Where the unit goes: the grid squares in its reach, then a full move toward each enemy
    unit, a menu's page at a time."""
    unit = unit_at(state, draft.unit)
    reach = allowance(unit, draft.does)
    options = destination_options(state, unit, draft)
    if not options:
        return other_actions(state, channel, version, draft, f"has nowhere to {draft.does.label.lower()} to")
    text = (
        f'**{unit.name}**: {draft.does.label.lower()}, up to {reach:g}". '
        "Where to? (a grid square, or toward a unit)"
    )
    return menu_step(channel, version, draft, ("to", "dests"), text, "Destination", options, page)


def spot_menu(
    state: GameState,
    channel: int,
    version: int,
    step: str,
    arguments: tuple[object, ...],
    square: str,
    spots: list[discord.SelectOption] | None = None,
) -> discord.ui.LayoutView:
    """Where in a grid square the unit (the first argument, by place) goes: its centre or one of
    the spots around it, an inch apart (``spots``: those of them offered, if not all)."""
    unit = unit_at(state, int(str(arguments[0])))
    return private_card(
        f"**{unit.name}**: where in {square}?",
        [menu(channel, version, step, arguments, "Exactly where", spots or spot_options(square))],
    )


def offset_step(
    state: GameState, channel: int, version: int, draft: Draft, square: str
) -> discord.ui.LayoutView:
    spots = reachable_spots(state, unit_at(state, draft.unit), draft, square)
    return spot_menu(state, channel, version, "off", draft.arguments(), square, spots)


def target_options(state: GameState, seen: list[tuple[Unit, Fraction | None]]) -> list[discord.SelectOption]:
    """The targets as the target menu offers them (every page), with the chance of a shot's effect."""
    return [
        discord.SelectOption(
            label=(enemy.name if effect is None else f"{enemy.name} ({percent(effect)} to have an effect)")[
                :100
            ],
            value=str(place_of(state, enemy.id)),
            description=(
                enemy.profile.name
                if effect is None
                else f"{enemy.profile.name}: a marker, damage or worse {percent(effect)}"
            )[:100],
        )
        for enemy, effect in seen
    ]


def target_step(
    state: GameState, channel: int, version: int, draft: Draft, page: int = 0
) -> discord.ui.LayoutView:
    unit = unit_at(state, draft.unit)
    seen = target_options(state, targets_in_sight(state, unit, draft))
    verb = draft.does.verb
    if not seen:
        where = " from there" if draft.to != NONE else ""
        return other_actions(state, channel, version, draft, f"has no enemy unit to {verb}{where}")
    chance = " (the chance of an effect shown)" if draft.does.fires else ""
    text = f"**{unit.name}**: {verb} which unit?{chance}"
    return menu_step(channel, version, draft, ("at", "targets"), text, "Target", seen, page)


def confirm_step(state: GameState, channel: int, version: int, draft: Draft) -> discord.ui.LayoutView:
    unit = unit_at(state, draft.unit)
    parts = [f"**{unit.name}**: {draft.does.label.lower()}"]
    if draft.to.startswith("~"):
        parts.append(f"toward {unit_at(state, int(draft.to[1:])).name}")
    elif draft.to != NONE:
        parts.append(f"to {draft.to}")
    if draft.target is not None:
        parts.append(f"{'at' if draft.does.fires else 'on'} {unit_at(state, draft.target).name}")
    at = reaction_at(state, draft)
    if at is not None:
        parts.append(f"as the enemy reaches {at}")
    confirm = step_button(
        channel, version, "go", "Confirm", *draft.arguments(), style=discord.ButtonStyle.success
    )
    declare = "react so" if reacting(state) else "declare it"
    return private_card(" ".join(parts) + f". Confirm to {declare}.", [confirm])


def after_action(state: GameState, channel: int, version: int, draft: Draft) -> discord.ui.LayoutView:
    """Once the unit knows what it does: when, for a reaction that may cut into the enemy's
    move; then where it goes, if it moves; else its target or confirm."""
    if draft.when == NONE and reacting(state) and moments(state):
        return when_step(state, channel, version, draft)
    if draft.does.moves:
        return destination_step(state, channel, version, draft)
    return after_destination(state, channel, version, draft)


def after_destination(state: GameState, channel: int, version: int, draft: Draft) -> discord.ui.LayoutView:
    """Once the unit knows where it goes: its target next, if it aims at one; else confirm."""
    if draft.does.aims:
        return target_step(state, channel, version, draft)
    return confirm_step(state, channel, version, draft)


def may_choose(state: GameState, interaction: discord.Interaction) -> str:
    """The user's side, if the game waits for its choice; else a refusal to show them."""
    side = acting_side(state, interaction)
    permitted(
        state,
        str(interaction.user.id),
        ChooseTarget(side=side, target=None),
        is_admin(interaction),
        server_roles(interaction),
    )
    choice = state.pending.choice if state.pending else None
    if state.phase is not Phase.CHOICE or choice is None or choice.side != side:
        raise GameError(
            f"Nothing waits for {side_name(side)}' choice: the game waits for {_waited_for(state)}"
        )
    return side


def choice_step(state: GameState, channel: int, version: int, page: int) -> discord.ui.LayoutView:
    """A page of the choice the game waits for, shown to the side that makes it."""
    choice = state.pending.choice  # type: ignore[union-attr]
    return private_card(
        f"**{side_name(choice.side, start=True)}** choose ({choice.kind.replace('_', ' ')}).",
        choice_menu(state, channel, version, page),
    )


def _waited_for(state: GameState) -> str:
    waiting = awaiting(state)
    return side_name(waiting) if waiting else "nobody"


def reserves_step(
    state: GameState, side: str, channel: int, version: int, page: int = 0
) -> discord.ui.LayoutView:
    """The side's reserves to call (p. 26), one page of 25 in a menu: those picked are called in
    the order the menu lists them, which is the order a die's success brings them on. A call
    takes its units from one page; the others wait for a later turn's call (or /reserves)."""
    shown, page, pages = page_of(reserve_options(state, side), page)
    most = min(reserves_to_call(state, side), len(shown))
    call = discord.ui.Select(
        custom_id=step_id(channel, version, "call", side),
        placeholder=f"Call up to {most} (first listed, first to come){of_pages(page, pages)}",
        options=shown,
        min_values=1,
        max_values=max(most, 1),
    )
    none = step_button(channel, version, "noreserves", "Call none", side)
    return private_card(
        f"**{side_name(side, start=True)}** may call up to {counted(most, 'reserve')}: each needs a 3+ "
        f"on a d6, and they come in the order listed.{of_pages(page, pages)}",
        [call],
        [*page_buttons(channel, version, "reservespage", (side,), page, pages), none],
    )


def reserve_options(state: GameState, side: str) -> list[discord.SelectOption]:
    """The side's reserves as its menu offers them (every page)."""
    return [
        discord.SelectOption(
            label=u.name[:100], value=str(place_of(state, u.id)), description=u.profile.name[:100]
        )
        for u in state.units_of(side)
        if u.in_reserve and not u.destroyed
    ]


def picked_reserves(state: GameState, side: str, places: tuple[str, ...]) -> tuple[str, ...]:
    """The reserves picked, if one page of the side's menu offers them all and lets pick that
    many; else the menu is out of date."""
    options = reserve_options(state, side)
    for page in range(page_of(options, 0)[2]):
        shown = page_of(options, page)[0]
        if set(places) <= {o.value for o in shown}:
            return offered(places, shown, max(min(reserves_to_call(state, side), len(shown)), 1))
    raise out_of_date()


def card_side(state: GameState, called: str) -> str:
    """The side a card's button is for, as its id names it: one of the game's."""
    if called not in state.sides:
        raise out_of_date()
    return called


def reserves_command(
    state: GameState, side: str, called: str, places: tuple[str, ...] | None = None
) -> CallReserves:
    """The call, for the user's own side only (a card's button names the side it is for), of
    the reserves one page of its menu offers (None: the side calls none)."""
    if side != card_side(state, called):
        raise GameError(f"These are {side_name(called)}' reserves, not {side_name(side)}'")
    picked = () if places is None else sorted(picked_reserves(state, side, places), key=int)  # as listed
    return CallReserves(side=side, units=tuple(unit_at(state, int(p)).id for p in picked))


def passing(state: GameState, side: str) -> Command:
    """The side lets the moment go: in a reaction window, no reaction; else it passes."""
    if reacting(state):
        return DeclineReaction(side=side, window=state.pending.window)  # type: ignore[union-attr]
    return PassInitiative(side=side)


# --- the components that receive the taps ----------------------------------------------------


async def step_card(
    interaction: discord.Interaction,
    version: int | None,
    make: Callable[[GameState, str, int], discord.ui.LayoutView],
    *,
    new: bool = False,
    may: Callable[[GameState, discord.Interaction], str] | None = None,
) -> None:
    """Acknowledge, check the card is current (``version``: the one it was drawn at; None for a
    button that outlives versions, such as a window's React) and the user may order (``may``:
    another check, giving the user's side), then show the next step, made for the game's version,
    privately: in a new message (``new``, from a public card) or in place of this one. The step
    is made off the event loop: its menus ask the engine what is legal (reach, sight, odds),
    which takes a while on a busy table."""
    if not await (acknowledge(interaction, private=True) if new else acknowledge_in_place(interaction)):
        return

    async def work() -> None:
        channel = str(interaction.channel_id)
        if version is None:
            state, at = await games(interaction).game_now(channel)
        else:
            state, at = await games(interaction).game_at(channel, version), version
        side = (may or may_order)(state, interaction)
        card = await asyncio.to_thread(make, state, side, at)
        if new:
            await answer(interaction, view=card, ephemeral=True)
        else:
            await interaction.edit_original_response(view=card)

    await carry_out(interaction, work)


async def public_step(interaction: discord.Interaction, work: Callable[[], Awaitable[None]]) -> None:
    """A step whose result the channel sees: acknowledged publicly first."""
    if await acknowledge(interaction):
        await carry_out(interaction, work)


class StepItem(ReadFirst):
    """What a card's button or menu carries in its custom_id: the game's channel, the version the
    card was drawn at, the step and its arguments (``shapes``: the kinds of each step's
    arguments, in the few shapes it may come in). All is read in the callback: an id that does
    not read (a forged one) or is for another channel is refused there as out of date."""

    shapes: dict[str, tuple[Shape, ...]]

    def __init__(
        self, item: discord.ui.Item, channel: str, version: str, step: str, arguments: tuple[str, ...]
    ):
        super().__init__(item)  # type: ignore[call-arg]
        self.channel, self.given_version, self.step, self.given = channel, version, step, arguments

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(item, match["channel"], match["version"], match["step"], given(match["arguments"]))

    def read(self, interaction: discord.Interaction) -> None:
        of_this_channel(self.channel, interaction)
        self.version = number_of(self.given_version)
        self.arguments = parsed(self.given, self.shapes[self.step])

    @property
    def channel_id(self) -> int:
        """The channel, as the ids of the next steps carry it (checked to be this one's)."""
        return int(self.channel)


def opening(text: str) -> str:
    """The argument of a page turn on the channel's card, which opens a private copy."""
    if text != OPENING:
        raise ValueError(text)
    return text


PAGE = (number,)
DRAFT = (number, action, word, target, word)  # the order so far (:meth:`Draft.arguments`)
TURN_BUTTONS: dict[str, tuple[Shape, ...]] = {
    "join": ((word,),),
    "start": ((),),
    "first": ((),),
    "second": ((),),
    "activate": ((),),
    "units": (PAGE,),
    "dests": ((*DRAFT, number),),
    "targets": ((*DRAFT, number),),
    "whens": ((*DRAFT, number),),
    "choices": (PAGE, (opening, number)),
    "cmt": ((),),
    "pass": ((),),
    "do": (DRAFT,),
    "go": (DRAFT,),
    "reserves": ((word,),),
    "reservespage": ((word, number),),
    "noreserves": ((word,),),
}
TURN_MENUS: dict[str, tuple[Shape, ...]] = {
    "unit": ((),),
    "to": (DRAFT,),
    "off": (DRAFT,),
    "at": (DRAFT,),
    "when": (DRAFT,),
    "choice": ((),),
    "call": ((word,),),
}


def step_template(steps: dict[str, tuple[Shape, ...]]) -> str:
    """The custom-id template of an item that takes these steps."""
    return STEP + f"(?P<step>{'|'.join(steps)})" + ARGUMENTS


class TurnButton(StepItem, discord.ui.DynamicItem[discord.ui.Button], template=step_template(TURN_BUTTONS)):
    """Every button of a card and of an order being built."""

    shapes = TURN_BUTTONS

    async def take(self, interaction: discord.Interaction) -> None:
        await getattr(self, f"_{self.step}")(interaction)

    async def _play(
        self, interaction: discord.Interaction, build: Callable[[GameState, str], Command]
    ) -> None:
        async def work() -> None:
            outcome = await apply_as_user(
                interaction, lambda state: build(state, acting_side(state, interaction)), version=self.version
            )
            await show_result(interaction, outcome)

        await public_step(interaction, work)

    async def _join(self, interaction: discord.Interaction) -> None:
        (side,) = self.arguments

        async def work() -> None:  # not held to the card's version: both players join from one card
            def joining(state: GameState) -> JoinSide:
                player, name = str(interaction.user.id), display_name(interaction.user)
                return JoinSide(side=card_side(state, side), player=player, name=name)

            with shown_on(show_joined):
                outcome = await apply_as_user(interaction, joining)
            await show_joined(interaction, outcome)

        await public_step(interaction, work)

    async def _start(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await show_started(
                interaction, await apply_as_user(interaction, StartGame(), version=self.version)
            )

        await public_step(interaction, work)

    async def _first(self, interaction: discord.Interaction) -> None:
        await self._play(interaction, lambda state, side: ChooseInitiative(side=side, go_first=True))

    async def _second(self, interaction: discord.Interaction) -> None:
        await self._play(interaction, lambda state, side: ChooseInitiative(side=side, go_first=False))

    async def _cmt(self, interaction: discord.Interaction) -> None:
        """A Company Morale Test: declared, or in a window, the reaction."""
        await self._play(interaction, lambda state, side: order_now(state, side, MoraleTestOrder()))

    async def _pass(self, interaction: discord.Interaction) -> None:
        """Passing the initiative; in a window, no reaction."""
        await self._play(interaction, passing)

    async def _go(self, interaction: discord.Interaction) -> None:
        draft = Draft(*self.arguments)

        def build(state: GameState, side: str) -> Command:
            aimed(state, side, draft)
            return order_command(state, side, draft)

        await self._play(interaction, build)

    async def _activate(self, interaction: discord.Interaction) -> None:
        channel, version = self.channel_id, self.version
        await step_card(
            interaction,
            version,
            lambda state, side, version: unit_step(state, side, channel, version),
            new=True,
        )

    async def _reserves(self, interaction: discord.Interaction) -> None:
        """The side's reserves to call, privately."""
        await self._reserves_page(interaction, self.arguments[0], 0, new=True)

    async def _reservespage(self, interaction: discord.Interaction) -> None:
        """Another page of the reserves' menu, in place."""
        await self._reserves_page(interaction, *self.arguments, new=False)

    async def _reserves_page(
        self, interaction: discord.Interaction, called: str, page: int, *, new: bool
    ) -> None:
        channel, version = self.channel_id, self.version

        def may_call(state: GameState, interaction: discord.Interaction) -> str:
            side = acting_side(state, interaction)
            command = reserves_command(state, side, called)
            permitted(
                state, str(interaction.user.id), command, is_admin(interaction), server_roles(interaction)
            )
            if side not in state.reserve_calls_due:
                raise GameError(f"{side_name(side, start=True)} have no reserves to call now")
            return side

        await step_card(
            interaction,
            version,
            lambda state, side, version: reserves_step(state, side, channel, version, page),
            new=new,
            may=may_call,
        )

    async def _noreserves(self, interaction: discord.Interaction) -> None:
        (called,) = self.arguments
        await self._play(interaction, lambda state, side: reserves_command(state, side, called))

    async def _units(self, interaction: discord.Interaction) -> None:
        """Another page of the unit menu, in place."""
        channel, version, (page,) = self.channel_id, self.version, self.arguments
        await step_card(
            interaction, version, lambda state, side, version: unit_step(state, side, channel, version, page)
        )

    async def _dests(self, interaction: discord.Interaction) -> None:
        """Another page of the destination menu, in place."""
        await self._draft_page(interaction, destination_step)

    async def _whens(self, interaction: discord.Interaction) -> None:
        """Another page of a reaction's moments, in place."""
        await self._draft_page(interaction, when_step)

    async def _draft_page(
        self, interaction: discord.Interaction, page_step: Callable[..., discord.ui.LayoutView]
    ) -> None:
        *so_far, page = self.arguments
        draft, channel = Draft(*so_far), self.channel_id

        def make(state: GameState, side: str, version: int) -> discord.ui.LayoutView:
            drafted(state, side, draft)
            return page_step(state, channel, version, draft, page)

        await step_card(interaction, self.version, make)

    async def _choices(self, interaction: discord.Interaction) -> None:
        """Another page of the choice's menu: from the channel's card, in a private copy; then in
        place."""
        *opening, page = self.arguments
        channel, version = self.channel_id, self.version
        await step_card(
            interaction,
            version,
            lambda state, side, version: choice_step(state, channel, version, page),
            new=bool(opening),
            may=may_choose,
        )

    async def _targets(self, interaction: discord.Interaction) -> None:
        """Another page of the target menu, in place."""
        await self._draft_page(interaction, target_step)

    async def _do(self, interaction: discord.Interaction) -> None:
        draft, channel = Draft(*self.arguments), self.channel_id

        def make(state: GameState, side: str, version: int):
            drafted(state, side, draft)
            return after_action(state, channel, version, draft)

        await step_card(interaction, self.version, make)


class TurnSelect(StepItem, discord.ui.DynamicItem[discord.ui.Select], template=step_template(TURN_MENUS)):
    """Every menu of an order being built: the unit, the destination, the offset, the target;
    and a choice's, and the reserves'."""

    shapes = TURN_MENUS

    async def take(self, interaction: discord.Interaction) -> None:
        if self.step == "call":
            await self._call(interaction)
            return
        if self.step == "choice":
            await self._choose(interaction)
            return
        channel, values = self.channel_id, tuple(self.item.values)

        def make(state: GameState, side: str, version: int) -> discord.ui.LayoutView:
            if self.step == "unit":
                (chosen,) = offered(values, unit_options(state, side))
                return action_step(state, side, channel, version, int(chosen))
            draft = Draft(*self.arguments)
            unit = drafted(state, side, draft)
            if self.step == "when":
                (chosen,) = offered(values, when_options(state))
                return after_action(state, channel, version, replace(draft, when=chosen))
            if self.step == "to":
                (chosen,) = offered(values, destination_options(state, unit, draft))
                if not chosen.startswith("~"):
                    return offset_step(state, channel, version, draft, chosen)
                return after_destination(state, channel, version, replace(draft, to=chosen))
            if self.step == "off":
                (chosen,) = offered(values, spots_in_reach(state, unit, draft))
                if not reachable(state, unit, draft, [chosen]):
                    raise out_of_date()
                return after_destination(state, channel, version, replace(draft, to=chosen))
            seen = targets_in_sight(state, unit, draft)
            (chosen,) = offered(values, target_options(state, seen))
            return confirm_step(state, channel, version, replace(draft, target=int(chosen)))

        await step_card(interaction, self.version, make)

    async def _call(self, interaction: discord.Interaction) -> None:
        """The reserves picked, called as ``/reserves`` calls them, in the menu's order."""
        (called,), places = self.arguments, tuple(self.item.values)

        async def work() -> None:
            def build(state: GameState) -> Command:
                return reserves_command(state, acting_side(state, interaction), called, places)

            await show_result(interaction, await apply_as_user(interaction, build, version=self.version))

        await public_step(interaction, work)

    async def _choose(self, interaction: discord.Interaction) -> None:
        """A choice answered from the channel's card, as ``/choose`` answers it."""
        values = tuple(self.item.values)

        async def work() -> None:
            def build(state: GameState) -> Command:
                side = may_choose(state, interaction)
                (chosen,) = offered(values, choice_options(state))
                if state.pending.choice.kind == "close_combat_fall_back":  # type: ignore[union-attr]
                    return choice_command(state, side, None, chosen)
                unit = None if chosen == NO_TARGET else chosen
                return choice_command(state, side, unit, None)

            await show_result(interaction, await apply_as_user(interaction, build, version=self.version))

        await public_step(interaction, work)


class ReactButton(WindowButton, discord.ui.DynamicItem[discord.ui.Button], template=WINDOW + r":react"):
    """A window's React: privately, the units of the side it is open to that may react, each
    with the score its test needs, then the reaction built by taps like an activation. Drawn as
    the game stands now: a window stays open while, say, a referee's note moves the game on."""

    async def take(self, interaction: discord.Interaction) -> None:
        channel, window = int(self.channel), self.window

        def may_react(state: GameState, interaction: discord.Interaction) -> str:
            check(state, DeclineReaction(side=acting_side(state, interaction), window=window))  # still open
            return may_order(state, interaction)

        await step_card(
            interaction,
            None,
            lambda state, side, version: unit_step(state, side, channel, version),
            new=True,
            may=may_react,
        )
