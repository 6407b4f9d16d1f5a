"""Setting up (Iron Cross 2015, pp. 25-31): players take their seats, forces arrive for a
scenario, units are set up, and the game starts with its first turn."""

from __future__ import annotations

from engine.battlefield import live_units
from engine.commands import Deploy, FinishDeployment, JoinSide, StartGame
from engine.deployment.placing import finish_deployment, place_unit, reveal_plotted_deployment
from engine.errors import IllegalCommand
from engine.events import EventLog
from engine.flow.sequence import begin_turn, preliminary_bombardment
from engine.forces import units_points
from engine.game_state import GameState
from engine.referee import PLAYS_NO_SIDE
from engine.referee_prep import check_force_guideline
from engine.roster import remember_name
from engine.rules.force import sniper_problem
from engine.rules.scenario import ForceValue, defends, infantry_share_problem, scenario_points_problem
from engine.rulesets import RULE_SETS, RuleSet, rules_of
from engine.scenarios.book import find_scenario
from engine.scenarios.setup import apply_scenario
from engine.state import Phase
from engine.teams import check_room_in_team, join_team, teams_complete
from engine.unit_names import names_apart
from engine.wording import counted, side_name


def join_side(state: GameState, command: JoinSide, log: EventLog) -> None:
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
    remember_name(state, command.player, command.name)
    if command.units:
        _bring_force(state, command, log)
    elif state.planned_scenario is not None:
        raise IllegalCommand("This is a scenario game: join with your force (/game join side: force:)")
    state.sides[command.side].players.append(command.player)
    log.emit("join", f"{command.player} joins {side_name(command.side)}", side=command.side)
    planned = state.planned_scenario
    forces_in = teams_complete(state) if state.team_size else all(state.units_of(n) for n in state.sides)
    if planned is not None and forces_in:
        scenario = find_scenario(planned.id)
        added = apply_scenario(
            state,
            scenario,
            planned.roles,
            attacker_choice=planned.attacker_choice,
            plotted=planned.plotted,
            areas=planned.areas,
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
        raise IllegalCommand(f"{side_name(command.side, start=True)} already have their force")
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
        snipers += (
            f" (p. 20): {side_name(command.side)} {'attack' if role == 'attacker' else 'defend nothing'} here"
        )
    problem = (
        scenario_points_problem(scenario.points, role, mine, theirs)
        or snipers
        or (
            role == "defender"
            and scenario.defender_infantry_half
            and infantry_share_problem([u.profile for u in command.units], command.points_limit or 0)
        )
    )
    if problem:
        raise IllegalCommand(f"{scenario.title} (p. {scenario.page}): {problem}")
    check_force_guideline(state, command.side, units)
    state.sides[command.side].points_limit = command.points_limit
    state.sides[command.side].nation = command.nation or state.sides[command.side].nation
    rules = rules_of(state)
    for unit in names_apart(state, units):
        state.units[unit.id] = rules.unit(unit).model_copy(update={"in_reserve": True})
    total = sum(u.profile.points for u in units)
    log.emit(
        "force",
        f"{side_name(command.side, start=True)} bring {counted(len(units), 'unit')} "
        f"({total} points before upgrades)",
        side=command.side,
    )


def deploy(state: GameState, command: Deploy, log: EventLog) -> None:
    if state.phase is not Phase.SETUP:
        raise IllegalCommand("The game has already started")
    unit = state.units.get(command.unit)
    if unit is None or unit.side != command.side:
        raise IllegalCommand(f"{side_name(command.side, start=True)} have no unit {command.unit!r}")
    place_unit(state, command.side, command.unit, command.at, command.facing, log, command.decoy)


def finish_deploying(state: GameState, command: FinishDeployment, log: EventLog) -> None:
    if state.phase is not Phase.SETUP or command.side not in state.sides:
        raise IllegalCommand("Nothing to finish setting up")
    log.emit("deploy", finish_deployment(state, command.side, command.player), side=command.side)


def check_start(state: GameState, command: StartGame) -> None:
    """Refuse to start a game already started, or whose two sides are not both set up."""
    if state.phase is not Phase.SETUP:
        raise IllegalCommand("The game has already started")
    if state.deployment is not None:
        waiting = [side for side, plan in state.deployment.sides.items() if not plan.done]
        if waiting:
            raise IllegalCommand(f"{' and '.join(waiting)} must finish setting up first (/deploy)")
    if len(state.sides) != 2:
        raise IllegalCommand("A game needs exactly two sides")
    for side in state.sides:
        if not live_units(state, side) and not any(u.in_reserve for u in state.units_of(side)):
            raise IllegalCommand(f"{side_name(side, start=True)} have no units")


def start_game(state: GameState, command: StartGame, log: EventLog) -> None:
    check_start(state, command)
    if state.deployment is not None:
        if state.deployment.order == "plotted":
            reveal_plotted_deployment(state, log)
        state.deployment = None
    for name, side in sorted(state.sides.items()):
        if side.bombarded:
            preliminary_bombardment(state, name, log)
    begin_turn(state, log)
