"""Resolving a declaration step by step (Iron Cross 2015, pp. 4-7, 13): reactivation tests,
each action, Company Morale Tests, fall backs and platoon moves, stopping where a player must
choose and resuming once they have."""

from __future__ import annotations

from collections.abc import Callable

from engine.actions.activation import carry_out
from engine.actions.carrying_out import execute_move
from engine.battlefield import command_reroll_available, live_units
from engine.commands import ChooseTarget, Order, RemoveMarkers
from engine.dice import DieCategory
from engine.errors import IllegalCommand
from engine.event_data import MarkersData, RolledTest
from engine.events import EventLog
from engine.flow.sequence import after_declaration
from engine.game_state import Choice, GameState, Pending, Step, Who
from engine.order_kinds import activation_of, order_kind, order_unit
from engine.rules.activation import TestScore
from engine.rules.morale import MoraleTestResult, company_morale_test, fall_back_removes_marker
from engine.rulesets import rules_of
from engine.state import Phase, Unit
from engine.view import hidden_test, untold_if_hidden
from engine.wording import counted, side_name


def active_steps(order: Order) -> list[Step]:
    """The steps that carry out the active side's order, as its kind lays them out."""
    return order_kind(order).steps(order)


def resolve_without_reaction(state: GameState, log: EventLog) -> None:
    pending = state.pending
    assert pending is not None
    pending.steps = active_steps(pending.order)
    state.phase = Phase.ACTIVE
    run_steps(state, log)


def run_steps(state: GameState, log: EventLog) -> None:
    """Run the declaration's remaining steps until done or a choice is needed."""
    pending = state.pending
    assert pending is not None
    while pending.steps:
        step = pending.steps[0]
        if step.who not in pending.stopped:
            finished = STEPS[step.kind](state, pending, step, log)
            if not finished:
                state.phase = Phase.CHOICE
                return
        pending.steps.pop(0)
        if state.phase is Phase.OVER:
            return
    _finish_declaration(state, log)


def _finish_declaration(state: GameState, log: EventLog) -> None:
    pending = state.pending
    assert pending is not None
    state.pending = None
    state.phase = Phase.ACTIVE
    if pending.seized:
        state.active_side = pending.reactor_side
        state.spent_since_initiative = 0
        log.emit(
            "initiative",
            f"{side_name(pending.reactor_side, start=True)} are now the active player",
            side=pending.reactor_side,
        )
    after_declaration(state, log)


def roll_test(
    state: GameState,
    log: EventLog,
    purpose: str,
    score: TestScore,
    unit: Unit | None,
    reroll: bool,
    category: DieCategory,
) -> tuple[int, bool]:
    """Roll a d6 test, using the command re-roll on a failure if asked and allowed (p. 18)."""
    roll = log.roll_against(6, purpose, score.passes, category)
    if score.passes(roll) or unit is None or not reroll:
        return roll, score.passes(roll)
    if not command_reroll_available(state, unit, rules_of(state).command_radius(state.table.is_small)):
        return roll, False
    state.sides[unit.side].reroll_used = True
    dice = f" with {roll}"
    log.emit(
        "reroll",
        f"{unit.name} fails{dice}; the command unit orders a re-roll",
        unit.id,
        side=unit.side,
        kept=hidden_test(unit, dice),
    )
    roll = log.roll_against(6, f"{purpose} (command re-roll)", score.passes, category)
    return roll, score.passes(roll)


def _step_test(state: GameState, pending: Pending, step: Step, log: EventLog) -> bool:
    """The reactivation test of the active unit, after any reaction (pp. 4, 6, 13)."""
    unit = _live_actor(state, pending, step.who, log)
    if unit is None:
        return True
    tokens = pending.tokens_before.get(unit.id, 0)
    if tokens == 0:
        return True
    order = pending.order_of(step.who)
    falling_back = order is not None and order_kind(order).falls_back
    score = rules_of(state).reactivation_score(unit, tokens, falling_back=falling_back)
    roll, passed = roll_test(
        state,
        log,
        f"reactivation test, {unit.name}",
        score,
        unit,
        getattr(order, "reroll", False),
        DieCategory.REACTIVATION,
    )
    outcome = "success" if passed else "failed, the token is spent"
    dice = f"needs {score.describe()}, rolled {roll}: "
    log.emit(
        "activation_test",
        f"{unit.name} reactivates: {dice}{outcome}",
        unit.id,
        side=unit.side,
        kept=hidden_test(unit, dice),
        data=RolledTest.of("reactivation test", score.passes, roll, unit=unit.id, side=unit.side),
    )
    if not passed:
        pending.stopped.append(step.who)
    return True


def _live_actor(state: GameState, pending: Pending, who: Who, log: EventLog) -> Unit | None:
    order = pending.order_of(who)
    unit_id = order_unit(order) if order is not None else None
    unit = state.units.get(unit_id or "")
    if unit is None:
        return None
    if unit.destroyed:
        pending.stopped.append(who)
        log.emit("cancelled", f"{unit.name} was destroyed before it could act", unit.id, side=unit.side)
        return None
    return unit


def _step_act(state: GameState, pending: Pending, step: Step, log: EventLog) -> bool:
    """One action of an activation (p. 5)."""
    unit = _live_actor(state, pending, step.who, log)
    order = activation_of(pending, step.who)
    if unit is None or order is None:
        return True
    return carry_out(state, pending, step, unit, order, log)


