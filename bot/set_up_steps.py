"""What a game in set-up still needs, and the command (or button) that gives it, said under every
set-up message at the console and in Discord; and how someone who plays no side joins one."""

from __future__ import annotations

from engine.deployment.placing import still_to_place, whose_turn
from engine.game_state import GameState
from engine.state import Phase
from engine.wording import counted, side_name


def open_sides(state: GameState) -> list[str]:
    """The sides a newcomer may still join: before set-up begins, those short of players (one
    each, or the team game's number)."""
    if state.phase is not Phase.SETUP or state.deployment is not None:
        return []
    wanted = state.team_size or 1
    return [name for name, side in state.sides.items() if len(side.players) < wanted]


def _joins(state: GameState, sides: list[str]) -> str:
    force = " force:NAME" if state.planned_scenario is not None else ""  # a scenario brings forces
    return " or ".join(f"/game join side:{name}{force}" for name in sides)


def how_to_join(state: GameState) -> str:
    """For someone who plays no side: the command that joins one, or why none can be joined."""
    sides = open_sides(state)
    if not sides:
        return "You are not playing in this game, and no side can be joined now: watch with /game status"
    return f"You are not playing in this game: join with {_joins(state, sides)}"


def _at_share(state: GameState, side: str) -> str:
    """A side with as many units on the table as it may start with (pp. 28-30)."""
    mine = state.deployment.sides[side]  # type: ignore[union-attr]
    held = counted(len(mine.waiting), "unit")
    return (
        f"{side_name(side, start=True)} have as many units on the table as they may start with "
        f"({mine.on_table_limit}): /deploy done sends the other {held} to reserve"
    )


def _still_to_place(state: GameState, side: str) -> str:
    """How many units the side may still set up, and how many of those waiting go to reserve."""
    waiting = len(state.deployment.sides[side].waiting)  # type: ignore[union-attr]
    placing = still_to_place(state, side)
    held = f", {waiting - placing} more to reserve" if placing < waiting else ""
    return f"{side_name(side)}: {counted(placing, 'unit')} to place{held}"


def set_up_steps(state: GameState, *, buttons: bool = False) -> str | None:
    """During set-up, what is still missing and how to give it (``buttons``: the quick battle's
    Join and Start buttons too, in Discord); None once the game is under way."""
    if state.phase is not Phase.SETUP:
        return None
    tap = buttons and state.deployment is None and state.planned_scenario is None
    plan = state.deployment
    if plan is not None:
        placing = [s for s, p in plan.sides.items() if not p.done] if plan.order == "plotted" else []
        placing = placing or [side for side in [whose_turn(plan)] if side]
        if not placing:
            return "Both sides have set up: /game start begins the battle"
        if all(plan.sides[side].full for side in placing):
            return "; ".join(_at_share(state, side) for side in placing)
        left = "; ".join(_still_to_place(state, side) for side in placing)
        return f"To set up ({left}): /deploy unit:NAME at:X,Y, then /deploy done"
    sides = open_sides(state)
    if sides:
        named = " and ".join(side_name(side) for side in sides)
        alone = state.planned_scenario is None and not any(side.players for side in state.sides.values())
        return (
            f"Still to join, {named}: {_joins(state, sides)}"
            + " (or tap Join)" * tap
            + "; or /game start at once to play both sides yourself" * alone
        )
    return "Both sides have players: /game start rolls for the initiative" + " (or tap Start)" * tap
