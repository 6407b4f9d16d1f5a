"""The turn sequence (Iron Cross 2015, p. 4): the turn begins with reserves and command tokens,
the initiative is rolled and handed on, and the turn ends when neither side has a token left.
Beginning and ending call each other (a turn ends into the next), so both are here."""

from __future__ import annotations

from engine.battlefield import COMMAND_UNIT_TOKENS, area_cover, command_unit_lost, live_units, tokens_for_turn
from engine.commands import CallReserves, ChooseInitiative
from engine.deployment.hidden import check_marker_reveals
from engine.dice import DieCategory
from engine.errors import IllegalCommand
from engine.event_data import InitiativeData, TokensData
from engine.events import EventLog
from engine.firing.losses import add_markers
from engine.flow.game_over import break_test_data, finish_game, finish_on_time, take_break_point_test
from engine.game_state import GameState
from engine.profiles import Special
from engine.rules.activation import initiative_winner
from engine.rules.firing import CASUALTY_SCORE
from engine.rules.scenario import (
    BOMBARDMENT_HITS_ON,
    aggressive_command_tokens,
    another_turn,
    capture_defender_extra_tokens,
    preliminary_bombardment_markers,
    reserves_available,
    reserves_callable,
)
from engine.rules.victory import turn_outcome
from engine.rulesets import rules_of
from engine.scenarios.winning import turn_end_result
from engine.state import Phase
from engine.teams import draw_team_tokens
from engine.wording import counted, side_name


def begin_turn(state: GameState, log: EventLog) -> None:
    """Draw tokens and roll for the initiative (p. 4)."""
    state.turn += 1
    if state.turn > 1:
        for unit in state.units.values():
            unit.moved_this_turn = False
    for unit in state.units.values():
        unit.tokens = 0
        unit.rapid_moved = unit.fired_this_turn = False
        unit.fell_back_this_turn = False
        unit.platoon_moved = False
        unit.bogged = False
        unit.must_move_away = False
        unit.mortar_aim = None
    rules_of(state).begin_turn(state)
    check_marker_reveals(state, log)  # at the start, and as rapid moves are forgotten (p. 26)
    due = [name for name in sorted(state.sides) if reserves_to_call(state, name)]
    if due:
        state.phase, state.reserve_calls_due = Phase.RESERVES, due
        for name in due:
            log.emit(
                "reserves",
                f"Turn {state.turn}: {side_name(name)} may call up to "
                f"{counted(reserves_to_call(state, name), 'reserve')} before tokens are drawn",
                side=name,
            )
        return
    _draw_and_roll_initiative(state, log)


def reserves_to_call(state: GameState, name: str) -> int:
    """How many reserves a side may call at this turn's start (p. 26)."""
    side = state.sides[name]
    if side.team is not None:
        return 0  # a team's reserves are the CO's pool, sent on request (p. 25)
    waiting = [u for u in state.units_of(name) if u.in_reserve and not u.destroyed]
    limit = reserves_callable(
        state.turn,
        side.reserves_from_turn,
        half_first=side.reserves_half_first,
        at_start=side.reserves_at_start,
        arrived=side.reserves_at_start - len(waiting),
    )
    return min(limit, len(waiting))


def check_reserve_call(state: GameState, command: CallReserves) -> None:
    """Refuse a call of reserves out of its time, or of units that are not the side's waiting
    reserves, or of more than the turn allows (p. 26)."""
    if state.phase is not Phase.RESERVES or command.side not in state.reserve_calls_due:
        raise IllegalCommand("Reserves are called at the start of a turn, when the bot asks for them")
    limit = reserves_to_call(state, command.side)
    if len(set(command.units)) != len(command.units):
        raise IllegalCommand("Name each reserve unit once")
    if len(command.units) > limit:
        raise IllegalCommand(
            f"{side_name(command.side, start=True)} may call at most {limit} reserves this turn"
        )
    for unit_id in command.units:
        unit = state.units.get(unit_id)
        if unit is None or unit.side != command.side or not unit.in_reserve or unit.destroyed:
            raise IllegalCommand(
                f"{unit.name if unit else unit_id} is not one of {side_name(command.side)}' reserves"
            )


