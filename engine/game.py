"""The game's flow: turns, initiative, declarations, reactions and their resolution.

``apply(state, command, dice) -> (state, events)`` is the one entry point. It works on a copy
and returns it, so an illegal command (which raises :class:`IllegalCommand`) changes nothing.
Every die rolled appears in the returned events with its purpose; replaying the same
commands with the recorded dice gives the same events (see :func:`replay`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import partial
from operator import attrgetter

from engine.actions.activation import carry_out, check_unit_order, describe_actions
from engine.actions.base import actions_of
from engine.actions.carrying_out import execute_move
from engine.actions.registry import at_declaration, check_reaction_to
from engine.battlefield import (
    COMMAND_UNIT_TOKENS,
    area_cover,
    command_reroll_available,
    command_unit_lost,
    live_units,
    lost_break_points,
    starts_in_cover,
    tokens_for_turn,
    visible_enemies,
)
from engine.cards import add_token, deal, exchange, play, trigger
from engine.commands import (
    AnswerReserve,
    AppointReferee,
    CallReserves,
    CardAction,
    ChooseInitiative,
    ChooseTarget,
    Command,
    Concede,
    DealCards,
    Declare,
    DeclineReaction,
    Deploy,
    FallBackOrder,
    FinishDeployment,
    Fire,
    GiveBonusTokens,
    JoinSide,
    MoraleTestOrder,
    Move,
    Order,
    PassInitiative,
    PlatoonOrder,
    React,
    RefereeBriefing,
    RefereeClock,
    RefereeCorrection,
    RefereeDeploymentZone,
    RefereeForceGuideline,
    RefereeObjective,
    RefereeRuling,
    RefereeSpecialRule,
    RemoveMarkers,
    RequestReserve,
    StartGame,
    UndoActions,
    UnitOrder,
)
from engine.deployment.hidden import (
    as_seen,
    check_marker_reveals,
    known_as,
    must_keep_spending,
)
from engine.deployment.placing import finish_deployment, place_unit, reveal_plotted_deployment
from engine.dice import DiceSource, DieCategory, ScriptedDice
from engine.errors import IllegalCommand
from engine.event_data import InitiativeData, MarkersData, RolledTest, TokensData
from engine.events import Event, EventLog
from engine.firing.losses import add_markers
from engine.forces import units_points
from engine.game_state import Aim, Choice, GameResult, GameState, Interrupt, Pending, Step, Who
from engine.orders import check_fall_back, check_may_activate, check_platoon_order
from engine.profiles import Special
from engine.referee import PLAYS_NO_SIDE, appoint_referee, correct, note_undo, rule, run_clock
from engine.referee_prep import (
    add_objective,
    add_special_rule,
    check_force_guideline,
    send_briefing,
    set_deployment_zone,
    set_force_guideline,
)
from engine.rules.activation import (
    TestScore,
    initiative_winner,
    morale_test_reaction_score_needed,
    seizes_initiative,
)
from engine.rules.firing import CASUALTY_SCORE
from engine.rules.force import sniper_problem
from engine.rules.morale import (
    MoraleTestResult,
    company_morale_test,
    fall_back_removes_marker,
)
from engine.rules.scenario import (
    BOMBARDMENT_HITS_ON,
    ForceValue,
    aggressive_command_tokens,
    another_turn,
    capture_defender_extra_tokens,
    defends,
    dug_in_seizes_initiative,
    infantry_share_problem,
    preliminary_bombardment_markers,
    reserves_available,
    reserves_callable,
    scenario_points_problem,
)
from engine.rules.victory import BreakTest, break_point_test, turn_outcome
from engine.rulesets import RULE_SETS, RuleSet, rules_of
from engine.scenarios.book import find_scenario
from engine.scenarios.setup import apply_scenario
from engine.scenarios.winning import breakthrough_result, capture_result, objectives_held
from engine.state import Phase, Point, Side, Unit
from engine.summary import game_summary
from engine.teams import (
    answer_reserve,
    check_room_in_team,
    draw_team_tokens,
    give_bonus_tokens,
    hand_out_unclaimed_bonus,
    join_team,
    paying_player,
    request_reserve,
    spend_token,
    teams_complete,
)
from engine.turn.interrupts import interrupt_point, interrupted_move, split_move


def apply(state: GameState, command: Command, dice: DiceSource) -> tuple[GameState, list[Event]]:
    """Apply one command; return the new state and what happened."""
    if state.phase is Phase.OVER:
        raise IllegalCommand("The game is over")
    new = state.fork()
    log = EventLog(dice)
    handler = HANDLERS.get(type(command)) or rules_of(state).handlers().get(type(command))
    if handler is None:  # a choice only another rule set has
        raise IllegalCommand("Nothing of that kind is waiting to be chosen")
    handler(new, command, log)
    return new, log.events


def replay(
    state: GameState, history: Iterable[tuple[Command, list[Event]]]
) -> tuple[GameState, list[list[Event]]]:
    """Re-run stored commands with the dice recorded in their events."""
    produced = []
    for command, events in history:
        dice = ScriptedDice(roll for event in events for roll in event.rolls)
        state, new_events = apply(state, command, dice)
        produced.append(new_events)
    return state, produced


def awaiting(state: GameState) -> str | None:
    """The side the game is waiting for, if any."""
    if state.phase is Phase.INITIATIVE:
        return state.initiative_winner
    if state.phase is Phase.RESERVES and state.reserve_calls_due:
        return state.reserve_calls_due[0]
    if state.phase is Phase.REACTION and state.pending:
        return state.pending.reactor_side
    if state.phase is Phase.CHOICE and state.pending and state.pending.choice:
        return state.pending.choice.side
    if state.phase is Phase.ACTIVE:
        return state.active_side
    return None


# --- turns ---------------------------------------------------------------------------------


def _join_side(state: GameState, command: JoinSide, log: EventLog) -> None:
    """A player takes a seat while the game is being set up, never afterwards, and never a
    referee.

    Once a quick battle has started, or a scenario game's set-up has begun (its forces are here
    and the sides may be setting up hidden or in secret), a seat is a window onto a side's
    secrets and a hand on its orders. In a team game each player commands the force they
    brought, and a table the rules do not foresee (a player gone) is the referee's to settle
    (p. 25): an absent player's units change hands only by the referee's correction
    (``/ref give_units``). In other games this is our own rule, for the same reasons. A referee
    sees every side's secrets, so plays none (p. 25 has them prepare what one side may not know).
    """
    if command.side not in state.sides:
        raise IllegalCommand(f"There is no side called {command.side!r}: choose {' or '.join(state.sides)}")
    for name, side in state.sides.items():
        if command.player in side.players:
            raise IllegalCommand(f"You are already playing {name}")
    if command.player in state.referees:
        raise IllegalCommand(f"You referee this game: {PLAYS_NO_SIDE}")
    if state.phase is not Phase.SETUP or state.deployment is not None:
        raise IllegalCommand(
            "The game has started: nobody joins a side now (a referee can hand an absent player's "
            "units to you with /ref give_units)"
        )
    check_room_in_team(state, command.side)
    if command.units:
        _bring_force(state, command, log)
    elif state.planned_scenario is not None:
        raise IllegalCommand("This is a scenario game: join with your force (/game join side: force:)")
    state.sides[command.side].players.append(command.player)
    log.emit("join", f"{command.player} joins {command.side}", side=command.side)
    planned = state.planned_scenario
    forces_in = teams_complete(state) if state.team_size else all(state.units_of(n) for n in state.sides)
    if planned is not None and forces_in:
        scenario = find_scenario(planned.id)
        added = apply_scenario(
            state, scenario, planned.roles, attacker_choice=planned.attacker_choice, plotted=planned.plotted
        )
        state.planned_scenario = None
        log.emit(
            "scenario", f"Both forces are here: {scenario.title} (p. {scenario.page}). Set up with /deploy"
        )
        if added:
            places = ", ".join(f"{o.id} at {o.position}" for o in added)
            log.emit("scenario", f"Forces over 1,000 points: more objectives (p. 28): {places}")


def _bring_force(state: GameState, command: JoinSide, log: EventLog) -> None:
    """A side's force arrives for a scenario game, off the table until it is set up."""
    if state.planned_scenario is None or state.phase is not Phase.SETUP:
        raise IllegalCommand("Forces are brought to a scenario game before it is set up")
    if command.rules not in (None, RuleSet.name, state.ruleset):
        raise IllegalCommand(
            f"That force is built under the {RULE_SETS[command.rules].title}, and this game is played "
            f"under the {rules_of(state).title}: bring a force built for it"
        )
    units = command.units
    if state.team_size:
        units = tuple(join_team(state, command.side, command.player, units))
    elif state.units_of(command.side):
        raise IllegalCommand(f"{command.side} already has its force")
    if any(unit.side != command.side or unit.id in state.units for unit in units):
        raise IllegalCommand("Those units do not fit this side")
    scenario = find_scenario(state.planned_scenario.id)
    role = state.planned_scenario.roles[command.side]
    other = state.sides[state.other_side(command.side)]
    mine = ForceValue(command.points_limit, units_points(units))
    brought = [] if state.team_size else state.units_of(other.name)  # a referee balances team games (p. 25)
    theirs = ForceValue(other.points_limit, units_points(brought)) if brought else None
    snipers = sniper_problem([u.profile for u in units], defending=defends(role))
    if snipers:
        snipers += f" (p. 20): {command.side} {'attacks' if role == 'attacker' else 'defends nothing'} here"
    problem = scenario_points_problem(scenario.points, role, mine, theirs) or snipers or (
        role == "defender"
        and scenario.defender_infantry_half
        and infantry_share_problem([u.profile for u in command.units], command.points_limit or 0)
    )
    if problem:
        raise IllegalCommand(f"{scenario.title} (p. {scenario.page}): {problem}")
    check_force_guideline(state, command.side, units)
    state.sides[command.side].points_limit = command.points_limit
    state.sides[command.side].nation = command.nation or state.sides[command.side].nation
    rules = rules_of(state)
    for unit in units:
        state.units[unit.id] = rules.unit(unit).model_copy(update={"in_reserve": True})
    total = sum(u.profile.points for u in units)
    log.emit(
        "force",
        f"{command.side} brings {len(units)} units ({total} points before upgrades)",
        side=command.side,
    )


