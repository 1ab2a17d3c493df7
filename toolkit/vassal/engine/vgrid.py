"""VASSAL 3.6's map grids as the engine computes them: location names and snapping, pixel by pixel.

The engine, not a hex geometry, decides what a point is called, so this is
its arithmetic with Java's integer semantics (``HexGrid``,
``HexGridNumbering``, ``RegionGrid``, ``ZonedGrid`` and ``Zone``,
``Board``, ``Map.findBoard``/``Map.locationName``, VASSAL 3.6.0):

* ``HexGrid`` (board coordinates; ``sideways`` swaps x and y first): raw
  column ``floor((x - x0) / dx + 0.5)``, raw row ``round((y - y0) / dy)``
  (odd columns ``round((y - y0 - dy / 2) / dy)``), named by
  :class:`~toolkit.hexgrid.VassalNumbering`; snapping truncates to ints.
* ``SquareGrid`` + ``SquareGridNumbering``: column ``floor((x - x0) / dx + 0.5)``,
  row ``(int) ((y - y0) / dy + 0.5)`` (a truncating cast: the engine's own
  asymmetry), named as a hex numbering without stagger; snapping to centres
  rounds half-cells.
* ``RegionGrid``: the region whose point is nearest (squared distance).
* ``ZonedGrid``: the first zone whose polygon holds the point
  (``java.awt.Polygon.contains``), named by its ``locationFormat``
  (``$name$``, ``$gridLocation$``) with its own grid, the background grid's
  (``useParentGrid``) or none; points in no zone go to the background grid.
* ``Map``: boards laid out by the BoardPicker's ``(column, row)`` slots
  (widths of the boards left of a board in its row, heights above it in its
  column) after the edge buffer; a point off every board is ``offboard``.
"""
from __future__ import annotations

import math
import re
import struct
from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Union

from ...hexgrid import VassalNumbering

OFFBOARD = "offboard"   # Map.offboard, VASSAL's name for a point on no board


def _java_round(v: float) -> int:
    """``Math.round`` of a double."""
    return math.floor(v + 0.5)


@dataclass(frozen=True)
class HexGrid:
    """A ``HexGrid`` with its numbering (None: the grid names nothing, as the engine's does)."""

    dx: float
    dy: float
    x0: int
    y0: int
    sideways: bool = False
    snap_to: bool = True
    numbering: VassalNumbering | None = None

    def _frame(self, px: int, py: int) -> tuple[int, int]:
        return (py, px) if self.sideways else (px, py)

    def raw(self, px: int, py: int) -> tuple[int, int]:
        """``HexGridNumbering.getRawColumn``/``getRawRow`` of a point (board coordinates)."""
        x, y = self._frame(px, py)
        col = math.floor((x - self.x0) / self.dx + 0.5)
        nx = _java_round((x - self.x0) / self.dx)
        row = _java_round((y - self.y0 - (self.dy / 2 if nx % 2 else 0)) / self.dy)
        return col, row

    def location_name(self, px: int, py: int) -> str | None:
        """``HexGrid.locationName``: the numbering's name of the point, None without a numbering."""
        return None if self.numbering is None else self.numbering.label(*self.raw(px, py))

    def snap(self, px: int, py: int) -> tuple[int, int]:
        """``HexGrid.snapTo`` with centres only (``snapToHex``: Java's truncating casts)."""
        if not self.snap_to:
            return px, py
        x, y = self._frame(px, py)
        nx = math.floor((x - self.x0 + self.dx / 2) / self.dx)
        sx = math.trunc(self.dx * nx + self.x0)
        if nx % 2 == 0:
            sy = math.trunc(self.dy * math.floor((y - self.y0 + self.dy / 2) / self.dy) + self.y0)
        else:
            sy = math.trunc(self.dy * math.floor((y - self.y0) / self.dy) + math.trunc(self.dy / 2) + self.y0)
        return (sy, sx) if self.sideways else (sx, sy)


