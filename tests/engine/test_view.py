"""What each audience may see (engine/view.py): who a player reads as, what an event tells each
audience, the secrets of one side, a rule set's own marks; and, over random games with hidden
markers and dummies (p. 26), that nothing an audience is shown (its picture's description too)
names a unit it may not know."""

import random
import re

import pytest

from engine.cards import Card, CardInPlay, Cards
from engine.commands import Move
from engine.deployment.hidden import add_dummy_markers, hide_under_marker
from engine.dice import SeededDice, d6
from engine.errors import IllegalCommand
from engine.events import Event, EventLog
from engine.firing.losses import explode
from engine.game_state import GameState
from engine.rulesets import with_rule_set
from engine.scenarios.new_game import make_unit
from engine.scenarios.quick_battle import quick_battle
from engine.state import CoverKind, Going, Objective, Phase, Point, RefereeRule
from engine.variants.house_v1.state import FireMarker
from engine.view import (
    REFEREE,
    SPECTATORS,
    audience_of,
    declared_order,
    dice_shown,
    events_for,
    hand_of,
    knows_objective,
    knows_rule,
    may_name,
    sees,
    told,
    view_for,
)
from renderer import picture
from renderer.description import describe
from tests.engine.helpers import act, box, declare, game, started
from tests.engine.random_play import apply_purely, random_command, team_business

AUDIENCES = ("allies", "axis", REFEREE, SPECTATORS)


def test_a_player_reads_as_their_side_a_referee_as_the_referee_anyone_else_as_the_spectators():
    state = quick_battle()
    state.sides["allies"].players.append("ann")
    state.referees = ["rex"]
    assert [audience_of(state, who) for who in ("ann", "rex", "bystander")] == ["allies", REFEREE, None]


def test_a_secret_event_tells_its_side_and_the_referee_the_truth_and_the_others_its_public_text():
    secret = Event(
        kind="deploy", text="The Allies set up Sherman 1", side="allies", public="The Allies set up M1"
    )
    referees_only = Event(kind="referee", text="Reinforcements arrive on turn 4", public="")
    public = Event(kind="move", text="Gruppe 1 moves")
    assert [told(secret, a) for a in AUDIENCES] == [secret.text, secret.public, secret.text, secret.public]
    assert [told(referees_only, a) for a in AUDIENCES] == ["", "", referees_only.text, ""]
    assert events_for("axis", [secret, referees_only, public]) == ["The Allies set up M1", "Gruppe 1 moves"]
    assert [dice_shown(secret, a) for a in AUDIENCES] == [True, False, True, False]  # /stats: spectators
    assert [dice_shown(public, a) for a in AUDIENCES] == [True, True, True, True]


def test_what_belongs_to_one_side_is_known_to_it_and_the_referee():
    state = quick_battle()
    ambush = Card(id="c1", name="Ambush", cost=2, when="any time", text="A unit fires first", lasting=True)
    state.cards = Cards(
        deck=[],
        set_aside=[],
        hands={"allies": [ambush], "axis": []},
        in_play={"allies": [CardInPlay(card=ambush)]},
    )
    quarry = Objective(id="quarry", position=Point(x=1, y=1), side="axis")
    note = RefereeRule(audience="referee", text="Zephyr arrives on turn four")
    assert [knows_objective(quarry, a) for a in AUDIENCES] == [False, True, True, False]
    assert [knows_rule(note, a) for a in AUDIENCES] == [False, False, True, False]
    assert knows_rule(RefereeRule(audience="both", text="No air"), SPECTATORS)
    assert [hand_of(state, "allies", a) is not None for a in AUDIENCES] == [True, False, True, False]
    held = hand_of(state, "allies", "allies")
    assert (held.cards, [c.card for c in held.in_play], held.exchanged) == ([ambush], [ambush], False)
    state.objectives = [quarry]
    assert [len(view_for(state, a).objectives) for a in AUDIENCES] == [0, 1, 1, 0]


def test_a_hidden_unit_may_be_named_by_its_side_but_never_aimed_at():
    state = quick_battle()
    sherman = state.units["sherman-1"]
    hide_under_marker(state, sherman)
    assert [sees(sherman, a) for a in AUDIENCES] == [True, False, True, False]
    assert may_name(sherman, "allies") and not may_name(sherman, "allies", aiming=True)


def test_a_hidden_units_declared_order_is_known_to_its_side_and_the_referee_alone():
    advance = Move(path=(Point(x=20, y=10),))
    state = started(quick_battle(), "allies")
    hide_under_marker(state, state.units["1st-squad"])
    state, _ = declare(state, "allies", "1st-squad", advance)
    assert [declared_order(state, a) is not None for a in AUDIENCES] == [True, False, True, False]
    state, _ = declare(started(quick_battle(), "allies"), "allies", "1st-squad", advance)
    assert declared_order(state, SPECTATORS) == state.pending.order


def test_the_house_rules_show_a_placed_fire_marker_to_everyone_and_a_failed_request_to_no_one():
    """House Rules V1.0, s. 5 Indirect Fire; the 2015 rules have no such marks."""
    state = with_rule_set(quick_battle(), "house_v1")
    state.fire_markers = [
        FireMarker(side="axis", at=Point(x=10, y=10), turn=1),
        FireMarker(side="allies", at=Point(x=20, y=20), turn=1, placed=False),
    ]
    for audience in AUDIENCES:
        assert [(m.kind, m.at, m.side) for m in view_for(state, audience).marks] == [
            ("fire", Point(x=10, y=10), "axis")
        ]
    assert view_for(quick_battle(), "axis").marks == ()