def _deal_cards(state: GameState, command: DealCards, log: EventLog) -> None:
    if state.cards is not None:
        raise IllegalCommand("The cards have already been dealt in this game")
    if state.phase is Phase.OVER:
        raise IllegalCommand("The game is over")
    state.cards = deal(
        list(command.deck), sorted(state.sides), lambda sides: log.roll(sides, "shuffling the cards")
    )
    log.emit(
        "cards",
        f"Tactical Advantage Cards: {len(command.deck)} shuffled, two set aside unseen, seven dealt to each "
        "side (see your hand with /cards hand)",
    )


def _card_action(state: GameState, command: CardAction, log: EventLog) -> None:
    """Tactical Advantage Cards (p. 33); a card's effect is for the players to apply."""
    cards, side = state.cards, state.sides.get(command.side)
    if cards is None or side is None:
        raise IllegalCommand("No cards have been dealt in this game: /cards deal")
    if state.phase is Phase.OVER:
        raise IllegalCommand("The game is over")
    if command.action == "exchange":
        exchange(cards, command.side, command.card)
        log.emit("cards", f"{command.side} exchanges a card for one from the deck", side=command.side)
    elif command.action == "play":
        hand_out_unclaimed_bonus(state, command.side, log)
        card = play(cards, command.side, command.card, _card_tokens(side))
        for _ in range(card.cost):
            spend_token(state, command.side, side.team.co if side.team else None, log)
        log.emit("cards", f"{command.side} plays {card.describe()}", side=command.side)
    elif command.action == "token":
        if _card_tokens(side) < 1:
            raise IllegalCommand(f"{command.side} has no command token to put on a card")
        held = add_token(cards, command.side, command.card)
        spend_token(state, command.side, side.team.co if side.team else None, log)
        log.emit(
            "cards", f"{command.side} puts a token on {held.card.name} ({held.tokens} now)", side=command.side
        )
    else:
        held = trigger(cards, command.side, command.card)
        log.emit(
            "cards",
            f"{command.side} triggers {held.card.name} ({held.tokens} tokens on it)",
            side=command.side,
        )