@dataclass(frozen=True)
class SquareGrid:
    """A ``SquareGrid`` with its numbering (a :class:`VassalNumbering` without stagger; None: it names nothing)."""

    dx: float
    dy: float
    x0: int
    y0: int
    snap_to: bool = True
    numbering: VassalNumbering | None = None

    def raw(self, px: int, py: int) -> tuple[int, int]:
        """``SquareGridNumbering.getColumn``/``getRow`` before descending (the row is truncated, not floored)."""
        return math.floor((px - self.x0) / self.dx + 0.5), math.trunc((py - self.y0) / self.dy + 0.5)

    def location_name(self, px: int, py: int) -> str | None:
        """``SquareGrid.locationName``: the numbering's name of the point, None without a numbering."""
        return None if self.numbering is None else self.numbering.label(*self.raw(px, py))

    def snap(self, px: int, py: int) -> tuple[int, int]:
        """``SquareGrid.snapTo`` to cell centres (corners and edges not legal, no snap scale)."""
        if not self.snap_to:
            return px, py
        nx = 2 * _java_round((px - self.x0) / self.dx)
        ny = 2 * _java_round((py - self.y0) / self.dy)
        return self.x0 + _java_round(nx * self.dx / 2), self.y0 + _java_round(ny * self.dy / 2)

    def centres(self, rect: tuple[int, int, int, int]) -> list[tuple[int, int]]:
        """The cell centres (as snapped) lying in a rectangle ``(x, y, width, height)``."""
        x, y, w, h = rect
        cols = range(math.ceil((x - self.x0) / self.dx), math.floor((x + w - self.x0) / self.dx) + 1)
        rows = range(math.ceil((y - self.y0) / self.dy), math.floor((y + h - self.y0) / self.dy) + 1)
        return [self.snap(math.floor(self.x0 + c * self.dx + 0.5), math.floor(self.y0 + r * self.dy + 0.5))
                for r in rows for c in cols]


@dataclass(frozen=True)
class Region:
    """One ``Region`` of a ``RegionGrid``: a name at a point."""

    name: str
    x: int
    y: int


def _java_point_hash(x: int, y: int) -> int:
    """``java.awt.geom.Point2D.hashCode`` of an integer point, spread as ``HashMap.hash`` spreads it."""
    def bits(v: float) -> int:
        return struct.unpack(">q", struct.pack(">d", float(v)))[0]

    b = (bits(x) ^ (bits(y) * 31)) & 0xFFFFFFFFFFFFFFFF
    h = (b ^ (b >> 32)) & 0xFFFFFFFF
    return h ^ (h >> 16)


def java_hashmap_order(points: list[tuple[int, int]]) -> list[int]:
    """The order a ``HashMap<Point, _>`` filled with ``points`` (in that order, duplicates replacing) iterates
    its keys, as indices of the last occurrence of each point: buckets in order, each in insertion order."""
    last = {p: i for i, p in enumerate(points)}
    first = {}
    for i, p in enumerate(points):
        first.setdefault(p, i)
    capacity = 16
    while len(last) > 0.75 * capacity:
        capacity *= 2
    return [last[p] for p in sorted(last, key=lambda p: (_java_point_hash(*p) & (capacity - 1), first[p]))]


@dataclass(frozen=True)
class RegionGrid:
    """A ``RegionGrid``: named points; a point is called after the nearest (ties: the first in the engine's
    ``HashMap`` order; two regions at one point: the later)."""

    regions: tuple[Region, ...]
    snap_to: bool = True

    @cached_property
    def _search_order(self) -> tuple[Region, ...]:
        return tuple(self.regions[i] for i in java_hashmap_order([(r.x, r.y) for r in self.regions]))

    def _nearest(self, px: int, py: int) -> Region | None:
        return min(self._search_order, key=lambda r: (px - r.x) ** 2 + (py - r.y) ** 2, default=None)

    def location_name(self, px: int, py: int) -> str | None:
        """The nearest region's name (None without regions)."""
        r = self._nearest(px, py)
        return None if r is None else r.name

    def snap(self, px: int, py: int) -> tuple[int, int]:
        """The nearest region's point (the point itself without snapping or regions)."""
        r = self._nearest(px, py) if self.snap_to else None
        return (px, py) if r is None else (r.x, r.y)


