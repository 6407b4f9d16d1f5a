"""What ``/team`` shows: who commands what on each side, tokens per player, pending requests."""

from __future__ import annotations

from engine.events import REFEREE
from engine.game_state import GameState


def team_text(state: GameState, viewer: str | None) -> str:
    """Each side's players, its CO and their tokens in hand. A side's hidden units and reserves,
    its requests for reserves and the CO's bonus still to give are told only to that side and
    the referees."""
    if state.team_size is None:
        raise ValueError("This is not a team game")
    lines = []
    for name, side in state.sides.items():
        team = side.team
        assert team is not None
        lines.append(f"**{name}** ({len(side.players)} of {state.team_size} players)")
        for player in side.players:
            own = [u for u in state.units_of(name) if u.player == player and not u.destroyed]
            if viewer not in (name, REFEREE):  # the enemy sees only what stands in the open
                own = [u for u in own if u.on_table and not u.hidden]
            units = (
                [u.true_name or u.name for u in own] if viewer in (name, REFEREE) else [u.name for u in own]
            )
            co = " (CO)" if player == team.co else ""
            tokens = team.tokens.get(player, 0)
            lines.append(
                f"  {player}{co}: {tokens} token{'s' * (tokens != 1)}; {', '.join(units) or 'no units'}"
            )
        if viewer in (name, REFEREE):
            if team.bonus:
                lines.append(f"  bonus tokens still to hand out: {team.bonus} (/team give)")
            lines.extend(
                f"  {r.player} asks for {state.units[r.unit].name} (/team grant or /team refuse)"
                for r in team.requests
            )
    if state.referees:
        lines.append(f"Referees: {', '.join(state.referees)}")
    return "\n".join(lines)
