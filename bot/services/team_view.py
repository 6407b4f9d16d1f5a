"""What ``/team`` shows: who commands what on each side, tokens per player, pending requests."""

from __future__ import annotations

from bot.reply import Line, Mention, Reply, Strong
from engine.game_state import GameState
from engine.view import knows_secrets_of, name_for, sees
from engine.wording import counted, side_label


def team_text(state: GameState, viewer: str | None) -> Reply:
    """Each side's players (as mentions), its CO and their tokens in hand. A side's hidden units
    and reserves, its requests for reserves and the CO's bonus still to give are told only to that
    side and the referees."""
    if state.team_size is None:
        raise ValueError("This is not a team game")
    lines: list[Line] = []
    for name, side in state.sides.items():
        team = side.team
        assert team is not None
        lines.append((Strong(side_label(name)), f" ({len(side.players)} of {state.team_size} players)"))
        for player in side.players:
            own = [u for u in state.units_of(name) if u.player == player and not u.destroyed]
            theirs = knows_secrets_of(name, viewer)
            if not theirs:  # the enemy sees only what stands in the open
                own = [u for u in own if u.on_table and sees(u, viewer)]
            units = [name_for(u, viewer) for u in own]
            co = " (CO)" if player == team.co else ""
            tokens, commands = team.tokens.get(player, 0), ", ".join(units) or "no units"
            lines.append(("  ", Mention(player), f"{co}: {counted(tokens, 'token')}; {commands}"))
        if knows_secrets_of(name, viewer):
            if team.bonus:
                lines.append((f"  bonus tokens still to hand out: {team.bonus} (/team give)",))
            lines.extend(
                (
                    "  ",
                    Mention(r.player),
                    f" asks for {state.units[r.unit].name} (/team grant or /team refuse)",
                )
                for r in team.requests
            )
    if state.referees:
        referees = [
            piece for i, r in enumerate(state.referees) for piece in ((", ",) if i else ()) + (Mention(r),)
        ]
        lines.append(("Referees: ", *referees))
    return Reply(tuple(lines))
