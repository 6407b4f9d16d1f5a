"""Geometry for the rules: footprints, arcs, aspect, sight, cover, hull down and paths."""

from __future__ import annotations

import math
import random

import pytest

from engine import geometry as g
from engine.profiles import Drive, UnitClass, UnitProfile
from engine.state import CoverKind, Point, TerrainFeature, Unit


def P(x: float, y: float) -> Point:
    return Point(x=x, y=y)


def make(cls: UnitClass, x: float, y: float, facing: float = 0.0) -> Unit:
    vehicle = cls.is_vehicle
    profile = UnitProfile(
        name=f"test {cls}",
        nation="test",
        unit_class=cls,
        armour_front=10 if vehicle else None,
        armour_side=8 if vehicle else None,
        weapon=5,
        morale=5,
        points=10,
        break_points=1,
        drive=Drive.TRACKED if vehicle else Drive.FOOT,
    )
    return Unit(id=f"u-{cls}", name=str(cls), side="a", profile=profile, position=P(x, y), facing=facing)


def box(fid: str, x0: float, y0: float, x1: float, y1: float, **kw) -> TerrainFeature:
    kw.setdefault("kind", "woods")
    outline = (P(x0, y0), P(x1, y0), P(x1, y1), P(x0, y1))
    return TerrainFeature(id=fid, outline=outline, **kw)


def line(fid: str, *pts: tuple[float, float], **kw) -> TerrainFeature:
    kw.setdefault("kind", "hedge")
    return TerrainFeature(id=fid, outline=tuple(P(x, y) for x, y in pts), linear=True, **kw)


WOOD = box("wood", 10, 10, 20, 20, blocks_sight=True, cover=CoverKind.COVER)
FIELD = box("field", 0, 0, 40, 40, kind="field")  # no sight blocking, no cover


# --- footprints and distances ------------------------------------------------------------


def test_footprint_sizes():
    assert g.FOOTPRINT == {
        UnitClass.INFANTRY: (2.0, 2.0),
        UnitClass.SUPPORT: (2.0, 2.0),
        UnitClass.LIGHT: (3.0, 2.0),
        UnitClass.MEDIUM: (4.0, 2.5),
        UnitClass.HEAVY: (4.5, 3.0),
    }


def test_footprint_is_rotated_rectangle():
    tank = make(UnitClass.MEDIUM, 10, 10)
    assert g.footprint(tank).bounds == pytest.approx((8.0, 8.75, 12.0, 11.25))
    turned = g.footprint_at(UnitClass.MEDIUM, P(10, 10), 90.0)
    assert turned.bounds == pytest.approx((8.75, 8.0, 11.25, 12.0))
    diag = g.footprint_at(UnitClass.INFANTRY, P(0, 0), 45.0)
    assert diag.area == pytest.approx(4.0)
    assert diag.bounds == pytest.approx((-math.sqrt(2), -math.sqrt(2), math.sqrt(2), math.sqrt(2)))


def test_distance_is_edge_to_edge():
    a = make(UnitClass.INFANTRY, 0, 0)
    assert g.distance(a, make(UnitClass.INFANTRY, 5, 0)) == pytest.approx(3.0)
    assert g.distance(a, make(UnitClass.INFANTRY, 2, 0)) == 0.0  # touching
    assert g.distance(a, make(UnitClass.MEDIUM, 1, 1)) == 0.0  # overlapping
    # a tank side-on, 10" away centre to centre along y: 10 - 1 - 1.25
    assert g.distance(a, make(UnitClass.MEDIUM, 0, 10)) == pytest.approx(7.75)
    assert g.distance(a, make(UnitClass.MEDIUM, 0, 10, facing=90)) == pytest.approx(7.0)


def test_distance_to_point():
    tank = make(UnitClass.MEDIUM, 0, 0)
    assert g.distance_to_point(tank, P(10, 0)) == pytest.approx(8.0)
    assert g.distance_to_point(tank, P(0, 5)) == pytest.approx(3.75)
    assert g.distance_to_point(tank, P(1, 1)) == 0.0