def _card_tokens(side: Side) -> int:
    """Tokens a side may put on its cards: in a team game the CO's, who holds the cards (p. 33)."""
    return side.team.tokens.get(side.team.co, 0) if side.team else side.tokens


def _deploy(state: GameState, command: Deploy, log: EventLog) -> None:
    if state.phase is not Phase.SETUP:
        raise IllegalCommand("The game has already started")
    unit = state.units.get(command.unit)
    if unit is None or unit.side != command.side:
        raise IllegalCommand(f"{command.side} has no unit {command.unit!r}")
    place_unit(state, command.side, command.unit, command.at, command.facing, log, command.decoy)


def _finish_deployment(state: GameState, command: FinishDeployment, log: EventLog) -> None:
    if state.phase is not Phase.SETUP or command.side not in state.sides:
        raise IllegalCommand("Nothing to finish setting up")
    log.emit("deploy", finish_deployment(state, command.side), side=command.side)


def _start_game(state: GameState, command: StartGame, log: EventLog) -> None:
    if state.phase is not Phase.SETUP:
        raise IllegalCommand("The game has already started")
    if state.deployment is not None:
        waiting = [side for side, plan in state.deployment.sides.items() if not plan.done]
        if waiting:
            raise IllegalCommand(f"{' and '.join(waiting)} must finish setting up first (/deploy)")
        if state.deployment.order == "plotted":
            reveal_plotted_deployment(state, log)
        state.deployment = None
    if len(state.sides) != 2:
        raise IllegalCommand("A game needs exactly two sides")
    for side in state.sides:
        if not live_units(state, side) and not any(u.in_reserve for u in state.units_of(side)):
            raise IllegalCommand(f"{side} has no units")
    for name, side in sorted(state.sides.items()):
        if side.bombarded:
            _preliminary_bombardment(state, name, log)
    _begin_turn(state, log)


def _begin_turn(state: GameState, log: EventLog) -> None:
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
    due = [name for name in sorted(state.sides) if _reserves_callable(state, name)]
    if due:
        state.phase, state.reserve_calls_due = Phase.RESERVES, due
        for name in due:
            log.emit(
                "reserves",
                f"Turn {state.turn}: {name} may call up to {_reserves_callable(state, name)} "
                "reserve(s) before tokens are drawn",
                side=name,
            )
        return
    _draw_and_roll_initiative(state, log)


def _reserves_callable(state: GameState, name: str) -> int:
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


