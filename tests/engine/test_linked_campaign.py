"""Linked Iron Cross battles (engine.campaign.linked): losses carried from one battle to the next,
damaged units, reinforcement points from results, purchases under the force builder's rules."""

import pytest

from engine.campaign.linked import (
    LinkedCampaign,
    LinkedRules,
    carry_losses,
    end_battle,
    end_campaign,
    history_text,
    joining,
    name_command_unit,
    new_linked_campaign,
    result_text,
    retire_unit,
    spend_reinforcements,
    standings_text,
    start_battle,
)
from engine.dice import DieRoll, SeededDice
from engine.dice_stats import PlayerDie
from engine.errors import IllegalCommand
from engine.forces import add_unit, choose_command, force_points, new_force, set_transport
from engine.game import apply
from engine.game_state import GameResult
from engine.rich_text import Strong, unmarked
from engine.scenarios.quick_battle import scenario_battle
from engine.state import Phase
from tests.bare_text import bare

MEETING = {"allies": "first", "axis": "second"}


def a_force(nation, name, *profiles):
    force = new_force(nation, name, 200)
    for profile in profiles:
        force = add_unit(force, profile)
    return choose_command(force, force.units[0].label)


def campaign(rules=None):
    us = a_force("us", "Able Company", "Infantry Detachment", "Infantry Detachment", "Sherman 75mm")
    us = set_transport(us, "Infantry Detachment 2", "Truck/Jeep")
    german = a_force("german", "Kampfgruppe", "Infantry Detachment", "Infantry Detachment", "Panther")
    return new_linked_campaign("Normandy", {"allies": ("ann", us), "axis": ("bob", german)}, rules)


def fought(linked, winner, destroyed=(), markers=None, scenario="meeting"):
    """The battle set up for ``linked`` played out: the named game units destroyed, the morale
    markers given left on units, the result ``winner`` (None: a draw)."""
    state = scenario_battle(scenario)
    for side in ("allies", "axis"):
        state, _ = apply(state, joining(linked, side), SeededDice(0))
    state = state.fork()
    for unit_id in destroyed:
        state.units[unit_id].destroyed = True
    for unit_id, count in (markers or {}).items():
        state.units[unit_id].morale_markers = count
    state.phase = Phase.OVER
    state.result = GameResult(winner=winner, reason="a test result")
    return state


def labels(linked, side):
    return [u.label for u in linked.sides[side].force.units]


def test_destroyed_units_leave_the_force_and_a_destroyed_transport_leaves_its_unit():
    linked = start_battle(campaign(), "meeting", MEETING)
    final = fought(
        linked,
        "axis",
        destroyed=["allies-sherman-75mm-1", "allies-infantry-detachment-2-truck-jeep", "axis-panther-1"],
    )
    after = end_battle(linked, final)
    assert labels(after, "allies") == ["Infantry Detachment 1", "Infantry Detachment 2"]
    assert after.sides["allies"].force.units[1].transport is None
    assert [u.label for u in after.sides["allies"].fallen] == ["Sherman 75mm 1"]
    assert labels(after, "axis") == ["Infantry Detachment 1", "Infantry Detachment 2"]
    assert after.battle is None
    assert history_text(after) == (
        "1. Meeting Engagement: the Axis won (a test result); the Allies lost Sherman 75mm 1, +30 points; "
        "the Axis lost Panther 1, +50 points"
    )


def test_damaged_units_come_back_for_the_next_battle_by_default():
    linked = start_battle(campaign(), "meeting", MEETING)
    after = end_battle(linked, fought(linked, None, markers={"allies-sherman-75mm-1": 3}))
    assert after.history[-1].damaged == {"allies": ("Sherman 75mm 1",), "axis": ()}
    assert after.sides["allies"].record("Sherman 75mm 1").morale_markers == 3
    following = start_battle(after, "escalating", MEETING)
    assert "Sherman 75mm 1" in following.battle.fielded["allies"]
    sherman = next(u for u in joining(following, "allies").units if u.name == "Sherman 75mm 1")
    assert sherman.morale_markers == 0


