"""The legality check agrees with ``apply``: over seeded random games, every command the random
player proposes is legal exactly when ``apply`` takes it, refused with the same words; and the
choices a menu is offered (units, destinations, targets) are all ones ``apply`` takes."""

from __future__ import annotations

import random

import pytest

from engine.cards import read_deck
from engine.commands import DealCards, Declare, Fire, UnitOrder
from engine.dice import DiceScriptError, ScriptedDice, SeededDice
from engine.errors import IllegalCommand
from engine.game import apply, awaiting
from engine.game_state import GameState
from engine.legality import (
    destinations,
    is_legal,
    moving_and_firing,
    moving_to,
    order_now,
    targets,
    units_that_may_act,
    why_illegal,
)
from engine.rulesets import with_rule_set
from engine.scenarios.new_game import make_unit
from engine.scenarios.quick_battle import quick_battle
from engine.state import Phase
from engine.variants.house_v1.commands import ChooseDefender, ChooseFallBack
from tests.engine.helpers import game, started
from tests.engine.random_play import random_command, team_business
from tests.engine.team_games import turn_one
from tests.engine.test_cards import DECK

GAMES = {
    "quick battle": quick_battle,
    "house rules": lambda: with_rule_set(quick_battle("crossroads", "soviet"), "house-v1"),
    "team game": turn_one,
}


def refusal(state: GameState, command) -> str | None:
    try:
        apply(state, command, SeededDice(0))
    except IllegalCommand as refused:
        return str(refused)
    return None


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_command_is_legal_exactly_when_apply_takes_it(game, seed):
    start, checked, refused = GAMES[game](), 0, 0
    rng, dice, state = random.Random(seed), SeededDice(seed), start
    for _ in range(120):
        if state.phase is Phase.OVER:
            break
        for _attempt in range(40):
            command = team_business(state, rng) or random_command(state, rng)
            expected = refusal(state, command)
            assert why_illegal(state, command) == expected, command
            assert is_legal(state, command) is (expected is None)
            checked, refused = checked + 1, refused + (expected is not None)
            if expected is None:
                state = apply(state, command, dice)[0]
                break
        else:
            break
    assert checked > 100 and refused > 5  # both answers were put to the test


@pytest.mark.parametrize("game", GAMES)
def test_every_menu_choice_is_one_apply_takes(game):
    rng, dice, state = random.Random(7), SeededDice(7), GAMES[game]()
    offered = 0
    for turn in range(40):
        if state.phase is Phase.OVER:
            break
        side = awaiting(state)
        if side is not None and turn % 5 == 0:
            for may in units_that_may_act(state, side)[:2]:
                unit = may.unit.id
                for point in destinations(state, unit, "rapid")[::25]:
                    assert refusal(state, order_now(state, side, moving_to(unit, "rapid", point))) is None
                    offered += 1
                for enemy, effect in targets(state, unit):
                    fire = UnitOrder(unit=unit, actions=(Fire(target=enemy.id),))
                    assert refusal(state, order_now(state, side, fire)) is None
                    assert 0 < effect <= 1
                    offered += 1
        command = team_business(state, rng) or random_command(state, rng)
        if is_legal(state, command):
            state = apply(state, command, dice)[0]
    assert offered > 20


def test_a_destination_out_of_reach_is_not_offered():
    state = _first_turn()
    side = state.active_side
    unit = units_that_may_act(state, side)[0].unit
    far = unit.position.model_copy(update={"y": unit.position.y + 30})
    assert destinations(state, unit.id, among=[far]) == []
    assert why_illegal(state, Declare(side=side, order=moving_to(unit.id, "move", far)))


def _first_turn() -> GameState:
    """A quick battle on its first activation."""
    rng, dice, state = random.Random(5), SeededDice(5), quick_battle()
    while state.phase is not Phase.ACTIVE:
        command = random_command(state, rng)
        if is_legal(state, command):
            state = apply(state, command, dice)[0]
    return state


def test_commands_that_roll_dice_are_checked_without_them():
    """Dealing the cards shuffles with dice, a close combat's choice fights on with them: the
    check takes or refuses each as ``apply`` does, with no die to roll."""
    state = _first_turn()
    deal = DealCards(deck=tuple(read_deck(DECK)))
    with pytest.raises(DiceScriptError):
        apply(state, deal, ScriptedDice([]))
    assert why_illegal(state, deal) is None
    dealt = apply(state, deal, SeededDice(1))[0]
    assert (
        why_illegal(dealt, deal) == refusal(dealt, deal) == "The cards have already been dealt in this game"
    )
    house = with_rule_set(state, "house-v1")
    for choice in (ChooseDefender(side="axis", unit="gruppe-1"), ChooseFallBack(side="axis", fall_back=True)):
        assert (
            why_illegal(house, choice)
            == refusal(house, choice)
            == "Nothing of that kind is waiting to be chosen"
        )


