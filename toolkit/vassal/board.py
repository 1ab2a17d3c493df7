"""Laying a compiled map on a VASSAL board image, and VASSAL's grid for it.

The board image is the map rendered (no title) at an even whole number of
pixels between neighbouring hex centres, shifted by less than a pixel so that
the grid origin -- a hex centre -- falls on a whole pixel (VASSAL stores it as
integers).  Then:

* a ``CCRR`` map gets a ``HexGrid`` with ``HexGridNumbering``: VASSAL's raw
  column 0 is an *unshifted* printed column (VASSAL shifts odd raw columns
  down by half a hex), so the origin is the first row of the first unshifted
  column, ``hOff``/``vOff`` are that column and row, and no stagger is needed;
* a map with the Siege's diagonal names (2.14), which ``HexGridNumbering``
  cannot express, gets a ``RegionGrid`` with one ``Region`` per hex at its
  centre: VASSAL names a point after the nearest region, i.e. the hex whose
  centre is nearest -- the hex containing it.

:func:`vassal_location` reproduces VASSAL's own arithmetic (``HexGrid`` raw
row/column with Java's integer semantics, ``HexGridNumbering`` names, nearest
``Region``) so tests can check every hex without the engine.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image

from ..hexgrid import CCRR, Diagonal, Hex
from ..mapdata.compiled import CompiledMap
from ..render.png import rasterise
from ..render.scene import build_scene, map_frame

DEFAULT_PIXELS_PER_HEX = 80


@dataclass(frozen=True)
class HexGridSpec:
    """Attributes of VASSAL's ``HexGrid`` and ``HexGridNumbering`` for a CCRR map."""

    x0: int
    y0: int
    dx: float
    dy: float
    h_off: int
    v_off: int
    leading: int


@dataclass(frozen=True)
class RegionSpec:
    """One ``Region`` of a ``RegionGrid``: a hex's name at its centre pixel."""

    name: str
    x: int
    y: int


@dataclass(frozen=True)
class BoardLayout:
    """Map units to board pixels (``px = scale * x + ox``), image size, and the grid laid on it."""

    scale: float
    ox: float
    oy: float
    width: int
    height: int
    hexgrid: HexGridSpec | None
    regions: tuple[RegionSpec, ...]

    def pixel(self, x: float, y: float) -> tuple[float, float]:
        """Board pixel of a map point."""
        return (self.scale * x + self.ox, self.scale * y + self.oy)

    def map_point(self, px: float, py: float) -> tuple[float, float]:
        """Map point of a board pixel."""
        return ((px - self.ox) / self.scale, (py - self.oy) / self.scale)


def _origin_hex(cmap: CompiledMap) -> tuple[Hex, int, int]:
    """The grid origin: the first row of the first column VASSAL does not shift."""
    naming, (c0, _), (w0, _) = cmap.grid.naming, cmap.grid.columns, cmap.grid.rows
    unshifted_parity = 0 if naming.shifted == "odd" else 1
    col = c0 if c0 % 2 == unshifted_parity else c0 + 1
    return naming.from_offset(col, w0), col, w0


_LAYOUTS: dict[tuple[str, str, int], BoardLayout] = {}


def board_layout(cmap: CompiledMap, pixels_per_hex: int = DEFAULT_PIXELS_PER_HEX) -> BoardLayout:
    """The board image geometry and VASSAL grid of a map (flat-top grids); cached per map source."""
    key = (cmap.id, cmap.source_hash, pixels_per_hex)
    if key not in _LAYOUTS:
        _LAYOUTS[key] = _board_layout(cmap, pixels_per_hex)
    return _LAYOUTS[key]