# --- angles --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("to", "expected"),
    [((1, 0), 0.0), ((0, 1), 90.0), ((-1, 0), 180.0), ((0, -1), 270.0), ((1, 1), 45.0)],
)
def test_bearing(to, expected):
    assert g.bearing(P(0, 0), P(*to)) == pytest.approx(expected)


def test_bearing_stays_below_360():
    b = g.bearing(P(0, 0), P(1, -1e-300))
    assert 0.0 <= b < 360.0
    assert g.bearing(P(3, 3), P(3, 3)) == 0.0


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [(350, 10, 20), (10, 350, 20), (0, 180, 180), (-90, 270, 0), (720, 45, 45), (90, 300, 150)],
)
def test_angle_between(a, b, expected):
    assert g.angle_between(a, b) == pytest.approx(expected)


def test_in_arc():
    o = P(0, 0)
    assert g.in_arc(o, 0, P(10, 10), 90)  # 45 degrees: on the edge of a 90 degree arc
    assert not g.in_arc(o, 0, P(10, 10.5), 90)
    assert g.in_arc(o, 350, P(10, 1), 90)  # wraps through 0
    assert not g.in_arc(o, 0, P(-10, 0), 180)
    assert g.in_arc(o, 0, P(-10, 0), 360)
    assert g.in_arc(o, 0, o, 10)


# --- aspect --------------------------------------------------------------------------------

HALF = math.degrees(math.atan2(1.25, 2.0))  # medium tank: 4 x 2.5, ~32.0 degrees


def _from(bearing_deg: float, centre: Point | None = None, r: float = 20.0) -> Point:
    centre = centre or P(10, 10)
    rad = math.radians(bearing_deg)
    return P(centre.x + r * math.cos(rad), centre.y + r * math.sin(rad))


@pytest.mark.parametrize(
    ("bearing_deg", "expected"),
    [
        (0, "front"),
        (30, "front"),
        (-30, "front"),
        (HALF - 0.5, "front"),
        (HALF + 0.5, "side"),
        (-HALF - 0.5, "side"),
        (90, "side"),
        (180, "side"),
        (180 - HALF + 1, "side"),  # near the rear corner diagonal: still side (rear)
        (270, "side"),
    ],
)
def test_aspect_around_a_medium_tank(bearing_deg, expected):
    tank = make(UnitClass.MEDIUM, 10, 10)
    assert g.aspect(tank, _from(bearing_deg)) == expected


def test_aspect_exactly_on_the_corner_diagonal_is_front():
    tank = make(UnitClass.MEDIUM, 10, 10)
    assert g.aspect(tank, P(10 + 2 * 3, 10 + 1.25 * 3)) == "front"
    assert g.aspect(tank, P(10 + 2 * 3, 10 - 1.25 * 3)) == "front"
    assert g.aspect(tank, P(10 - 2 * 3, 10 + 1.25 * 3)) == "side"  # rear corner diagonal
    turned = make(UnitClass.MEDIUM, 10, 10, facing=90)
    assert g.aspect(turned, P(10 - 1.25 * 3, 10 + 2 * 3)) == "front"
    assert g.aspect(turned, P(20, 10)) == "side"
    assert g.aspect(turned, P(10, 30)) == "front"


def test_aspect_of_a_square_footprint_has_45_degree_half_angle():
    car = make(UnitClass.INFANTRY, 0, 0)  # 2 x 2
    assert g.aspect(car, _from(44, P(0, 0))) == "front"
    assert g.aspect(car, _from(46, P(0, 0))) == "side"


# --- line of sight -------------------------------------------------------------------------


def test_wood_blocks_sight_and_fields_do_not():
    assert not g.line_of_sight(P(0, 15), P(30, 15), [WOOD])
    assert g.line_of_sight(P(0, 25), P(30, 25), [WOOD])
    assert g.line_of_sight(P(0, 15), P(30, 15), [FIELD])
    assert not g.line_of_sight(P(0, 15), P(30, 15), [FIELD, WOOD])


