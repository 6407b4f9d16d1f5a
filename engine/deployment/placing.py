"""Deploying for a scenario (Iron Cross 2015, pp. 28-31): where each side may set up, in what
order, how many units start on the table, and how far apart.

Each side's area is measured from a table edge: "within 12" of your own edge", "within one
normal move of your start line", or "at least 24" from the attacker's start line". Units not
yet set up wait off the table; when a side says it has finished, the rest go into reserve
(if the scenario has reserves).
"""

from __future__ import annotations

from engine import geometry
from engine.deployment.areas import DeploymentAreas, check_areas_allowed, deployment_area_spans
from engine.deployment.hidden import hide_under_marker
from engine.deployment.plan import DeploymentPlan, Edge, SidePlan, Zone
from engine.errors import IllegalCommand
from engine.event_data import SetUpData
from engine.events import EventLog
from engine.game_state import GameState
from engine.orders import check_set_down
from engine.profiles import Special
from engine.referee_prep import deployment_zone
from engine.rules.scenario import breakthrough_spacing_on, units_on_table_at_start
from engine.scenarios.book import Scenario
from engine.state import Point, Unit
from engine.tables.scenario_ground import may_stand
from engine.view import IN_SECRET
from engine.wording import counted, side_name


def _counted(unit: Unit) -> bool:
    """Units count by number, transports aside (pp. 28-30); sniper teams follow their own
    deployment rule (p. 20) and dummy markers are not units (p. 26)."""
    return not (unit.profile.has(Special.TRANSPORT) or unit.profile.has(Special.SNIPER) or unit.dummy)


def attackers_third(state: GameState, start_line: Edge) -> float:
    """How deep the attacker's third of the table runs from his start line, where the defender
    may not set up in Breakthrough (p. 31)."""
    return (state.table.depth if start_line in ("near", "far") else state.table.width) / 3


def plan_deployment(
    state: GameState,
    scenario: Scenario,
    roles: dict[str, str],
    *,
    plotted: bool = False,
    areas: DeploymentAreas = "edges",
) -> DeploymentPlan:
    """Each side's area and share of the table under the scenario (pp. 28-31), its areas shaped
    as ``areas`` (:mod:`engine.deployment.areas`; a defender's is measured from the attacker's
    edge whatever the shape of the attacker's start line)."""
    check_areas_allowed(scenario.title, scenario.deployment_areas, areas)
    by_role = {role: side for side, role in roles.items()}
    attacker = by_role.get("attacker")
    first_side = attacker or by_role.get("first") or sorted(roles)[0]
    plans = {}
    for side, role in roles.items():
        own: Edge = state.sides[side].entry_edge
        spans = deployment_area_spans(areas, state.table, own, state.terrain, first=side == first_side)
        units = [u for u in state.units_of(side) if not u.destroyed]
        share = scenario.on_table_at_start[role]
        limit = units_on_table_at_start(sum(1 for u in units if _counted(u)), share)
        spacing = 0.0
        if role == "defender" and attacker is not None:
            start_line: Edge = state.sides[attacker].entry_edge
            nearest = scenario.defender_distance_from_start_line or 0.0
            if scenario.defender_clear_of_attacker_third:
                nearest = max(nearest, attackers_third(state, start_line))
            if scenario.defenders_apart:
                spacing = breakthrough_spacing_on(state.table.width, state.table.depth)
            zone = Zone(edge=start_line, nearest=nearest)
        else:
            zone = Zone(
                edge=own,
                furthest=scenario.deployment_area_depth,
                within_one_move=scenario.deploy_within_one_move,
                spans=spans,
            )
        hiding = role == "defender" and "hidden_deployment" in scenario.special_rules
        plans[side] = SidePlan(
            zone=zone,
            waiting=[u.id for u in units if not u.in_reserve],
            on_table_limit=limit,
            spacing=spacing,
            # p. 30: the defender deploys all of his hidden markers
            may_hold_back=scenario.reserves_from_turn is not None and not hiding,
            under_markers=hiding,
        )
    order = (
        "defender_first" if scenario.deployment != "alternating" else "plotted" if plotted else "alternating"
    )
    first = by_role.get("defender") or by_role.get("first") or sorted(roles)[0]
    return DeploymentPlan(sides=plans, order=order, first=first)


def room_on_table(state: GameState, side: str) -> int:
    """How many more units counted against the side's share of the table (pp. 28-30) it may set up."""
    mine = _plan(state).sides[side]
    on_table = [u for u in state.units_of(side) if u.on_table and u.id not in mine.waiting]
    return max(0, mine.on_table_limit - sum(1 for u in on_table if _counted(u)))


def may_still_set_up(state: GameState, side: str) -> list[str]:
    """The side's waiting units it may set up now: a unit counted against its share of the table
    (pp. 28-30) only while the side has room for another; transports, sniper teams and dummy
    markers whatever its share."""
    room = room_on_table(state, side)
    return [u for u in _plan(state).sides[side].waiting if room > 0 or not _counted(state.units[u])]


