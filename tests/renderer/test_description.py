"""The battlefield picture in words (renderer.description), its alt text: whose picture it is,
the turn and who is to act, what the last action did, each side's units, losses and break
point, the markers, objectives and terrain; plain text, cut cleanly within Discord's 1,024
characters. What an audience may not see stays out of it (tests/renderer/test_hidden_units.py,
tests/engine/test_view.py, tests/bot/test_discord_leaks.py)."""

from __future__ import annotations

from engine.commands import Move, UnitOrder
from engine.deployment.hidden import hide_under_marker
from engine.dice import SeededDice
from engine.scenarios.new_game import make_unit
from engine.view import REFEREE
from renderer.description import DESCRIPTION_LIMIT, describe, within
from tests.renderer.scenes import P, _act, busy_table, quick_after_moves, quick_started
from tests.renderer.test_overlay import window_open


def test_it_says_whose_picture_the_turn_and_who_is_to_act():
    state, _ = quick_started()
    assert describe(state, None).startswith(
        "The battlefield, 72 by 48 inches, as the spectators see it. Turn 1/7. The Allies to act. "
        "The Allies (9 tokens): 1st Squad (1Sq) in D2;"
    )
    assert [describe(state, viewer).split(". ")[0] for viewer in ("allies", "axis", REFEREE)] == [
        "The battlefield, 72 by 48 inches, as the Allies see it",
        "The battlefield, 72 by 48 inches, as the Axis see it",
        "The battlefield, 72 by 48 inches, as the referee sees it",
    ]


def test_it_says_what_the_last_action_did_as_the_overlay_draws_it():
    state, _ = quick_started()
    order = UnitOrder(unit="sherman-1", actions=(Move(path=(P(12, 14),)),))
    moved, events = _act(state, order, SeededDice(7))
    told = describe(moved, None, last_events=events, before=state)
    assert "Last action: Sherman 1 (Sh1) moved from C2 to C3." in told
    shot, events = quick_after_moves()
    assert "Last action: M10 fired at StuG." in describe(shot, None, last_events=events)
    declared, events = window_open()
    assert describe(declared, "axis", last_events=events).startswith(
        "The battlefield, 72 by 48 inches, as the Axis see it. Turn 1/7. The Axis may react to the Allies. "
        "Last action: M10 declared a move to F3; StuG is a declared target."
    )
    assert "Last action" not in describe(shot, None)


def test_each_side_with_its_tokens_markers_losses_and_break_point():
    table = busy_table()
    table.sides["axis"].broken = True
    told = describe(table, None)
    assert "Sherman 1 (Sh1) in C3, 2 tokens;" in told
    assert "Gruppe 2 (Gr2) in G8, 2 morale markers, 1 token;" in told
    assert "lost 3rd Squad (3Sq), Sherman 2 (Sh2): 10 BP of a break point of 22." in told
    assert "The Axis (9 tokens, broken): " in told
    assert "Hidden markers: ? in E7, ? in G6. Objectives: crossroads in G5; church in H6; wood in D4." in told
    assert told.endswith(
        "Terrain: road from A4 to L5; wood (woods) from C3 to F6; church (building) from H5 to I6; farm "
        "(building) from I3 to J4; hedge from B6 to F6; wall from G7 to J7; stream from K1 to K8."
    )


def test_a_side_knows_which_of_its_markers_hides_what():
    state, _ = quick_started()
    hide_under_marker(state, state.units["sherman-1"])
    assert "Sherman 1 (Sh1) in C2, hidden under marker ?1;" in describe(state, "allies")
    spectators = describe(state, None)
    assert "Sherman 1" not in spectators and "Hidden markers: ?1 in C2." in spectators


def test_a_long_description_is_cut_at_a_word_with_an_ellipsis_within_discords_limit(monkeypatch):
    state, _ = quick_started()
    for n in range(60):
        gis = make_unit("us", "Infantry Detachment", "allies", (2 + n, 3), unit_id=f"gi-{n}", name=f"GIs {n}")
        state.units[gis.id] = gis
    told = describe(state, None)
    assert len(told) <= DESCRIPTION_LIMIT and told.endswith("…")
    monkeypatch.setattr("renderer.description.within", lambda text: text)
    whole = describe(state, None)
    assert whole.startswith(told[:-1]) and whole[len(told) - 1] in " ,;:."  # cut between two words
    assert within("x" * 2000) == "x" * 1023 + "…"
    assert within("") == "" and within("Short.") == "Short."


def test_it_is_plain_text():
    state, events = quick_after_moves()
    told = describe(state, None, last_events=events)
    assert not {"*", "_", "`", "<", "#"} & set(told)
    assert "\n" not in told
