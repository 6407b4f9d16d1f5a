"""Tags on the battlefield picture: each by its counter, clear of every counter and label, with
a short leader line crossing no label or leader where it had to move off; where there is no room,
the roster says which square the unit is in. Tags read as the units' names and roster names are
never cut so that two read the same (issue 32).

The leader bound is renderer.labels.MAX_LEADER: three chip heights (90 px as drawn, 45 px at the
size Discord shows inline) past the counter's box."""

from __future__ import annotations

import pytest
from PIL import ImageDraw
from shapely.geometry import LineString, box

from engine.forces import Force, add_unit, force_units, order_of_battle
from engine.scenarios.new_game import make_unit
from engine.scenarios.quick_battle import quick_battle
from engine.state import Point
from engine.tags import tag_name, tags_for
from engine.view import view_for
from renderer import palette as pal
from renderer import picture
from renderer.description import square_of
from renderer.panel import roster_name
from renderer.tags import chip_text
from tests.renderer.picture_checks import placement_faults, readable, roster_faults, told_from
from tests.renderer.random_forces import random_battle

VIEWERS = (None, "allies", "axis", "referee")


@pytest.fixture
def leaders_drawn(monkeypatch):
    """The leader lines the picture draws, as drawn: a light halo line, then the leader over it."""
    drawn, halos = [], set()
    line = ImageDraw.ImageDraw.line

    def recording(self, xy, fill=None, width=0, joint=None):
        key = tuple(tuple(p) for p in xy)
        if fill == pal.HALO and width == 4:
            halos.add(key)
        elif fill == pal.LEADER and width == 2 and key in halos:
            drawn.append(key)
        return line(self, xy, fill=fill, width=width, joint=joint)

    monkeypatch.setattr(ImageDraw.ImageDraw, "line", recording)
    return drawn


def _crossings(leaders, labels) -> list[str]:
    """Leaders across a label's inside, and leaders across each other."""
    lines = [LineString(s) for s in leaders]
    inside = [box(b[0] + 0.5, b[1] + 0.5, b[2] - 0.5, b[3] - 0.5) for b in labels]
    out = [
        f"a leader crosses the label at {b}"
        for line in lines
        for b, i in zip(labels, inside, strict=True)
        if line.intersects(i)
    ]
    return out + [
        f"leaders {a} and {b} cross"
        for a in range(len(lines))
        for b in range(a + 1, len(lines))
        if lines[a].intersects(lines[b])
    ]


def test_the_mg_42s_leader_runs_under_no_tag(leaders_drawn):
    """The players' report: the MG 42 tucked in among the Gruppen, its tag moved off with a leader
    line that ran under Gruppe 2's tag."""
    state = quick_battle()
    for unit_id, (x, y) in {
        "mg-42": (34, 44),
        "gruppe-1": (33, 41),
        "gruppe-2": (27, 44),
        "gruppe-3": (33, 38),
    }.items():
        state.units[unit_id].position = Point(x=x, y=y)
    canvas = picture(state, None)
    assert {"MG42", "Gr2"} <= {t for _, t in canvas.texts}
    assert _crossings(leaders_drawn, canvas.labels) == []


def _crowd():
    """Ten units of two forces within a few inches of the table's middle, clear of each other."""
    state = quick_battle()
    spots = [
        (30, 20),
        (33, 20),
        (36, 20),
        (39, 20),
        (30, 23.5),
        (33, 23.5),
        (36, 23.5),
        (39, 23.5),
        (34, 27),
        (38, 27),
    ]
    for unit, (x, y) in zip(state.units.values(), spots, strict=False):
        unit.position = Point(x=x, y=y)
    return state


@pytest.mark.parametrize("viewer", VIEWERS)
def test_a_crowd_of_tags_keeps_clear_of_counters_labels_and_leaders(leaders_drawn, viewer):
    """Packed counters: tags used to be pushed to whatever spot overlapped least, over other tags
    and counters, their leaders under other tags."""
    state = _crowd()
    canvas = picture(state, viewer)
    labels = canvas.labels
    for i, a in enumerate(labels):
        assert not any(box(*a).intersection(box(*b)).area for b in labels[i + 1 :]), "two labels overprint"
    assert _crossings(leaders_drawn, labels) == []
    assert placement_faults(canvas, view_for(state, viewer)) == []


def _force_game():
    """The allies' force as ``/force`` builds it, two Shermans of one kind and one of another."""
    force = Force(nation="us", name="Able", points_limit=2000)
    for entry in (
        "Sherman 75mm",
        "Sherman 75mm",
        "Sherman 76mm",
        "M10 Tank Destroyer",
        "Infantry Detachment",
    ):
        force = add_unit(force, entry)
    state = quick_battle()
    for unit_id in [u.id for u in state.units.values() if u.side == "allies"]:
        del state.units[unit_id]
    for i, unit in enumerate(force_units(force, "allies")):
        unit.position = Point(x=10 + 12 * i, y=8)
        state.units[unit.id] = unit
    return state