def _call_reserves(state: GameState, command: CallReserves, log: EventLog) -> None:
    """Reserves (p. 26): a d6 for each unit called; each 3+ makes one available, in the order
    the player named them, and brings one token with it."""
    if state.phase is not Phase.RESERVES or command.side not in state.reserve_calls_due:
        raise IllegalCommand("Reserves are called at the start of a turn, when the bot asks for them")
    limit = _reserves_callable(state, command.side)
    if len(set(command.units)) != len(command.units):
        raise IllegalCommand("Name each reserve unit once")
    if len(command.units) > limit:
        raise IllegalCommand(f"{command.side} may call at most {limit} reserves this turn")
    for unit_id in command.units:
        unit = state.units.get(unit_id)
        if unit is None or unit.side != command.side or not unit.in_reserve or unit.destroyed:
            raise IllegalCommand(f"{unit.name if unit else unit_id} is not one of {command.side}'s reserves")
    rolls = [log.d6(f"reserves, {command.side}") for _ in command.units]
    arriving = command.units[: reserves_available(rolls, len(command.units))]
    for unit_id in arriving:
        state.units[unit_id].reserve_available = True
    if command.units:
        names = ", ".join(state.units[u].name for u in arriving) or "none"
        log.emit(
            "reserves",
            f"{command.side} calls {len(command.units)} reserves: rolled {', '.join(map(str, rolls))}; "
            f"available this turn: {names}",
            *arriving,
            side=command.side,
        )
    else:
        log.emit("reserves", f"{command.side} calls no reserves", side=command.side)
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
        f"Turn {state.turn}: {first} draws {state.sides[first].tokens} tokens, "
        f"{second} draws {state.sides[second].tokens}",
    )
    if state.turn == 1 and state.attacker_starts and state.attacker:
        return _give_initiative(state, state.attacker, log, "attacks and starts as the active player")
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
        f"Initiative: {first} {a}, {second} {b}. {won.winner} chooses who starts",
        side=won.winner,
        data=won,
    )


def _preliminary_bombardment(state: GameState, side: str, log: EventLog) -> None:
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
            f"Bombardment on {unit.name}: {rolled}: {markers} marker{'s' * (markers != 1)}",
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
            "tokens", f"{name}'s aggressive command rolls {roll} tokens instead of 2", side=name, data=gained
        )
    tokens += rules_of(state).extra_tokens(live_units(state, name), log)
    if side.extra_token_dice:
        rolls = [log.d6(f"extra tokens, {name}") for _ in range(tokens)]
        extra = capture_defender_extra_tokens(rolls)
        log.emit(
            "tokens",
            f"{name} rolls for extra tokens: {', '.join(map(str, rolls))}: +{extra}",
            side=name,
            data=TokensData(side=name, count=extra),
        )
        tokens += extra
    return tokens


def _choose_initiative(state: GameState, command: ChooseInitiative, log: EventLog) -> None:
    if state.phase is not Phase.INITIATIVE:
        raise IllegalCommand("Nobody is choosing the initiative now")
    if command.side != state.initiative_winner:
        raise IllegalCommand(f"{state.initiative_winner} won the initiative and chooses")
    active = command.side if command.go_first else state.other_side(command.side)
    _give_initiative(state, active, log, "starts as the active player")


def _give_initiative(state: GameState, side: str, log: EventLog, how: str) -> None:
    state.active_side = side
    state.phase = Phase.ACTIVE
    state.spent_since_initiative = 0
    log.emit("initiative", f"{side} {how}", side=side)
    _after_declaration(state, log)


def _pass_initiative(state: GameState, command: PassInitiative, log: EventLog) -> None:
    """Passing (p. 5): a player who gained the initiative spends a token before passing back."""
    _expect_active(state, command.side)
    side = state.sides[command.side]
    hand_out_unclaimed_bonus(state, command.side, log)
    if side.tokens and state.spent_since_initiative == 0:
        raise IllegalCommand("You must spend at least one command token before passing the initiative back")
    if side.tokens and (problem := must_keep_spending(state, command.side)):
        raise IllegalCommand(problem)
    _give_initiative(state, state.other_side(command.side), log, "takes the initiative")


def _after_declaration(state: GameState, log: EventLog) -> None:
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
        log.emit("initiative", f"{active} has no tokens left: {other} takes the initiative", side=other)


def _end_turn(state: GameState, log: EventLog) -> None:
    """End of turn: smoke clears (p. 12); reserves that were available but did not come on are
    lost (p. 26); then each side tests its break point (p. 27)."""
    rules_of(state).end_of_turn(state, log)
    for unit in state.units.values():
        unit.smoke = None
        if unit.reserve_available:
            unit.reserve_available, unit.in_reserve, unit.destroyed = False, False, True
            log.emit("destroyed", f"{unit.name} never came on: lost in the rear", unit.id, side=unit.side)
    broken = {}
    for name in sorted(state.sides):
        side = state.sides[name]
        test = _test_break_point(state, name, log)
        side.broken = test.broken
        broken[name] = test.broken
        told = f"End of turn {state.turn}, {name}: {test.describe()}"
        held = _break_test_data(name, test)  # HR1.1: the 2015 test stands
        log.emit("break_test", rules_of(state).cite(told, "1.1"), side=name, data=held)
    first, second = sorted(state.sides)
    outcome = turn_outcome(broken[first], broken[second])
    if outcome == "draw":
        return _finish(state, log, None, "both forces broke in the same turn")
    if outcome is not None:
        winner = first if outcome == "first" else second
        loser = state.other_side(winner)
        return _finish(state, log, winner, f"{loser}'s force broke")
    captured = capture_result(state)
    if captured is not None:
        return _finish(state, log, captured.winner, captured.reason)
    if state.last_turn is not None and state.turn >= state.last_turn:
        if state.random_length and not state.extended:
            roll = log.d6("random operation length")
            if another_turn(roll):
                state.extended = True
                log.emit("game_length", f"Random operation length: {roll}, one more turn")
                return _begin_turn(state, log)
            log.emit("game_length", f"Random operation length: {roll}, the battle ends")
        return _finish_on_time(state, log)
    _begin_turn(state, log)