def polygon_contains(points: tuple[tuple[int, int], ...], x: float, y: float) -> bool:
    """``java.awt.Polygon.contains(x, y)``: even-odd crossings, with Java's half-open rule on edges."""
    if len(points) <= 2:
        return False
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    if not (min(xs) <= x < max(xs) and min(ys) <= y < max(ys)):
        return False
    hits = 0
    lastx, lasty = points[-1]
    for curx, cury in points:
        if cury != lasty:
            leftx = curx if curx < lastx else lastx
            if x < (lastx if curx < lastx else curx):
                lo, hi = (cury, lasty) if cury < lasty else (lasty, cury)
                if lo <= y < hi:
                    if x < leftx:
                        hits += 1
                    else:
                        bx, by = (curx, cury) if cury < lasty else (lastx, lasty)
                        if x - bx < (y - by) / (lasty - cury) * (lastx - curx):
                            hits += 1
        lastx, lasty = curx, cury
    return hits % 2 == 1


_SCANNED_ZONES = 8   # up to this many zones, a point is tested against each (no index built)
_ZONE_TOKEN = re.compile(r"\$([A-Za-z0-9_]*)\$")


@dataclass(frozen=True)
class Zone:
    """A ``Zone`` of a ``ZonedGrid``: a polygon, its location format, and its grid (``parent``: the
    background grid, ``useParentGrid``)."""

    name: str
    path: tuple[tuple[int, int], ...]
    location_format: str = "$name$"
    grid: Union[HexGrid, SquareGrid, RegionGrid, None] = None
    use_parent_grid: bool = False

    def contains(self, px: int, py: int) -> bool:
        """Whether the zone's polygon holds the point."""
        return polygon_contains(self.path, px, py)

    def bounds(self) -> tuple[int, int, int, int]:
        """``(x, y, width, height)`` of the polygon (the zone's size, ``Zone.getSize``)."""
        xs, ys = [p[0] for p in self.path], [p[1] for p in self.path]
        return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


@dataclass(frozen=True)
class ZonedGrid:
    """A ``ZonedGrid``: zones in order, then the background grid."""

    zones: tuple[Zone, ...]
    background: Union[HexGrid, SquareGrid, RegionGrid, None] = None

    @cached_property
    def _index(self):
        """A spatial index of the zones' bounding boxes (a point's candidate zones without testing them all)."""
        from shapely import STRtree, box

        return STRtree([box(*_corners(z.bounds())) for z in self.zones if z.path])

    @cached_property
    def _with_path(self) -> tuple[Zone, ...]:
        return tuple(z for z in self.zones if z.path)

    def zone_at(self, px: int, py: int) -> Zone | None:
        """The first zone holding the point (candidates from the spatial index, tested in the zones' order)."""
        from shapely import Point

        candidates = self._with_path
        if len(candidates) > _SCANNED_ZONES:
            candidates = [candidates[i] for i in sorted(self._index.query(Point(px, py)))]
        return next((z for z in candidates if z.contains(px, py)), None)

    def grid_of(self, zone: Zone) -> Union[HexGrid, SquareGrid, RegionGrid, None]:
        """The grid a zone names its points with."""
        return self.background if zone.use_parent_grid else zone.grid

    def location_name(self, px: int, py: int) -> str | None:
        """The zone's formatted name, else the background grid's name."""
        z = self.zone_at(px, py)
        if z is None:
            return None if self.background is None else self.background.location_name(px, py)
        grid = self.grid_of(z)
        values = {"name": z.name, "gridLocation": (grid.location_name(px, py) if grid else None) or ""}
        return _ZONE_TOKEN.sub(lambda m: values.get(m.group(1), ""), z.location_format)


