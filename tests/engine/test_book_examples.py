"""The rulebook's worked examples, reproduced with scripted dice (Iron Cross 2015)."""

from engine.commands import (
    ChooseInitiative,
    Declare,
    DeclineReaction,
    FallBackOrder,
    Fire,
    MoraleTestOrder,
    Move,
    React,
    StartGame,
    UnitOrder,
)
from engine.dice import d6, d10
from engine.event_data import DestroyedData, FireData, MoveData, RolledTest, ToHit
from engine.scenarios.new_game import make_unit
from engine.state import Phase
from tests.engine.helpers import P, fire_data, game, play, started, text


def test_sherman_and_panther_reaction_and_modifiers_pp6_7():
    """pp. 6-7: the Sherman (one activation already) reacts on a 4 to the Panther's move and
    fire; it moves first, the Panther moves and fires at -3 (8+), hits but does not penetrate,
    inflicting a marker; then the Sherman fires at -4 (9+)."""
    panther = make_unit("german", "Panther", "axis", (20, 50), facing=270)
    sherman = make_unit("us", "Sherman 75mm", "allies", (20, 20), facing=90)
    state = started(game(panther, sherman), "axis")
    state.units["sherman-75mm"].tokens = 1

    state, events = play(
        state,
        Declare(
            side="axis",
            order=UnitOrder(unit="panther", actions=(Move(path=(P(20, 46),)), Fire(target="sherman-75mm"))),
        ),
    )
    assert state.phase is Phase.REACTION
    window = state.pending.window

    state, events = play(
        state,
        React(
            side="allies",
            window=window,
            order=UnitOrder(
                unit="sherman-75mm", actions=(Move(path=(P(20, 16),), reverse=True), Fire(target="panther"))
            ),
        ),
        d6(4),
        d10(8),
        d10(2),
        d10(9),
        d10(5),
    )
    log = text(events)
    assert "needs 4+ (+1 token), rolled 4: success" in log
    assert "needs 8+ (-2 moved, -1 target moved); rolled 8: 1 hit" in log
    assert "2+10=12 vs 13: bounces" in log
    assert "needs 9+ (-2 moved, -1 target moved, -1 morale markers); rolled 9: 1 hit" in log
    order_of_moves = [e.units[0] for e in events if e.kind in ("move", "fire")]
    assert order_of_moves == ["sherman-75mm", "panther", "panther", "sherman-75mm"]
    (reaction,) = [e.data for e in events if isinstance(e.data, RolledTest)]
    assert (reaction.test, reaction.unit, reaction.needed, reaction.roll, reaction.passed) == (
        "reaction test",
        "sherman-75mm",
        4,
        4,
        True,
    )
    panther_shot, sherman_shot = [e.data for e in events if isinstance(e.data, FireData)]
    assert (panther_shot.firer, panther_shot.target) == ("panther", "sherman-75mm")
    assert (panther_shot.to_hit.needed, panther_shot.to_hit.hits, panther_shot.markers_placed) == (8, 1, 1)
    assert sherman_shot.to_hit.modifiers == (("moved", -2), ("target moved", -1), ("morale markers", -1))
    assert (sherman_shot.to_hit.needed, sherman_shot.to_hit.rolls, sherman_shot.markers) == (9, (9,), 1)
    assert state.units["sherman-75mm"].morale_markers == 1
    assert state.units["panther"].morale_markers == 1
    assert state.active_side == "axis"