def _test_break_point(state: GameState, name: str, log: EventLog) -> BreakTest:
    """A side's break point test (p. 27), its die held to the highest face that holds."""
    test_on = partial(
        break_point_test,
        lost_break_points(state, name),
        commander_lost=command_unit_lost(state, name),
        break_point=state.sides[name].break_point,
    )
    return test_on(
        log.roll_against(
            6, f"break point test, {name}", lambda face: not test_on(face).broken, DieCategory.MORALE
        )
    )


def _break_test_data(name: str, test: BreakTest) -> RolledTest:
    return RolledTest.of(
        "break point test", lambda face: not replace(test, roll=face).broken, test.roll, side=name
    )


def _finish_on_time(state: GameState, log: EventLog) -> None:
    if state.scenario == "breakthrough" and state.attacker is not None:
        result = breakthrough_result(state)
        return _finish(state, log, result.winner, result.reason)
    held = objectives_held(state)
    first, second = sorted(held)
    if held[first] == held[second]:
        return _finish(state, log, None, "time ran out with the objectives shared")
    winner = first if held[first] > held[second] else second
    count = held[winner]
    _finish(state, log, winner, f"time ran out; {winner} holds {count} objective{'s' * (count != 1)}")


def _finish(state: GameState, log: EventLog, winner: str | None, reason: str) -> None:
    state.phase = Phase.OVER
    state.pending = None
    state.result = GameResult(winner=winner, reason=reason)
    log.emit("game_over", f"Game over: {winner + ' wins' if winner else 'draw'} ({reason})")
    log.emit("summary", game_summary(state))


def _concede(state: GameState, command: Concede, log: EventLog) -> None:
    if command.side not in state.sides:
        raise IllegalCommand(f"There is no side called {command.side!r}")
    _finish(state, log, state.other_side(command.side), f"{command.side} conceded")


# --- declaring -----------------------------------------------------------------------------


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
        raise IllegalCommand(f"{state.active_side} has the initiative, not {side}")


def check_order(state: GameState, side: str, order: Order) -> None:
    """Check an order against the rules without changing anything."""
    if isinstance(order, UnitOrder):
        check_unit_order(state, side, order)
    elif isinstance(order, FallBackOrder):
        check_fall_back(state, side, order)
    elif isinstance(order, PlatoonOrder):
        check_platoon_order(state, side, order, state.sides[side].nation)


def _declare(state: GameState, command: Declare, log: EventLog) -> None:
    _expect_active(state, command.side)
    side = state.sides[command.side]
    if side.tokens < 1:
        raise IllegalCommand("You have no command tokens left: pass the initiative")
    order = command.order
    check_order(state, command.side, order)
    payer = paying_player(state, command.side, _order_units(order), command.player)

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
    _place_token(state, pending, order)
    _note_declared_actions(state, pending, order)
    state.pending = pending
    said = None if _in_the_open(state, order) else describe_order(state, order, known_as)
    public = None if said is None else f"{command.side} declares: {said}"
    text = f"{command.side} declares: {describe_order(state, order)}"
    log.emit("declare", text, side=command.side, public=public, data=TokensData(side=command.side, count=-1))

    reactor = state.sides[pending.reactor_side]
    barred = at_declaration(state, pending, log)
    if isinstance(order, MoraleTestOrder) and pending.first_action:
        log.emit(
            "no_reaction",
            "No reaction is allowed to a Company Morale Test taken first after gaining the initiative",
        )
    elif barred:
        log.emit("no_reaction", barred)
    elif reactor.tokens == 0:
        log.emit("no_reaction", f"{pending.reactor_side} has no tokens to react with")
    else:
        state.phase = Phase.REACTION
        log.emit(
            "reaction_window",
            f"{pending.reactor_side} may react (window {pending.window})",
            side=pending.reactor_side,
        )
        return
    _resolve_without_reaction(state, log)


def _place_token(state: GameState, pending: Pending, order: Order) -> None:
    """The token spent goes on the unit it activates (p. 4); a platoon's on its first member."""
    unit_id = _order_unit(order)
    if unit_id is None:
        return
    unit = state.units[unit_id]
    pending.tokens_before[unit_id] = unit.tokens
    unit.tokens += 1
    unit.dug_in = False  # dug in until first activated (p. 26)
    if isinstance(order, PlatoonOrder):
        for member in order.members:
            state.units[member.unit].platoon_moved = True