def _board_layout(cmap: CompiledMap, pixels_per_hex: int) -> BoardLayout:
    lay = cmap.grid.layout
    if lay.orientation != "flat":
        raise ValueError(f"map {cmap.id!r}: VASSAL export supports flat-top grids only")
    if pixels_per_hex % 2 or pixels_per_hex < 8:
        raise ValueError(f"pixels_per_hex must be an even whole number >= 8, got {pixels_per_hex}")
    k = pixels_per_hex / lay.width
    minx, miny, maxx, maxy = map_frame(cmap, show_title=False)
    origin, col, row = _origin_hex(cmap)
    cx, cy = lay.centre(origin)
    # Shift by less than a pixel so the origin hex centre is a whole pixel.
    ox = math.ceil(k * (cx - minx)) - k * cx
    oy = math.ceil(k * (cy - miny)) - k * cy
    width, height = max(1, round(k * (maxx - minx))), max(1, round(k * (maxy - miny)))  # as render.rasterise
    x0, y0 = round(k * cx + ox), round(k * cy + oy)
    if isinstance(cmap.grid.naming, Diagonal):
        regions = tuple(RegionSpec(cmap.name(h), *(round(v) for v in
                                                   (k * lay.centre(h)[0] + ox, k * lay.centre(h)[1] + oy)))
                        for h in cmap.grid.hex_list)
        return BoardLayout(k, ox, oy, width, height, None, regions)
    naming = cmap.grid.naming
    assert isinstance(naming, CCRR)
    grid = HexGridSpec(x0, y0, 1.5 * lay.size * k, float(pixels_per_hex), col, row, naming.digits - 1)
    return BoardLayout(k, ox, oy, width, height, grid, ())


def board_image(cmap: CompiledMap, board: BoardLayout) -> Image.Image:
    """The board image: the map without title, drawn with the board's exact transform."""
    return rasterise(build_scene(cmap, show_title=False), (board.scale, board.ox, board.oy))


def _java_round(v: float) -> int:
    return math.floor(v + 0.5)


def vassal_location(board: BoardLayout, px: int, py: int) -> str:
    """The location name VASSAL gives the board pixel ``(px, py)`` (HexGrid or RegionGrid)."""
    if board.hexgrid is None:
        best = min(board.regions, key=lambda r: (px - r.x) ** 2 + (py - r.y) ** 2)
        return best.name
    g = board.hexgrid
    col = math.floor((px - g.x0) / g.dx + 0.5)  # HexGrid.getRawColumn
    nx = _java_round((px - g.x0) / g.dx)  # HexGrid.getRawRow's column test
    odd = math.fmod(nx, 2) != 0
    row = _java_round((py - g.y0 - (g.dy / 2 if odd else 0)) / g.dy)
    return _vassal_number(col + g.h_off, g.leading) + _vassal_number(row + g.v_off, g.leading)


def vassal_snap(board: BoardLayout, px: int, py: int) -> tuple[int, int]:
    """Where VASSAL snaps the board pixel ``(px, py)``: ``HexGrid.snapToHex`` (Java's truncating casts) or the
    nearest ``Region``'s origin.  Every piece the toolkit places goes there, so it stacks with dropped pieces."""
    if board.hexgrid is None:
        best = min(board.regions, key=lambda r: (px - r.x) ** 2 + (py - r.y) ** 2)
        return best.x, best.y
    g = board.hexgrid
    nx = math.floor((px - g.x0 + g.dx / 2) / g.dx)
    x = math.trunc(g.dx * nx + g.x0)
    if nx % 2 == 0:
        y = math.trunc(g.dy * math.floor((py - g.y0 + g.dy / 2) / g.dy) + g.y0)
    else:
        y = math.trunc(g.dy * math.floor((py - g.y0) / g.dy) + math.trunc(g.dy / 2) + g.y0)
    return x, y


def hex_centre(board: BoardLayout, cmap: CompiledMap, h: Hex) -> tuple[int, int]:
    """The board pixel VASSAL treats as the centre of hex ``h`` (see :func:`vassal_snap`)."""
    px, py = board.pixel(*cmap.grid.layout.centre(h))
    return vassal_snap(board, round(px), round(py))


def _vassal_number(n: int, leading: int) -> str:
    """``RegularGridNumbering.getName`` for numeric coordinates."""
    sign = "-" if n < 0 else ""
    n = abs(n)
    pad = ""
    while leading > 0 and n < 10 ** leading:
        pad += "0"
        leading -= 1
    return sign + pad + str(n)