def test_tiger_seizes_the_initiative_p7():
    """p. 7: the Churchill advances to fire at a Panzer IV's flank; the Tiger reacts on a 6,
    fires at -1 for the moving target and misses; the Churchill completes its action; the
    German player is now the active player."""
    churchill = make_unit("british", "Churchill VI", "allies", (40, 20), facing=90)
    panzer = make_unit("german", "Panzer IV G (late) to J", "axis", (60, 45), facing=180, unit_id="panzer-iv")
    tiger = make_unit("german", "Tiger I", "axis", (30, 50), facing=270)
    state = started(game(churchill, panzer, tiger, sides={"allies": "british", "axis": "german"}), "allies")
    state, _ = play(
        state,
        Declare(
            side="allies",
            order=UnitOrder(unit="churchill-vi", actions=(Move(path=(P(40, 26),)), Fire(target="panzer-iv"))),
        ),
    )
    state, events = play(
        state,
        React(
            side="axis",
            window=state.pending.window,
            order=UnitOrder(unit="tiger-i", actions=(Fire(target="churchill-vi"),)),
        ),
        d6(6),
        d10(3),
        d10(9),
        d10(4),
        d6(2),
    )
    log = text(events)
    assert "seize the initiative" in log
    assert "Tiger I fires at Churchill VI" in log and "needs 6+ (-1 target moved)" in log
    assert "Penetration (side) 4+8=12 vs 10: penetrates. Damage d6 2" in log
    assert state.units["panzer-iv"].morale_markers == 3
    assert state.active_side == "axis"
    assert state.phase is Phase.ACTIVE


def test_casualty_roll_example_p10():
    """p. 10: infantry at close range scores two hits (one marker) and converts both, adding
    only one more: two markers in all."""
    grenadiers = make_unit("german", "Infantry Detachment", "axis", (20, 30), unit_id="gren")
    gis = make_unit("us", "Infantry Detachment", "allies", (20, 40), unit_id="gis")
    state = started(game(grenadiers, gis), "axis")
    state, _ = play(state, Declare(side="axis", order=UnitOrder(unit="gren", actions=(Fire(target="gis"),))))
    state, events = play(
        state, DeclineReaction(side="allies", window=state.pending.window), d10(5), d10(7), d6(4), d6(6)
    )
    assert "needs 4+ (+1 close range); rolled 5, 7: 2 hits" in text(events)
    assert "1 marker, casualty 4+ rolled 4, 6: +1" in text(events)
    assert state.units["gis"].morale_markers == 2
    shot = fire_data(events)
    assert shot.to_hit == ToHit(needed=4, modifiers=(("close range", 1),), rolls=(5, 7), hits=2)
    assert (shot.markers_placed, shot.markers) == (2, 2)


def test_mg_nest_falls_back_from_the_mortar_p13():
    """p. 13: the MG nest, already activated once and carrying three markers, reacts to the
    mortar by falling back, needing 4+ (markers ignored, one token counted)."""
    mg = make_unit("german", "MG Team", "axis", (30, 60), unit_id="mg-nest", morale_markers=3)
    mortar = make_unit("british", "Mortar Team", "allies", (30, 20), facing=90)
    cromwell = make_unit("british", "Cromwell IV", "allies", (60, 30), facing=90)
    state = started(game(mg, mortar, cromwell, sides={"allies": "british", "axis": "german"}), "allies")
    state.units["mg-nest"].tokens = 1
    state, _ = play(
        state, Declare(side="allies", order=UnitOrder(unit="mortar-team", actions=(Fire(target="mg-nest"),)))
    )
    state, events = play(
        state,
        React(
            side="axis", window=state.pending.window, order=FallBackOrder(unit="mg-nest", path=(P(30, 69),))
        ),
        d6(4),
        d6(5),
        d10(9),
        d6(3),
    )
    log = text(events)
    assert "needs 4+ (+1 token), rolled 4: success" in log
    assert "MG nest falls back" in log.replace("Mg", "MG") or 'falls back 9.0"' in log
    assert "rallies on 5" in log
    assert "needs 9+ (-1 target moved)" in log
    assert state.units["mg-nest"].morale_markers == 3  # 3 - 1 rallied + 1 mortar hit
    assert state.units["mg-nest"].fell_back_this_turn
    (moved,) = [e.data for e in events if isinstance(e.data, MoveData)]
    assert (moved.unit, moved.start, moved.end, moved.fall_back) == ("mg-nest", P(30, 60), P(30, 69), True)
    rally = next(e.data for e in events if e.kind == "rally")
    assert (rally.test, rally.needed, rally.roll, rally.passed) == ("fall back rally", 4, 5, True)
    assert fire_data(events).to_hit.needed == 9


