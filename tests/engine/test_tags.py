"""Unit tags (engine.tags): the letters a unit is shown under on the picture, which a player may
also type to name it."""

from engine.scenarios.new_game import make_unit, new_game
from engine.scenarios.quick_battle import quick_battle
from engine.tags import tags_for, unit_tag
from engine.view import REFEREE, SPECTATORS, units_tagged, view_for


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


def test_a_units_tag_reads_the_same_on_every_picture_and_a_hidden_one_shows_no_gap():
    """Gruppe 1 and Green 1 clash (Gr1a, Gr1b) on the channel's picture; the allies' hidden
    Grenadier 1 clashes too, but it takes a tag neither has (Gr1 is free), so the tags the public
    reads name the same units for the allies, and nobody else learns of a third Gr1."""
    units = [
        make_unit("us", "Sniper Team", "allies", (50, 30), unit_id="sniper", name="Grenadier 1", hidden=True),
        make_unit("us", "Infantry Detachment", "allies", (30, 30), unit_id="gruppe", name="Gruppe 1"),
        make_unit("us", "Infantry Detachment", "allies", (40, 30), unit_id="green", name="Green 1"),
    ]
    state = new_game({"allies": "us", "axis": "german"}, units)
    public = view_for(state, SPECTATORS).tags
    assert public == {"gruppe": "Gr1a", "green": "Gr1b"} == view_for(state, "axis").tags
    assert view_for(state, "allies").tags == {**public, "sniper": "Gr1"} == view_for(state, REFEREE).tags


def test_tags_are_unique_on_a_side_even_cut_short():
    """Two Sd.Kfz 222 and two Sd.Kfz 221: a letter after a five-letter tag cuts its last digit,
    so each takes the first letter free."""
    names = ["Sd.Kfz 222", "Sd.Kfz 222", "Sd.Kfz 221", "Sd.Kfz 221"]
    units = [
        make_unit("german", "Sd.Kfz 222", "axis", (10 * i, 40), unit_id=f"car-{i}", name=name)
        for i, name in enumerate(names, start=1)
    ]
    tags = tags_for(units)
    assert list(tags.values()) == ["Sd22a", "Sd22b", "Sd22c", "Sd22d"]