def _step_morale_test(state: GameState, pending: Pending, step: Step, log: EventLog) -> bool:
    """Company Morale Test (p. 13): roll, then the player picks the unit."""
    side = pending.side_of(step.who)
    roll = log.roll_against(6, f"Company Morale Test, {side}", _morale_test_passes, DieCategory.MORALE)
    result = company_morale_test(roll)
    candidates = [u.id for u in live_units(state, side) if u.morale_markers]
    test = RolledTest.of("company morale test", _morale_test_passes, roll, side=side, result=result.value)
    text = f"{side_name(side, start=True)}' Company Morale Test: rolled {test.roll}: {test.result}"
    if result is MoraleTestResult.FAILED or not candidates:
        none = "" if candidates or result is MoraleTestResult.FAILED else " (no unit has markers)"
        log.emit("morale_test", rules_of(state).cite(text + none, "7.1"), side=side, data=test)
        return True
    log.emit("morale_test", rules_of(state).cite(text, "7.1"), side=side, data=test)
    remove_all = result is MoraleTestResult.REMOVE_ALL
    if len(candidates) == 1:
        _remove_markers(state, state.units[candidates[0]], remove_all, roll, log)
        return True
    pending.choice = Choice(
        kind="remove_markers", side=side, options=candidates, remove_all=remove_all, roll=roll, who=step.who
    )
    return False


def _morale_test_passes(roll: int) -> bool:
    return company_morale_test(roll) != MoraleTestResult.FAILED


def _remove_markers(state: GameState, unit: Unit, remove_all: bool, roll: int, log: EventLog) -> None:
    removed = unit.morale_markers if remove_all else rules_of(state).markers_rallied(unit, roll)
    removed = min(removed, unit.morale_markers)
    unit.morale_markers -= removed
    lost = MarkersData(unit=unit.id, added=-removed, total=unit.morale_markers)
    told = f"{unit.name} loses {counted(removed, 'morale marker')} ({lost.total} left)"
    log.emit(
        "rally",
        rules_of(state).cite(told, "7.1"),
        unit.id,
        side=unit.side,
        kept=untold_if_hidden(unit),
        data=lost,
    )


def _step_fall_back(state: GameState, pending: Pending, step: Step, log: EventLog) -> bool:
    """Fall back (p. 13): the move, then 4+ on a d6 removes a marker."""
    unit = _live_actor(state, pending, step.who, log)
    order = pending.order_of(step.who)
    if unit is None or order is None:
        return True
    move = dict(order_kind(order).moves(order))[unit.id]
    unit.fell_back_this_turn = True
    unit.must_move_away = True
    execute_move(state, unit, move, log, fall_back=True)
    if unit.destroyed:
        return True
    roll = log.roll_against(6, f"fall back rally, {unit.name}", fall_back_removes_marker, DieCategory.MORALE)
    rallied = fall_back_removes_marker(roll) and unit.morale_markers > 0
    unit.morale_markers -= 1 if rallied else 0
    test = RolledTest.of("fall back rally", fall_back_removes_marker, roll, unit=unit.id, side=unit.side)
    log.emit(
        "rally",
        f"{unit.name} rallies on {roll}: one marker removed"
        if rallied
        else f"{unit.name} rolls {roll} to rally: no marker removed",
        unit.id,
        side=unit.side,
        kept=untold_if_hidden(unit),
        data=test,
    )
    return True


def _step_platoon(state: GameState, pending: Pending, step: Step, log: EventLog) -> bool:
    """Platoon movement (p. 9): each member on the table makes its move."""
    for unit_id, move in order_kind(pending.order).moves(pending.order):
        unit = state.units[unit_id]
        if unit.on_table:
            execute_move(state, unit, move, log)
    return True


STEPS: dict[str, Callable[[GameState, Pending, Step, EventLog], bool]] = {
    "test": _step_test,
    "act": _step_act,
    "morale_test": _step_morale_test,
    "fall_back": _step_fall_back,
    "platoon": _step_platoon,
}


def expect_choice(state: GameState, side: str, kind: str) -> Choice:
    pending = state.pending
    choice = pending.choice if pending else None
    if state.phase is not Phase.CHOICE or choice is None or choice.kind != kind:
        raise IllegalCommand("Nothing of that kind is waiting to be chosen")
    if side != choice.side:
        raise IllegalCommand(f"{side_name(choice.side, start=True)} make this choice")
    return choice


def check_markers_choice(state: GameState, command: RemoveMarkers) -> Choice:
    """Refuse a unit the Company Morale Test's choice does not offer (p. 13)."""
    choice = expect_choice(state, command.side, "remove_markers")
    if command.unit not in choice.options:
        names = ", ".join(state.units[o].name for o in choice.options)
        raise IllegalCommand(f"Choose one of your units with morale markers: {names}")
    return choice


def choose_markers(state: GameState, command: RemoveMarkers, log: EventLog) -> None:
    choice = check_markers_choice(state, command)
    _remove_markers(state, state.units[command.unit], choice.remove_all, choice.roll, log)
    resume(state, log)


def check_target_choice(state: GameState, command: ChooseTarget) -> Choice:
    """Refuse a new target the choice does not offer (changing target, p. 7)."""
    choice = expect_choice(state, command.side, "choose_target")
    if command.target is not None and command.target not in choice.options:
        names = ", ".join(state.units[o].name for o in choice.options)
        raise IllegalCommand(f"Choose a new target among {names}, or none")
    return choice


def choose_target(state: GameState, command: ChooseTarget, log: EventLog) -> None:
    choice = check_target_choice(state, command)
    pending = state.pending
    assert pending is not None
    unit_id = order_unit(pending.order_of(choice.who))  # type: ignore[arg-type]
    pending.target_override[unit_id or ""] = command.target
    pending.choice = None
    state.phase = Phase.ACTIVE
    run_steps(state, log)


def resume(state: GameState, log: EventLog) -> None:
    pending = state.pending
    assert pending is not None
    pending.choice = None
    pending.steps.pop(0)
    state.phase = Phase.ACTIVE
    run_steps(state, log)
