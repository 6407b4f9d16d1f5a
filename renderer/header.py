"""The header line: turn, phase and who acts, the rule set and whose picture it is; at a game's
end a second line says why it ended; a replay's frame adds the caption of what it shows. Sides
are named as every sentence names them (engine.wording)."""

from __future__ import annotations

from engine.game_state import GameState
from engine.rulesets import rules_of
from engine.state import Phase
from engine.view import REFEREE
from engine.wording import side_label, side_name
from renderer import palette as pal
from renderer.canvas import Canvas, fit_text, text_width
from renderer.layout import HEADER_FONT, HEADER_H, MARGIN, Frame

GAP = 14
CAPTION_FONT = 32  # a replay frame's caption: capitals 9 px tall even in a GIF shown 400 px wide


def phase_text(state: GameState) -> str:
    if state.result is not None or state.phase is Phase.OVER:
        if state.result is None:
            return "Game over"
        winner = f"{side_name(state.result.winner)} win" if state.result.winner else "a draw"
        return f"Game over: {winner}"
    if state.phase is Phase.SETUP:
        return "Setting up"
    if state.phase is Phase.INITIATIVE and state.initiative_winner:
        return f"Initiative: {side_name(state.initiative_winner, start=True)} choose"
    pending = state.pending
    if state.phase is Phase.REACTION and pending is not None:
        return f"{side_name(pending.reactor_side, start=True)} may react to {side_name(pending.side)}"
    if state.phase is Phase.CHOICE and pending is not None and pending.choice is not None:
        return f"{side_name(pending.choice.side, start=True)} must choose"
    return f"{side_name(state.active_side, start=True)} to act" if state.active_side else state.phase.value


def reason_text(state: GameState) -> str | None:
    """Why the game ended, for the header's second line (None while it goes on)."""
    if state.result is None or not state.result.reason:
        return None
    reason = state.result.reason
    return reason[0].upper() + reason[1:]


def header_lines(state: GameState) -> int:
    return 1 if reason_text(state) is None else 2


def turn_text(state: GameState) -> str:
    if state.turn == 0:
        return "Before turn 1"
    return f"Turn {state.turn}" + (f"/{state.last_turn}" if state.last_turn else "")


def audience_text(viewer: str | None) -> str:
    if viewer is None:
        return "spectators"
    return "referee" if viewer == REFEREE else f"{side_label(viewer)} view"


def draw_header(canvas: Canvas, state: GameState, frame: Frame, viewer: str | None) -> None:
    """Turn and status on the left; the rule set and whose picture this is on the right (the
    sides, their colours and tokens head the roster)."""
    y = HEADER_H / 2
    right = frame.size[0] - MARGIN
    corner = f"{rules_of(state).title} | {audience_text(viewer)}"
    canvas.text((right, y), corner, size=HEADER_FONT, fill=pal.MUTED_INK, anchor="rm")
    room = right - text_width(corner, HEADER_FONT) - GAP - MARGIN
    status = fit_text(f"{turn_text(state)} | {phase_text(state)}", HEADER_FONT, room)
    canvas.text((MARGIN, y), status, size=HEADER_FONT, anchor="lm")
    reason = reason_text(state)
    if reason is not None:
        canvas.text(
            (MARGIN, y + HEADER_H),
            fit_text(reason, HEADER_FONT, right - MARGIN),
            size=HEADER_FONT,
            anchor="lm",
        )


def caption_lines(text: str, room: float, lines: int) -> list[str]:
    """The caption in at most ``lines`` lines of ``room`` pixels, broken between words, the
    last cut short with "..." if the words run on past it. (Measured without the text cache:
    a caption is seldom drawn twice.)"""
    width = pal.font(CAPTION_FONT).getlength
    space = width(" ")
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines:
        line, used = words[0], width(words.pop(0))
        while words and used + space + (more := width(words[0])) <= room:
            line, used = f"{line} {words.pop(0)}", used + space + more
        out.append(line)
    if words:  # the next word did not fit on the last line
        out[-1] = fit_text(f"{out[-1]} {words[0]}", CAPTION_FONT, room)
    return [fit_text(line, CAPTION_FONT, room) for line in out]


def draw_caption(canvas: Canvas, frame: Frame, text: str, first_line: int) -> None:
    """A caption on the header's lines from ``first_line`` (0 is the first) to the last."""
    right = frame.size[0] - MARGIN
    for n, line in enumerate(caption_lines(text, right - MARGIN, frame.header_lines - first_line)):
        y = HEADER_H * (first_line + n) + HEADER_H / 2
        canvas.text((MARGIN, y), line, size=CAPTION_FONT, anchor="lm")
