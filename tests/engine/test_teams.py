"""Team games (Multi-Player Games, 2015 rulebook p. 25): each player's own tokens, the CO's bonus
tokens and reserve pool."""

import pytest

from engine.commands import (
    AnswerReserve,
    Declare,
    DeclineReaction,
    FinishDeployment,
    GiveBonusTokens,
    JoinSide,
    Move,
    PassInitiative,
    RequestReserve,
    StartGame,
    UnitOrder,
)
from engine.dice import SeededDice, d6
from engine.errors import IllegalCommand
from engine.events import EventLog
from engine.firing.losses import destroy
from engine.forces import force_units
from engine.game import apply
from engine.scenarios.quick_battle import scenario_battle
from engine.teams import make_team_game
from engine.view import told
from tests.engine.helpers import P, play
from tests.engine.team_games import HELD_BACK, a_force, deploy_all, team_game, turn_one


def move(unit, to, player=None):
    return Declare(side="allies", player=player, order=UnitOrder(unit=unit, actions=(Move(path=(to,)),)))


def test_the_first_player_to_join_a_side_is_its_co_and_needs_an_infantry_command_unit():
    state = scenario_battle("meeting", "village")
    make_team_game(state, 2)
    tank_led = a_force("us", ("Sherman 75mm", "Infantry Detachment"))
    join = JoinSide(side="allies", player="ann", units=tuple(force_units(tank_led, "allies")))
    with pytest.raises(IllegalCommand, match="infantry command unit"):
        apply(state, join, SeededDice(0))
    assert team_game().sides["allies"].team.co == "ann"


def test_units_of_a_name_team_mates_share_say_whose_they_are_and_keep_apart_ids():
    state = team_game()
    anns = state.units["allies-infantry-detachment-1"]
    assert (anns.name, anns.called, anns.player) == (
        "Infantry Detachment 1 (ann)",
        "Infantry Detachment 1",
        "ann",
    )
    bobs = state.units["allies-infantry-detachment-1-2"]
    assert (bobs.name, bobs.called, bobs.player) == (
        "Infantry Detachment 1 (bob)",
        "Infantry Detachment 1",
        "bob",
    )


def test_a_side_takes_no_more_players_than_the_game_was_made_for():
    state = scenario_battle("meeting", "village")
    make_team_game(state, 2)
    for player in ("ann", "bob", "eve"):
        force = a_force("us", ("Infantry Detachment",))
        join = JoinSide(side="allies", player=player, units=tuple(force_units(force, "allies")))
        if player == "eve":
            with pytest.raises(IllegalCommand, match="already have their 2 players"):
                apply(state, join, SeededDice(0))
        else:
            state, _ = apply(state, join, SeededDice(0))


def test_once_the_forces_are_in_nobody_joins_and_a_referee_never_does():
    state = team_game()
    force = a_force("us", ("Infantry Detachment",))
    join = JoinSide(side="allies", player="eve", units=tuple(force_units(force, "allies")))
    with pytest.raises(IllegalCommand, match="The game has started: nobody joins"):
        apply(state, join, SeededDice(0))
    with pytest.raises(IllegalCommand, match="The game has started: nobody joins"):
        apply(state, JoinSide(side="allies", player="eve"), SeededDice(0))
    state = scenario_battle("meeting", "village")
    state.referees = ["ref"]
    with pytest.raises(IllegalCommand, match="referee sees everything and plays no side"):
        apply(state, join.model_copy(update={"player": "ref"}), SeededDice(0))


def test_each_player_draws_for_their_own_units_and_the_co_gets_four_bonus_tokens():
    state = deploy_all(team_game(), hold_back=frozenset({HELD_BACK}))
    state, events = play(state, StartGame(), d6(6), d6(1))
    allies = state.sides["allies"]
    # ann: her command unit on the table (1 + 2); bob: a command tank and a squad (2 + 2)
    assert allies.team.tokens == {"ann": 3, "bob": 4} and allies.tokens == 7
    assert allies.team.bonus == 4
    bonus = next(e for e in events if "bonus tokens to hand out" in e.text)
    assert told(bonus, "allies") and not told(bonus, "axis") and not told(bonus, None)


def test_the_co_hands_out_bonus_tokens_and_only_the_co():
    state = turn_one()
    with pytest.raises(IllegalCommand, match="Only the Allies' commanding officer, ann"):
        play(state, GiveBonusTokens(side="allies", player="bob", shares=(("bob", 4),)))
    with pytest.raises(IllegalCommand, match="has 4 bonus tokens to hand out, not 5"):
        play(state, GiveBonusTokens(side="allies", player="ann", shares=(("bob", 5),)))
    with pytest.raises(IllegalCommand, match="cat is not one of the Allies' players"):
        play(state, GiveBonusTokens(side="allies", player="ann", shares=(("cat", 1),)))
    state, events = play(state, GiveBonusTokens(side="allies", player="ann", shares=(("bob", 3), ("ann", 1))))
    assert state.sides["allies"].team.tokens == {"ann": 4, "bob": 7}
    assert state.sides["allies"].tokens == 11 and state.sides["allies"].team.bonus == 0
    assert events[0].text == "ann hands out bonus tokens: 3 to bob, 1 to ann (0 left)"


def test_tokens_are_spent_only_on_the_players_own_units():
    state = turn_one()
    with pytest.raises(IllegalCommand, match="Sherman 75mm 1: not your units"):
        play(state, move("allies-sherman-75mm-1", P(64, 8), player="ann"))
    state, _ = play(state, move("allies-sherman-75mm-1", P(64.1, 8), player="bob"))
    assert state.sides["allies"].team.tokens["bob"] == 4  # 4 drawn, 1 of the bonus, 1 spent