def _gruppe_facing_static_tommies(rules: str = "house-v1") -> GameState:
    """German infantry (and an MG team, a support squad) to act, 25" from British infantry in the
    open that has neither moved nor fired: a little beyond the 24" at which the House Rules let
    it be observed (s. 8 Observation distances), within its reach of 6" toward it."""
    state = game(
        make_unit("german", "Infantry Detachment", "axis", (30, 40), name="Gruppe"),
        make_unit("german", "MG Team", "axis", (44, 44), name="MG"),
        make_unit("british", "Infantry Detachment", "allies", (30, 13), name="Tommies"),
        sides={"allies": "british", "axis": "german"},
    )
    return started(with_rule_set(state, rules), "axis")


def _taken_with_a_shot(state: GameState, unit: str, point, fire) -> bool:
    """Whether ``apply`` takes the order to move to ``point`` and fire (``fire``: after the move
    or before it) at some enemy (here infantry, which any shot that is taken may hurt)."""
    side = state.units[unit].side
    enemies = [e.id for e in state.units.values() if e.side != side]
    return any(
        refusal(state, Declare(side=side, order=moving_and_firing(unit, "move", point, enemy, fire))) is None
        for enemy in enemies
    )


def test_a_move_and_fire_goes_only_where_its_shot_is_taken_house_rules_s8():
    """Of the spots a plain move may go to, a move and fire keeps exactly those from which the
    engine takes the whole order: near enough to observe the static enemy (s. 8). A fire and move
    has nothing to fire at before it moves, so goes nowhere."""
    state = _gruppe_facing_static_tommies()
    moves = destinations(state, "gruppe")
    fired = destinations(state, "gruppe", fire="after")
    assert fired and set(fired) < set(moves)
    assert all(_taken_with_a_shot(state, "gruppe", p, "after") for p in fired)
    removed = [p for p in moves if p not in fired]
    assert not any(_taken_with_a_shot(state, "gruppe", p, "after") for p in removed)
    order = moving_and_firing("gruppe", "move", removed[0], "tommies", "after")
    assert "beyond observation distance" in refusal(state, Declare(side="axis", order=order))
    assert all(p.y < 40 for p in fired)  # each of them toward the enemy
    assert destinations(state, "gruppe", fire="before") == []
    assert not any(_taken_with_a_shot(state, "gruppe", p, "before") for p in moves[::10])


def test_the_same_table_under_the_2015_rules_keeps_every_spot():
    """Without observation distances the enemy is seen from every spot, fired at first or last."""
    state = _gruppe_facing_static_tommies("core_2015")
    moves = destinations(state, "gruppe")
    assert (
        destinations(state, "gruppe", fire="after") == moves == destinations(state, "gruppe", fire="before")
    )
    assert all(_taken_with_a_shot(state, "gruppe", p, "after") for p in moves[::10])


def test_a_support_squad_has_no_move_and_fire_destination_house_rules_s4():
    """It may move, but never move and fire in one activation, whichever comes first."""
    state = _gruppe_facing_static_tommies()
    moves = destinations(state, "mg")
    assert moves
    for fire in ("after", "before"):
        assert destinations(state, "mg", fire=fire) == []
        order = moving_and_firing("mg", "move", moves[0], "tommies", fire)
        assert refusal(state, Declare(side="axis", order=order)) == (
            "MG is a support squad: it may move or fire in one activation, not both"
        )


def test_no_destination_is_the_spot_the_unit_stands_on():
    """A move there goes nowhere: it is never offered, by any kind of move, fired with or not."""
    state = _gruppe_facing_static_tommies("core_2015")
    here = state.units["gruppe"].position
    nearer = here.model_copy(update={"y": here.y - 2})
    for kind in ("move", "rapid"):
        assert destinations(state, "gruppe", kind, among=[here, nearer]) == [nearer]
    for fire in ("after", "before"):
        assert destinations(state, "gruppe", among=[here, nearer], fire=fire) == [nearer]
    assert here not in destinations(state, "gruppe")
