"""The active side's turn to act (Iron Cross 2015, pp. 4-5): declaring an order with a command
token, or passing the initiative back."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

from engine.actions.base import actions_of
from engine.battlefield import visible_enemies
from engine.commands import Declare, Fire, Order, PassInitiative
from engine.deployment.hidden import must_keep_spending
from engine.errors import IllegalCommand
from engine.event_data import TokensData
from engine.events import EventLog
from engine.flow.resolution import resolve_without_reaction
from engine.flow.sequence import give_initiative
from engine.game_state import Aim, GameState, Pending
from engine.order_kinds import declared_actions, order_kind, order_unit, order_units
from engine.state import Phase, Unit
from engine.teams import bonus_to_hand_out, hand_out_unclaimed_bonus, paying_player, spend_token
from engine.view import unnamed
from engine.wording import side_name


def _expect_active(state: GameState, side: str) -> None:
    if side not in state.sides:
        raise IllegalCommand(f"There is no side called {side!r}")
    if state.phase is Phase.REACTION:
        raise IllegalCommand("Wait: a reaction window is open")
    if state.phase is Phase.CHOICE:
        raise IllegalCommand("Wait: a choice must be made first")
    if state.phase is not Phase.ACTIVE:
        raise IllegalCommand(f"The game is not in play (phase: {state.phase.value})")
    if side != state.active_side:
        raise IllegalCommand(
            f"{side_name(state.active_side, start=True)} have the initiative, not {side_name(side)}"
        )


def check_order(state: GameState, side: str, order: Order) -> None:
    """Check an order against the rules without changing anything."""
    order_kind(order).check(state, side, order)


def check_declaration(state: GameState, command: Declare) -> str | None:
    """Refuse a declaration the rules do not allow (pp. 4-5), before any token is spent or any
    die rolled; the player whose token pays for it in a team game."""
    _expect_active(state, command.side)
    if state.sides[command.side].tokens < 1:
        raise IllegalCommand("You have no command tokens left: pass the initiative")
    check_order(state, command.side, command.order)
    return paying_player(state, command.side, order_units(command.order), command.player)


def declare(state: GameState, command: Declare, log: EventLog) -> None:
    payer = check_declaration(state, command)
    order = command.order
    spend_token(state, command.side, payer, log)
    state.declarations += 1
    pending = Pending(
        window=state.declarations,
        side=command.side,
        order=order,
        first_action=state.spent_since_initiative == 0,
        reactor_side=state.other_side(command.side),
    )
    state.spent_since_initiative += 1
    place_token(state, pending, order)
    note_declared_actions(state, pending, order)
    state.pending = pending
    text = f"{side_name(command.side, start=True)} declare: {describe_order(state, order)}"
    kept = unnamed(*(state.units[u] for u in order_units(order)))
    log.emit("declare", text, side=command.side, kept=kept, data=TokensData(side=command.side, count=-1))

    reactor = state.sides[pending.reactor_side]
    barred = order_kind(order).at_declaration(state, pending, order, log)
    if barred:
        log.emit("no_reaction", barred)
    elif reactor.tokens == 0:
        log.emit("no_reaction", f"{side_name(pending.reactor_side, start=True)} have no tokens to react with")
    else:
        state.phase = Phase.REACTION
        log.emit(
            "reaction_window",
            f"{side_name(pending.reactor_side, start=True)} may react (window {pending.window})",
            side=pending.reactor_side,
        )
        return
    resolve_without_reaction(state, log)


def pass_initiative(state: GameState, command: PassInitiative, log: EventLog) -> None:
    """Passing (p. 5): a player who gained the initiative spends a token before passing back."""
    check_pass(state, command)
    hand_out_unclaimed_bonus(state, command.side, log)
    give_initiative(state, state.other_side(command.side), log, "take the initiative")


def check_pass(state: GameState, command: PassInitiative) -> None:
    """Refuse to pass the initiative back before a token is spent (p. 5), or while the attacker
    facing hidden markers must keep spending (p. 26), counting the bonus tokens the game would
    hand out as the side passes."""
    _expect_active(state, command.side)
    tokens = state.sides[command.side].tokens + bonus_to_hand_out(state, command.side)
    if tokens and state.spent_since_initiative == 0:
        raise IllegalCommand("You must spend at least one command token before passing the initiative back")
    if tokens and (problem := must_keep_spending(state, command.side, tokens)):
        raise IllegalCommand(problem)


def place_token(state: GameState, pending: Pending, order: Order) -> None:
    """The token spent goes on the unit it activates (p. 4); a platoon's on its first member."""
    unit_id = order_unit(order)
    if unit_id is None:
        return
    unit = state.units[unit_id]
    pending.tokens_before[unit_id] = unit.tokens
    unit.tokens += 1
    unit.dug_in = False  # dug in until first activated (p. 26)
    order_kind(order).mark_declared(state, order)


def note_declared_actions(state: GameState, pending: Pending, order: Order) -> None:
    """What an order that will happen declares: its movement (a target that has declared a
    move counts as moving, p. 10) and its aim (for changing target, p. 7). A reaction that
    fails its test declares nothing."""
    unit_id = order_unit(order)
    if unit_id is None:
        return
    unit = state.units[unit_id]
    pending.fire_target_moved.extend(order_kind(order).movers(order))
    for action in actions_of(declared_actions(order), Fire):
        pending.aims[unit_id] = Aim(
            target=action.target,
            at=state.units[action.target].position,
            visible=[e.id for e in visible_enemies(state, unit)],
        )


def describe_order(state: GameState, order: Order, name: Callable[[Unit], str] = attrgetter("name")) -> str:
    """The order in words, its units called by ``name`` (:func:`known_as` for the channel)."""
    return order_kind(order).describe(state, order, name)
