"""Unit tags (engine.tags): the letters a unit is shown under on the picture, which a player may
also type to name it."""

from engine.scenarios.quick_battle import quick_battle
from engine.tags import unit_tag
from engine.view import SPECTATORS, units_tagged, view_for


def test_unit_tags():
    names = ["Sherman 1", "1st Squad", "Sd.Kfz 222", "MG 42", "StuG", "Panzer IV G (late) to J", "Vickers"]
    assert [unit_tag(n) for n in names] == ["Sh1", "1Sq", "Sd222", "MG42", "StuG", "PzIV", "Vic"]
    assert len(unit_tag("A very long name indeed")) <= 5


def test_the_view_tags_each_unit_as_its_picture_shows_it():
    state = quick_battle()
    tags = view_for(state, SPECTATORS).tags
    assert (tags["sherman-1"], tags["gruppe-1"], tags["panzer-iv"], tags["1st-squad"]) == (
        "Sh1",
        "Gr1",
        "PzIV",
        "1Sq",
    )
    assert [u.id for u in units_tagged(state, "axis", "gr1")] == ["gruppe-1"]
    assert units_tagged(state, "axis", "Gr1", side="allies") == []
