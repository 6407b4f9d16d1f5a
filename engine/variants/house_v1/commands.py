"""The commands only the House Rules V1.0 have: the actions of close combat (s. 6), buildings
(s. 4 and 5) and indirect fire (s. 5), and the choices a close combat waits for (s. 6). Each
adds itself to :data:`engine.commands.ACTION_KINDS` or :data:`engine.commands.COMMAND_KINDS` as
it is written, so stored games and orders read them like the 2015 ones."""

from __future__ import annotations

from typing import Literal

from engine.commands import BaseAction, BaseCommand
from engine.state import Point


class CloseCombat(BaseAction):
    """Assault an enemy within 3" (House Rules V1.0, s. 6): the last action of an activation."""

    kind: Literal["close_combat"] = "close_combat"
    target: str
    overrun: bool = True  # an AFV overrunning: drive through after the round, or else fall back (s. 6)


class EnterBuilding(BaseAction):
    """Go into a building, as into a transport (House Rules V1.0, s. 4)."""

    kind: Literal["enter_building"] = "enter_building"
    building: str


class LeaveBuilding(BaseAction):
    """Come out of the building to this point, as out of a transport (House Rules V1.0, s. 4)."""

    kind: Literal["leave_building"] = "leave_building"
    to: Point


class ShellBuilding(BaseAction):
    """Medium or heavy HE fired at a building as a whole (House Rules V1.0, s. 5 Buildings)."""

    kind: Literal["shell_building"] = "shell_building"
    building: str


class RequestFire(BaseAction):
    """A spotter calls indirect fire onto a spot it can see (House Rules V1.0, s. 5): its whole
    activation."""

    kind: Literal["request_fire"] = "request_fire"
    at: Point


class Bombard(BaseAction):
    """A mortar, infantry gun or howitzer fires indirectly at its side's fire marker (House
    Rules V1.0, s. 5)."""

    kind: Literal["bombard"] = "bombard"
    smoke: bool = False  # a smoke round: a 2" puff where it lands


class ChooseFallBack(BaseCommand):
    """After the first round of close combat: a defending soft or open-topped vehicle falls
    back, or fights the second round (House Rules V1.0, s. 6)."""

    kind: Literal["choose_fall_back"] = "choose_fall_back"
    side: str
    fall_back: bool


class ChooseDefender(BaseCommand):
    """The unit inside a building that meets an assault on it, chosen by its side among those
    that may (House Rules V1.0, s. 6 Attacking buildings)."""

    kind: Literal["choose_defender"] = "choose_defender"
    side: str
    unit: str
