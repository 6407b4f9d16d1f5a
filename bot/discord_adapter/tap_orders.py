"""A whole game by taps: the buttons of a card (join, start, the initiative choice, activate,
CMT, pass), and an activation built step by step in messages only its player sees (a unit, what
it does, where it goes, what it fires at, confirm), then declared like ``/act``.

Every step's custom id (bot.discord_adapter.action_card.step_id) carries the game's version and
the order so far, so a step works after a restart and a step of a card the game has moved past
is refused as out of date. Units are named in ids by their place in the game's unit list (ids
of the game at that version, so they cannot shift under the order).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from fractions import Fraction

import discord

from bot.discord_adapter.action_card import (
    NO_TARGET,
    OPTIONS,
    STEP,
    action_card,
    choice_menu,
    of_pages,
    page_buttons,
    page_of,
    step_button,
    step_id,
)
from bot.discord_adapter.answers import acknowledge, acknowledge_in_place, answer, carry_out
from bot.discord_adapter.common import display_name, games
from bot.discord_adapter.game_commands import show_joined, show_started
from bot.discord_adapter.reaction_buttons import show_result
from bot.discord_adapter.referees import act, acting_side, is_admin, server_roles
from bot.services.game_service import GameError, permitted
from bot.text_orders import GRID, choice_command, parse_move, unit_order
from engine.commands import (
    CallReserves,
    ChooseInitiative,
    ChooseTarget,
    Command,
    Declare,
    FallBackOrder,
    JoinSide,
    MoraleTestOrder,
    PassInitiative,
    StartGame,
)
from engine.errors import IllegalCommand
from engine.firing.odds import hit_chance, table_shot
from engine.flow.sequence import reserves_to_call
from engine.game import awaiting
from engine.game_state import GameState
from engine.orders import check_may_activate
from engine.rules.movement import fall_back_allowance, movement_allowance
from engine.state import Phase, Unit
from engine.view import may_name
from engine.wording import counted, side_label, side_name

SQUARES = 20  # grid squares offered as destinations; the "toward" moves follow them, page by page
OFFSETS = range(-2, 3)  # inches from a square's centre, each way
NONE = "-"  # no destination, or no target, in a custom id


@dataclass(frozen=True)
class Action:
    """What a unit may be ordered to do by taps."""

    label: str
    moves: bool = False
    fires: bool = False
    rapid: bool = False
    fire_first: bool = False
    fall_back: bool = False


ACTIONS = {
    "move": Action("Move", moves=True),
    "rapid": Action("Rapid move", moves=True, rapid=True),
    "fire": Action("Fire", fires=True),
    "movefire": Action("Move and fire", moves=True, fires=True),
    "firemove": Action("Fire and move", moves=True, fires=True, fire_first=True),
    "fallback": Action("Fall back", moves=True, fall_back=True),
}


@dataclass(frozen=True)
class Draft:
    """An order being built: the unit (its place in the game's unit list), what it does, where
    it goes (a square such as ``D3+1,-2``, or ``~N``: toward unit N) and what it fires at."""

    unit: int
    action: str
    to: str = NONE
    target: int | None = None

    @classmethod
    def read(cls, arguments: tuple[str, ...]) -> Draft:
        unit, action, to, target = (*arguments, NONE, NONE)[:4]
        if action not in ACTIONS:
            raise GameError("This card is out of date: tap Activate again")
        return cls(int(unit), action, to, None if target == NONE else int(target))

    @property
    def does(self) -> Action:
        return ACTIONS[self.action]

    def arguments(self) -> tuple[object, ...]:
        return (self.unit, self.action, self.to, NONE if self.target is None else self.target)


# --- reading the game ------------------------------------------------------------------------


def unit_at(state: GameState, place: int) -> Unit:
    units = list(state.units.values())
    if not 0 <= place < len(units):
        raise GameError("This card is out of date: tap Activate again")
    return units[place]


def place_of(state: GameState, unit_id: str) -> int:
    return list(state.units).index(unit_id)


def may_act(unit: Unit) -> bool:
    try:
        check_may_activate(unit)
    except IllegalCommand:
        return False
    return True


def ready_units(state: GameState, side: str) -> list[Unit]:
    """The side's units that may be activated by taps: on the table, not carried, not barred
    from acting again this turn."""
    return [
        u
        for u in state.units.values()
        if u.side == side and u.on_table and not u.destroyed and not u.embarked_in and may_act(u)
    ]


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


def move_words(state: GameState, unit: Unit, draft: Draft) -> str | None:
    """The move as ``/act`` takes it: a square with its offset, or a distance toward a unit."""
    if not draft.does.moves or draft.to == NONE:
        return None
    if draft.to.startswith("~"):
        goal = unit_at(state, int(draft.to[1:]))
        return f"{allowance(unit, draft.does):g} toward {goal.id}"
    return draft.to


def at_destination(state: GameState, unit: Unit, draft: Draft) -> GameState:
    """The game as it would stand with the unit at its destination (to measure its shots)."""
    words = move_words(state, unit, draft)
    if words is None:
        return state
    moved = state.fork()
    moved.units[unit.id].position = parse_move(state, unit.id, words)[-1]
    return moved


def targets_in_sight(state: GameState, unit: Unit, draft: Draft) -> list[tuple[Unit, Fraction]]:
    """The enemy units the unit could fire at (from its destination, if it moves first), with
    the chance of at least one hit (engine.firing.odds)."""
    seen_from = at_destination(state, unit, draft) if not draft.does.fire_first else state
    found = []
    for enemy in enemies(state, unit):
        try:
            shot = table_shot(seen_from, unit.id, enemy.id, moving=draft.does.moves)
        except IllegalCommand:
            continue
        found.append((enemy, hit_chance(shot)))
    return found


def percent(chance: Fraction) -> str:
    return f"{float(chance) * 100:.0f}%"


def order_command(state: GameState, side: str, draft: Draft) -> Command:
    """The declaration the draft stands for, made as ``/act`` (or ``/fallback``) makes it."""
    unit = unit_at(state, draft.unit)
    move = move_words(state, unit, draft)
    if draft.does.moves and move is None:
        raise GameError("Choose where the unit goes")
    if draft.does.fall_back:
        assert move is not None
        return Declare(side=side, order=FallBackOrder(unit=unit.id, path=parse_move(state, unit.id, move)))
    target = unit_at(state, draft.target).id if draft.does.fires and draft.target is not None else None
    if draft.does.fires and target is None:
        raise GameError("Choose what the unit fires at")
    first = "fire" if draft.does.fire_first else "move"
    order = unit_order(state, side, unit.id, move=move, fire=target, first=first, rapid=draft.does.rapid)
    return Declare(side=side, order=order)


def may_order(state: GameState, interaction: discord.Interaction) -> str:
    """The user's side, if it may declare an activation now; else a refusal to show them."""
    side = acting_side(state, interaction)
    declaration = Declare(side=side, order=MoraleTestOrder())
    permitted(state, str(interaction.user.id), declaration, is_admin(interaction), server_roles(interaction))
    if state.phase is not Phase.ACTIVE or state.active_side != side:
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


def turn_buttons(channel: int, version: int, side: str) -> list[discord.ui.Item]:
    return [
        step_button(channel, version, "cmt", f"CMT ({side_label(side)})"),
        step_button(channel, version, "pass", f"Pass ({side_label(side)})"),
    ]


def unit_step(
    state: GameState, side: str, channel: int, version: int, page: int = 0
) -> discord.ui.LayoutView:
    units = ready_units(state, side)
    shown, page, pages = page_of(units, page)
    if not units:
        return private_card(
            f"No unit of {side} may act now: take a CMT or pass.", turn_buttons(channel, version, side)
        )
    options = [
        discord.SelectOption(
            label=f"{u.name}{f' = {u.true_name}' if u.true_name else ''}"[:100],  # its own side's eyes only
            value=str(place_of(state, u.id)),
            description=", ".join(
                (u.profile.name, counted(u.morale_markers, "morale marker"), counted(u.tokens, "token"))
            )[:100],
        )
        for u in shown
    ]
    return private_card(
        f"**{side_name(side, start=True)}**: choose the unit to activate.{of_pages(page, pages)}",
        [menu(channel, version, "unit", (), f"The unit to activate{of_pages(page, pages)}", options)],
        [*page_buttons(channel, version, "units", (), page, pages), *turn_buttons(channel, version, side)],
    )


def action_buttons(channel: int, version: int, place: int) -> list[discord.ui.Item]:
    return [
        step_button(channel, version, "do", action.label, place, name) for name, action in ACTIONS.items()
    ]


def action_step(state: GameState, side: str, channel: int, version: int, place: int) -> discord.ui.LayoutView:
    unit = unit_at(state, place)
    buttons = action_buttons(channel, version, place)
    return private_card(
        f"**{unit.name}**: what does it do?",
        buttons[:5],
        [*buttons[5:], *turn_buttons(channel, version, side)],
    )


def destination_step(
    state: GameState, channel: int, version: int, draft: Draft, page: int = 0
) -> discord.ui.LayoutView:
    """Where the unit goes: the grid squares in its reach, then a full move toward each enemy
    unit, a menu's page at a time."""
    unit = unit_at(state, draft.unit)
    reach = allowance(unit, draft.does)
    options = [
        discord.SelectOption(label=f"Square {name}", value=name)
        for name in squares_in_reach(state, unit, reach)
    ]
    options += [
        discord.SelectOption(
            label=f'{reach:g}" toward {enemy.name}'[:100], value=f"~{place_of(state, enemy.id)}"
        )
        for enemy in enemies(state, unit)
    ]
    shown, page, pages = page_of(options, page)
    drafted = (draft.unit, draft.action)
    return private_card(
        f'**{unit.name}**: {draft.does.label.lower()}, up to {reach:g}". '
        f"Where to? (a grid square, or toward a unit){of_pages(page, pages)}",
        [menu(channel, version, "to", drafted, f"Destination{of_pages(page, pages)}", shown)],
        page_buttons(channel, version, "dests", drafted, page, pages),
    )


def spot_menu(
    state: GameState, channel: int, version: int, step: str, arguments: tuple[object, ...], square: str
) -> discord.ui.LayoutView:
    """Where in a grid square the unit (the first argument, by place) goes: its centre or one of
    the spots around it, an inch apart."""
    unit = unit_at(state, int(str(arguments[0])))
    options = [
        discord.SelectOption(
            label=f"The centre of {square}" if dx == dy == 0 else f'{square} {dx:+d}" across, {dy:+d}" deep',
            value=square if dx == dy == 0 else f"{square}+{dx},{dy}",
        )
        for dy in OFFSETS
        for dx in OFFSETS
    ]
    return private_card(
        f"**{unit.name}**: where in {square}?",
        [menu(channel, version, step, arguments, "Exactly where", options)],
    )


def offset_step(
    state: GameState, channel: int, version: int, draft: Draft, square: str
) -> discord.ui.LayoutView:
    return spot_menu(state, channel, version, "off", (draft.unit, draft.action), square)


async def target_step(
    state: GameState, channel: int, version: int, draft: Draft, page: int = 0
) -> discord.ui.LayoutView:
    unit = unit_at(state, draft.unit)
    seen = await asyncio.to_thread(targets_in_sight, state, unit, draft)
    shown, page, pages = page_of(seen, page)
    if not seen:
        return private_card(
            f"**{unit.name}** can see no enemy unit to fire at{' from there' if draft.to != NONE else ''}: "
            "choose another action.",
            action_buttons(channel, version, draft.unit)[:5],
        )
    options = [
        discord.SelectOption(
            label=f"{enemy.name} ({percent(hit)} to hit)"[:100],
            value=str(place_of(state, enemy.id)),
            description=f"{enemy.profile.name}: at least one hit {percent(hit)}"[:100],
        )
        for enemy, hit in shown
    ]
    drafted = (draft.unit, draft.action, draft.to)
    return private_card(
        f"**{unit.name}**: fire at which unit? (the chance of at least one hit shown){of_pages(page, pages)}",
        [menu(channel, version, "at", drafted, f"Target{of_pages(page, pages)}", options)],
        page_buttons(channel, version, "targets", drafted, page, pages),
    )


def confirm_step(state: GameState, channel: int, version: int, draft: Draft) -> discord.ui.LayoutView:
    unit = unit_at(state, draft.unit)
    parts = [f"**{unit.name}**: {draft.does.label.lower()}"]
    if draft.to.startswith("~"):
        parts.append(f"toward {unit_at(state, int(draft.to[1:])).name}")
    elif draft.to != NONE:
        parts.append(f"to {draft.to}")
    if draft.target is not None:
        parts.append(f"at {unit_at(state, draft.target).name}")
    confirm = step_button(
        channel, version, "go", "Confirm", *draft.arguments(), style=discord.ButtonStyle.success
    )
    return private_card(" ".join(parts) + ". Confirm to declare it.", [confirm])


def after_destination(state: GameState, channel: int, version: int, draft: Draft):
    """Once the unit knows where it goes: its target next, if it fires; else confirm."""
    if draft.does.fires:
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
    waiting = [u for u in state.units_of(side) if u.in_reserve and not u.destroyed]
    shown, page, pages = page_of(waiting, page)
    most = min(reserves_to_call(state, side), len(shown))
    options = [
        discord.SelectOption(
            label=u.name[:100], value=str(place_of(state, u.id)), description=u.profile.name[:100]
        )
        for u in shown
    ]
    call = discord.ui.Select(
        custom_id=step_id(channel, version, "call", side),
        placeholder=f"Call up to {most} (first listed, first to come){of_pages(page, pages)}",
        options=options,
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


def reserves_command(state: GameState, side: str, called: str, places: tuple[str, ...]) -> CallReserves:
    """The call, for the user's own side only (a card's button names the side it is for)."""
    if side != called:
        raise GameError(f"These are {side_name(called)}' reserves, not {side_name(side)}'")
    return CallReserves(side=side, units=tuple(unit_at(state, int(p)).id for p in places))


# --- the components that receive the taps ----------------------------------------------------


async def step_card(
    interaction: discord.Interaction,
    version: int,
    make: Callable[[GameState, str], discord.ui.LayoutView | Awaitable[discord.ui.LayoutView]],
    *,
    new: bool = False,
    may: Callable[[GameState, discord.Interaction], str] | None = None,
) -> None:
    """Acknowledge, check the card is current and the user may order (``may``: another check,
    giving the user's side), then show the next step privately: in a new message (``new``, from
    a public card) or in place of this one."""
    if new:
        await acknowledge(interaction, private=True)
    else:
        await acknowledge_in_place(interaction)

    async def work() -> None:
        state = await games(interaction).game_at(str(interaction.channel_id), version)
        card = make(state, (may or may_order)(state, interaction))
        if not isinstance(card, discord.ui.LayoutView):
            card = await card
        if new:
            await answer(interaction, view=card, ephemeral=True)
        else:
            await interaction.edit_original_response(view=card)

    await carry_out(interaction, work)


async def public_step(interaction: discord.Interaction, work: Callable[[], Awaitable[None]]) -> None:
    """A step whose result the channel sees: acknowledged publicly first."""
    await acknowledge(interaction)
    await carry_out(interaction, work)


class StepItem:
    """What a card's button or menu carries in its custom_id: the game's channel, the version the
    card was drawn at, the step and its arguments."""

    def __init__(
        self, item: discord.ui.Item, channel: int, version: int, step: str, arguments: tuple[str, ...]
    ):
        super().__init__(item)  # type: ignore[call-arg]
        self.channel, self.version, self.step, self.arguments = channel, version, step, arguments

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        arguments = tuple(filter(None, match["arguments"].split(":")))
        return cls(item, int(match["channel"]), int(match["version"]), match["step"], arguments)


class TurnButton(
    StepItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=STEP
    + r"(?P<step>join|start|first|second|activate|units|dests|targets|choices|cmt|pass|do|go"
    + r"|reserves|reservespage|noreserves)"
    + r"(?P<arguments>(?::[^:]+)*)",
):
    """Every button of a card and of an order being built."""

    async def callback(self, interaction: discord.Interaction) -> None:
        await getattr(self, f"_{self.step}")(interaction)

    async def _play(
        self, interaction: discord.Interaction, build: Callable[[GameState, str], Command]
    ) -> None:
        async def work() -> None:
            outcome = await act(
                interaction, lambda state: build(state, acting_side(state, interaction)), version=self.version
            )
            await show_result(interaction, outcome)

        await public_step(interaction, work)

    async def _join(self, interaction: discord.Interaction) -> None:
        side = self.arguments[0]

        async def work() -> None:  # not held to the card's version: both players join from one card
            joining = JoinSide(
                side=side, player=str(interaction.user.id), name=display_name(interaction.user)
            )
            outcome = await act(interaction, joining)
            await show_joined(interaction, outcome)

        await public_step(interaction, work)

    async def _start(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await show_started(interaction, await act(interaction, StartGame(), version=self.version))

        await public_step(interaction, work)

    async def _first(self, interaction: discord.Interaction) -> None:
        await self._play(interaction, lambda state, side: ChooseInitiative(side=side, go_first=True))

    async def _second(self, interaction: discord.Interaction) -> None:
        await self._play(interaction, lambda state, side: ChooseInitiative(side=side, go_first=False))

    async def _cmt(self, interaction: discord.Interaction) -> None:
        await self._play(interaction, lambda state, side: Declare(side=side, order=MoraleTestOrder()))

    async def _pass(self, interaction: discord.Interaction) -> None:
        await self._play(interaction, lambda state, side: PassInitiative(side=side))

    async def _go(self, interaction: discord.Interaction) -> None:
        draft = Draft.read(self.arguments)
        await self._play(interaction, lambda state, side: order_command(state, side, draft))

    async def _activate(self, interaction: discord.Interaction) -> None:
        channel, version = self.channel, self.version
        await step_card(
            interaction, version, lambda state, side: unit_step(state, side, channel, version), new=True
        )

    async def _reserves(self, interaction: discord.Interaction) -> None:
        """The side's reserves to call, privately."""
        await self._reserves_page(interaction, new=True)

    async def _reservespage(self, interaction: discord.Interaction) -> None:
        """Another page of the reserves' menu, in place."""
        await self._reserves_page(interaction, new=False)

    async def _reserves_page(self, interaction: discord.Interaction, *, new: bool) -> None:
        called, channel, version = self.arguments[0], self.channel, self.version
        page = int(self.arguments[1]) if len(self.arguments) > 1 else 0

        def may_call(state: GameState, interaction: discord.Interaction) -> str:
            side = acting_side(state, interaction)
            command = reserves_command(state, side, called, ())
            permitted(
                state, str(interaction.user.id), command, is_admin(interaction), server_roles(interaction)
            )
            if side not in state.reserve_calls_due:
                raise GameError(f"{side_name(side, start=True)} have no reserves to call now")
            return side

        await step_card(
            interaction,
            version,
            lambda state, side: reserves_step(state, side, channel, version, page),
            new=new,
            may=may_call,
        )

    async def _noreserves(self, interaction: discord.Interaction) -> None:
        called = self.arguments[0]
        await self._play(interaction, lambda state, side: reserves_command(state, side, called, ()))

    async def _units(self, interaction: discord.Interaction) -> None:
        """Another page of the unit menu, in place."""
        channel, version, page = self.channel, self.version, int(self.arguments[-1])
        await step_card(
            interaction, version, lambda state, side: unit_step(state, side, channel, version, page)
        )

    async def _dests(self, interaction: discord.Interaction) -> None:
        """Another page of the destination menu, in place."""
        *drafted, page = self.arguments
        draft, channel, version = Draft.read(tuple(drafted)), self.channel, self.version
        await step_card(
            interaction,
            version,
            lambda state, side: destination_step(state, channel, version, draft, int(page)),
        )

    async def _choices(self, interaction: discord.Interaction) -> None:
        """Another page of the choice's menu: from the channel's card, in a private copy; then in
        place."""
        *opening, page = self.arguments
        channel, version = self.channel, self.version
        await step_card(
            interaction,
            version,
            lambda state, side: choice_step(state, channel, version, int(page)),
            new=bool(opening),
            may=may_choose,
        )

    async def _targets(self, interaction: discord.Interaction) -> None:
        """Another page of the target menu, in place."""
        *drafted, page = self.arguments
        draft, channel, version = Draft.read(tuple(drafted)), self.channel, self.version
        await step_card(
            interaction, version, lambda state, side: target_step(state, channel, version, draft, int(page))
        )

    async def _do(self, interaction: discord.Interaction) -> None:
        draft = Draft.read(self.arguments)
        channel, version = self.channel, self.version

        def make(state: GameState, side: str):
            if draft.does.moves:
                return destination_step(state, channel, version, draft)
            return after_destination(state, channel, version, draft)

        await step_card(interaction, version, make)


class TurnSelect(
    StepItem,
    discord.ui.DynamicItem[discord.ui.Select],
    template=STEP + r"(?P<step>unit|to|off|at|choice|call)(?P<arguments>(?::[^:]+)*)",
):
    """Every menu of an order being built: the unit, the destination, the offset, the target."""

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.step == "call":
            await self._call(interaction, tuple(self.item.values))
            return
        (chosen,) = self.item.values
        channel, version = self.channel, self.version
        if self.step == "choice":
            await self._choose(interaction, chosen)
            return

        def make(state: GameState, side: str):
            if self.step == "unit":
                return action_step(state, side, channel, version, int(chosen))
            draft = Draft.read(self.arguments)
            if self.step == "to" and not chosen.startswith("~"):
                return offset_step(state, channel, version, draft, chosen)
            if self.step in ("to", "off"):
                return after_destination(state, channel, version, Draft(draft.unit, draft.action, chosen))
            return confirm_step(
                state, channel, version, Draft(draft.unit, draft.action, draft.to, int(chosen))
            )

        await step_card(interaction, version, make)

    async def _call(self, interaction: discord.Interaction, places: tuple[str, ...]) -> None:
        """The reserves picked, called as ``/reserves`` calls them, in the menu's order."""
        called = self.arguments[0]

        async def work() -> None:
            def build(state: GameState) -> Command:
                return reserves_command(
                    state, acting_side(state, interaction), called, tuple(sorted(places, key=int))
                )

            await show_result(interaction, await act(interaction, build, version=self.version))

        await public_step(interaction, work)

    async def _choose(self, interaction: discord.Interaction, chosen: str) -> None:
        """A choice answered from the channel's card, as ``/choose`` answers it."""

        async def work() -> None:
            def build(state: GameState) -> Command:
                choice = state.pending.choice if state.pending else None
                if choice is not None and choice.kind == "close_combat_fall_back":
                    return choice_command(state, acting_side(state, interaction), None, chosen)
                unit = None if chosen == NO_TARGET else chosen
                return choice_command(state, acting_side(state, interaction), unit, None)

            await show_result(interaction, await act(interaction, build, version=self.version))

        await public_step(interaction, work)