def test_sight_grazing_a_wood_edge_is_clear():
    assert g.line_of_sight(P(0, 10), P(30, 10), [WOOD])
    corner = box("c", 10, 0, 20, 10, blocks_sight=True)
    assert g.line_of_sight(P(0, 0), P(30, 30), [corner])  # through its corner only


def test_diagonal_sight_lines():
    assert g.line_of_sight(P(0, 12), P(12, 30), [WOOD])  # the boxes overlap, the line misses
    assert not g.line_of_sight(P(0, 0), P(30, 30), [WOOD])
    assert not g.line_of_sight(P(30, 0), P(0, 30), [WOOD])
    assert g.line_of_sight(P(12, 12), P(18, 18), [WOOD], see_into=5.0)  # 8.5" long


def test_see_out_of_the_first_two_inches_of_a_wood():
    assert g.line_of_sight(P(11.5, 15), P(0, 15), [WOOD])  # 1.5" inside sees out
    assert g.line_of_sight(P(0, 15), P(11.5, 15), [WOOD])  # and can be seen
    assert not g.line_of_sight(P(13, 15), P(0, 15), [WOOD])  # 3" inside does not
    assert not g.line_of_sight(P(11.5, 15), P(0, 15), [WOOD], see_into=0.0)
    # both 1.5" inside opposite edges: the middle of the wood is in the way
    assert not g.line_of_sight(P(11.5, 15), P(18.5, 15), [WOOD])


def test_short_sight_lines_are_never_blocked():
    assert g.line_of_sight(P(12, 15), P(15, 15), [WOOD])  # 3" < 2 * 2"
    assert g.line_of_sight(P(13, 15), P(17, 15), [WOOD])  # exactly 4"
    assert g.line_of_sight(P(15, 15), P(15, 15), [WOOD])


def test_see_over_a_hedge_right_in_front():
    hedge = line("hedge", (10, 0), (10, 30), blocks_sight=True, cover=CoverKind.COVER)
    assert g.shape(hedge).bounds == pytest.approx((9.75, -0.25, 10.25, 30.25))
    assert g.line_of_sight(P(9, 15), P(30, 15), [hedge])  # 1" behind it
    assert g.line_of_sight(P(30, 15), P(9, 15), [hedge])
    assert not g.line_of_sight(P(5, 15), P(30, 15), [hedge])  # 5" back


# --- terrain shapes ------------------------------------------------------------------------


def test_shape_is_cached_by_identity_and_by_value():
    first = g.shape(WOOD)
    assert g.shape(WOOD) is first
    copy = WOOD.model_copy(deep=True)
    assert copy is not WOOD
    assert g.shape(copy) is first
    assert first.area == pytest.approx(100.0)


def test_linear_shape_is_buffered_polyline():
    wall = line("wall", (0, 0), (10, 0), width=1.0, kind="wall")
    assert g.shape(wall).area == pytest.approx(10.0 + math.pi * 0.25, rel=1e-2)


def test_features_under_and_at():
    near_edge = make(UnitClass.INFANTRY, 9.5, 15)  # footprint x 8.5..10.5 overlaps the wood
    assert g.features_under(near_edge, [WOOD, FIELD]) == [WOOD, FIELD]
    assert g.features_under(make(UnitClass.INFANTRY, 5, 15), [WOOD]) == []
    assert g.features_at(P(9.5, 15), [WOOD, FIELD]) == [FIELD]
    assert g.features_at(P(15, 15), [WOOD, FIELD]) == [WOOD, FIELD]
    assert g.features_at(P(10, 15), [WOOD]) == [WOOD]  # on the edge counts


# --- cover ---------------------------------------------------------------------------------


def test_cover_in_woods_and_in_the_open():
    inside = make(UnitClass.INFANTRY, 15, 15)
    assert g.cover_for(inside, P(40, 15), [WOOD, FIELD]) is CoverKind.COVER
    outside = make(UnitClass.INFANTRY, 30, 30)
    assert g.cover_for(outside, P(40, 15), [WOOD, FIELD]) is CoverKind.OPEN