def _note_declared_actions(state: GameState, pending: Pending, order: Order) -> None:
    """What an order that will happen declares: its movement (a target that has declared a
    move counts as moving, p. 10) and its aim (for changing target, p. 7). A reaction that
    fails its test declares nothing."""
    unit_id = _order_unit(order)
    if unit_id is None:
        return
    unit = state.units[unit_id]
    actions = order.actions if isinstance(order, UnitOrder) else ()
    if actions_of(actions, Move):
        pending.fire_target_moved.append(unit_id)
    if isinstance(order, FallBackOrder | PlatoonOrder):
        pending.fire_target_moved.extend(_order_units(order))
    for action in actions_of(actions, Fire):
        pending.aims[unit_id] = Aim(
            target=action.target,
            at=state.units[action.target].position,
            visible=[e.id for e in visible_enemies(state, unit)],
        )


def _order_unit(order: Order) -> str | None:
    units = _order_units(order)
    return units[0] if units else None


def _order_units(order: Order) -> list[str]:
    if isinstance(order, UnitOrder | FallBackOrder):
        return [order.unit]
    if isinstance(order, PlatoonOrder):
        return [m.unit for m in order.members]
    return []


def describe_order(state: GameState, order: Order, name: Callable[[Unit], str] = attrgetter("name")) -> str:
    """The order in words, its units called by ``name`` (:func:`known_as` for the channel)."""
    if isinstance(order, MoraleTestOrder):
        return "Company Morale Test"
    if isinstance(order, PlatoonOrder):
        names = ", ".join(name(state.units[m.unit]) for m in order.members)
        return f"platoon move of {names}"
    unit = state.units[order.unit]
    if isinstance(order, FallBackOrder):
        return f"{name(unit)} falls back to {order.path[-1]}"
    return f"{name(unit)}: " + describe_actions(state, order.actions)


def _in_the_open(state: GameState, order: Order) -> bool:
    """Whether the channel may read the order as it is: none of its units is a hidden sniper team
    (units under markers are already named by their marker)."""
    return all(known_as(state.units[u]) == state.units[u].name for u in _order_units(order))


# --- reacting ------------------------------------------------------------------------------


def _expect_window(state: GameState, side: str, window: int) -> Pending:
    pending = state.pending
    if state.phase is not Phase.REACTION or pending is None:
        raise IllegalCommand("No reaction window is open")
    if window != pending.window:
        raise IllegalCommand(f"Reaction window {window} has closed (the open one is {pending.window})")
    if side != pending.reactor_side:
        raise IllegalCommand(f"Only {pending.reactor_side} may react now")
    return pending


def _decline(state: GameState, command: DeclineReaction, log: EventLog) -> None:
    _expect_window(state, command.side, command.window)
    log.emit("no_reaction", f"{command.side} does not react", side=command.side)
    _resolve_without_reaction(state, log)


def _react(state: GameState, command: React, log: EventLog) -> None:
    """Reacting (pp. 6-7): a token, a reaction test, then the reaction sequence."""
    pending = _expect_window(state, command.side, command.window)
    order = command.order
    if isinstance(order, PlatoonOrder):
        raise IllegalCommand("A platoon move cannot be a reaction")
    check_reaction_to(state, pending.order, order)
    interrupt = _interrupt(state, pending, command.at)
    check_order(_as_at_interrupt(state, pending, interrupt), command.side, order)
    payer = paying_player(state, command.side, _order_units(order), command.player)
    side = state.sides[command.side]
    spend_token(state, command.side, payer, log)
    pending.reaction = order
    score = _reaction_score(state, pending, order)
    unit_id = _order_unit(order)
    unit = state.units[unit_id] if unit_id else None
    dug_in_first = unit is not None and unit.dug_in and not side.dug_in_tried
    side.dug_in_tried = side.dug_in_tried or (unit is not None and unit.dug_in)
    _place_token(state, pending, order)
    label = unit.name if unit else f"{command.side} Company Morale Test"
    roll, passed = _roll_test(
        state,
        log,
        f"reaction test, {label}",
        score,
        unit,
        getattr(order, "reroll", False),
        DieCategory.REACTION,
    )
    what = f"{command.side} reacts with {describe_order(state, order)}"
    said = f"{command.side} reacts with {describe_order(state, order, known_as)}"
    log.emit(
        "reaction_test",
        f"{what}: needs {score.describe()}, rolled {roll}: {'success' if passed else 'failed'}",
        *(u for u in [unit_id] if u),
        side=command.side,
        public=f"{said}: {'success' if passed else 'failed'}" if unit and unit.hidden else None,
        data=RolledTest.of("reaction test", score.passes, roll, unit=unit_id or None, side=command.side),
    )
    if not passed:
        return _resolve_without_reaction(state, log)
    _note_declared_actions(state, pending, order)
    pending.seized = seizes_initiative(roll) or dug_in_seizes_initiative(dug_in_first, passed)
    if pending.seized:
        how = "A 6!" if seizes_initiative(roll) else "Dug in and waiting, and the first reaction succeeds:"
        log.emit("seize", f"{how} {command.side} seizes the initiative", side=command.side)
    reactor_first, reactor_rest = _reaction_halves(order)
    pending.interrupt = interrupt
    if interrupt is None:
        pending.steps = reactor_first + _active_steps(pending.order) + reactor_rest
    else:
        test, *acts = _active_steps(pending.order)
        cut = interrupt.index
        before = [*acts[:cut], acts[cut].model_copy(update={"leg": "to_interrupt"})]
        after = [acts[cut].model_copy(update={"leg": "onward"}), *acts[cut + 1 :]]
        pending.steps = [test, *before, *reactor_first, *after, *reactor_rest]
    state.phase = Phase.ACTIVE
    _run_steps(state, log)


