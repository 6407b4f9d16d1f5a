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
    """Gruppe 1 and Green 1 would both read Gr1 on the channel's picture, so each spells a letter
    more of its name (Gru1, Gre1); the allies' hidden Grenadier 1 is tagged after them, among the
    hidden alone, and takes Gr1, free: the tags the public reads name the same units for the
    allies, and nobody else learns of a third Gr..."""
    units = [
        make_unit("us", "Sniper Team", "allies", (50, 30), unit_id="sniper", name="Grenadier 1", hidden=True),
        make_unit("us", "Infantry Detachment", "allies", (30, 30), unit_id="gruppe", name="Gruppe 1"),
        make_unit("us", "Infantry Detachment", "allies", (40, 30), unit_id="green", name="Green 1"),
    ]
    state = new_game({"allies": "us", "axis": "german"}, units)
    public = view_for(state, SPECTATORS).tags
    assert public == {"gruppe": "Gru1", "green": "Gre1"} == view_for(state, "axis").tags
    assert view_for(state, "allies").tags == {**public, "sniper": "Gr1"} == view_for(state, REFEREE).tags


def test_tags_are_unique_on_a_side_and_numbers_are_never_cut():
    """Two Sd.Kfz 222 and two Sd.Kfz 221 (names alike but for whose they are): each keeps its
    whole number and takes a letter after it."""
    names = ["Sd.Kfz 222", "Sd.Kfz 222", "Sd.Kfz 221", "Sd.Kfz 221"]
    units = [
        make_unit("german", "Sd.Kfz 222", "axis", (10 * i, 40), unit_id=f"car-{i}", name=name)
        for i, name in enumerate(names, start=1)
    ]
    tags = tags_for(units)
    assert list(tags.values()) == ["Sd222a", "Sd222b", "Sd221a", "Sd221b"]


def test_tags_of_forces_built_with_force_read_as_their_names():
    """Units a force names "<entry> <n>" (engine.forces.next_label) are tagged from the entry's
    words and the number: no run of initials ("M1T1", "MGT1", "InD1" before), and two entries
    alike at first take their next word ("Sherman 75mm 1", "Sherman 76mm 1")."""
    names = ["Infantry Detachment 1", "MG Team 1", "M10 Tank Destroyer 1", "Sherman 75mm 1", "Sherman 76mm 1",
             "57mm Anti-tank Gun 1", "Infantry Detachment 1 (M3 Halftrack/Dodge WC-51)"]
    units = [make_unit("us", "Infantry Detachment", "allies", (0, 0), unit_id=f"u{i}", name=name)
             for i, name in enumerate(names)]
    assert list(tags_for(units).values()) == ["Inf1", "MG1", "M10-1", "Sh75-1", "Sh76-1", "57AT1", "M3-1"]
