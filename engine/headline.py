"""An activation's headline: who did what and what came of it, in a few words, as one audience may
know it (the caption of a replay's frame). It is made from the events' data, never from their
words: the turn, the side that declared, then each thing done in order: a move, a shot and its
result, a shell and where it landed, a close combat and the markers each side took, a unit lost,
a test failed. An event the audience is not told in full (:func:`engine.view.dice_shown`) adds
nothing, and a unit it may not know is "a hidden unit".
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from engine.event_data import DestroyedData, FireData, MoveData, RolledTest, TokensData
from engine.events import Event
from engine.game_state import GameState
from engine.story import Moment
from engine.view import Audience, dice_shown, sees
from engine.wording import counted, side_label

SIDE_TESTS = {"company morale test": "Company Morale Test"}  # a side's tests told, passed or not
LOST = ("knocked out", "destroyed", "explodes")  # a shot's fates that take its target out of play


def headline(moment: Moment, audience: Audience) -> str:
    """``Turn 2 · Axis: MG 42 fires at Sherman 2: 1 marker``; a moment of several activations
    (a long game's replay) says how many, over which turns."""
    told = [event for event in moment.events if dice_shown(event, audience)]
    declared = [e for e in moment.events if e.kind == "declare" and isinstance(e.data, TokensData)]
    first, last = moment.before.turn, moment.state.turn
    turn = f"Turn {first}" if first == last or len(declared) < 2 else f"Turns {first}-{last}"
    sides = list(dict.fromkeys(e.side for e in declared if e.side))
    who = side_label(sides[0]) if len(sides) == 1 else ""
    if len(declared) > 1:
        who = f"{counted(len(declared), 'activation')}" + (f" of the {who}" if who else "")
    clauses = list(_clauses(told, moment.state, audience))
    head = f"{turn} · {who}" if who else turn
    return f"{head}: {'; '.join(clauses)}" if clauses else head


def _clauses(events: list[Event], state: GameState, audience: Audience) -> Iterator[str]:
    def name(uid: str | None) -> str:
        unit = state.units.get(uid or "")
        return unit.name if unit is not None and sees(unit, audience) else "a hidden unit"

    said_lost: set[str] = set()
    fights: set[frozenset[str]] = set()
    for n, event in enumerate(events):
        data = event.data
        if isinstance(data, MoveData):
            went = "falls back" if data.fall_back else "moves"
            yield f'{name(data.unit)} {went} {round(data.distance, 1):g}"'
        elif isinstance(data, FireData) and data.in_contact:
            fight = frozenset((data.firer, data.target or ""))
            if fight not in fights:
                fights.add(fight)
                told, lost = _fight(events[n:], fight, events[:n], name)
                said_lost |= lost
                yield told
        elif isinstance(data, FireData) and data.indirect and data.target is None:
            yield _shell(data, name)
        elif isinstance(data, FireData) and data.indirect:
            yield f"{name(data.target)} {_markers(data.markers_placed)}"
        elif isinstance(data, FireData) and data.target is not None:
            if data.fate in LOST:
                said_lost.add(data.target)
            result = data.fate if data.fate in LOST else _result(data)
            yield f"{name(data.firer)} fires at {name(data.target)}: {result}"
        elif isinstance(data, DestroyedData) and data.unit not in said_lost:
            said_lost.add(data.unit)
            yield f"{name(data.unit)} is lost"
        elif isinstance(data, RolledTest):
            told = _test(data, name)
            if told:
                yield told


def _fight(after: list[Event], fight: frozenset[str], before: list[Event], name) -> tuple[str, set[str]]:
    """A close combat in one clause: who went in against whom, and the markers each took (or
    that one was lost) in all its rounds; and the units it lost."""
    volleys = [
        e.data
        for e in after
        if isinstance(e.data, FireData) and e.data.in_contact and {e.data.firer, e.data.target} == fight
    ]
    went_in = [
        e.data.unit
        for e in before
        if isinstance(e.data, RolledTest)
        and e.data.test == "close combat initiation"
        and e.data.unit in fight
    ]
    attacker = went_in[-1] if went_in else volleys[0].firer
    (defender,) = fight - {attacker} or {attacker}
    took = {uid: sum(v.markers_placed for v in volleys if v.target == uid) for uid in (defender, attacker)}
    lost = {e.data.unit for e in after if isinstance(e.data, DestroyedData) and e.data.unit in fight} | {
        v.target for v in volleys if v.fate in LOST
    }
    results = [
        f"{name(uid)} {'lost' if uid in lost else _markers(took[uid])}" for uid in (defender, attacker)
    ]
    return f"{name(attacker)} in close combat with {name(defender)}: {', '.join(results)}", lost


def _shell(shell: FireData, name) -> str:
    """Where an indirect shot landed: not at all, on its fire marker, or so far off it."""
    if shell.at is None:
        return f"{name(shell.firer)}'s shell fails"
    if shell.aim is None or shell.aim == shell.at:
        return f"{name(shell.firer)}'s shell lands on the marker"
    off = math.dist((shell.aim.x, shell.aim.y), (shell.at.x, shell.at.y))
    return f"{name(shell.firer)}'s shell strays {off:.0f}\" off the marker"


def _result(shot: FireData) -> str:
    if shot.markers_placed:
        return _markers(shot.markers_placed)
    if shot.to_hit is not None and not shot.to_hit.hits:
        return "miss"
    return "no effect"


def _markers(count: int) -> str:
    return f"+{counted(count, 'marker')}" if count else "no markers"


def _test(test: RolledTest, name) -> str:
    """A test worth a headline: a side's Company Morale Test, a reaction, a call for fire, and
    any unit's test failed."""
    if test.test in SIDE_TESTS and test.side:
        outcome = test.result or ("passed" if test.passed else "failed")
        return f"{side_label(test.side)} {SIDE_TESTS[test.test]}: {outcome}"
    if test.unit is None:
        return ""
    if test.test == "reaction test" and test.passed:
        return f"{name(test.unit)} reacts"
    if test.test == "request fire":
        return f"{name(test.unit)} calls for fire: {'marker placed' if test.passed else 'no marker'}"
    return "" if test.passed else f"{name(test.unit)} fails its {test.test}"