def test_cover_from_a_hedge_right_in_front():
    hedge = line("hedge", (10, 0), (10, 30), cover=CoverKind.COVER)
    behind = make(UnitClass.INFANTRY, 8.5, 15)  # footprint edge at 9.5, hedge 9.75..10.25
    assert g.cover_for(behind, P(30, 15), [hedge]) is CoverKind.COVER
    assert g.cover_for(behind, P(0, 15), [hedge]) is CoverKind.OPEN  # fired on from behind
    far_back = make(UnitClass.INFANTRY, 5.5, 15)  # footprint edge 6.5: hedge 3.25" away
    assert g.cover_for(far_back, P(30, 15), [hedge]) is CoverKind.OPEN
    astride = make(UnitClass.INFANTRY, 10, 15)
    assert g.cover_for(astride, P(30, 15), [hedge]) is CoverKind.COVER


def test_cover_takes_the_best_and_ignores_open_features():
    trench = box("trench", 0, 0, 10, 30, kind="trench", cover=CoverKind.FORTIFICATION)
    hedge = line("hedge", (11, 0), (11, 30), cover=CoverKind.COVER)
    unit = make(UnitClass.INFANTRY, 8, 15)
    assert g.cover_for(unit, P(30, 15), [FIELD, hedge, trench]) is CoverKind.FORTIFICATION
    assert g.cover_for(unit, P(30, 15), [FIELD, hedge]) is CoverKind.COVER
    assert g.cover_for(unit, P(30, 15), [FIELD]) is CoverKind.OPEN


def test_cover_from_an_area_just_in_front():
    ruin = box("ruin", 10, 10, 12, 20, kind="building", cover=CoverKind.COVER)
    unit = make(UnitClass.INFANTRY, 8, 15)  # footprint edge at 9: ruin 1" in front
    assert g.cover_for(unit, P(30, 15), [ruin]) is CoverKind.COVER
    assert g.cover_for(unit, P(8, 40), [ruin]) is CoverKind.OPEN  # line of fire misses it


def test_cover_just_beyond_the_exit_point_uses_exact_distance():
    men = make(UnitClass.INFANTRY, 0, 0)  # 2 x 2; line of fire from bearing 40 leaves its side
    u = (math.cos(math.radians(40)), math.sin(math.radians(40)))
    firer = P(30 * u[0], 30 * u[1])

    def wall_at(d: float) -> TerrainFeature:
        c, n = (d * u[0], d * u[1]), (-u[1], u[0])
        ends = ((c[0] - n[0], c[1] - n[1]), (c[0] + n[0], c[1] + n[1]))
        return line("w", *ends, kind="wall", width=0.05, cover=CoverKind.COVER)

    assert g.cover_for(men, firer, [wall_at(3.36)]) is CoverKind.COVER  # ~1.93" from a corner
    assert g.cover_for(men, firer, [wall_at(3.6)]) is CoverKind.OPEN  # ~2.17"


def test_cover_matches_a_plain_shapely_reference():
    from shapely.geometry import LineString

    rng = random.Random(7)
    for _ in range(300):
        cls = rng.choice(list(UnitClass))
        target = make(cls, 50, 50, facing=rng.uniform(0, 360))
        firer = P(rng.uniform(0, 100), rng.uniform(0, 100))
        x, y, r = rng.uniform(42, 58), rng.uniform(42, 58), rng.uniform(0.5, 4)
        t = rng.uniform(0, math.pi)
        wall = line(
            "w",
            (x - r * math.cos(t), y - r * math.sin(t)),
            (x + r * math.cos(t), y + r * math.sin(t)),
            cover=CoverKind.COVER,
        )
        fire = LineString([(firer.x, firer.y), (50, 50)])
        hit = g.shape(wall).intersection(fire)
        expected = not hit.is_empty and hit.distance(g.footprint(target)) <= 2.0
        got = g.cover_for(target, firer, [wall]) is CoverKind.COVER
        assert got == expected, (cls, target.facing, firer, wall.outline)


# --- hull down -----------------------------------------------------------------------------


