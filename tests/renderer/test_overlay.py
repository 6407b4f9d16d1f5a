"""What just happened and what is about to, on the picture: the declared order while a reaction
window is open, each unit's trail once it moved, each shot its own arrow, set-up zones and team
players."""

from __future__ import annotations

import pytest

from engine.commands import Declare, DeclineReaction, Fire, Move, UnitOrder
from engine.dice import SeededDice
from engine.event_data import FireData
from engine.events import Event
from engine.game import apply
from engine.roster import remember_name
from engine.state import Phase
from engine.view import view_for
from engine.wording import counted
from renderer import palette as pal
from renderer import picture
from renderer.layout import CELL_W
from renderer.overlay import last_action
from renderer.panel import player_names
from tests.engine.team_games import deploy_all, team_game, turn_one
from tests.renderer.pixels import colours
from tests.renderer.scenes import P, quick_started

ORDER = UnitOrder(unit="m10", actions=(Move(path=(P(30, 12), P(34, 16))), Fire(target="stug")))


def window_open():
    """The allies declared: M10 moves through 30.0,12.0 to 34.0,16.0 and fires at the StuG."""
    state, _ = quick_started()
    return apply(state, Declare(side="allies", order=ORDER), SeededDice(7))


def strip(canvas, a, b, frame, r=3):
    """The colours along the straight line between two table points (r px either side)."""
    (x0, y0), (x1, y1) = frame.px(a.x, a.y), frame.px(b.x, b.y)
    found = set()
    for i in range(1, 10):
        x, y = x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10
        found |= colours(canvas.image.crop((round(x - r), round(y - r), round(x + r), round(y + r))))
    return found


def test_the_reacting_side_sees_the_declared_move_and_target():
    state, events = window_open()
    assert state.phase is Phase.REACTION
    start = state.units["m10"].position
    overlay = last_action(events, view_for(state, "axis"), "axis", state=state)
    assert overlay.declared == [[start, P(30, 12), P(34, 16)]]
    assert [u.id for u in overlay.targets] == ["stug"] and overlay.aims[0][0] == P(34, 16)
    drawn = picture(state, "axis", last_events=events)
    plain = picture(state.model_copy(update={"pending": None, "phase": Phase.ACTIVE}), "axis")
    frame = drawn.frame
    assert pal.INK in strip(drawn, start, P(30, 12), frame)  # the dashed arrow, leg by leg
    assert pal.INK in strip(drawn, P(30, 12), P(34, 16), frame)
    stug = state.units["stug"].position
    assert pal.FIRE_LINE in strip(drawn, P(34, 16), stug, frame)  # dashed line of fire to the ring
    assert pal.FIRE_LINE not in strip(plain, P(34, 16), stug, frame)
    texts = {text for _, text in drawn.texts}
    assert {"declared move", "declared target"} <= texts


def test_a_declared_target_the_viewer_cannot_see_is_not_ringed():
    state, events = window_open()
    state = state.fork()
    state.units["stug"].hidden = True
    overlay = last_action(events, view_for(state, "allies"), "allies", state=state)
    assert overlay.declared and not overlay.targets and not overlay.aims


def test_a_move_leaves_a_trail_through_its_declared_path():
    before, _ = window_open()
    after, events = apply(before, DeclineReaction(side="axis", window=before.pending.window), SeededDice(7))
    assert after.units["m10"].position == P(34, 16)
    overlay = last_action(events, view_for(after, None), None, state=after, before=before)
    assert overlay.trails == [([before.units["m10"].position, P(30, 12), P(34, 16)], "allies")]
    drawn = picture(after, None, last_events=events, before=before)
    assert pal.ALLIES.fill in strip(drawn, P(30, 12), P(34, 16), drawn.frame)
    assert "moved" in {text for _, text in drawn.texts}
    assert not last_action(events, view_for(after, None), None, state=after).trails  # no before: no trail


def test_each_shot_is_its_own_arrow():
    state, _ = quick_started()
    shot = FireData(firer="m10", target="stug", distance=20.0)
    shots = [Event(kind="fire", text="shot", units=("m10", "stug"), data=shot) for _ in range(2)]
    overlay = last_action(shots, view_for(state, None))
    assert [repeat for _, _, repeat in overlay.shots] == [0, 1]
    once = picture(state, None, last_events=shots[:1]).image
    twice = picture(state, None, last_events=shots).image
    red = [im.getcolors(im.width * im.height) for im in (once, twice)]
    red = [next(n for n, c in found if c == pal.FIRE_LINE) for found in red]
    assert red[1] > red[0] * 1.5  # a second arrow beside the first, not on top of it