def _interrupt(state: GameState, pending: Pending, at: Point | None) -> Interrupt | None:
    """Where a reaction cuts into the active unit's move (p. 6), checked before any token is spent."""
    if at is None:
        return None
    index = interrupted_move(state, pending.order)
    point = interrupt_point(state, pending.order, at)
    to_point, onward = split_move(state, pending.order, index, point)
    return Interrupt(index=index, at=point, to_point=to_point, onward=onward)


def _as_at_interrupt(state: GameState, pending: Pending, interrupt: Interrupt | None) -> GameState:
    """The table as the reactor sees it when it reacts: the active unit at the interrupt point."""
    if interrupt is None:
        return state
    probe = state.model_copy(deep=True)
    active = probe.units[_order_unit(pending.order) or ""]
    carrier = active.transport if interrupt.to_point.own_transport else active.embarked_in
    mover = probe.units[carrier] if carrier else active
    mover.position = interrupt.at
    return probe


def _reaction_score(state: GameState, pending: Pending, order: Order) -> TestScore:
    if isinstance(order, MoraleTestOrder):
        return morale_test_reaction_score_needed()
    unit = state.units[_order_unit(order) or ""]
    check_may_activate(unit)
    enemy_ids = _order_units(pending.order)
    enemy = as_seen(state.units[enemy_ids[0]]) if enemy_ids else None  # a marker looks like infantry
    return rules_of(state).reaction_score(
        unit,
        enemy=enemy,
        enemy_started_in_cover=enemy is not None and starts_in_cover(state, enemy, unit),
        falling_back=isinstance(order, FallBackOrder),
    )


def _roll_test(
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
    log.emit(
        "reroll",
        f"{unit.name} fails with {roll}; the command unit orders a re-roll",
        unit.id,
        side=unit.side,
        public=f"{known_as(unit)} fails; the command unit orders a re-roll" if unit.hidden else None,
    )
    roll = log.roll_against(6, f"{purpose} (command re-roll)", score.passes, category)
    return roll, score.passes(roll)


def _reaction_halves(order: Order) -> tuple[list[Step], list[Step]]:
    """The reactor's first half goes before the active unit's action, the rest after (p. 6)."""
    if isinstance(order, MoraleTestOrder):
        return [Step(kind="morale_test", who="reactor")], []
    if isinstance(order, FallBackOrder):
        return [Step(kind="fall_back", who="reactor")], []
    assert isinstance(order, UnitOrder)
    first = [Step(kind="act", who="reactor", index=0)]
    rest = [Step(kind="act", who="reactor", index=i) for i in range(1, len(order.actions))]
    return first, rest


def _active_steps(order: Order) -> list[Step]:
    if isinstance(order, MoraleTestOrder):
        return [Step(kind="morale_test", who="active")]
    if isinstance(order, PlatoonOrder):
        return [Step(kind="platoon", who="active")]
    if isinstance(order, FallBackOrder):
        return [Step(kind="test", who="active"), Step(kind="fall_back", who="active")]
    return [Step(kind="test", who="active")] + [
        Step(kind="act", who="active", index=i) for i in range(len(order.actions))
    ]


def _resolve_without_reaction(state: GameState, log: EventLog) -> None:
    pending = state.pending
    assert pending is not None
    pending.steps = _active_steps(pending.order)
    state.phase = Phase.ACTIVE
    _run_steps(state, log)


# --- resolving -----------------------------------------------------------------------------


def _run_steps(state: GameState, log: EventLog) -> None:
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
        log.emit("initiative", f"{pending.reactor_side} is now the active player", side=pending.reactor_side)
    _after_declaration(state, log)


def _step_test(state: GameState, pending: Pending, step: Step, log: EventLog) -> bool:
    """The reactivation test of the active unit, after any reaction (pp. 4, 6, 13)."""
    unit = _live_actor(state, pending, step.who, log)
    if unit is None:
        return True
    tokens = pending.tokens_before.get(unit.id, 0)
    if tokens == 0:
        return True
    falling_back = isinstance(pending.order_of(step.who), FallBackOrder)
    score = rules_of(state).reactivation_score(unit, tokens, falling_back=falling_back)
    order = pending.order_of(step.who)
    roll, passed = _roll_test(
        state,
        log,
        f"reactivation test, {unit.name}",
        score,
        unit,
        getattr(order, "reroll", False),
        DieCategory.REACTIVATION,
    )
    outcome = "success" if passed else "failed, the token is spent"
    log.emit(
        "activation_test",
        f"{unit.name} reactivates: needs {score.describe()}, rolled {roll}: {outcome}",
        unit.id,
        side=unit.side,
        public=f"{known_as(unit)} reactivates: {outcome}" if unit.hidden else None,
        data=RolledTest.of("reactivation test", score.passes, roll, unit=unit.id, side=unit.side),
    )
    if not passed:
        pending.stopped.append(step.who)
    return True


def _live_actor(state: GameState, pending: Pending, who: Who, log: EventLog) -> Unit | None:
    order = pending.order_of(who)
    unit_id = _order_unit(order) if order is not None else None
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
    order = pending.unit_order(step.who)
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
    text = f"{side} Company Morale Test: rolled {test.roll}: {test.result}"
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
    told = f"{unit.name} loses {removed} morale marker{'s' * (removed != 1)} ({lost.total} left)"
    log.emit(
        "rally",
        rules_of(state).cite(told, "7.1"),
        unit.id,
        side=unit.side,
        public="" if unit.hidden else None,  # markers on a hidden unit would tell it is real
        data=lost,
    )


def _step_fall_back(state: GameState, pending: Pending, step: Step, log: EventLog) -> bool:
    """Fall back (p. 13): the move, then 4+ on a d6 removes a marker."""
    unit = _live_actor(state, pending, step.who, log)
    order = pending.order_of(step.who)
    if unit is None or not isinstance(order, FallBackOrder):
        return True
    unit.fell_back_this_turn = True
    unit.must_move_away = True
    execute_move(state, unit, Move(path=order.path, reverse=order.reverse), log, fall_back=True)
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
        public="" if unit.hidden else None,  # a hidden unit's markers are its owner's business
        data=test,
    )
    return True


