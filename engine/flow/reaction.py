"""The reaction window (Iron Cross 2015, pp. 6-7): the other side declines or reacts, with a
token and a reaction test, before, partway through or after the active unit's order."""

from __future__ import annotations

from engine.battlefield import starts_in_cover
from engine.commands import DeclineReaction, Order, React
from engine.deployment.hidden import as_seen
from engine.dice import DieCategory
from engine.errors import IllegalCommand
from engine.event_data import RolledTest
from engine.events import EventLog
from engine.flow.activation import check_order, describe_order, note_declared_actions, place_token
from engine.flow.interrupts import interrupt_point, interrupted_move, split_move
from engine.flow.resolution import active_steps, resolve_without_reaction, roll_test, run_steps
from engine.game_state import GameState, Interrupt, Pending
from engine.order_kinds import order_kind, order_unit, order_units, reaction_problem
from engine.orders import check_may_activate
from engine.rules.activation import TestScore, seizes_initiative
from engine.rules.scenario import dug_in_seizes_initiative
from engine.rulesets import rules_of
from engine.state import Phase, Point, Unit
from engine.teams import paying_player, spend_token
from engine.view import hidden_test
from engine.wording import side_name


def _expect_window(state: GameState, side: str, window: int) -> Pending:
    pending = state.pending
    if state.phase is not Phase.REACTION or pending is None:
        raise IllegalCommand("No reaction window is open")
    if window != pending.window:
        raise IllegalCommand(f"Reaction window {window} has closed (the open one is {pending.window})")
    if side != pending.reactor_side:
        raise IllegalCommand(f"Only {side_name(pending.reactor_side)} may react now")
    return pending


def decline(state: GameState, command: DeclineReaction, log: EventLog) -> None:
    check_decline(state, command)
    log.emit("no_reaction", f"{side_name(command.side, start=True)} do not react", side=command.side)
    resolve_without_reaction(state, log)


def check_decline(state: GameState, command: DeclineReaction) -> None:
    """Refuse to decline a window that is not open to the side."""
    _expect_window(state, command.side, command.window)


def check_reaction(state: GameState, command: React) -> tuple[Interrupt | None, str | None]:
    """Refuse a reaction the rules do not allow (pp. 6-7), before any token is spent or any die
    rolled; where it cuts into the enemy's move, and the player whose token pays for it."""
    pending = _expect_window(state, command.side, command.window)
    order = command.order
    problem = reaction_problem(state, pending.order, order)
    if problem:
        raise IllegalCommand(problem)
    interrupt = _interrupt(state, pending, command.at)
    check_order(_as_at_interrupt(state, pending, interrupt), command.side, order)
    return interrupt, paying_player(state, command.side, order_units(order), command.player)


def react(state: GameState, command: React, log: EventLog) -> None:
    """Reacting (pp. 6-7): a token, a reaction test, then the reaction sequence."""
    interrupt, payer = check_reaction(state, command)
    pending = state.pending
    assert pending is not None
    order = command.order
    side = state.sides[command.side]
    spend_token(state, command.side, payer, log)
    pending.reaction = order
    score = _reaction_score(state, pending, order)
    unit_id = order_unit(order)
    unit = state.units[unit_id] if unit_id else None
    dug_in_first = unit is not None and unit.dug_in and not side.dug_in_tried
    side.dug_in_tried = side.dug_in_tried or (unit is not None and unit.dug_in)
    place_token(state, pending, order)
    label = unit.name if unit else f"{side_name(command.side)}' Company Morale Test"
    roll, passed = roll_test(
        state,
        log,
        f"reaction test, {label}",
        score,
        unit,
        getattr(order, "reroll", False),
        DieCategory.REACTION,
    )
    what = f"{side_name(command.side, start=True)} react with {describe_order(state, order)}"
    dice = f"needs {score.describe()}, rolled {roll}: "
    log.emit(
        "reaction_test",
        f"{what}: {dice}{'success' if passed else 'failed'}",
        *(u for u in [unit_id] if u),
        side=command.side,
        kept=hidden_test(unit, dice),
        data=RolledTest.of("reaction test", score.passes, roll, unit=unit_id or None, side=command.side),
    )
    if not passed:
        return resolve_without_reaction(state, log)
    note_declared_actions(state, pending, order)
    pending.seized = seizes_initiative(roll) or dug_in_seizes_initiative(dug_in_first, passed)
    if pending.seized:
        how = "A 6!" if seizes_initiative(roll) else "Dug in and waiting, and the first reaction succeeds:"
        log.emit("seize", f"{how} {side_name(command.side)} seize the initiative", side=command.side)
    reactor_first, reactor_rest = order_kind(order).reaction_halves(order)
    pending.interrupt = interrupt
    if interrupt is None:
        pending.steps = reactor_first + active_steps(pending.order) + reactor_rest
    else:
        test, *acts = active_steps(pending.order)
        cut = interrupt.index
        before = [*acts[:cut], acts[cut].model_copy(update={"leg": "to_interrupt"})]
        after = [acts[cut].model_copy(update={"leg": "onward"}), *acts[cut + 1 :]]
        pending.steps = [test, *before, *reactor_first, *after, *reactor_rest]
    state.phase = Phase.ACTIVE
    run_steps(state, log)


def _interrupt(state: GameState, pending: Pending, at: Point | None) -> Interrupt | None:
    """Where a reaction cuts into the active unit's move (p. 6), checked before any token is spent."""
    if at is None:
        return None
    index = interrupted_move(state, pending.order)
    point = interrupt_point(state, pending.order, at)
    to_point, onward = split_move(state, pending.order, index, point)
    return Interrupt(index=index, at=point, to_point=to_point, onward=onward)


def table_at_reaction_point(state: GameState, at: Point | None) -> GameState:
    """The table as a reaction named at ``at`` on the declared route sees it (the active unit
    there; p. 6), or as it stands for a reaction before the enemy acts."""
    assert state.pending is not None
    return _as_at_interrupt(state, state.pending, _interrupt(state, state.pending, at))


def _as_at_interrupt(state: GameState, pending: Pending, interrupt: Interrupt | None) -> GameState:
    """The table as the reactor sees it when it reacts: the active unit at the interrupt point."""
    if interrupt is None:
        return state
    probe = state.model_copy(deep=True)
    active = probe.units[order_unit(pending.order) or ""]
    carrier = active.transport if interrupt.to_point.own_transport else active.embarked_in
    mover = probe.units[carrier] if carrier else active
    mover.position = interrupt.at
    return probe


def _reaction_score(state: GameState, pending: Pending, order: Order) -> TestScore:
    kind = order_kind(order)
    score = kind.set_reaction_score()
    if score is not None:
        return score
    unit = state.units[order_unit(order) or ""]
    check_may_activate(unit)
    return reaction_score(state, pending, unit, falling_back=kind.falls_back)


def reaction_score(
    state: GameState, pending: Pending, unit: Unit, *, falling_back: bool = False
) -> TestScore:
    """The score a unit's reaction test needs against the order declared (pp. 6, 13)."""
    enemy_ids = order_units(pending.order)
    enemy = as_seen(state.units[enemy_ids[0]]) if enemy_ids else None  # a marker looks like infantry
    return rules_of(state).reaction_score(
        unit,
        enemy=enemy,
        enemy_started_in_cover=enemy is not None and starts_in_cover(state, enemy, unit),
        falling_back=falling_back,
    )