def _corners(bounds: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    x, y, w, h = bounds
    return x, y, x + w, y + h


Grid = Union[HexGrid, SquareGrid, RegionGrid, ZonedGrid]


@dataclass(frozen=True)
class Board:
    """A ``Board``: its name, image, size in pixels and grid."""

    name: str
    width: int
    height: int
    image: str = ""
    grid: Grid | None = None

    def location_name(self, px: int, py: int) -> str | None:
        """``Board.locationName`` of a board point."""
        return None if self.grid is None else self.grid.location_name(px, py)


@dataclass(frozen=True)
class PlacedBoard:
    """A board on a map: the board, its picker slot, whether reversed, and its top-left in map coordinates."""

    board: Board
    col: int
    row: int
    x: int
    y: int
    reversed: bool = False

    def local(self, mx: int, my: int) -> tuple[int, int] | None:
        """The board point of a map point on this board (``Board.localCoordinates``), None off it."""
        px, py = mx - self.x, my - self.y
        if not (0 <= px < self.board.width and 0 <= py < self.board.height):
            return None
        return (self.board.width - px, self.board.height - py) if self.reversed else (px, py)


def place_boards(boards: list[tuple[Board, int, int, bool]], edge: tuple[int, int] = (0, 0)) -> list[PlacedBoard]:
    """Boards at their picker slots ``(board, col, row, reversed)`` laid out as ``Map.setBoardBoundaries``."""
    widths = {(c, r): b.width for b, c, r, _ in boards}
    heights = {(c, r): b.height for b, c, r, _ in boards}
    return [PlacedBoard(b, c, r, edge[0] + sum(widths.get((i, r), 0) for i in range(c)),
                        edge[1] + sum(heights.get((c, j), 0) for j in range(r)), rev)
            for b, c, r, rev in boards]


@dataclass(frozen=True)
class MapLayout:
    """A ``Map`` with its boards placed: what the engine calls each map point."""

    name: str
    boards: tuple[PlacedBoard, ...] = field(default_factory=tuple)

    def board_at(self, mx: int, my: int) -> tuple[PlacedBoard, tuple[int, int]] | None:
        """``Map.findBoard``: the first board holding the map point, with the board point."""
        for pb in self.boards:
            local = pb.local(mx, my)
            if local is not None:
                return pb, local
        return None

    def location_name(self, mx: int, my: int) -> str:
        """``Map.locationName`` of a map point (``offboard`` on no board or where the grid names nothing)."""
        found = self.board_at(mx, my)
        name = found[0].board.location_name(*found[1]) if found else None
        return OFFBOARD if name is None else name


def grid_to_dict(grid: Grid | None) -> dict | None:
    """A grid as plain data (``kind`` plus its attributes) for the import record; :func:`grid_from_dict`
    reverses it."""
    if grid is None:
        return None
    if isinstance(grid, HexGrid):
        return {"kind": "hex", "dx": grid.dx, "dy": grid.dy, "x0": grid.x0, "y0": grid.y0, "sideways": grid.sideways,
                "snap_to": grid.snap_to, "numbering": _numbering_dict(grid.numbering)}
    if isinstance(grid, SquareGrid):
        return {"kind": "square", "dx": grid.dx, "dy": grid.dy, "x0": grid.x0, "y0": grid.y0, "snap_to": grid.snap_to,
                "numbering": _numbering_dict(grid.numbering)}
    if isinstance(grid, RegionGrid):
        return {"kind": "regions", "snap_to": grid.snap_to, "regions": [[r.name, r.x, r.y] for r in grid.regions]}
    return {"kind": "zones", "background": grid_to_dict(grid.background),
            "zones": [{"name": z.name, "path": [list(p) for p in z.path], "location_format": z.location_format,
                       "use_parent_grid": z.use_parent_grid, "grid": grid_to_dict(z.grid)} for z in grid.zones]}


def _numbering_dict(numbering: VassalNumbering | None) -> dict | None:
    return None if numbering is None else {k: v for k, v in asdict(numbering).items() if k != "sideways"}


def _numbering_from(data: dict, sideways: bool) -> VassalNumbering | None:
    nd = data["numbering"]
    return None if nd is None else VassalNumbering(sideways=sideways, **nd)


def grid_from_dict(data: dict | None) -> Grid | None:
    """The grid of :func:`grid_to_dict`'s data."""
    if data is None:
        return None
    if data["kind"] == "square":
        return SquareGrid(float(data["dx"]), float(data["dy"]), int(data["x0"]), int(data["y0"]),
                          bool(data["snap_to"]), _numbering_from(data, False))
    if data["kind"] == "hex":
        numbering = _numbering_from(data, bool(data["sideways"]))
        return HexGrid(float(data["dx"]), float(data["dy"]), int(data["x0"]), int(data["y0"]), bool(data["sideways"]),
                       bool(data["snap_to"]), numbering)
    if data["kind"] == "regions":
        return RegionGrid(tuple(Region(str(n), int(x), int(y)) for n, x, y in data["regions"]), bool(data["snap_to"]))
    return ZonedGrid(tuple(Zone(str(z["name"]), tuple((int(x), int(y)) for x, y in z["path"]),
                                str(z["location_format"]), grid_from_dict(z["grid"]), bool(z["use_parent_grid"]))
                           for z in data["zones"]), grid_from_dict(data["background"]))