def test_hull_down_by_half_the_footprint():
    tank = make(UnitClass.MEDIUM, 10, 10)  # footprint x 8..12, y 8.75..11.25
    half = box("crest", 0, 0, 10, 20, kind="hill", hull_down=True)
    less = box("crest2", 0, 0, 9.9, 20, kind="hill", hull_down=True)
    assert g.is_hull_down(tank, P(30, 10), [half])
    assert not g.is_hull_down(tank, P(30, 10), [less])
    assert not g.is_hull_down(tank, P(30, 10), [box("hill", 0, 0, 10, 20, kind="hill")])
    # two overlapping pieces are not counted twice
    a = box("a", 8, 0, 9.5, 20, hull_down=True)
    b = box("b", 9, 0, 9.9, 20, hull_down=True)
    assert not g.is_hull_down(tank, P(30, 10), [a, b])


def test_hull_down_behind_a_crest_or_wall():
    tank = make(UnitClass.MEDIUM, 10, 10)  # front edge at x = 12
    less = box("crest", 0, 0, 9.9, 20, kind="hill", hull_down=True)
    assert g.is_hull_down(tank, P(-20, 10), [less])  # firing across it
    wall = line("wall", (13.5, 0), (13.5, 20), kind="wall", hull_down=True)
    assert g.is_hull_down(tank, P(30, 10), [wall])
    assert not g.is_hull_down(tank, P(-10, 10), [wall])
    far_wall = line("wall2", (15, 0), (15, 20), kind="wall", hull_down=True)
    assert not g.is_hull_down(tank, P(30, 10), [far_wall])


def test_hull_down_area_holding_the_centre_needs_half_the_footprint():
    tank = make(UnitClass.MEDIUM, 10, 10)
    strip = box("strip", 9, 9.9, 11, 30, kind="crater", hull_down=True)  # ~27% of footprint
    assert not g.is_hull_down(tank, P(10, 40), [strip])


def test_infantry_is_never_hull_down():
    men = make(UnitClass.INFANTRY, 10, 10)
    assert not g.is_hull_down(men, P(30, 10), [box("crest", 0, 0, 30, 20, hull_down=True)])


# --- paths ---------------------------------------------------------------------------------

PATH = (P(0, 0), P(3, 4), P(3, 10))


def test_path_length_and_point_along():
    assert g.path_length(PATH) == pytest.approx(11.0)
    assert g.path_length((P(1, 1),)) == 0.0
    assert g.point_along(PATH, 2.5) == P(1.5, 2.0)
    assert g.point_along(PATH, 7.0) == P(3, 6)
    assert g.point_along(PATH, -1.0) == P(0, 0)
    assert g.point_along(PATH, 100.0) == P(3, 10)
    assert g.point_along((P(2, 2),), 5.0) == P(2, 2)


def test_turns_forward():
    assert g.total_turn(0, (P(0, 0), P(10, 0))) == pytest.approx(0.0)
    assert g.total_turn(0, (P(0, 0), P(0, 10))) == pytest.approx(90.0)
    assert g.total_turn(350, (P(0, 0), P(10, 10 * math.tan(math.radians(10))))) == (pytest.approx(20.0))
    assert g.end_facing(0, (P(0, 0), P(0, 10))) == pytest.approx(90.0)


def test_turns_reverse():
    back = (P(0, 0), P(-10, 0))
    assert g.total_turn(0, back, reverse=True) == pytest.approx(0.0)
    assert g.end_facing(0, back, reverse=True) == pytest.approx(0.0)
    assert g.total_turn(0, back) == pytest.approx(180.0)  # driving forwards that way
    assert g.total_turn(0, (P(0, 0), P(0, -10)), reverse=True) == pytest.approx(90.0)
    assert g.end_facing(0, (P(0, 0), P(0, -10)), reverse=True) == pytest.approx(90.0)