def still_to_place(state: GameState, side: str) -> int:
    """How many more of its waiting units the side may set up: as many counted ones as its share
    of the table has room for, and every transport, sniper team and dummy marker."""
    waiting = [state.units[u] for u in _plan(state).sides[side].waiting]
    counted_units = sum(1 for u in waiting if _counted(u))
    return min(counted_units, room_on_table(state, side)) + len(waiting) - counted_units


def _note_room(state: GameState, side: str) -> None:
    """Whether the side is at its share of the table, nothing left it may set up (see whose_turn)."""
    mine = _plan(state).sides[side]
    mine.full = bool(mine.waiting) and not may_still_set_up(state, side)


def whose_turn(plan: DeploymentPlan) -> str | None:
    """The side to place the next unit: turn about, or the defender until it is done. In a
    plotted deployment either side may place; the first still busy is named. Turn about, a side
    at its share of the table (``full``) has no turn while the other may still set a unit up: it
    can only say it is done, and the other goes on (the defender who sets up first says so before
    the attacker begins)."""
    open_sides = [side for side, p in plan.sides.items() if not p.done]
    if not open_sides:
        return None
    if plan.order == "plotted":
        return open_sides[0]
    if plan.order == "defender_first":
        return plan.first if plan.first in open_sides else open_sides[0]
    placing = [side for side in open_sides if not plan.sides[side].full] or open_sides
    if plan.last is None:
        return plan.first if plan.first in placing else placing[0]
    if len(placing) == 1:
        return placing[0]
    return next(side for side in placing if side != plan.last)


def place_unit(
    state: GameState,
    side: str,
    unit_id: str,
    at: Point,
    facing: float,
    log: EventLog,
    decoy: Point | None = None,
) -> None:
    """Set one unit up; refuses anything the scenario does not allow. A sniper team goes
    anywhere, hidden, with its dummy marker at ``decoy`` (p. 20); under hidden deployment every
    other unit goes down as a numbered marker (p. 26). A unit already set up is set up again
    (:func:`set_up_again`)."""
    plan = _plan(state)
    mine = plan.sides[side]
    unit = state.units[unit_id]
    again = unit.on_table and unit_id not in mine.waiting
    if unit_id in mine.waiting and unit_id not in may_still_set_up(state, side):  # whoever's turn it is
        raise IllegalCommand(
            f"{side_name(side, start=True)} may start with at most {mine.on_table_limit} units on the table"
        )
    if not (again and set_up_again(state, side, unit_id)):
        turn = whose_turn(plan)
        if plan.order == "plotted" and not mine.done:
            turn = side
        if turn != side:
            raise IllegalCommand(
                f"It is {side_name(turn)}' turn to set up a unit" if turn else "Deployment is over"
            )
    if unit_id not in mine.waiting and not again:
        raise IllegalCommand(f"{unit.name} is not waiting to be set up")
    sniper = unit.profile.has(Special.SNIPER)
    on_table = [
        u for u in state.units_of(side) if u.on_table and u.id not in mine.waiting and u.id != unit_id
    ]
    for point in (at, decoy) if decoy else (at,):
        if not (0 <= point.x <= state.table.width and 0 <= point.y <= state.table.depth):
            raise IllegalCommand(f"{point} is off the table")
    if sniper != (decoy is not None):
        raise IllegalCommand(
            f"A sniper team sets up with a dummy marker: give {unit.name} a decoy point"
            if sniper
            else "Only a sniper team sets up with a decoy marker"
        )
    zone = deployment_zone(state, side) or mine.zone  # the referee's zone, if drawn (p. 25)
    problem = None if sniper else zone.problem(unit, at, state.table)
    if problem:
        raise IllegalCommand(problem)
    placed = unit.model_copy(update={"position": at, "facing": facing})
    if not sniper and not may_stand(placed, state.terrain):
        raise IllegalCommand(f"{unit.name} cannot stand at {at}: the ground there is impassable to it (p. 9)")
    check_set_down(state, placed, at)
    for other in [] if sniper else on_table:
        gap = geometry.distance(placed, other)
        if gap < mine.spacing:
            raise IllegalCommand(f'{unit.name} must be {mine.spacing:g}" from {other.name} ({gap:.1f}" here)')
    unit.position, unit.facing, unit.in_reserve = at, facing, False
    if not again:
        mine.waiting.remove(unit_id)
        plan.placed += 1
    plan.last = side
    plan.set_up = [*(u for u in plan.set_up if u != unit_id), unit_id]
    if not mine.waiting:
        mine.done = True
    _note_room(state, side)
    set_up = SetUpData(unit=unit.id, at=at)
    sets_up, instead = f"{side_name(side, start=True)} set up", " instead" * again  # a unit set up again
    if again and unit.marker is not None:  # under its marker still: the marker moves
        log.emit(
            "deploy",
            f"{sets_up} {unit.true_name} as {unit.name} at {at}{instead}",
            side=side,
            data=set_up.model_copy(update={"marker": unit.name}),
            kept=IN_SECRET,
        )
    elif sniper:
        unit.hidden, unit.decoy = True, decoy
        log.emit(
            "deploy",
            f"{sets_up} {unit.name} at {at}, its dummy at {decoy}{instead}",
            side=side,
            data=set_up.model_copy(update={"decoy": decoy}),
            kept=IN_SECRET,
        )
    elif mine.under_markers:
        name = unit.name
        hide_under_marker(state, unit)
        log.emit(
            "deploy",
            f"{side_name(side, start=True)} set up {name} as {unit.name} at {at}",
            side=side,
            data=set_up.model_copy(update={"marker": unit.name}),
            kept=IN_SECRET,
        )
    elif plan.order == "plotted":
        unit.hidden = True  # until both sides are done (p. 28)
        log.emit(
            "deploy",
            f"{sets_up} {unit.name} at {at}{instead}",
            side=side,
            data=set_up,
            kept=IN_SECRET,
        )
    else:
        log.emit("deploy", f"{sets_up} {unit.name} at {at}{instead}", unit.id, side=side, data=set_up)