def test_damaged_units_sit_out_one_battle_when_the_campaign_says_so():
    linked = start_battle(campaign(LinkedRules(damaged="sit_out")), "meeting", MEETING)
    # markers on the transport damage the unit it carries
    final = fought(
        linked, "allies", markers={"allies-infantry-detachment-2-truck-jeep": 1, "axis-panther-1": 2}
    )
    second = start_battle(end_battle(linked, final), "meeting", MEETING)
    assert second.battle.fielded == {
        "allies": ("Infantry Detachment 1", "Sherman 75mm 1"),
        "axis": ("Infantry Detachment 1", "Infantry Detachment 2"),
    }
    assert "Infantry Detachment 2 (in a Truck/Jeep, resting: damaged)" in bare(standings_text(second))
    third = start_battle(end_battle(second, fought(second, "axis")), "meeting", MEETING)
    assert third.battle.fielded["allies"] == (
        "Infantry Detachment 1",
        "Infantry Detachment 2",
        "Sherman 75mm 1",
    )
    assert third.sides["allies"].record("Infantry Detachment 2").battles == 1
    assert third.sides["allies"].record("Sherman 75mm 1").battles == 2


@pytest.mark.parametrize(("winner", "allies", "axis"), [("allies", 70, 10), ("axis", 10, 70), (None, 25, 25)])
def test_each_result_earns_the_campaigns_reinforcement_points(winner, allies, axis):
    rules = LinkedRules(winner_points=70, loser_points=10, draw_points=25)
    linked = start_battle(campaign(rules), "meeting", MEETING)
    after = end_battle(linked, fought(linked, winner))
    assert {name: side.points for name, side in after.sides.items()} == {"allies": allies, "axis": axis}
    results = {name: (side.battles, side.wins, side.draws, side.losses) for name, side in after.sides.items()}
    assert results["allies"] == (1, winner == "allies", winner is None, winner == "axis")


@pytest.mark.parametrize(("turn", "spent", "axis"), [(0, 0, 0), (1, 0, 0), (1, 1, 30), (2, 0, 30)])
def test_a_side_that_concedes_before_spending_a_token_earns_no_points(turn, spent, axis):
    linked = start_battle(campaign(), "meeting", MEETING)
    final = fought(linked, "allies")
    final.turn = turn
    final.sides["axis"].tokens_drawn = 5
    final.sides["axis"].tokens = 5 - spent
    final.result = GameResult(winner="allies", reason="the Axis conceded")
    after = end_battle(linked, final)
    assert {name: side.points for name, side in after.sides.items()} == {"allies": 50, "axis": axis}
    assert after.sides["axis"].losses == 1
    unfought = " (conceded before spending a token)" * (axis == 0)
    assert history_text(after).endswith(f"the Axis lost nothing, +{axis} points{unfought}")


def test_a_purchase_pays_its_cost_and_grows_the_points_limit():
    linked = start_battle(campaign(), "meeting", MEETING)
    after = end_battle(linked, fought(linked, "axis", destroyed=["allies-infantry-detachment-1"]))
    assert after.sides["allies"].points == 30
    bought = spend_reinforcements(after, "allies", "infantry detachment")
    side = bought.sides["allies"]
    # the label of the detachment lost is not given again
    assert labels(bought, "allies")[-1] == "Infantry Detachment 3"
    assert side.points == 5 and side.force.points_limit == 225
    assert force_points(side.force) == force_points(after.sides["allies"].force) + 25


def test_a_purchase_short_of_points_is_refused_exactly():
    linked = start_battle(campaign(), "meeting", MEETING)
    after = end_battle(linked, fought(linked, "axis"))
    with pytest.raises(IllegalCommand) as refusal:
        spend_reinforcements(after, "allies", "Sherman 75mm")
    assert str(refusal.value) == "The Allies have 30 reinforcement points but Sherman 75mm costs 45: 15 short"


