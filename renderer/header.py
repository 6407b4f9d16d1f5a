"""The header line: turn, phase and who acts, the rule set and whose picture it is."""

from __future__ import annotations

from engine.game_state import GameState
from engine.state import Phase
from engine.view import REFEREE
from renderer import palette as pal
from renderer.canvas import Canvas, fit_text, text_width
from renderer.layout import HEADER_FONT, HEADER_H, MARGIN, Frame

GAP = 14


def phase_text(state: GameState) -> str:
    if state.result is not None or state.phase is Phase.OVER:
        if state.result is None:
            return "Game over"
        winner = f"{state.result.winner} won" if state.result.winner else "a draw"
        return f"Game over: {winner} ({state.result.reason})"
    if state.phase is Phase.SETUP:
        return "Setting up"
    if state.phase is Phase.INITIATIVE:
        return f"Initiative: {state.initiative_winner} chooses"
    pending = state.pending
    if state.phase is Phase.REACTION and pending is not None:
        return f"{pending.reactor_side} may react to {pending.side}"
    if state.phase is Phase.CHOICE and pending is not None and pending.choice is not None:
        return f"{pending.choice.side} must choose"
    return f"{state.active_side} to act" if state.active_side else state.phase.value


def turn_text(state: GameState) -> str:
    if state.turn == 0:
        return "Before turn 1"
    return f"Turn {state.turn}" + (f"/{state.last_turn}" if state.last_turn else "")


def audience_text(viewer: str | None) -> str:
    if viewer is None:
        return "spectators"
    return "referee" if viewer == REFEREE else f"{viewer} view"


def draw_header(canvas: Canvas, state: GameState, frame: Frame, viewer: str | None) -> None:
    """Turn and status on the left; the rule set and whose picture this is on the right (the
    sides, their colours and tokens head the roster)."""
    y = HEADER_H / 2
    right = frame.size[0] - MARGIN
    corner = f"{state.ruleset} | {audience_text(viewer)}"
    canvas.text((right, y), corner, size=HEADER_FONT, fill=pal.MUTED_INK, anchor="rm")
    room = right - text_width(corner, HEADER_FONT) - GAP - MARGIN
    status = fit_text(f"{turn_text(state)} | {phase_text(state)}", HEADER_FONT, room)
    canvas.text((MARGIN, y), status, size=HEADER_FONT, anchor="lm")
