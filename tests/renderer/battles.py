"""Short scripted battles whose every activation is known: a shot and a move (2015 rules), a
shell that strays from its fire marker and a close combat (House Rules V1.0, s. 5 and 6)."""

from __future__ import annotations

from engine.commands import Fire, Move
from engine.dice import d6, d10
from engine.scenarios.new_game import make_unit
from engine.state import TableSize
from engine.story import Moment, Storyteller
from engine.variants.house_v1.commands import Bombard, CloseCombat, RequestFire
from tests.engine.helpers import P, game, started
from tests.engine.test_house_rules_flow import battery, melee
from tests.renderer.scenes import Log

AIM = P(20, 40)  # the fire marker's spot
LANDED = P(18, 40)  # a d10 of 6 strays toward the left edge, by the d6 of 2
FIGHT = P(30, 13)  # where Tommies (30, 12 once in contact) and Gruppe (30, 14) meet


def moments(log: Log) -> list[Moment]:
    return list(Storyteller(log.start, log.history).moments())


def fire_and_move() -> Log:
    """A Sherman's shot destroys a Panzer IV (Kaboom, p. 12); then a rifle squad moves 4"."""
    log = Log(
        started(
            game(
                make_unit(
                    "us", "Sherman 75mm", "allies", (30, 10), facing=90, unit_id="sherman", name="Sherman"
                ),
                make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="gis", name="Rifle Squad"),
                make_unit(
                    "german",
                    "Panzer IV G (late) to J",
                    "axis",
                    (30, 30),
                    facing=270,
                    unit_id="pz",
                    name="Panzer IV",
                ),
                table=TableSize(width=72, depth=48),
            ),
            "allies",
        )
    )
    log.act("allies", "sherman", Fire(target="pz"), faces=[d10(5), d10(8), d6(6)])
    log.act("allies", "gis", Move(path=(P(14, 10),)))
    return log


def named(state, **names):
    state = state.fork()
    for uid, name in names.items():
        state.units[uid].name = name
    return state


def shelled() -> Log:
    """The company command calls for fire on a German squad; the mortar's shell strays 2" to
    the left and the squad, 2" from it, takes a marker (s. 5)."""
    log = Log(named(battery(), hq="Company HQ", mortar="Mortar", gruppe="Gruppe"))
    log.act("allies", "hq", RequestFire(at=AIM), faces=[d10(5)])
    log.state.units["hq"].tokens = 0  # (spare the mortar a reactivation test)
    log.act("allies", "mortar", Bombard(), faces=[d10(6), d6(2), d6(5)])
    return log


def charged() -> Log:
    """Tommies charge Gruppe at once: two rounds, Gruppe takes 5 markers and Tommies 2, and
    Tommies fall back (s. 6)."""
    log = Log(named(melee(), tommies="Tommies", gruppe="Gruppe"))
    faces = [
        d6(3),  # initiation
        *(d10(5), d10(2), d6(4)),  # round 1: Gruppe, 2 markers
        *(d10(7), d10(8), d6(1), d6(4)),  # Tommies, 2 markers
        *(d10(1), d10(1)),  # round 2: Gruppe misses
        *(d10(9), d10(7), d6(6), d6(6)),  # Tommies, 3 markers
    ]
    log.act("allies", "tommies", CloseCombat(target="gruppe"), faces=faces)
    return log
