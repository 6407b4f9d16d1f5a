"""Two throwaway actions for one test only (never production), offered by a rule set of their
own and written the way a rule set's package adds an action: taking cover, which a reaction may
be given too and which has a tap button, and digging in, which has a tap button but is no
reaction. Importing this module registers both and the rule set."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from engine.actions.base import ActionType, OrderOption, TapButton, Turn
from engine.commands import BaseAction
from engine.game_state import GameState
from engine.rulesets import RuleSet, register_rule_set


class TakeCover(BaseAction):
    """Get down where the unit stands."""

    kind: Literal["take_cover"] = "take_cover"


class DigIn(BaseAction):
    """Dig in where the unit stands."""

    kind: Literal["dig_in"] = "dig_in"


class TakeCoverAction(ActionType[TakeCover]):
    name = "take_cover"
    command = TakeCover
    what = "Taking cover"
    options = (
        OrderOption(
            "take_cover",
            "flag",
            "Get down where the unit stands",
            default=False,
            reacts=True,
            tap=TapButton("Take cover"),
        ),
    )
    place = 96

    def from_options(self, given: Mapping[str, Any]) -> TakeCover | None:
        return TakeCover() if given["take_cover"] else None

    def execute(self, turn: Turn, action: TakeCover) -> bool:
        turn.log.emit("take_cover", f"{turn.unit.name} gets down", turn.unit.id, side=turn.unit.side)
        return True

    def describe(self, state: GameState, action: TakeCover) -> str:
        return "take cover"


class DigInAction(ActionType[DigIn]):
    name = "dig_in"
    command = DigIn
    what = "Digging in"
    options = (
        OrderOption("dig_in", "flag", "Dig in where the unit stands", default=False, tap=TapButton("Dig in")),
    )
    place = 97

    def from_options(self, given: Mapping[str, Any]) -> DigIn | None:
        return DigIn() if given["dig_in"] else None

    def execute(self, turn: Turn, action: DigIn) -> bool:
        turn.log.emit("dig_in", f"{turn.unit.name} digs in", turn.unit.id, side=turn.unit.side)
        return True

    def describe(self, state: GameState, action: DigIn) -> str:
        return "dig in"


class Cautious(RuleSet):
    name = "cautious"
    title = "Cautious"
    actions = (*RuleSet.actions, "take_cover", "dig_in")


register_rule_set(Cautious())