def call_reserves(state: GameState, command: CallReserves, log: EventLog) -> None:
    """Reserves (p. 26): a d6 for each unit called; each 3+ makes one available, in the order
    the player named them, and brings one token with it."""
    check_reserve_call(state, command)
    rolls = [log.d6(f"reserves, {command.side}") for _ in command.units]
    arriving = command.units[: reserves_available(rolls, len(command.units))]
    for unit_id in arriving:
        state.units[unit_id].reserve_available = True
    if command.units:
        names = ", ".join(state.units[u].name for u in arriving) or "none"
        log.emit(
            "reserves",
            f"{side_name(command.side, start=True)} call {counted(len(command.units), 'reserve')}: "
            f"rolled {', '.join(map(str, rolls))}; "
            f"available this turn: {names}",
            *arriving,
            side=command.side,
        )
    else:
        log.emit("reserves", f"{side_name(command.side, start=True)} call no reserves", side=command.side)
    state.reserve_calls_due.remove(command.side)
    if not state.reserve_calls_due:
        _draw_and_roll_initiative(state, log)


def _draw_and_roll_initiative(state: GameState, log: EventLog) -> None:
    first, second = sorted(state.sides)
    for name in (first, second):
        state.sides[name].tokens = state.sides[name].tokens_drawn = _draw_tokens(state, name, log)
        state.sides[name].reroll_used = False
        if state.sides[name].team is not None:
            draw_team_tokens(state, name, state.sides[name].tokens, log)
    log.emit(
        "turn",
        f"Turn {state.turn}: {side_name(first)} draw {counted(state.sides[first].tokens, 'token')}, "
        f"{side_name(second)} draw {state.sides[second].tokens}",
    )
    if state.turn == 1 and state.attacker_starts and state.attacker:
        return give_initiative(state, state.attacker, log, "attack and start as the active player")
    while True:
        a = log.d6(f"initiative, {first}")
        b = log.d6(f"initiative, {second}")
        winner = initiative_winner(a, b)
        if winner is not None:
            break
        log.emit("initiative", f"Initiative tie ({a} each): roll again")
    state.initiative_winner = (first, second)[winner]
    state.phase = Phase.INITIATIVE
    state.active_side = None
    won = InitiativeData(rolls=((first, a), (second, b)), winner=state.initiative_winner)
    log.emit(
        "initiative",
        f"Initiative: {side_name(first)} {a}, {side_name(second)} {b}. "
        f"{side_name(won.winner, start=True)} choose who starts",
        side=won.winner,
        data=won,
    )


def preliminary_bombardment(state: GameState, side: str, log: EventLog) -> None:
    """Preliminary Bombardment (p. 26): a d10 for each unit on the table but transports, 9+ a
    marker; infantry and support squads hit make a casualty roll for their cover (p. 10)."""
    for unit in live_units(state, side):
        if unit.profile.has(Special.TRANSPORT) or unit.embarked_in:
            continue
        roll = log.d10(f"preliminary bombardment, {unit.name}")
        casualty = needed = None
        if roll >= BOMBARDMENT_HITS_ON and not unit.is_vehicle:
            needed = CASUALTY_SCORE[area_cover(state, unit)]
            casualty = log.d6(f"bombardment casualty roll, {unit.name}", DieCategory.CASUALTY)
        markers = preliminary_bombardment_markers(roll, casualty, needed)
        rolled = f"{roll}" + (f", casualty {needed}+ rolled {casualty}" if casualty else "")
        log.emit(
            "bombardment",
            f"Bombardment on {unit.name}: {rolled}: {counted(markers, 'marker')}",
            unit.id,
            side=side,
        )
        add_markers(state, unit, markers, log)


def _draw_tokens(state: GameState, name: str, log: EventLog) -> int:
    """A side's tokens for the turn (p. 4), with the scenario's changes: Aggressive Command's d6
    in place of the command unit's two (p. 26), Capture's extra tokens for the defender (p. 30)."""
    side = state.sides[name]
    tokens = tokens_for_turn(state.units_of(name))
    if side.aggressive_command and not command_unit_lost(state, name):
        roll = log.d6(f"aggressive command, {name}")
        tokens += aggressive_command_tokens(roll) - COMMAND_UNIT_TOKENS
        gained = TokensData(side=name, count=aggressive_command_tokens(roll) - COMMAND_UNIT_TOKENS)
        log.emit(
            "tokens",
            f"{side_name(name, start=True)}' aggressive command rolls {roll} tokens instead of 2",
            side=name,
            data=gained,
        )
    tokens += rules_of(state).extra_tokens(live_units(state, name), log)
    if side.extra_token_dice:
        rolls = [log.d6(f"extra tokens, {name}") for _ in range(tokens)]
        extra = capture_defender_extra_tokens(rolls)
        log.emit(
            "tokens",
            f"{side_name(name, start=True)} roll for extra tokens: {', '.join(map(str, rolls))}: +{extra}",
            side=name,
            data=TokensData(side=name, count=extra),
        )
        tokens += extra
    return tokens


