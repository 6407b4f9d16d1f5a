"""The end-of-game summary: for each side its losses, break points, objectives; and the turns."""

from __future__ import annotations

from engine.battlefield import lost_break_points
from engine.game_state import GameState
from engine.wording import counted, side_label


def game_summary(state: GameState) -> str:
    """A few lines a player can read when the game ends."""
    lines = [f"After {counted(state.turn, 'turn')}:"]
    for name in sorted(state.sides):
        side = state.sides[name]
        lost = [u.name for u in state.units_of(name) if u.destroyed and not u.dummy]
        held = [o.id for o in state.objectives if o.held_by == name and o.side is None]  # none secret
        lines.append(
            f"{side_label(name)}: lost {counted(len(lost), 'unit')}"
            + (f" ({', '.join(lost)})" if lost else "")
            + f", {lost_break_points(state, name)} BP of a break point of {side.break_point}"
            + (f", holds {', '.join(held)}" if held else "")
        )
    return "\n".join(lines)