def test_no_two_roster_names_read_the_same():
    """The roster cut names at the end ("Sherman 75..." twice, "Sd.Kfz 2...", "HQ Gru..."): the
    two Shermans 75mm and the 76mm must each read as themselves."""
    state = _force_game()
    canvas = picture(state, None)
    frame = canvas.frame
    panel = [t for (x0, y0, _, _), t in canvas.texts if x0 >= frame.panel_left or y0 >= frame.table_bottom]
    assert not [t for t in panel if t.endswith("...")]
    names = [t for t in panel if "75mm" in t or "76mm" in t or "Sd.Kfz" in t or "HQ" in t]
    assert len(names) == 5 and len(set(names)) == 5, names
    assert all(
        told_from(t, n)
        for t, n in zip(names[:3], ["Sherman 75mm 1", "Sherman 75mm 2", "Sherman 76mm 1"], strict=True)
    )


def test_every_order_of_battle_entry_is_tagged_from_its_own_words():
    """A force of one of every entry of each nation's order of battle, numbered as ``/force``
    numbers them: every tag reads as its name, none a run of initials ("M1T1", "MGT1")."""
    for nation in ("us", "british", "soviet", "german"):
        units = [
            make_unit(nation, "Infantry Detachment", "allies", (0, 0), unit_id=f"u{i}", name=f"{entry} {n}")
            for i, (entry, n) in enumerate((e, n) for e in order_of_battle(nation) for n in (1, 2))
        ]
        tags = tags_for(units)
        unreadable = {u.name: tags[u.id] for u in units if not readable(tags[u.id], u.name, alike=False)}
        assert unreadable == {}
        assert len(set(tags.values())) == len(units)


def _left_out(cells) -> int:
    """How many lines the roster's last line says it left out ("and 4 more"), if it says so."""
    last = cells[-1] if cells else ("",)
    words = last[1].split() if last[0] == "heading" else []
    return int(words[1]) if len(words) == 3 and words[0] == "and" and words[2] == "more" else 0


@pytest.mark.parametrize("seed", range(200))
def test_random_tables_and_forces(seed):
    """Random tables, forces, spreads and audiences: every tag placed obeys the rules, every unit
    left untagged is told of by square in its roster line, every tag reads as its unit's name and
    is its side's only one, and no two roster names under a heading read the same."""
    state = random_battle(seed)
    viewer = VIEWERS[seed % len(VIEWERS)]
    canvas = picture(state, viewer)
    view = view_for(state, viewer)
    assert placement_faults(canvas, view) == []
    cells = canvas.cells
    texts = {t for _, t in canvas.texts}
    assert roster_faults(cells, texts) == []
    units = {u.id: u for u in view.units}
    given = [(u.side, tag_name(u).casefold()) for u in units.values()]
    for unit_id, tag in view.tags.items():
        unit = units[unit_id]
        alike = given.count((unit.side, tag_name(unit).casefold())) > 1
        assert readable(tag, tag_name(unit), alike), (tag, unit.name)
    by_side = [(units[i].side, t) for i, t in view.tags.items()]
    assert len(set(by_side)) == len(by_side)
    lines, keys = _unit_lines(cells, view), _key_entries(cells)
    untold = []
    for unit_id in canvas.untagged:
        unit, where = units[unit_id], f"in {square_of(state.table, units[unit_id].position)}"
        chip = chip_text(unit, view.tags[unit_id], view.passengers.get(unit_id, 0))
        square = where.removeprefix("in ")
        told = lines[unit_id][5] == where if unit_id in lines else (unit.side, f"{chip} {square}") in keys
        if not (told and square in " ".join(texts)):
            untold.append(unit.name)
    # where even the key lines do not fit the picture's box, the roster's end says how many it left out
    assert len(untold) <= _left_out(cells), (
        f"{untold} are untagged, and the roster neither says where nor counts them"
    )
    by_id = {u.id: u for u in view.units}
    for unit_id, cell in _unit_lines(cells, view).items():
        unit = by_id[unit_id]
        full = cell[4] or cell[5]  # a line of badges or a square may have no room for a name
        assert told_from(cell[3], roster_name(unit)) or (full and cell[3] == ""), (cell[3], unit.name)


def _key_entries(cells) -> set:
    """The (side, "tag square") entries of the roster's key lines (a side heading's swatch, then
    entries that are not the side's name)."""
    out = set()
    for cell in cells:
        if cell[0] == "heading" and cell[2] is not None and ":" not in cell[1]:
            side = next(s for s, style in _STYLES.items() if style == cell[2])
            out |= {(side, entry) for entry in cell[1].split(", ")}
    return out


_STYLES = pal.side_styles(["allies", "axis"])


def _unit_lines(cells, view) -> dict:
    """Each unit's roster line (by id), found by its side's heading and its chip."""
    chips = {(u.side, chip_text(u, view.tags[u.id], view.passengers.get(u.id, 0))): u.id for u in view.units}
    lines, side = {}, None
    for cell in cells:
        if cell[0] == "heading" and cell[2] is not None and ":" in cell[1]:
            side = next(s for s in ("allies", "axis") if cell[1].casefold().startswith(s))
        elif cell[0] == "unit":
            lines[chips[side, cell[1]]] = cell
    return lines
