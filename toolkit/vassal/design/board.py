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

:func:`vassal_location` and :func:`vassal_snap` ask the board's grid as the
engine reads it (:mod:`toolkit.vassal.engine.vgrid`: ``HexGrid`` raw row/column with
Java's integer semantics, ``HexGridNumbering`` names, nearest ``Region``), so
tests can check every hex without the engine.

A map with a ``board`` section (``map.yaml``: a picture of your own board, its size and ``scale`` from map
units to its pixels, docs/map-format.md) is laid on that picture instead of the drawn map: the grid follows
``board.scale``, and :func:`board_image` reads the picture.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from PIL import Image

from ...hexgrid import CCRR, Diagonal, Hex, VassalNumbering
from ...mapdata.compiled import CompiledMap
from ...picture import MAX_DECODED_PIXELS, decoded, open_picture
from ...render.onboard import board_image_path
from ...render.png import rasterise
from ...render.scene import build_scene, map_frame
from ..engine import vgrid

DEFAULT_PIXELS_PER_HEX = 80
LOCATION_MEMO = 100_000  # board pixels whose names are remembered (forgotten all at once past that)
BOARD_MAX_PIXELS = 24_000_000  # the drawing canvas of a board (96 MB): larger boards are drawn without supersampling


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


RegionSpec = vgrid.Region   # one Region of a RegionGrid: a hex's name at its centre pixel


@dataclass(frozen=True)
class HexZone:
    """A hex as a ``Zone`` of the main board (its grid's names unchanged): ``name`` is what the mouse-over
    viewer shows after the hex name (``$CurrentZone$``, :func:`hex_label`), ``path`` the hex's outline in board
    pixels."""

    name: str
    path: tuple[tuple[int, int], ...]
    hex: Hex | None = None

    def path_attribute(self) -> str:
        """The outline as VASSAL's ``Zone`` ``path`` attribute (``x,y;x,y;...``)."""
        return ";".join(f"{x},{y}" for x, y in self.path)


def hex_label(cmap: CompiledMap, h: Hex) -> str:
    """What the mouse-over viewer says of a hex after its name: its place and terrains (:func:`terrain_words`),
    its terrains alone where it has no place; '' (no zone) for an unnamed hex of nothing but the map's first
    terrain.

    >>> from toolkit.mapdata import open_map
    >>> cmap = open_map("jerusalem-1948")
    >>> [hex_label(cmap, cmap.places[p]) for p in ("Hulda", "to Tel Aviv")]
    ['Hulda (Clear, Village)', 'to Tel Aviv (Clear, "to Tel Aviv" entrance)']
    >>> hex_label(cmap, cmap.grid.parse("0101")), hex_label(cmap, cmap.grid.parse("0132"))
    ('', '(Hill 1)')
    """
    info = cmap.hexes.get(h)
    if info is None or not info.place and list(info.terrain) in ([], list(cmap.terrain_types)[:1]):
        return ""
    words = ", ".join(terrain_words(cmap, t) for t in info.terrain)
    return " ".join(part for part in (info.place, f"({words})" if words else "") if part)


_RULE_REFERENCE = re.compile(r"\s*\(\d[^()]*\)$")


def terrain_words(cmap: CompiledMap, terrain: str) -> str:
    """A terrain as players read it: its ``label`` without a trailing rule reference (``Hill 1 (1.3)`` ->
    ``Hill 1``), else its id with spaces for underscores, capitalised (``dry_lake`` -> ``Dry lake``)."""
    known = cmap.terrain_types.get(terrain)
    if known is not None and known.label:
        return _RULE_REFERENCE.sub("", known.label)
    return terrain.replace("_", " ").capitalize()


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
    zones: tuple[HexZone, ...] = ()

    def pixel(self, x: float, y: float) -> tuple[float, float]:
        """Board pixel of a map point."""
        return (self.scale * x + self.ox, self.scale * y + self.oy)

    def map_point(self, px: float, py: float) -> tuple[float, float]:
        """Map point of a board pixel."""
        return ((px - self.ox) / self.scale, (py - self.oy) / self.scale)

    @cached_property
    def vassal_grid(self) -> vgrid.HexGrid | vgrid.RegionGrid:
        """The grid the module lays on this board, as the engine reads it."""
        g = self.hexgrid
        if g is None:
            return vgrid.RegionGrid(self.regions)
        numbering = VassalNumbering(stagger=False, h_off=g.h_off, v_off=g.v_off, h_leading=g.leading,
                                    v_leading=g.leading)
        return vgrid.HexGrid(g.dx, g.dy, g.x0, g.y0, numbering=numbering)

    @cached_property
    def zoned_grid(self) -> vgrid.ZonedGrid:
        """The board's grid as the engine names points: the hex zones (named as the grid names them) over
        :attr:`vassal_grid`."""
        zones = tuple(vgrid.Zone(z.name, z.path, "$gridLocation$", use_parent_grid=True) for z in self.zones)
        return vgrid.ZonedGrid(zones, self.vassal_grid)

    def location_name(self, px: int, py: int) -> str:
        """The name the engine gives board pixel ``(px, py)`` (remembered: a log's steps place the same pieces
        on the same pixels again and again)."""
        names = self._location_names
        name = names.get((px, py))
        if name is None:
            if len(names) >= LOCATION_MEMO:
                names.clear()
            name = names[(px, py)] = self.zoned_grid.location_name(px, py) or ""
        return name

    @cached_property
    def _location_names(self) -> dict[tuple[int, int], str]:
        return {}

    def zone_name(self, px: int, py: int) -> str:
        """The name of the hex zone at board pixel ``(px, py)`` (``$CurrentZone$``), '' outside every zone."""
        zone = self.zoned_grid.zone_at(px, py)
        return "" if zone is None else zone.name


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
    if not isinstance(cmap.grid.naming, (CCRR, Diagonal)):
        raise ValueError(f"map {cmap.id!r}: grid.naming: the VASSAL export lays ccrr and diagonal names; a map "
                         "imported from a published module (scheme: vassal) is played with that module: "
                         "`toolkit vsav write POSITION.yaml --game GAME_DIR -o SAVE.vsav` writes a save of it")
    if pixels_per_hex % 2 or pixels_per_hex < 8:
        raise ValueError(f"pixels_per_hex must be an even whole number >= 8, got {pixels_per_hex}")
    origin, col, row = _origin_hex(cmap)
    cx, cy = lay.centre(origin)
    if cmap.board is not None:
        k, ox, oy, (width, height) = _picture_scale(cmap), 0.0, 0.0, cmap.board.size
    else:
        k = pixels_per_hex / lay.width
        minx, miny, maxx, maxy = map_frame(cmap, show_title=False)
        # Shift by less than a pixel so the origin hex centre is a whole pixel.
        ox = math.ceil(k * (cx - minx)) - k * cx
        oy = math.ceil(k * (cy - miny)) - k * cy
        width, height = max(1, round(k * (maxx - minx))), max(1, round(k * (maxy - miny)))  # as render.rasterise
    x0, y0 = round(k * cx + ox), round(k * cy + oy)
    if isinstance(cmap.grid.naming, Diagonal):
        regions = tuple(RegionSpec(cmap.name(h), *(round(v) for v in
                                                   (k * lay.centre(h)[0] + ox, k * lay.centre(h)[1] + oy)))
                        for h in cmap.grid.hex_list)
        return BoardLayout(k, ox, oy, width, height, None, regions, _hex_zones(cmap, k, ox, oy))
    naming = cmap.grid.naming
    grid = HexGridSpec(x0, y0, 1.5 * lay.size * k, k * lay.width, col, row, naming.digits - 1)
    return BoardLayout(k, ox, oy, width, height, grid, (), _hex_zones(cmap, k, ox, oy))


def _hex_zones(cmap: CompiledMap, k: float, ox: float, oy: float) -> tuple[HexZone, ...]:
    """A zone per hex the viewer has words for (:func:`hex_label`), in the grid's order."""
    labels = ((h, hex_label(cmap, h)) for h in cmap.grid.hex_list)
    return tuple(HexZone(label, hex_outline(cmap, h, k, ox, oy), h) for h, label in labels if label)


def hex_outline(cmap: CompiledMap, h: Hex, k: float, ox: float, oy: float) -> tuple[tuple[int, int], ...]:
    """A hex's corners in board pixels (``px = k * x + ox``), as a zone's outline."""
    return tuple((round(k * x + ox), round(k * y + oy)) for x, y in cmap.grid.layout.corners(h))


def _picture_scale(cmap: CompiledMap) -> float:
    """Board pixels per map unit of a map laid on its own picture: ``board.scale``, the same both ways (VASSAL's
    hexes are regular)."""
    sx, sy = cmap.board.scale
    if not math.isclose(sx, sy, rel_tol=1e-6):
        raise ValueError(f"map {cmap.id!r}: board.scale {[sx, sy]}: a VASSAL hex grid needs the same scale both "
                         "ways; give `scale: [s, s]`")
    return sx


def board_image(cmap: CompiledMap, board: BoardLayout, map_file: str | Path | None = None) -> Image.Image:
    """The board image: the map's own picture (``board.image``, relative to ``map_file``) when it has one, else
    the map without title drawn with the board's exact transform (smoothed while the canvas stays within
    :data:`BOARD_MAX_PIXELS`, which keeps a module build within a few hundred MB)."""
    if cmap.board is not None and map_file is not None:
        path = board_image_path(cmap, map_file)
        picture = open_picture(path, "the board image", MAX_DECODED_PIXELS)   # its size read, nothing decoded
        if picture.size != (board.width, board.height):
            raise ValueError(f"{path}: the image is {picture.size[0]} x {picture.size[1]} pixels, the map's "
                             f"board.size says {board.width} x {board.height}")
        return decoded(picture, "RGB", str(path))
    return rasterise(build_scene(cmap, show_title=False, places_at_edge=True), (board.scale, board.ox, board.oy),
                     BOARD_MAX_PIXELS)


def vassal_location(board: BoardLayout, px: int, py: int) -> str:
    """The location name VASSAL gives the board pixel ``(px, py)`` (HexGrid or RegionGrid)."""
    return board.location_name(px, py)


def vassal_snap(board: BoardLayout, px: int, py: int) -> tuple[int, int]:
    """Where VASSAL snaps the board pixel ``(px, py)``: ``HexGrid.snapToHex`` (Java's truncating casts) or the
    nearest ``Region``'s origin.  Every piece the toolkit places goes there, so it stacks with dropped pieces."""
    return board.vassal_grid.snap(px, py)


def hex_centre(board: BoardLayout, cmap: CompiledMap, h: Hex) -> tuple[int, int]:
    """The board pixel VASSAL treats as the centre of hex ``h`` (see :func:`vassal_snap`)."""
    px, py = board.pixel(*cmap.grid.layout.centre(h))
    return vassal_snap(board, round(px), round(py))