def _step_platoon(state: GameState, pending: Pending, step: Step, log: EventLog) -> bool:
    order = pending.order
    assert isinstance(order, PlatoonOrder)
    for member in order.members:
        unit = state.units[member.unit]
        if unit.on_table:
            execute_move(state, unit, member.move, log)
    return True


STEPS: dict[str, Callable[[GameState, Pending, Step, EventLog], bool]] = {
    "test": _step_test,
    "act": _step_act,
    "morale_test": _step_morale_test,
    "fall_back": _step_fall_back,
    "platoon": _step_platoon,
}


# --- choices -------------------------------------------------------------------------------


def expect_choice(state: GameState, side: str, kind: str) -> Choice:
    pending = state.pending
    choice = pending.choice if pending else None
    if state.phase is not Phase.CHOICE or choice is None or choice.kind != kind:
        raise IllegalCommand("Nothing of that kind is waiting to be chosen")
    if side != choice.side:
        raise IllegalCommand(f"{choice.side} makes this choice")
    return choice


def _choose_markers(state: GameState, command: RemoveMarkers, log: EventLog) -> None:
    choice = expect_choice(state, command.side, "remove_markers")
    if command.unit not in choice.options:
        names = ", ".join(state.units[o].name for o in choice.options)
        raise IllegalCommand(f"Choose one of your units with morale markers: {names}")
    _remove_markers(state, state.units[command.unit], choice.remove_all, choice.roll, log)
    resume(state, log)


def _choose_target(state: GameState, command: ChooseTarget, log: EventLog) -> None:
    choice = expect_choice(state, command.side, "choose_target")
    if command.target is not None and command.target not in choice.options:
        names = ", ".join(state.units[o].name for o in choice.options)
        raise IllegalCommand(f"Choose a new target among {names}, or none")
    pending = state.pending
    assert pending is not None
    unit_id = _order_unit(pending.order_of(choice.who))  # type: ignore[arg-type]
    pending.target_override[unit_id or ""] = command.target
    pending.choice = None
    state.phase = Phase.ACTIVE
    _run_steps(state, log)


def resume(state: GameState, log: EventLog) -> None:
    pending = state.pending
    assert pending is not None
    pending.choice = None
    pending.steps.pop(0)
    state.phase = Phase.ACTIVE
    _run_steps(state, log)


HANDLERS: dict[type, Callable[[GameState, object, EventLog], None]] = {
    JoinSide: _join_side,
    StartGame: _start_game,
    Deploy: _deploy,
    FinishDeployment: _finish_deployment,
    CallReserves: _call_reserves,
    DealCards: _deal_cards,
    CardAction: _card_action,
    ChooseInitiative: _choose_initiative,
    Declare: _declare,
    React: _react,
    DeclineReaction: _decline,
    RemoveMarkers: _choose_markers,
    ChooseTarget: _choose_target,
    PassInitiative: _pass_initiative,
    GiveBonusTokens: lambda state, c, log: give_bonus_tokens(state, c.side, c.player, c.shares, log),
    RequestReserve: lambda state, c, log: request_reserve(state, c.side, c.player, c.unit, log),
    AnswerReserve: lambda state, c, log: answer_reserve(state, c.side, c.player, c.unit, c.grant, log),
    RefereeCorrection: correct,
    RefereeRuling: rule,
    UndoActions: note_undo,
    RefereeClock: run_clock,
    RefereeObjective: add_objective,
    RefereeSpecialRule: add_special_rule,
    RefereeBriefing: send_briefing,
    RefereeForceGuideline: set_force_guideline,
    RefereeDeploymentZone: set_deployment_zone,
    AppointReferee: appoint_referee,
    Concede: _concede,
}