def test_bonus_tokens_not_handed_out_go_evenly_when_the_side_first_acts():
    state = turn_one()
    state, events = play(state, move("allies-sherman-75mm-1", P(64.1, 8), player="bob"))
    # one at a time to whoever holds fewest, ties in joining order: ann 3, bob 4 -> ann, ann, bob, ann
    assert state.sides["allies"].team.tokens == {"ann": 6, "bob": 4}  # bob then spent one
    assert "gives them out (even): 3 to ann, 1 to bob" in events[0].text


def test_the_co_rule_gives_unclaimed_bonus_tokens_to_the_co():
    state = turn_one(bonus_rule="co")
    state, _ = play(state, move("allies-sherman-75mm-1", P(64.1, 8), player="bob"))
    assert state.sides["allies"].team.tokens == {"ann": 7, "bob": 3}


def test_a_player_with_no_tokens_left_cannot_order_their_units():
    state = turn_one()
    state.sides["allies"].team.bonus = 0
    state.sides["allies"].team.tokens["bob"] = 0
    with pytest.raises(IllegalCommand, match="bob has no command tokens left"):
        play(state, move("allies-sherman-75mm-1", P(64.1, 8), player="bob"))


def test_once_the_co_unit_is_lost_there_is_no_bonus():
    state = turn_one()
    state, _ = play(state, GiveBonusTokens(side="allies", player="ann", shares=(("bob", 4),)))
    destroy(state, state.units["allies-infantry-detachment-1"], EventLog(SeededDice(0)), "the CO falls")
    with pytest.raises(IllegalCommand, match="lost"):
        play(state, GiveBonusTokens(side="allies", player="ann", shares=(("bob", 1),)))
    state.sides["allies"].tokens = 0
    for player in state.sides["allies"].team.tokens:
        state.sides["allies"].team.tokens[player] = 0
    state.sides["axis"].tokens = 0
    state, events = play(state, PassInitiative(side="allies"), *[d6(1)] * 2, d6(3), d6(4))
    assert state.turn == 2
    assert "The Allies' commanding officer is lost: no bonus tokens this turn (p. 25)" in [
        e.text for e in events
    ]
    assert state.sides["allies"].team.bonus == 0 and state.sides["axis"].team.bonus == 4


def test_a_player_asks_for_a_reserve_and_the_co_grants_it():
    state = turn_one()
    with pytest.raises(IllegalCommand, match="reserve pool holds no unit"):
        play(state, RequestReserve(side="allies", player="bob", unit="allies-sherman-75mm-1"))
    state, events = play(state, RequestReserve(side="allies", player="bob", unit=HELD_BACK))
    assert told(events[0], "axis") == "" and "bob asks" in events[0].text
    with pytest.raises(IllegalCommand, match="already been asked for"):
        play(state, RequestReserve(side="allies", player="bob", unit=HELD_BACK))
    with pytest.raises(IllegalCommand, match="Only the Allies' commanding officer"):
        play(state, AnswerReserve(side="allies", player="bob", unit=HELD_BACK, grant=True))
    state, _ = play(state, AnswerReserve(side="allies", player="ann", unit=HELD_BACK, grant=True))
    unit = state.units[HELD_BACK]
    assert (unit.player, unit.reserve_available, unit.in_reserve) == ("bob", True, True)
    state, _ = play(state, move(HELD_BACK, P(30, 0), player="bob"))
    state, _ = play(state, DeclineReaction(side="axis", window=state.pending.window))
    assert state.units[HELD_BACK].on_table and state.sides["allies"].team.tokens["bob"] == 4 + 1 - 1


def test_a_refused_request_leaves_the_unit_in_the_pool():
    state = turn_one()
    state, _ = play(state, RequestReserve(side="allies", player="bob", unit=HELD_BACK))
    state, events = play(state, AnswerReserve(side="allies", player="ann", unit=HELD_BACK, grant=False))
    assert events[0].text == "ann refuses bob Infantry Detachment 2 (ann)"  # ann and bob each have one
    assert state.units[HELD_BACK].player == "ann" and not state.units[HELD_BACK].reserve_available
    assert state.sides["allies"].team.requests == []
    with pytest.raises(IllegalCommand, match="Nobody has asked"):
        play(state, AnswerReserve(side="allies", player="ann", unit=HELD_BACK, grant=True))


def test_a_game_that_is_not_a_team_game_refuses_team_commands():
    from tests.engine.helpers import game

    with pytest.raises(IllegalCommand, match="not a team game"):
        play(game(), RequestReserve(side="allies", player="x", unit="y"))


def test_a_player_done_setting_up_sends_only_their_own_units_to_reserve():
    state = team_game()
    allies = state.deployment.sides["allies"]
    bobs = [u for u in allies.waiting if state.units[u].player == "bob"]
    state, events = apply(state, FinishDeployment(side="allies", player="ann"), SeededDice(0))
    assert events[0].text.startswith("ann has finished setting up; 2 units held in reserve.")
    assert "bob to set up their units, or say /deploy done" in events[0].text
    allies = state.deployment.sides["allies"]
    assert not allies.done and allies.waiting == bobs  # bob's wait to be set up
    state, events = apply(state, FinishDeployment(side="allies", player="bob"), SeededDice(0))
    assert events[0].text == "The Allies have finished setting up; 2 units held in reserve"
    assert state.deployment.sides["allies"].done
