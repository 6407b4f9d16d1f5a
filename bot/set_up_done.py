"""Saying a side is done setting up (Iron Cross 2015, pp. 26-29; issue 32): every unit still
waiting goes into reserve at once, so while the side may still set units up, the step is to be
confirmed first. The builder (``/deploy done``, the card's Done setting up) refuses it with
:class:`ConfirmFirst`; Discord asks its question with Confirm and Cancel buttons, the console
as the second command to type, ``/deploy done confirm:true``."""

from __future__ import annotations

from bot.services.game_service import GameError
from engine.commands import FinishDeployment
from engine.deployment.placing import still_to_place
from engine.game_state import GameState
from engine.wording import counted, side_name

CONFIRM = "/deploy done confirm:true"


class ConfirmFirst(GameError):
    """A step to be confirmed before it is taken: the question, and the side it is for."""

    def __init__(self, question: str, side: str) -> None:
        super().__init__(question)
        self.question, self.side = question, side


def finish_set_up(state: GameState, side: str, *, confirmed: bool) -> FinishDeployment:
    """The side is done setting up; unless ``confirmed``, refused with the question while it
    could still set up a unit and some would go into reserve (the engine refuses what the
    scenario does not allow, as ever)."""
    plan = state.deployment
    mine = plan.sides.get(side) if plan is not None else None
    if mine is not None and not confirmed and not mine.done and mine.may_hold_back:
        held = sum(1 for u in mine.waiting if not state.units[u].dummy)
        room = still_to_place(state, side)
        if held and room:
            raise ConfirmFirst(
                f"{side_name(side, start=True)} may still set up {counted(room, 'unit')}. Done now, all "
                f"{counted(held, 'unit')} still waiting go into reserve at once: to do so, {CONFIRM}",
                side,
            )
    return FinishDeployment(side=side)