def check_initiative_choice(state: GameState, command: ChooseInitiative) -> None:
    """Only the side that won the initiative roll chooses who starts (p. 4)."""
    if state.phase is not Phase.INITIATIVE:
        raise IllegalCommand("Nobody is choosing the initiative now")
    if command.side != state.initiative_winner:
        winner = side_name(state.initiative_winner or "", start=True)
        raise IllegalCommand(f"{winner} won the initiative and choose who starts")


def choose_initiative(state: GameState, command: ChooseInitiative, log: EventLog) -> None:
    check_initiative_choice(state, command)
    active = command.side if command.go_first else state.other_side(command.side)
    give_initiative(state, active, log, "start as the active player")


def give_initiative(state: GameState, side: str, log: EventLog, how: str) -> None:
    """The initiative goes to ``side``, unless it has no tokens to play (p. 4: only a side with
    tokens is active; the turn ends once both have spent theirs)."""
    other = state.other_side(side)
    state.phase = Phase.ACTIVE
    state.spent_since_initiative = 0
    if state.sides[side].tokens == 0 and state.sides[other].tokens > 0:
        state.active_side = other
        log.emit(
            "initiative",
            f"{side_name(side, start=True)} have no tokens, so cannot {how}: {side_name(other)} have it",
            side=other,
        )
        return
    state.active_side = side
    if state.sides[side].tokens > 0:
        log.emit("initiative", f"{side_name(side, start=True)} {how}", side=side)
    after_declaration(state, log)


def after_declaration(state: GameState, log: EventLog) -> None:
    """Hand the initiative on when the active side has no tokens; end the turn when neither has."""
    if state.phase is not Phase.ACTIVE:
        return
    active = state.active_side
    assert active is not None
    other = state.other_side(active)
    if state.sides[active].tokens == 0 and state.sides[other].tokens == 0:
        _end_turn(state, log)
    elif state.sides[active].tokens == 0:
        state.active_side = other
        state.spent_since_initiative = 0
        log.emit(
            "initiative",
            f"{side_name(active, start=True)} have no tokens left: {side_name(other)} take the initiative",
            side=other,
        )


def _end_turn(state: GameState, log: EventLog) -> None:
    """End of turn: smoke clears (p. 12); reserves that were available but did not come on are
    lost (p. 26), still off the table; then each side tests its break point (p. 27)."""
    rules_of(state).end_of_turn(state, log)
    for unit in state.units.values():
        unit.smoke = None
        if unit.reserve_available:
            unit.reserve_available, unit.destroyed = False, True
            log.emit("destroyed", f"{unit.name} never came on: lost in the rear", unit.id, side=unit.side)
    broken = {}
    for name in sorted(state.sides):
        side = state.sides[name]
        test = take_break_point_test(state, name, log)
        side.broken = test.broken
        broken[name] = test.broken
        told = f"End of turn {state.turn}, {side_name(name)}: {test.describe()}"
        held = break_test_data(name, test)  # HR1.1: the 2015 test stands
        log.emit("break_test", rules_of(state).cite(told, "1.1"), side=name, data=held)
    first, second = sorted(state.sides)
    outcome = turn_outcome(broken[first], broken[second])
    if outcome == "draw":
        return finish_game(state, log, None, "both forces broke in the same turn")
    if outcome is not None:
        winner = first if outcome == "first" else second
        loser = state.other_side(winner)
        return finish_game(state, log, winner, f"{side_name(loser)}' force broke")
    won = turn_end_result(state)
    if won is not None:
        return finish_game(state, log, won.winner, won.reason)
    if state.last_turn is not None and state.turn >= state.last_turn:
        if state.random_length and not state.extended:
            roll = log.d6("random operation length")
            if another_turn(roll):
                state.extended = True
                log.emit("game_length", f"Random operation length: {roll}, one more turn")
                return begin_turn(state, log)
            log.emit("game_length", f"Random operation length: {roll}, the battle ends")
        return finish_on_time(state, log)
    begin_turn(state, log)