@pytest.mark.parametrize("viewer", ["allies", "referee"])
def test_set_up_zones_are_drawn_during_set_up_only(viewer):
    state = team_game()
    assert state.phase is Phase.SETUP
    canvas = picture(state, viewer)
    bare = picture(state.model_copy(update={"deployment": None}), viewer)
    edge = (P(20, 12), P(60, 12))  # the allies' zone reaches 12" from their edge
    assert pal.ALLIES.fill in strip(canvas, *edge, canvas.frame, r=4)
    assert pal.ALLIES.fill not in strip(bare, *edge, bare.frame, r=4)
    texts = {text for _, text in canvas.texts}
    assert {"Allies set up", "Axis set up", "set-up zone"} <= texts
    deployed = deploy_all(team_game())
    assert all(plan.done for plan in deployed.deployment.sides.values())
    assert "set-up zone" not in {text for _, text in picture(deployed, viewer).texts}


def test_team_games_show_which_player_holds_which_unit():
    state = deploy_all(team_game())
    names = player_names(state, "allies")
    assert names == {"ann": "P1", "bob": "P2"}  # joined without a name: the console's players
    canvas = picture(state, "referee")
    texts = [text for _, text in canvas.texts if text.startswith("P")]
    assert any(t.startswith("P1 (CO):") for t in texts) and any(t.startswith("P2:") for t in texts)
    assert not any("ann" in text or "bob" in text for _, text in canvas.texts)  # no raw player ids


def test_team_games_name_each_player_as_they_go_by_bounded_however_long_or_hostile():
    state = turn_one().fork()
    remember_name(state, "ann", "**Annabel** <@301> von Ahlefeldt-Laurvig-Bille")
    remember_name(state, "bob", "Bob")
    assert player_names(state, "allies") == {"ann": "Annabel von Ahlefel…", "bob": "Bob"}
    tokens = state.sides["allies"].team.tokens
    canvas = picture(state, "referee")
    texts = [text for _, text in canvas.texts]
    at = next(i for i, text in enumerate(texts) if text.startswith("Annabel von"))  # a line of its own
    assert texts[at + 1] == f"CO, {counted(tokens['ann'], 'token')}"
    assert f"Bob: {counted(tokens['bob'], 'token')}" in texts
    assert any(text.startswith("P1 (CO): ") for text in texts)  # the axis joined without names
    assert all(x1 - x0 <= CELL_W for (x0, _, x1, _), _ in canvas.texts if x0 >= canvas.frame.panel_left)
    assert not any("*" in text or "@" in text or "<" in text for text in texts)


def test_names_in_other_scripts_are_spelt_in_letters_the_font_has_and_emoji_left_out():
    """The picture's font has Latin letters only: a name is spelt in them rather than drawn as
    empty boxes, and a name of emoji alone falls back to the player's number."""
    state = turn_one().fork()
    remember_name(state, "ann", "Łukasz 🎖️")
    remember_name(state, "bob", "🎖️🎖️")
    assert player_names(state, "allies") == {"ann": "Lukasz", "bob": "P2"}
    remember_name(state, "bob", "Дмитрий")
    assert player_names(state, "allies")["bob"] == "Dmitriy"


def test_under_hidden_deployment_the_owner_reads_which_marker_hides_which_unit():
    plain, _ = quick_started()
    state = plain.fork()
    unit = state.units["gruppe-2"]
    unit.hidden, unit.marker, unit.true_name, unit.name = True, 3, unit.name, "Marker 3"
    own = {text for _, text in picture(state, "axis").texts}
    enemy = [text for _, text in picture(state, "allies").texts]
    assert {"?Gr2", "Gruppe 2 (?3)"} <= own
    assert not any("Gr2" in t or "Gruppe 2" in t for t in enemy)
    before = [text for _, text in picture(plain, "allies").texts]
    assert enemy.count("3") == before.count("3") + 1  # the marker's number under it