def hidden_game(seed: int) -> GameState:
    """The quick battle with three units of each side under numbered markers, among dummies
    standing near them (hidden deployment, p. 26)."""
    rng = random.Random(seed)
    state = quick_battle()
    for side in state.sides:
        units = rng.sample(state.units_of(side), 3)
        for dummy in map(state.units.get, add_dummy_markers(state, side)):
            near = rng.choice(units).position
            dummy.in_reserve, dummy.position = False, Point(x=near.x + 2, y=near.y + 1)
            units.append(dummy)
        for unit in rng.sample(units, len(units)):
            hide_under_marker(state, unit)
    return state


def secrets_from(state: GameState, audience: str | None) -> list[str]:
    """The true names and ids of the units ``audience`` may not know, but for those that are part
    of a name it does know (the hidden "MG" inside "MG 42")."""
    known = " ".join(f"{u.name} {u.true_name} {u.id}" for u in state.units.values() if sees(u, audience))
    hidden = [u for u in state.units.values() if not sees(u, audience)]
    return [word for u in hidden for word in (u.true_name or u.name, u.id) if word not in known]


def naming(texts: list[str], words: list[str]) -> list[tuple[str, str]]:
    return [(t, w) for t in texts for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", t)]


def shown_to(state: GameState, audience, events: list[Event], before: GameState, drawn: bool) -> list[str]:
    """Every text ``audience`` is shown: the names in its view, its lines of the events, its
    picture's description, and, when ``drawn``, the texts recorded on its picture."""
    view = view_for(state, audience)
    texts = [f"{u.name} {u.id}" for u in view.units] + [caption for _, caption in view.markers + view.dummies]
    texts += events_for(audience, events)
    texts.append(describe(state, audience, last_events=events, before=before))
    if drawn:
        texts += [text for _, text in picture(state, audience, last_events=events, before=before).texts]
    return texts


@pytest.mark.parametrize("seed", [3, 8])
def test_nothing_an_audience_is_shown_names_a_unit_it_may_not_know(seed):
    rng, dice = random.Random(seed), SeededDice(seed)
    state = hidden_game(seed)
    hidden_at_start = len(secrets_from(state, "axis"))
    shown_the_referee = 0  # texts naming a unit hidden from someone: the check has teeth
    for step in range(120):
        if state.phase is Phase.OVER:
            break
        before = state
        for _attempt in range(40):
            try:
                command = team_business(state, rng) or random_command(state, rng)
                state, events = apply_purely(state, command, dice)
                break
            except IllegalCommand:
                continue
        else:
            break
        drawn = step % 20 == 0
        for audience in ("allies", "axis", SPECTATORS):
            secrets = secrets_from(state, audience)
            assert naming(shown_to(state, audience, events, before, drawn), secrets) == [], (step, audience)
            shown_the_referee += len(naming(shown_to(state, REFEREE, events, before, False), secrets))
    assert hidden_at_start >= 8 and shown_the_referee > 0 and state.turn >= 1


def _hidden_sniper_in_rubble() -> GameState:
    """A hidden US sniper team (its dummy far off) at the edge of rubble, its side to act."""
    rubble = box("rubble", "rubble", 20, 44, 30, 54, going=Going.VERY_ROUGH, cover=CoverKind.COVER)
    state = started(
        game(
            make_unit("us", "Sniper Team", "allies", (25, 40), unit_id="sniper"),
            make_unit("us", "Sherman 75mm", "allies", (60, 40), unit_id="sherman"),
            make_unit("german", "Infantry Detachment", "axis", (94, 70), unit_id="far", name="Far away"),
            terrain=[rubble],
        ),
        "allies",
    )
    state.units["sniper"].hidden, state.units["sniper"].decoy = True, Point(x=80, y=10)
    return state


def test_the_channel_reads_a_hidden_sniper_teams_terrain_tests_unnamed_p20():
    """Through or stuck, a hidden sniper team's terrain test names it to its side alone."""
    state = _hidden_sniper_in_rubble()
    _, events = act(state, "allies", "sniper", Move(path=(Point(x=25, y=46),)), faces=[d6(4)])
    (through,) = [e for e in events if e.kind == "terrain_test"]
    assert told(through, "allies") == "Sniper Team needs 4+ to cross rubble: rolled 4, through"
    assert (
        told(through, SPECTATORS)
        == told(through, "axis")
        == "a sniper marker needs 4+ to cross rubble: rolled 4, through"
    )
    _, events = act(state, "allies", "sniper", Move(path=(Point(x=25, y=46),)), faces=[d6(3)])
    (stuck,) = [e for e in events if e.kind == "terrain_test"]
    assert (
        told(stuck, REFEREE)
        == "Sniper Team needs 4+ to cross rubble: rolled 3, stuck; no more actions this turn"
    )
    assert told(stuck, "axis") == "a sniper marker is stuck"


def test_a_blast_that_shakes_a_hidden_sniper_team_is_told_to_its_side_alone_p12():
    """A friendly vehicle explodes beside a hidden sniper team: the marker it takes would tell
    the enemy which of the two markers is the team (p. 20)."""
    state = _hidden_sniper_in_rubble()
    state.units["sherman"].position = Point(x=27, y=40)
    log = EventLog(SeededDice(1))
    explode(state, state.units["sherman"], log)
    (shaken,) = [e for e in log.events if e.kind == "kaboom"]
    assert told(shaken, "allies") == "Sniper Team is shaken by the blast: +1 marker"
    assert told(shaken, "axis") == told(shaken, SPECTATORS) == ""
