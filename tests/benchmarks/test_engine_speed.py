"""Engine speed. CI runs these once as plain tests; for figures run
``python -m pytest tests/benchmarks --benchmark-enable --dist no``."""

from engine.commands import (
    ChooseInitiative,
    Declare,
    DeclineReaction,
    Fire,
    Move,
    React,
    StartGame,
    UnitOrder,
)
from engine.dice import ScriptedDice, SeededDice, d6
from engine.game import apply
from engine.game_state import GameState
from engine.scenarios.quick_battle import quick_battle
from engine.state import Phase, Point


def battle_in_play() -> GameState:
    """The quick battle (14 units, 7 terrain pieces), axis active with a full token pool."""
    state, _ = apply(quick_battle(), StartGame(), ScriptedDice([d6(2), d6(5)]))
    state, _ = apply(state, ChooseInitiative(side="axis", go_first=True), ScriptedDice([]))
    state.units["m10"].position = Point(x=14, y=28)  # in the Panzer IV's sight
    return state


def test_resolve_a_fire_action(benchmark):
    """One shot: Panzer IV at the M10, the window declined, hit, penetration and damage rolled."""
    state = battle_in_play()
    fire = UnitOrder(unit="panzer-iv", actions=(Fire(target="m10"),))
    state, _ = apply(state, Declare(side="axis", order=fire), ScriptedDice([]))
    decline = DeclineReaction(side="allies", window=state.pending.window)

    after, events = benchmark(apply, state, decline, SeededDice(3))
    assert any(e.kind == "fire" for e in events)
    assert after.phase is Phase.ACTIVE


def test_declare_and_resolve_an_activation_with_reaction(benchmark):
    """Declare a move-and-fire, then the enemy reacts by firing first: the whole exchange."""
    state = battle_in_play()
    order = UnitOrder(unit="panzer-iv", actions=(Move(path=(Point(x=14, y=36),)), Fire(target="m10")))
    reaction = UnitOrder(unit="m10", actions=(Fire(target="panzer-iv"),))

    def exchange():
        dice = SeededDice(5)
        declared, _ = apply(state, Declare(side="axis", order=order), dice)
        return apply(declared, React(side="allies", window=declared.pending.window, order=reaction), dice)

    after, events = benchmark(exchange)
    assert any(e.kind == "reaction_test" for e in events)