def test_turns_multi_leg_and_final_facing():
    square = (P(0, 0), P(10, 0), P(10, 10), P(0, 10))
    assert g.total_turn(0, square) == pytest.approx(180.0)
    assert g.end_facing(0, square) == pytest.approx(180.0)
    assert g.total_turn(0, square, final_facing=90) == pytest.approx(270.0)
    assert g.end_facing(0, square, final_facing=450) == pytest.approx(90.0)
    assert g.total_turn(0, (P(0, 0), P(10, 0)), final_facing=270) == pytest.approx(90.0)
    # a repeated waypoint is not a turn
    assert g.total_turn(0, (P(0, 0), P(5, 0), P(5, 0), P(10, 0))) == pytest.approx(0.0)


def test_pivot_on_the_spot():
    still = (P(5, 5),)
    assert g.total_turn(30, still, final_facing=120) == pytest.approx(90.0)
    assert g.total_turn(30, still) == 0.0
    assert g.end_facing(30, still) == pytest.approx(30.0)
    assert g.end_facing(30, (P(5, 5), P(5, 5)), reverse=True) == pytest.approx(30.0)


def test_leg_turns():
    road = (P(0, 0), P(10, 0), P(20, 5), P(30, 5))
    slight = math.degrees(math.atan2(5, 10))
    assert g.leg_turns(road) == pytest.approx([slight, slight])
    assert g.leg_turns((P(0, 0), P(10, 0))) == []
    assert g.leg_turns((P(0, 0), P(10, 0), P(10, 0), P(10, 10))) == pytest.approx([90.0])


# --- crossings -----------------------------------------------------------------------------


def test_crossings_are_sorted_with_entry_distances():
    a = box("a", 10, 0, 12, 10, going="rough")
    b = box("b", 20, 0, 25, 10)
    hedge = line("hedge", (15, 0), (15, 10))  # 0.5" wide: entered at 14.75
    elsewhere = box("elsewhere", 0, 20, 5, 25)
    grazed = box("grazed", 0, 5, 40, 8, kind="field")  # path runs along its edge
    got = g.crossings((P(0, 5), P(30, 5)), [b, elsewhere, hedge, grazed, a])
    assert [(f.id, d) for f, d in got] == [
        ("a", pytest.approx(10.0)),
        ("hedge", pytest.approx(14.75)),
        ("b", pytest.approx(20.0)),
    ]


def test_crossings_start_inside_and_multi_leg():
    path = (P(15, 15), P(15, 30), P(40, 30))
    river = box("river", 30, 25, 32, 40, kind="river")
    got = g.crossings(path, [river, WOOD])
    assert [(f.id, d) for f, d in got] == [("wood", 0.0), ("river", pytest.approx(30.0))]


def test_crossings_report_first_entry_once():
    wood = box("w", 5, 0, 7, 20)
    path = (P(0, 10), P(10, 10), P(10, 12), P(0, 12))  # in and out twice
    assert [(f.id, d) for f, d in g.crossings(path, [wood])] == [("w", pytest.approx(5.0))]


# --- road containment ----------------------------------------------------------------------


def test_within_road():
    road = box("road", 0, 4, 100, 6, kind="road", road=True)
    assert g.within_features((P(0, 5), P(50, 5)), [road])
    assert g.within_features((P(0, 5), P(50, 6.005)), [road])  # within 0.01"
    assert not g.within_features((P(0, 5), P(50, 7)), [road])
    assert not g.within_features((P(0, 5), P(50, 5)), [])


def test_within_joined_and_linear_roads():
    east = box("east", 0, 4, 50, 6, road=True)
    north = box("north", 48, 4, 50, 60, road=True)
    assert g.within_features((P(2, 5), P(49, 5), P(49, 50)), [east, north])
    assert not g.within_features((P(2, 5), P(49, 5), P(49, 50)), [east])
    lane = line("lane", (0, 0), (20, 0), (20, 20), kind="road", width=3.0, road=True)
    assert g.within_features((P(0, 0), P(20, 0), P(20, 20)), [lane])
    assert g.within_features((P(0, 1), P(21, 1), P(21, 19)), [lane])
    assert not g.within_features((P(0, 0), P(20, 20)), [lane])  # cuts the corner
