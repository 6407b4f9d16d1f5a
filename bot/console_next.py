"""The console's "Next:" line: what the game waits for (:mod:`bot.services.next_steps`), written
as the commands to type, so that whoever sits at the table always sees what to type next."""

from __future__ import annotations

from collections.abc import Sequence

from bot.services.next_steps import NextStep
from engine.names import either
from engine.wording import side_name

COMMANDS = {  # by the step's kind; {side}: the side it is for
    "join": "/game join side:{side}",
    "start": "/game start",
    "go_first": "/initiative start",
    "let_start": "/initiative pass",
    "reserves": "/reserves units:UNIT,...",
    "no_reserves": "/reserves units:none",
    "set_up": "/deploy unit:UNIT at:X,Y",
    "set_up_done": "/deploy done",
    "activate": "/act unit:UNIT ...",
    "cmt": "/cmt",
    "pass": "/pass",
    "react": "/react unit:UNIT ...",
    "no_reaction": "/noreact",
    "choose": "/choose unit:UNIT",
}
FALL_BACK_OR_FIGHT = "/choose close_combat:fall_back or /choose close_combat:fight_on"


def command(step: NextStep) -> str:
    """What to type to take the step."""
    if step.kind == "choose" and step.choice == "close_combat_fall_back":
        return FALL_BACK_OR_FIGHT
    return COMMANDS[step.kind].format(side=step.side)


def next_line(steps: Sequence[NextStep]) -> str | None:
    """``Next (the Axis): /act unit:UNIT ..., /cmt or /pass``: the commands for the steps, under
    the sides they are for (the sides that may take the same steps named together; none for the
    steps anyone at the table may take, as joining); None when the game waits for nothing."""
    by_side: dict[str | None, list[str]] = {}
    for step in (step for step in steps if not step.full):
        by_side.setdefault(None if step.kind == "join" else step.side, []).append(command(step))
    sides_of: dict[tuple[str, ...], list[str]] = {}
    for side, commands in by_side.items():
        sides_of.setdefault(tuple(commands), []).extend([side_name(side)] if side else [])
    parts = []
    for commands, sides in sides_of.items():
        whose = f" ({' and '.join(sides)})" if sides else ""
        parts.append(f"Next{whose}: {either(commands)}")
    return "; ".join(parts) or None