def test_a_purchase_may_not_break_a_rule_the_force_keeps_but_losses_do_not_stop_one():
    rules = LinkedRules(loser_points=200)
    linked = start_battle(campaign(rules), "meeting", MEETING)
    after = end_battle(linked, fought(linked, "axis"))
    with_mg = spend_reinforcements(after, "allies", "MG Team")
    with pytest.raises(IllegalCommand) as refusal:
        spend_reinforcements(with_mg, "allies", "Mortar Team")
    assert str(refusal.value) == (
        "The Allies cannot buy Mortar Team: Infantry and support (p. 23): infantry detachments (2) must "
        "outnumber support squads (2): add 1 detachment or drop support squads"
    )
    # both detachments lost: the force breaks the rule already, and may still buy a detachment
    battle = start_battle(with_mg, "meeting", MEETING)
    final = fought(battle, "axis", destroyed=["allies-infantry-detachment-1", "allies-infantry-detachment-2"])
    broken = end_battle(battle, final)
    mended = spend_reinforcements(broken, "allies", "Infantry Detachment")
    assert labels(mended, "allies") == ["Sherman 75mm 1", "MG Team 1", "Infantry Detachment 3"]


def test_a_lost_command_unit_must_be_replaced_before_the_next_battle():
    linked = start_battle(campaign(), "meeting", MEETING)
    after = end_battle(linked, fought(linked, "axis", destroyed=["allies-infantry-detachment-1"]))
    with pytest.raises(IllegalCommand) as refusal:
        start_battle(after, "meeting", MEETING)
    assert str(refusal.value) == (
        "Not ready for the next battle: Allies: Command unit (p. 18): no unit is the command unit: choose one"
    )
    ready = name_command_unit(after, "allies", "sherman 75mm 1")
    assert start_battle(ready, "meeting", MEETING).battle.number == 2


def test_nothing_is_bought_or_changed_while_a_battle_is_fought():
    linked = start_battle(campaign(LinkedRules(winner_points=100)), "meeting", MEETING)
    for change in (
        lambda: spend_reinforcements(linked, "allies", "MG Team"),
        lambda: name_command_unit(linked, "allies", "Sherman 75mm 1"),
        lambda: start_battle(linked, "meeting", MEETING),
    ):
        with pytest.raises(IllegalCommand, match="Battle 1 is being fought"):
            change()


def test_a_game_that_is_not_the_battle_carries_nothing():
    linked = start_battle(campaign(), "meeting", MEETING)
    other = fought(linked, "axis").model_copy(update={"scenario": "escalating"})
    with pytest.raises(IllegalCommand, match="not the finished battle 1 of Normandy"):
        carry_losses(linked, other)
    unfinished = fought(linked, "axis").model_copy(update={"phase": Phase.ACTIVE})
    with pytest.raises(IllegalCommand, match="not the finished battle 1"):
        carry_losses(linked, unfinished)


def test_a_sniper_team_stays_behind_when_its_side_attacks():
    rules = LinkedRules(winner_points=100)
    linked = start_battle(campaign(rules), "meeting", MEETING)
    after = spend_reinforcements(end_battle(linked, fought(linked, "allies")), "allies", "Sniper Team")
    attacking = start_battle(after, "capture", {"allies": "attacker", "axis": "defender"})
    assert "Sniper Team 1" not in attacking.battle.fielded["allies"]
    defending = start_battle(after, "capture", {"allies": "defender", "axis": "attacker"})
    assert "Sniper Team 1" in defending.battle.fielded["allies"]


def test_a_campaign_starts_with_two_players_and_legal_forces():
    good = a_force("german", "Kampfgruppe", "Infantry Detachment")
    leaderless = new_force("us", "Baker Company", 200)
    leaderless = add_unit(leaderless, "Infantry Detachment")
    with pytest.raises(IllegalCommand) as refusal:
        new_linked_campaign("Normandy", {"allies": ("ann", leaderless), "axis": ("bob", good)})
    assert str(refusal.value) == (
        "The Allies' force Baker Company is not ready to fight: "
        "Command unit (p. 18): no unit is the command unit: choose one"
    )
    with pytest.raises(IllegalCommand, match="ann is on both"):
        new_linked_campaign("Normandy", {"allies": ("ann", good), "axis": ("ann", good)})