def set_up_again(state: GameState, side: str, unit_id: str) -> bool:
    """A unit already set up may be set up again, elsewhere: a mistake put right (our own rule,
    issue 32; the pages give set-up no undo), until its side is done setting up (refused after).
    True for the unit set up last, put right at once, whoever's turn it is now; False for
    another, which is set up again on the side's own turn only, taking it as a new unit would."""
    plan = _plan(state)
    name = state.units[unit_id].name
    if plan.sides[side].done:
        raise IllegalCommand(
            f"{side_name(side, start=True)} have finished setting up: {name} stays where it is"
        )
    return plan.set_up[-1:] == [unit_id]


def reveal_plotted_deployment(state: GameState, log: EventLog) -> None:
    """Both sides have plotted their set-up: everything but a sniper team's markers is shown."""
    for side in sorted(state.sides):
        shown = [u for u in state.units_of(side) if not (u.profile.has(Special.SNIPER) and u.on_table)]
        for unit in shown:
            unit.hidden = False
        placed = [u for u in shown if u.on_table]
        where = ", ".join(f"{u.name} at {u.position}" for u in placed) or "nothing"
        log.emit(
            "deploy",
            f"{side_name(side, start=True)}' plotted set-up: {where}",
            *(u.id for u in placed),
            side=side,
        )


def finish_deployment(state: GameState, side: str, player: str | None = None) -> str:
    """A side is done setting up; its remaining units wait in reserve (pp. 26-29). In a team game
    each player is done with their own units (p. 25: each commands the force they brought): the
    side is done once no player's unit waits."""
    plan = _plan(state)
    mine = plan.sides[side]
    if mine.done:
        raise IllegalCommand(f"{side_name(side, start=True)} have already finished setting up")
    units = [u for u in mine.waiting if not state.units[u].dummy]
    theirs = [u for u in units if state.units[u].player not in (None, player)]
    if player is not None and state.sides[side].team is not None and theirs:
        return _finish_players_set_up(state, side, player, [u for u in units if u not in theirs], theirs)
    if units and not mine.may_hold_back:
        names = ", ".join(state.units[u].name for u in units)
        raise IllegalCommand(
            f"This scenario has no reserves: {side_name(side)} must set up every unit ({names})"
        )
    for unit_id in mine.waiting:
        if state.units[unit_id].dummy:
            del state.units[unit_id]  # a dummy marker left unused is simply not put down
        else:
            state.units[unit_id].in_reserve = True
    held = len(units)
    mine.waiting, mine.done = [], True
    state.sides[side].reserves_at_start = sum(1 for u in state.units_of(side) if u.in_reserve)
    return f"{side_name(side, start=True)} have finished setting up" + (
        f"; {counted(held, 'unit')} held in reserve" if held else ""
    )


def _finish_players_set_up(
    state: GameState, side: str, player: str, own: list[str], theirs: list[str]
) -> str:
    """One team-mate is done setting up: their own units not set up wait in reserve, while the
    others' still wait to be set up, or for their players to be done."""
    mine = _plan(state).sides[side]
    if own and not mine.may_hold_back:
        names = ", ".join(state.units[u].name for u in own)
        raise IllegalCommand(f"This scenario has no reserves: set up every one of your units ({names})")
    for unit_id in own:
        state.units[unit_id].in_reserve = True
        mine.waiting.remove(unit_id)
    players = dict.fromkeys(state.units[u].player or "" for u in theirs)
    held = f"; {counted(len(own), 'unit')} held in reserve" if own else ""
    return (
        f"{player} has finished setting up{held}. {side_name(side, start=True)} are still setting up: "
        f"{', '.join(players)} to set up their units, or say /deploy done"
    )


def _plan(state: GameState) -> DeploymentPlan:
    if state.deployment is None:
        raise IllegalCommand("This game has no deployment to make")
    return state.deployment
