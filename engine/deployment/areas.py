"""The shapes a scenario's deployment areas may take (Iron Cross 2015, pp. 28-31).

Meeting and Escalating Engagements leave the areas to the players: opposite corners, the long
or short edges, along roads, or with parts of the table left out (pp. 28-29). Capture and
Breakthrough give the attacker start lines on a table edge, perhaps along roads or with parts of
that edge left out (pp. 30-31); the defender's area is measured from that edge as before.

Each shape is the parts of a side's own edge its area covers (``Zone.spans``), worked out from
the table's size (and its roads), so a shape fits any table. The pages name the shapes but
leave their measures to the players' agreement, so the measures here are the project's own: a
corner is half of its edge, a road's area reaches 9" either side of it, and the middle third
of an edge is what "flanks" leaves out. Each is one constant or one line, for a club to change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, get_args

from shapely.geometry import box

from engine import geometry
from engine.deployment.plan import Edge, Span
from engine.errors import IllegalCommand
from engine.state import TableSize, TerrainFeature

DeploymentAreas = Literal["edges", "corners", "roads", "flanks"]
AREAS: tuple[str, ...] = get_args(DeploymentAreas)
AREA_WORDS = {
    "edges": "along their whole edges",
    "corners": "in opposite corners",
    "roads": "along the roads near their edges",
    "flanks": "on the flanks of their edges, the middle third left out",
}
ROAD_REACH = 9.0  # inches either side of a road: a unit set up "along a road" stands this close
ROAD_BAND = 12.0  # inches from the edge within which a road must run to give a side an area


def along_edge(table: TableSize, edge: Edge) -> float:
    """The length of a table edge."""
    return table.width if edge in ("near", "far") else table.depth


def opposite_corner_spans(table: TableSize, edge: Edge, first: bool) -> tuple[Span, ...]:
    """Opposite corners (p. 28): the first side takes the half of its edge at the low end (x or
    y from 0), the second the half of its own at the high end, so the two areas face each other
    across the table's diagonal."""
    length = along_edge(table, edge)
    return ((0.0, length / 2),) if first else ((length / 2, length),)


def flank_spans(table: TableSize, edge: Edge) -> tuple[Span, ...]:
    """Areas left out (pp. 28-31): the middle third of the edge is kept clear; each side sets up
    on its two flanks."""
    length = along_edge(table, edge)
    return ((0.0, length / 3), (2 * length / 3, length))


def road_spans(table: TableSize, edge: Edge, terrain: Sequence[TerrainFeature]) -> tuple[Span, ...]:
    """Along roads (pp. 28-31): the stretches of the edge within 9" of a road where it runs
    inside 12" of the edge (room for a force on a 4' table), merged where they meet. A table
    with no road near that edge gives none."""
    band = {
        "near": (0.0, 0.0, table.width, ROAD_BAND),
        "far": (0.0, table.depth - ROAD_BAND, table.width, table.depth),
        "left": (0.0, 0.0, ROAD_BAND, table.depth),
        "right": (table.width - ROAD_BAND, 0.0, table.width, table.depth),
    }[edge]
    across = edge in ("near", "far")
    length = along_edge(table, edge)
    found = []
    for road in (f for f in terrain if f.road):
        near_road = geometry.feature_shape(road).buffer(ROAD_REACH).intersection(box(*band))
        if near_road.is_empty:
            continue
        x0, y0, x1, y1 = near_road.bounds
        low, high = (x0, x1) if across else (y0, y1)
        found.append((round(max(low, 0.0), 2), round(min(high, length), 2)))
    merged: list[Span] = []
    for low, high in sorted(found):
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return tuple(merged)


def deployment_area_spans(
    areas: DeploymentAreas, table: TableSize, edge: Edge, terrain: Sequence[TerrainFeature], *, first: bool
) -> tuple[Span, ...] | None:
    """The parts of ``edge`` a side's area covers under the chosen shape (None: all of it);
    ``first`` is the first side's (or the attacker's) edge. Refused where the table does not
    allow the shape."""
    if areas == "edges":
        return None
    if areas == "corners":
        return opposite_corner_spans(table, edge, first)
    if areas == "flanks":
        return flank_spans(table, edge)
    spans = road_spans(table, edge, terrain)
    if not spans:
        raise IllegalCommand(
            f'No road runs within {ROAD_BAND:g}" of the {edge} table edge: the sides cannot set up along '
            "roads on this table (try the other edges, or areas:edges)"
        )
    return spans


def check_areas_allowed(title: str, allowed: Sequence[str], areas: str) -> None:
    """Only the shapes the scenario's page allows (pp. 28-31)."""
    if areas not in AREAS:
        raise IllegalCommand(f"Deployment areas are one of: {', '.join(AREAS)}")
    if areas not in allowed:
        raise IllegalCommand(f"{title} allows these deployment areas: {', '.join(allowed)}")