def test_a_retired_unit_leaves_the_force_for_good_with_no_points_back():
    rules = LinkedRules(loser_points=60)
    linked = start_battle(campaign(rules), "meeting", MEETING)
    after = end_battle(linked, fought(linked, "axis"))
    retired = retire_unit(after, "allies", "sherman 75mm 1")
    side = retired.sides["allies"]
    assert labels(retired, "allies") == ["Infantry Detachment 1", "Infantry Detachment 2"]
    assert [u.label for u in side.retired] == ["Sherman 75mm 1"] and side.points == 60
    assert "Sherman 75mm 1" not in side.units
    assert "   retired: Sherman 75mm 1" in bare(standings_text(retired)).splitlines()
    # its label is not given again
    assert labels(spend_reinforcements(retired, "allies", "Sherman 75mm"), "allies")[-1] == "Sherman 75mm 2"
    assert start_battle(retired, "meeting", MEETING).battle.fielded["allies"] == (
        "Infantry Detachment 1",
        "Infantry Detachment 2",
    )


def test_a_retirement_that_breaks_a_rule_the_force_keeps_is_refused_exactly():
    linked = start_battle(campaign(), "meeting", MEETING)
    after = end_battle(linked, fought(linked, "axis", destroyed=["allies-infantry-detachment-2"]))
    for label, refusal in [
        (
            "Infantry Detachment 1",
            "The Allies cannot retire Infantry Detachment 1: "
            "Command unit (p. 18): no unit is the command unit: choose one",
        ),
        (
            "Panther 1",
            "Able Company has no unit called 'Panther 1' (its units: Infantry Detachment 1, Sherman 75mm 1)",
        ),
    ]:
        with pytest.raises(IllegalCommand) as refused:
            retire_unit(after, "allies", label)
        assert str(refused.value) == refusal
    commanded = name_command_unit(after, "allies", "Sherman 75mm 1")
    alone = retire_unit(commanded, "allies", "Infantry Detachment 1")
    with pytest.raises(IllegalCommand) as refused:
        retire_unit(alone, "allies", "Sherman 75mm 1")
    assert str(refused.value) == "The Allies cannot retire Sherman 75mm 1: it is the force's last unit"


@pytest.mark.parametrize(
    ("winners", "result"),
    [
        (["axis", "allies", "axis"], "the Axis (bob) win the campaign, 2 wins to 1"),
        (["allies", None], "the Allies (ann) win the campaign, 1 win to 0"),
        (["allies", "axis"], "a draw, 1 win each"),
    ],
)
def test_the_campaign_ends_between_battles_and_the_side_with_more_wins_takes_it(winners, result):
    linked = campaign()
    for winner in winners:
        linked = start_battle(linked, "meeting", MEETING)
        being_fought = f"Battle {linked.battle.number} is being fought: end the campaign after it"
        with pytest.raises(IllegalCommand, match=being_fought):
            end_campaign(linked)
        linked = end_battle(linked, fought(linked, winner))
    ended = end_campaign(linked)
    assert unmarked(result_text(ended)) == f"Normandy is over after {len(winners)} battles: {result}"
    assert result_text(ended)[0] == Strong("Normandy")
    assert bare(standings_text(ended)).startswith(f"Normandy (over): {len(winners)} battles fought;")
    for change in (
        lambda: start_battle(ended, "meeting", MEETING),
        lambda: spend_reinforcements(ended, "allies", "MG Team"),
        lambda: retire_unit(ended, "allies", "Sherman 75mm 1"),
        lambda: end_campaign(ended),
    ):
        with pytest.raises(IllegalCommand, match="Normandy is over: nothing more is fought or bought in it"):
            change()


def test_each_battle_keeps_its_dice_by_player():
    rolled = (
        PlayerDie("ann", DieRoll(sides=10, value=7, purpose="to hit, GIs at Grenadiers", needs=5)),
        PlayerDie("bob", DieRoll(sides=6, value=2, purpose="initiative, axis")),
    )
    linked = start_battle(campaign(), "meeting", MEETING)
    after = end_battle(linked, fought(linked, "axis"), rolled, 1)
    assert (after.history[0].dice, after.history[0].unread_rolls) == (rolled, 1)
    assert LinkedCampaign.model_validate_json(after.model_dump_json()).history[0].dice == rolled
