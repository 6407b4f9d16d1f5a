"""A throwaway action for one test only (never production): standing fast, offered by a rule set
of its own. It is written the way a rule set's package adds an action (issue 20's walkthrough):
its command, its :class:`~engine.actions.base.ActionType` with the option of ``/act`` that asks
for it, and the rule set that lists it. Importing this module registers all three."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from engine.actions.base import ActionType, OrderOption, Turn
from engine.commands import BaseAction
from engine.game_state import GameState
from engine.rulesets import RuleSet, register_rule_set


class StandFast(BaseAction):
    """Hold the ground where the unit stands."""

    kind: Literal["stand_fast"] = "stand_fast"


class StandFastAction(ActionType[StandFast]):
    name = "stand_fast"
    command = StandFast
    what = "Standing fast"
    options = (OrderOption("stand_fast", "flag", "Hold the ground where the unit stands", default=False),)
    place = 95

    def from_options(self, given: Mapping[str, Any]) -> StandFast | None:
        return StandFast() if given["stand_fast"] else None

    def execute(self, turn: Turn, action: StandFast) -> bool:
        turn.log.emit("stand_fast", f"{turn.unit.name} stands fast", turn.unit.id, side=turn.unit.side)
        return True

    def describe(self, state: GameState, action: StandFast) -> str:
        return "stand fast"


class Steadfast(RuleSet):
    name = "steadfast"
    title = "Steadfast"
    actions = (*RuleSet.actions, "stand_fast")


register_rule_set(Steadfast())
