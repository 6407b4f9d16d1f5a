"""Iron Cross (2015) rules engine: pure rules, no Discord, no database, no drawing.

``apply(state, command, dice) -> (state, events)`` is the whole interface. Dice are injected;
every die rolled comes back in the events with its purpose, so a game replays exactly.

A Panther advances and fires; the Sherman reacts by firing first (Iron Cross 2015, pp. 6-7):

>>> from engine.commands import ChooseInitiative, Declare, Fire, Move, React, StartGame, UnitOrder
>>> from engine.dice import ScriptedDice, d6, d10
>>> from engine.game import apply
>>> from engine.scenarios.new_game import make_unit, new_game
>>> from engine.state import Point
>>> units = [make_unit("german", "Panther", "axis", (20, 50), facing=270),
...          make_unit("german", "Infantry Detachment", "axis", (60, 60), unit_id="gren"),
...          make_unit("us", "Sherman 76mm", "allies", (20, 20), facing=90, unit_id="sherman"),
...          make_unit("us", "Infantry Detachment", "allies", (60, 10), unit_id="gis")]
>>> state = new_game({"allies": "us", "axis": "german"}, units)
>>> state, _ = apply(state, StartGame(), ScriptedDice([d6(2), d6(5)]))
>>> state, _ = apply(state, ChooseInitiative(side="axis", go_first=True), ScriptedDice([]))
>>> advance = UnitOrder(unit="panther", actions=(Move(path=(Point(x=20, y=45),)), Fire(target="sherman")))
>>> state, events = apply(state, Declare(side="axis", order=advance), ScriptedDice([]))
>>> print(events[-1])
The Allies may react (window 1)
>>> reaction = React(side="allies", window=1, order=UnitOrder(unit="sherman", actions=(Fire(target="panther"),)))
>>> state, events = apply(state, reaction, ScriptedDice([d6(5), d10(9), d10(7), d10(8), d10(6), d6(4)]))
>>> for event in events: print(event)
The Allies react with Sherman 76mm: fire at Panther: needs 3+, rolled 5: success
Sherman 76mm fires at Panther (26.0"): needs 6+ (-1 target moved); rolled 9: 1 hit; 1 marker. Penetration (front) 7+9=16 vs 17: bounces
Panther moves 5.0" to 20.0,45.0
Panther fires at Sherman 76mm (21.0"): needs 8+ (-2 moved, -1 morale markers); rolled 8: 1 hit; 1 marker. Penetration (front) 6+10=16 vs 15: penetrates. Damage d6 4: Foom! Vehicle destroyed
Sherman 76mm is destroyed
>>> [str(roll) for roll in events[1].rolls], events[1].rolls[0].purpose
(['d10=9', 'd10=7'], 'to hit, Sherman 76mm at Panther')
"""

import engine.variants  # noqa: E402,F401  the rule sets beyond the 2015 rules register themselves