def test_evolution_of_a_game_turn_pp14_17():
    """pp. 14-17: CMT first (no reaction) removes the PIAT unit's marker; the PIAT unit fires at
    the StuG, German infantry react on a 5 and give it two markers, so the PIAT misses at -2;
    a CMT of 6 clears it; the PIAT unit reactivates on a 3 (needing 2+) after a failed German
    reaction (2), hits, penetrates with a 9 and rolls a 4: Foom!"""
    piat = make_unit(
        "british",
        "Infantry Detachment",
        "allies",
        (30, 30),
        unit_id="piat",
        name="PIAT section",
        iaw=True,
        morale_markers=1,
    )
    rifles = make_unit("british", "Infantry Detachment", "allies", (60, 10), unit_id="rifles", command=True)
    stug = make_unit(
        "german", "StuG IV, StuG III F-H", "axis", (30, 37), facing=270, unit_id="stug", name="StuG"
    )
    grenadiers = make_unit("german", "Infantry Detachment", "axis", (40, 36), unit_id="gren")
    reserve = make_unit("german", "Infantry Detachment", "axis", (48, 42), unit_id="reserve")
    state = game(piat, rifles, stug, grenadiers, reserve, sides={"allies": "british", "axis": "german"})
    state, events = play(state, StartGame(), d6(5), d6(2))
    assert (state.sides["allies"].tokens, state.sides["axis"].tokens) == (4, 3)
    state, _ = play(state, ChooseInitiative(side="allies", go_first=True))

    state, events = play(state, Declare(side="allies", order=MoraleTestOrder()), d6(3))
    assert "No reaction is allowed" in text(events)
    assert state.units["piat"].morale_markers == 0

    state, _ = play(
        state, Declare(side="allies", order=UnitOrder(unit="piat", actions=(Fire(target="stug"),)))
    )
    state, events = play(
        state,
        React(
            side="axis",
            window=state.pending.window,
            order=UnitOrder(unit="gren", actions=(Fire(target="piat"),)),
        ),
        d6(5),
        d10(7),
        d10(2),
        d6(5),
        d10(4),
    )
    log = text(events)
    assert "rolled 5: success" in log
    assert "rolled 7, 2: 1 hit; 1 marker, casualty 4+ rolled 5: +1" in log
    assert "needs 6+ (+1 close range, -2 morale markers); rolled 4: miss" in log
    assert state.units["piat"].morale_markers == 2

    state, _ = play(state, Declare(side="allies", order=MoraleTestOrder()))
    assert state.phase is Phase.REACTION  # not the first action: a reaction is allowed
    state, events = play(state, DeclineReaction(side="axis", window=state.pending.window), d6(6))
    assert state.units["piat"].morale_markers == 0

    state, _ = play(
        state,
        Declare(
            side="allies",
            order=UnitOrder(unit="piat", actions=(Fire(target="stug"), Move(path=(P(26, 28),)))),
        ),
    )
    state, events = play(
        state,
        React(
            side="axis",
            window=state.pending.window,
            order=UnitOrder(unit="reserve", actions=(Fire(target="piat"),)),
        ),
        d6(2),
        d6(3),
        d10(8),
        d10(9),
        d6(4),
    )
    log = text(events)
    assert "rolled 2: failed" in log
    assert "PIAT section reactivates: needs 2+ (1 token), rolled 3: success" in log
    assert '9+7+1 within 6"=17 vs 15: penetrates. Damage d6 4: Foom! Vehicle destroyed' in log
    assert state.units["stug"].destroyed
    assert (fire_data(events).damage, fire_data(events).fate) == ("Foom! Vehicle destroyed", "destroyed")
    assert [e.data for e in events if isinstance(e.data, DestroyedData)] == [DestroyedData(unit="stug")]
    assert state.units["piat"].position == P(26, 28)
    assert state.sides["allies"].tokens == 0
    assert state.active_side == "axis"
