"""``toolkit import-vmod PUBLISHED.vmod -o GAME_DIR``: a game folder from a published VASSAL module.

Writes, into a new or empty folder (built beside it in a temporary folder, checked by loading it, then
renamed into place, so nothing of the user's is ever overwritten):

* ``map.yaml`` -- the main board (the first board with a hex grid of the first map that has one): its image
  under ``images/``, its grid the module's own ``HexGrid`` with the ``vassal`` naming scheme (hex names are
  the engine's, hence the printed ones), blank terrain for the user to fill in;
* ``map-MAP-BOARD.yaml`` -- every other board with a hex grid the module offers, the same way;
* ``game.yaml`` -- sides from the module's ``PlayerRoster``, one unit type, the off-map zones and regions as
  boxes; ``counters.yaml`` -- one counter per piece slot (a back face when it has a two-level layer), on the
  side :mod:`.sides` works out;
* ``pieces.yaml`` -- the counter manifest: every piece slot with its names, gpid, images, layers, mask,
  prototypes, palette folders and deck, how its side was found, and the counter it became;
* ``vassal.yaml`` -- the import record the save reader uses: every map's boards, their grids as the
  engine reads them, their default layout, which locations are boxes, and the boards that are parts of the
  main map (``main.parts``);
* ``scenarios/*.yaml`` -- each predefined setup of the module as a position (:mod:`.setups`);
* ``README.md`` -- where the folder came from, how the sides were worked out, what each setup became.
"""
from __future__ import annotations

import io
import json
import math
import os
import re
import shutil
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from ...datafile import DataFileError
from ...fileio import temporary_folder
from ...game.module import load_game
from ...mapdata import compile_map
from ...mapdata.compiled import naming_json
from ...scaffold import ScaffoldError, game_id_for
from ..engine import vgrid
from ..saves.imported import RECORD, load_record
from .setups import one_line, readme_rows, write_scenarios
from .sides import SideOf, module_sides, sides_of, summary
from .joined import MAX_JOINED_PIXELS, JoinedMap, centres, join, joined_image
from .lattice import region_lattice
from .moduleread import ModuleMap, PieceDef, PublishedModule, read_published_module
from ...hexgrid import VassalNumbering

MAX_BOXES = 200
LATTICE = "RegionGrid on a hex lattice"   # board_hex_grid's source of a region grid read as hexes
MAX_ZONE_CELLS = 10_000   # cells of one square-grid zone looked at for boxes
MAX_HEXES = 250_000   # hexes of all the map files of one import together
TMP_TAG = ".toolkit-import-"


@dataclass
class ImportReport:
    """What an import wrote and what it left out."""

    folder: Path
    files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    hexes: dict[str, int] = field(default_factory=dict)   # map file name -> its hexes


def slug(text: str, taken: set[str], fallback: str = "x") -> str:
    """A lower-case id (letters, digits, ``-``) from a name, unique among ``taken`` (which it joins)."""
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:48] or fallback
    base = base if base[0].isalnum() else fallback + "-" + base
    out, n = base, 1
    while out in taken:
        n += 1
        out = f"{base}-{n}"
    taken.add(out)
    return out


def _composed_numbering(zone: vgrid.Zone, grid: vgrid.HexGrid) -> vgrid.HexGrid | None:
    """A zone's hex grid with the zone's location format folded into the numbering's (None when the zone's
    names do not name hexes: no ``$gridLocation$``, or a ``$`` in the zone's name)."""
    if grid.numbering is None or "$gridLocation$" not in zone.location_format or "$" in zone.name:
        return None
    fmt = zone.location_format.replace("$name$", zone.name)
    fmt = re.sub(r"\$(?!gridLocation\$)[A-Za-z0-9_]*\$", "", fmt).replace("$gridLocation$",
                                                                        grid.numbering.location_format)
    return replace(grid, numbering=replace(grid.numbering, location_format=fmt))


MADE_NUMBERING = VassalNumbering()   # VASSAL's default HexGridNumbering: 0101, 0202 ... (names the toolkit makes)


_MADE = "the toolkit names its hexes as VASSAL's default HexGridNumbering would (0101, 0202 ...)"
_TOKEN = re.compile(r"\$([A-Za-z0-9_]*)\$")


def _zone_named(z: vgrid.Zone, made: list[str]) -> vgrid.Zone:
    """A zone with its own hex grid whose points the engine does not name as hexes, named by the toolkit: a
    grid without a numbering gets :data:`MADE_NUMBERING`, a format without ``$gridLocation$`` becomes it
    (``made`` gathers a note for each)."""
    if not isinstance(z.grid, vgrid.HexGrid) or z.use_parent_grid:
        return z
    engine = _TOKEN.sub(lambda m: z.name if m.group(1) == "name" else "", z.location_format)
    where = f"zone {z.name[:40]!r}: VASSAL names every point of it {engine[:60]!r}"
    if z.grid.numbering is None:
        made.append(f"{where} (its HexGrid has no numbering); {_MADE}"
                    + ("" if "$gridLocation$" in z.location_format else ", without the zone's name"))
        z = replace(z, grid=replace(z.grid, numbering=replace(MADE_NUMBERING, sideways=z.grid.sideways)))
    elif "$gridLocation$" not in z.location_format:
        made.append(f"{where} (its location format {z.location_format[:40]!r} names no hex); the toolkit names its "
                    "hexes by the numbering of its HexGrid")
    return replace(z, location_format="$gridLocation$") if "$gridLocation$" not in z.location_format else z


def _numbered(grid, made: list[str]):
    """A grid whose hex grids the engine names no hexes with named by the toolkit (:data:`MADE_NUMBERING` for
    one without a numbering; ``made`` gathers a note for each)."""
    if isinstance(grid, vgrid.HexGrid) and grid.numbering is None:
        made.append(f"its HexGrid has no numbering, so VASSAL names every point of it 'offboard'; {_MADE}")
        return replace(grid, numbering=replace(MADE_NUMBERING, sideways=grid.sideways))
    if isinstance(grid, vgrid.ZonedGrid):
        zones = tuple(_zone_named(z, made) for z in grid.zones)
        return vgrid.ZonedGrid(zones, _numbered(grid.background, made))
    return grid


def with_made_names(module: PublishedModule) -> PublishedModule:
    """The module with every hex grid named: one without a numbering (the engine snaps to its hexes but names
    every point ``offboard``, or, in a zone, the zone's format with no grid location) gets VASSAL's default
    numbering, and a zone whose format names no hex the names of its grid, each said in a note: names of the
    toolkit's making (the import record keeps them, so ``vsav read`` names pieces the same way)."""
    boards: dict[int, vgrid.Board] = {}

    def named(slot):
        if id(slot.board) not in boards:
            made: list[str] = []
            boards[id(slot.board)] = replace(slot.board, grid=_numbered(slot.board.grid, made))
            module.notes.extend(f"board {slot.board.name!r}: {m}: names of the toolkit's making" for m in made)
        return replace(slot, board=boards[id(slot.board)])

    maps = [replace(m, boards=tuple(map(named, m.boards)), catalogue=tuple(map(named, m.catalogue)))
            for m in module.maps]
    return replace(module, maps=maps)


def board_hex_grid(board: vgrid.Board) -> tuple[vgrid.HexGrid, tuple[int, int, int, int], str] | None:
    """The hex grid a board's map file takes, the board rectangle it covers, and where it comes from: the
    board's ``HexGrid``, else a ``RegionGrid`` (the board's or a ``ZonedGrid``'s background) whose regions are
    hexes (:mod:`.lattice`: the grid's numbering is then a toolkit naming scheme), else a ``ZonedGrid``'s
    background hex grid, else its largest zone with a hex grid."""
    g, whole = board.grid, (0, 0, board.width, board.height)
    if isinstance(g, vgrid.HexGrid) and g.numbering is not None:
        return g, whole, "HexGrid"
    lattice = region_lattice(g.background if isinstance(g, vgrid.ZonedGrid) else g)
    if lattice is not None:
        return lattice.grid, lattice.rect, LATTICE
    if not isinstance(g, vgrid.ZonedGrid):
        return None
    if isinstance(g.background, vgrid.HexGrid) and g.background.numbering is not None:
        return g.background, whole, "ZonedGrid background"
    best = None
    for z in g.zones:
        if isinstance(z.grid, vgrid.HexGrid) and not z.use_parent_grid:
            composed = _composed_numbering(z, z.grid)
            x, y, w, h = z.bounds()
            if composed is not None and (best is None or w * h > best[1][2] * best[1][3]):
                best = (composed, (x, y, w, h), f"zone {z.name!r}")
    return best


def hex_extent(grid: vgrid.HexGrid, rect: tuple[int, int, int, int]) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The raw columns and rows whose hex centres lie in the rectangle, in both column parities."""
    x, y, w, h = rect
    if grid.sideways:
        x, y, w, h = y, x, h, w
    c0, c1 = math.ceil((x - grid.x0) / grid.dx), math.floor((x + w - 1 - grid.x0) / grid.dx)
    r0 = math.ceil((y - grid.y0) / grid.dy)
    r1 = math.floor((y + h - 1 - grid.y0 - grid.dy / 2) / grid.dy)
    if c1 < c0 or r1 < r0:
        return None
    return (c0, c1), (r0, r1)


def extent_hexes(extent) -> int:
    """How many hexes a map file of :func:`hex_extent`'s columns and rows holds."""
    (c0, c1), (r0, r1) = extent
    return (c1 - c0 + 1) * (r1 - r0 + 1)


def check_hex_count(module: PublishedModule) -> None:
    """Refuse a module whose boards would make more than :data:`MAX_HEXES` hexes of map files (before any work)."""
    found = (board_hex_grid(s.board) for m in module.maps for s in m.catalogue)
    extents = (hex_extent(f[0], f[1]) for f in found if f is not None)
    total = sum(extent_hexes(e) for e in extents if e is not None)
    if total > MAX_HEXES:
        raise ScaffoldError(f"{module.path}: its boards' hex grids hold {total:,} hexes, over the limit of "
                            f"{MAX_HEXES:,} for an import (docs/vassal.md, 'Limits')")


def mappable(board: vgrid.Board) -> bool:
    """Whether a board gets a map file: a hex grid with a numbering and a hex centre on the board."""
    found = board_hex_grid(board)
    return found is not None and hex_extent(found[0], found[1]) is not None


def main_board(module: PublishedModule) -> tuple[str, str] | None:
    """``(map, board)`` of the game's map: the first mappable board of the default layouts, else of any map."""
    return next(((m.name, s.board.name) for pick in ("boards", "catalogue") for m in module.maps
                 for s in getattr(m, pick) if mappable(s.board)), None)


def grid_kinds(grid) -> list[str]:
    """The kinds of grid a board's grid holds (a zoned grid: its zones' grids and its background)."""
    if isinstance(grid, vgrid.ZonedGrid):
        return [k for g in (*(z.grid for z in grid.zones), grid.background) for k in grid_kinds(g)]
    return [] if grid is None else [type(grid).__name__]


def hex_grid_problems(board: vgrid.Board) -> list[str]:
    """Why each hex grid of a board makes no map file: no hex centre on the board (or in its zone), or a zone
    whose name holds a ``$`` (its names cannot be read back into hexes)."""
    g, out = board.grid, []
    where = f"board {board.name[:40]!r}"
    tops = [g] if isinstance(g, vgrid.HexGrid) else [g.background] if isinstance(g, vgrid.ZonedGrid) and \
        isinstance(g.background, vgrid.HexGrid) else []
    out += [f"{where}: its HexGrid has no hex centre on the board" for t in tops
            if hex_extent(t, (0, 0, board.width, board.height)) is None]
    for z in g.zones if isinstance(g, vgrid.ZonedGrid) else ():
        if not isinstance(z.grid, vgrid.HexGrid) or z.use_parent_grid:
            continue
        if _composed_numbering(z, z.grid) is None:
            out.append(f"{where} zone {z.name[:40]!r}: a '$' in the zone's name (its hexes' names would not read "
                       "back)")
        elif hex_extent(z.grid, z.bounds()) is None:
            out.append(f"{where} zone {z.name[:40]!r}: its HexGrid has no hex centre in the zone")
    return out


def no_map_reason(module: PublishedModule) -> str:
    """The one-line refusal of a module with no board to make a map of: the grids its boards hold (square
    grids, region grids ...: the toolkit's maps are hexes) and why each hex grid makes no map."""
    boards = [s.board for m in module.maps for s in m.catalogue]
    kinds = Counter(k for b in boards for k in grid_kinds(b.grid))
    held = ", ".join(f"{n} {k}" for k, n in kinds.most_common()) or "none"
    problems = [p for b in boards for p in hex_grid_problems(b)]
    if problems:
        return (f"{module.path}: no board of the module has a hex grid to make a map of (its boards' grids: {held}): "
                + "; ".join(problems[:4]) + (f"; and {len(problems) - 4} more" if len(problems) > 4 else ""))
    return (f"{module.path}: no board of the module has a hex grid to make a map of (its boards' grids: "
            f"{held}); the toolkit's maps are hexes only (toolkit/hexgrid: six neighbours, hexsides, hex lines of "
            "sight): import a module with a hex map")


BLANK_TERRAIN = {"clear": {"color": "#eae3c5", "base": True}}   # an imported map's terrain until the maker adds some


def map_data(module: PublishedModule, mmap: ModuleMap, board: vgrid.Board, grid: vgrid.HexGrid,
             extent, image: str, map_id: str) -> dict:
    """The map file of a board's hex grid: regular hexes in map units, the board pixels an affine image
    (``board.scale``), so the compiled hex centres are the engine's exactly."""
    size = grid.dy / math.sqrt(3)
    stretch = grid.dx / (1.5 * size)            # 1 for regular hexes
    if grid.sideways:
        scale, origin = (1.0, stretch), (float(grid.y0), grid.x0 / stretch)
    else:
        scale, origin = (stretch, 1.0), (grid.x0 / stretch, float(grid.y0))
    naming = naming_json(grid.numbering)
    return {
        "id": map_id,
        "title": f"{module.name or 'Module'}: {board.name or mmap.name}",
        "board": {"image": image, "size": [board.width, board.height], "scale": list(scale),
                  "module": module.name, "map": mmap.name, "board": board.name},
        "grid": {"orientation": "pointy" if grid.sideways else "flat", "size": size, "origin": list(origin),
                 "naming": naming, "columns": list(extent[0]), "rows": list(extent[1])},
        "terrain": BLANK_TERRAIN,
    }


def engine_name(cmap, board, h) -> str | None:
    """The name the engine gives the (rounded) board pixel of a compiled imported map's hex centre (``board``:
    a :class:`~toolkit.vassal.engine.vgrid.Board` or a :class:`~.joined.JoinedMap`)."""
    px, py = cmap.board.pixel(*cmap.grid.layout.centre(h))
    return board.location_name(round(px), round(py))


def blank_png(width: int, height: int) -> bytes:
    """A blank, light grey board picture (the stand-in for an image the module lacks; one byte a pixel)."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("L", (width, height), 227).save(out, "PNG")
    return out.getvalue()


def _comment(text: str) -> str:
    return "# " + one_line(text)


def _dump(header: list[str], data) -> str:
    return "\n".join(_comment(line) for line in header) + "\n" + yaml.safe_dump(
        data, sort_keys=False, allow_unicode=True, width=120, default_flow_style=None)


MAP_HEADER = [
    "Imported by `toolkit import-vmod` from a published VASSAL module (docs/new-game.md, 'Starting from a",
    "published module').  The grid is the module's own HexGrid: hex names are the engine's (the printed ones);",
    "`board` is the board image and how map units lie on its pixels.  Terrain is blank: every hex is `clear`",
    "until you add terrain types, areas, lines and overrides (docs/map-format.md).  Check what you trace with",
    "`toolkit render THIS_FILE -o board.png`: the grid drawn over the board image.",
]


class _Writer:
    """One import: the module, the temporary folder and what has been written there."""

    def __init__(self, module: PublishedModule, tmp: Path, game_id: str):
        self.module, self.tmp, self.game_id = module, tmp, game_id
        self.notes = list(module.notes)
        self.images: dict[int, str] = {}     # id(board) -> image path in the folder
        self.image_names: set[str] = set()
        self.boxes: dict[str, str] = {}      # location name -> box id
        self.box_ids: set[str] = set()
        self.boxes_full = False
        self.main: tuple[str, str] | None = None
        self.main_boards: list[str] = []   # the boards the main map file covers, when joined
        self.hexes: dict[str, int] = {}      # map file -> hexes
        self.parts: list[dict] = []          # {map, board} of boards named with the main map's hexes
        self.main_map = None                 # map.yaml compiled (by check_names)

    def write(self, rel: str, data: bytes | str) -> None:
        """A new file of the folder (never over an existing one)."""
        path = self.tmp / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "xb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)

    def image(self, slot) -> str:
        """The board image of a board slot, copied once under ``images/`` with a safe name; its path there."""
        b = slot.board
        stand_in = not slot.image_bytes and b.image and 0 < b.width * b.height <= MAX_JOINED_PIXELS   # no image
        if id(b) not in self.images and (slot.image_bytes or stand_in):   # the same Board object for one board
            stem, ext = os.path.splitext(os.path.basename(b.image))
            ext = ".png" if stand_in else ext if re.fullmatch(r"\.[A-Za-z0-9]{1,5}", ext) else ".img"
            name = slug(stem, self.image_names, "board") + ext.lower()
            self.write(f"images/{name}", blank_png(b.width, b.height) if stand_in else slot.image_bytes)
            self.images[id(slot.board)] = f"images/{name}"
        return self.images.get(id(b), "")

    def box(self, location: str) -> None:
        """A box for an engine location name (at most :data:`MAX_BOXES`, then a note)."""
        if location and location not in self.boxes:
            if len(self.boxes) < MAX_BOXES:
                self.boxes[location] = slug(location, self.box_ids, "box").replace("-", "_")
            elif not self.boxes_full:
                self.boxes_full = True
                self.notes.append(f"more than {MAX_BOXES} zones, regions and cells: {location[:40]!r} and the "
                                  "ones after it are not boxes (pieces there are listed with the engine's name)")

    def check_names(self, map_file: str, board) -> None:
        """Compile a map file (the import's only compilation of it); note the hexes whose centre the engine names
        otherwise (another zone covers it).  ``board`` names a board pixel as the engine does."""
        cmap = compile_map(self.tmp / map_file)
        if map_file == "map.yaml":
            self.main_map = cmap
        self.hexes[map_file] = len(cmap.grid)
        differ = [cmap.name(h) for h in cmap.grid.hex_list if engine_name(cmap, board, h) != cmap.name(h)]
        if differ:
            self.notes.append(f"{map_file}: the engine names {len(differ)} of its {len(cmap.grid)} hex centres "
                              f"otherwise (another zone covers them), e.g. {differ[0]!r}")

    def cell_boxes(self, g: vgrid.ZonedGrid, z: vgrid.Zone, grid: vgrid.SquareGrid) -> None:
        """A box for each cell of a square-grid zone (a track, a box grid) named as the engine names it: every
        cell reaching into the zone, looked at in its point nearest its centre inside the zone's bounds."""
        x, y, w, h = z.bounds()
        if (w / grid.dx + 2) * (h / grid.dy + 2) > MAX_ZONE_CELLS:
            self.notes.append(f"zone {z.name[:40]!r}: its square grid has more than {MAX_ZONE_CELLS:,} cells; "
                              "no boxes for them")
            return
        half_x, half_y = math.ceil(grid.dx / 2), math.ceil(grid.dy / 2)
        for cx, cy in grid.centres((x - half_x, y - half_y, w + 2 * half_x, h + 2 * half_y)):
            px, py = min(max(cx, x), x + w - 1), min(max(cy, y), y + h - 1)
            if g.zone_at(px, py) is z:
                self.box(g.location_name(px, py) or "")

    def boxes_of(self, board: vgrid.Board, covered: str | None) -> None:
        """Zones, regions and the cells of square-grid zones that name places rather than hexes become boxes."""
        g = board.grid
        zones = g.zones if isinstance(g, vgrid.ZonedGrid) else ()
        for z in zones:
            zone_grid = g.grid_of(z)
            if covered == f"zone {z.name!r}" or (z.use_parent_grid and (isinstance(zone_grid, vgrid.HexGrid)
                                                                          or covered == LATTICE)):
                continue
            if isinstance(zone_grid, vgrid.RegionGrid):
                for r in zone_grid.regions:
                    self.box(g.location_name(r.x, r.y) or "")
            elif isinstance(zone_grid, vgrid.SquareGrid) and zone_grid.numbering is not None \
                    and "$gridLocation$" in z.location_format:
                self.cell_boxes(g, z, zone_grid)
            elif "$gridLocation$" not in z.location_format or zone_grid is None:
                self.box(re.sub(r"\$[A-Za-z0-9_]*\$", lambda m: z.name if m.group() == "$name$" else "",
                                z.location_format))
        regions = g if isinstance(g, vgrid.RegionGrid) else g.background if isinstance(g, vgrid.ZonedGrid) else None
        if isinstance(regions, vgrid.RegionGrid) and covered != LATTICE:   # a lattice's regions are its hexes
            for r in regions.regions:
                self.box(r.name)

    def map_file(self, mmap: ModuleMap, slot, main: bool, taken: set[str]) -> str | None:
        """Write the map file of a board with a hex grid (``map.yaml`` for the main board); its name, or None."""
        b = slot.board
        found = board_hex_grid(b)
        extent = None if found is None else hex_extent(found[0], found[1])
        if found is not None and extent is None:
            self.notes.append(f"map {mmap.name!r} board {b.name!r}: its hex grid has no hex centre on the board; "
                              "no map file")
        if extent is None:
            return None
        return self._write_map(mmap, b, found[0], extent, found[2], self.image(slot), b, main, taken)

    def joined_file(self, mmap: ModuleMap, joined: JoinedMap, main: bool, taken: set[str]) -> str:
        """Write the map file of a map's boards joined into one grid, with their joined image; its name."""
        name = slug(mmap.name, self.image_names, "map") + ".png"
        self.write(f"images/{name}", joined_image(joined, [s.image_bytes for s in mmap.boards]))
        grid = joined.board.grid
        extent = hex_extent(grid, (0, 0, joined.board.width, joined.board.height))
        source = f"the HexGrids of its {len(joined.placed)} boards, joined"
        return self._write_map(mmap, joined.board, grid, extent, source, f"images/{name}", joined, main, taken)

    def _write_map(self, mmap: ModuleMap, b: vgrid.Board, grid: vgrid.HexGrid, extent, source: str, image: str,
                   named, main: bool, taken: set[str]) -> str:
        """Write a map file of a hex grid on a board (``named`` gives the engine's name of a board pixel)."""
        name = "map.yaml" if main else f"map-{slug(mmap.name + '--' + b.name, taken, 'board')}.yaml"
        map_id = self.game_id if main else f"{self.game_id}-{Path(name).stem}"[:60]
        data = map_data(self.module, mmap, b, grid, extent, image or "images/none", map_id)
        header = MAP_HEADER + [f"Module {self.module.name!r}, map {mmap.name!r}, board {b.name!r} ({source})."]
        self.write(name, _dump(header, data))
        self.check_names(name, named)
        return name

    def find_parts(self) -> None:
        """The boards whose hexes are the main map's (part boards and overlays a save puts in the main board's
        place), with a note for each: a save's pieces on them are placed on the main map's hexes.  Boards the
        main map lays beside the main board by default are not parts, even when their names repeat the main's."""
        cmap = self.main_map
        beside = {s.board.name for m in self.module.maps if m.name == self.main[0] for s in m.boards}
        for m in self.module.maps:
            for s in m.catalogue:
                if (m.name == self.main[0] and s.board.name in beside | {self.main[1]}) or \
                        not part_of_main(cmap, s.board):
                    continue
                self.parts.append({"map": m.name, "board": s.board.name})
                self.notes.append(f"map {m.name!r} board {s.board.name!r}: its hexes are named with the main map's "
                                  "hex names (a part of it): pieces on it are placed on the main map's hexes")

    def joins(self) -> dict[str, JoinedMap]:
        """The maps whose default boards join into one hex grid (a note for those that do not)."""
        out = {}
        for m in self.module.maps:
            if len(m.boards) < 2 or not any(mappable(s.board) for s in m.boards):
                continue
            joined = joined_boards(m)
            if joined is None:
                self.notes.append(f"map {m.name!r}: its {len(m.boards)} boards are not joined into one map (not one "
                                  "continuous hex grid, or beyond what docs/new-game.md 'Boards joined' allows); "
                                  "each board with a hex grid has its own map file, and a save's pieces on the "
                                  "others are listed")
            else:
                out[m.name] = joined
        return out

    def maps(self) -> list[dict]:
        """Every board's image and map file written (the main board's first, boards joined in one); the maps of
        the import record."""
        self.main = main_board(self.module)
        joins = self.joins()
        order = sorted(((m, s) for m in self.module.maps for s in m.catalogue),
                       key=lambda ms: (ms[0].name, ms[1].board.name) != self.main)
        taken, files, joined_files = {"map"}, {}, {}
        for mmap, slot in order:
            joined = joins.get(mmap.name)
            key = (mmap.name, slot.board.name)
            if joined is not None and slot.board.name in joined.names:
                if mmap.name not in joined_files:
                    joined_files[mmap.name] = self.joined_file(mmap, joined, key == self.main, taken)
                    self.main_boards = list(joined.names) if key == self.main else self.main_boards
                files[key] = joined_files[mmap.name]
            else:
                files[key] = self.map_file(mmap, slot, key == self.main, taken)
            self.image(slot)
            found = board_hex_grid(slot.board)
            self.boxes_of(slot.board, found[2] if found else None)
        self.find_parts()
        return [{"name": m.name, "edge": list(m.edge), "launch": m.launch,
                 "default": [{"name": s.board.name, "slot": [s.col, s.row], "reversed": s.reversed,
                              "map_file": files.get((m.name, s.board.name))} for s in m.boards],
                 "boards": [{"name": s.board.name, "image": self.images.get(id(s.board), ""),
                             "size": [s.board.width, s.board.height], "grid": vgrid.grid_to_dict(s.board.grid),
                             "map_file": files.get((m.name, s.board.name))} for s in m.catalogue]}
                for m in self.module.maps]


def part_of_main(cmap, board: vgrid.Board) -> bool:
    """Whether a board is a part of the main map (a part board or an overlay): at least half of the hex centres
    of its hex grid are named by the engine with hexes of the main map file (``cmap``), each at one offset
    (to a pixel) from that hex's centre there."""
    found = board_hex_grid(board)
    points = centres(found[0], board.width, board.height) if found is not None else []
    offsets = []
    for px, py in points:
        try:
            h = cmap.grid.parse(board.location_name(px, py) or "")
        except ValueError:   # HexNameError: not a hex of the main map
            continue
        mx, my = cmap.board.pixel(*cmap.grid.layout.centre(h))
        offsets.append((round(mx) - px, round(my) - py))
    return bool(offsets) and 2 * len(offsets) >= len(points) and \
        all(abs(x - offsets[0][0]) <= 1 and abs(y - offsets[0][1]) <= 1 for x, y in offsets)


def joined_boards(mmap: ModuleMap) -> JoinedMap | None:
    """A map's default boards joined into one hex grid (:mod:`.joined`), when each board's hex grid covers it
    whole, they continue one another, and their images are raster images (an SVG board is not composed)."""
    placed = []
    for pb in mmap.layout().boards:
        found = board_hex_grid(pb.board)
        if found is None or found[1] != (0, 0, pb.board.width, pb.board.height) or \
                pb.board.image.lower().endswith(".svg") or not isinstance(found[0].numbering, VassalNumbering):
            return None
        placed.append((pb, found[0]))
    return join(placed, " + ".join(pb.board.name for pb, _ in placed))


PLACEHOLDER_MOVEMENT = 4   # each counter's movement allowance until the maker gives the real ones


def rules_starter(game_id: str, title: str, terrains: list[str], phases: list[str]) -> str:
    """A commented starter ``rules.yaml`` for an imported game: movement only, every terrain of the (blank) map
    costing 1, so ``toolkit moves``, ``check`` and ``serve`` answer at once (docs/rules-data.md)."""
    costs = "\n".join(f"      {json.dumps(t)}: 1" for t in terrains)   # JSON strings are YAML strings
    return f"""\
{_comment(title)}: the rules as data (docs/rules-data.md; `toolkit schema rules` gives the JSON Schema).
# A starter written by `toolkit import-vmod`: the module has no rules the toolkit can read, so this gives
# movement only, every terrain of the map costing 1 movement point and every counter the placeholder
# movement allowance {PLACEHOLDER_MOVEMENT} (counters.yaml, values.movement).  Add your terrain to map.yaml, its costs
# here, zones of control, combat, supply ... from your rulebook, with its rule numbers.
game: {game_id}

movement:
  rule: "1"
  allowance: movement                 # the counter value holding the movement points
  terrain:
    rule: "1"
    costs:                            # MP to enter a hex, one number or by class; P: prohibited
{costs}
  phases: {{{json.dumps(phases[0])}: all}}                 # who moves in which phase
  enemy_units: {{rule: "1"}}            # no unit enters a hex holding enemy units
"""


def _counters(pieces: list[PieceDef], found: list[SideOf]) -> tuple[list[dict], list[dict]]:
    """One counter per piece slot (its side as :mod:`.sides` found it), and the manifest entry of each slot."""
    taken: set[str] = set()
    counters, manifest = [], []
    for p, side in zip(pieces, found):
        cid = slug(p.slot or p.name, taken, "piece")
        c = {"id": cid, "name": p.name or p.slot or cid, "side": side.side, "nationality": side.side,
             "type": "piece", "values": {"movement": PLACEHOLDER_MOVEMENT}}
        faces = p.faces
        if len(faces) >= 2:
            flip = next(la for la in p.layers if len([i for i in la.images if i]) >= 2)
            c["back"] = {}
            back = flip.level_names[1] if len(flip.level_names) > 1 else ""
            if back:
                c["back_name"] = f"{c['name']} {back}".strip()
        counters.append(c)
        manifest.append({"slot": p.slot, "name": p.name, "gpid": p.gpid, "counter": cid, "image": p.image,
                         "faces": list(faces),
                         "layers": [{"name": la.name, "images": list(la.images), "levels": list(la.level_names)}
                                    for la in p.layers],
                         "mask": p.mask_image, "prototypes": list(p.prototypes), "traits": list(p.traits),
                         "folders": list(p.folders), "side": {"id": side.side, "how": side.how,
                                                              "from": side.source},
                         **({"deck": p.deck} if p.deck else {})})
    return counters, manifest


def readme(module: PublishedModule, vmod, title: str, sides: tuple[list[tuple[str, str]], str], found: list[SideOf],
           rows) -> str:
    """The folder's README: where it came from, how the sides were worked out (``sides``: ``(id, name)`` and
    where they come from), the scenarios read."""
    name = os.path.basename(os.fspath(vmod))
    sides, whence = sides
    lines = [
        f"# {title}", "",
        f"Imported by `toolkit import-vmod` from the VASSAL module `{name}` ({module.name!r} version "
        f"{module.version!r}); docs/new-game.md, 'Starting from a published module'.", "",
        "## Sides", "",
        f"Sides: {whence}. Each counter's side was worked out from the "
        "module, the first of these that names a side: a property of the piece or its prototypes (a Marker or "
        "dynamic property `side`, `faction`, `army`, `nationality` ...), a prototype named after the side, a "
        "palette folder (the piece window's list, tab or panel) named after it, or -- where folders name "
        "nationalities (American, British) -- by elimination, the one side no piece names. Counters with none "
        "of these are given the first side, counted as not worked out.", "",
        *summary(found, sides), "",
        "Correct a counter's side in `counters.yaml` (its `side:` and `nationality:`); pieces.yaml says, for each "
        "piece slot, which way its side was found (`side.how`, `side.from`). The scenarios follow the counters: "
        "they name counters, not sides.", "",
        "## Scenarios", "",
        "Each predefined setup of the module (File menu, nested menus included) read as a position in "
        "`scenarios/`, as `toolkit vsav read --game` reads a save of the module; pieces it cannot place are "
        "listed in the file's header.", "",
        *readme_rows(rows), ""]
    return "\n".join(one_line(line) for line in lines)   # a name from the module stays on its line


def _check_target(folder: Path) -> None:
    if folder.is_symlink():
        raise ScaffoldError(f"{folder}: is a symbolic link; give a new or empty folder (-o GAME_DIR)")
    if folder.exists() and not folder.is_dir():
        raise ScaffoldError(f"{folder}: exists and is not a folder; give a new or empty folder (-o GAME_DIR)")
    if folder.is_dir() and any(folder.iterdir()):
        raise ScaffoldError(f"{folder}: the folder is not empty; `toolkit import-vmod` writes only into a new or "
                            "empty folder (it never overwrites your files)")


def import_module(vmod: str | os.PathLike[str], game_dir: str | os.PathLike[str]) -> ImportReport:
    """Import a published module into a new or empty game folder; returns what was written and left out.

    Raises :class:`~toolkit.vassal.engine.safezip.ArchiveError` or
    :class:`~toolkit.vassal.published.moduleread.ModuleReadError` for a module refused, :class:`ScaffoldError` for a
    folder that is not new or empty -- before writing anything.
    """
    folder = Path(game_dir)
    _check_target(folder)
    module = with_made_names(read_published_module(vmod))
    if main_board(module) is None:
        raise ScaffoldError(no_map_reason(module))
    check_hex_count(module)
    game_id = game_id_for(folder)
    folder.resolve().parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_folder(folder.resolve(), TMP_TAG)
    try:
        w = _Writer(module, tmp, game_id)
        maps = w.maps()
        sides_taken: set[str] = set()
        names, whence = module_sides(module.sides, module.pieces)
        sides = [(slug(s, sides_taken, "side"), s) for s in names]
        found = sides_of(module.pieces, sides)
        counters, manifest = _counters(module.pieces, found)
        flags = ["flipped"] if any("back" in c for c in counters) else []
        title = (module.name or folder.name).replace("\n", " ")[:120]
        game = {"id": game_id, "title": title, "map": "map.yaml",
                "sides": [{"id": i, "name": n} for i, n in sides],
                "nationalities": [{"id": i, "name": n, "side": i} for i, n in sides],
                "unit_types": ["piece"], "flags": flags, **({"back_flag": "flipped"} if flags else {}),
                "turns": ["1"], "phases": ["play"],
                "boxes": sorted(set(w.boxes.values())) or ["off_map"], "eliminated_box": ""}
        game["eliminated_box"] = game["boxes"][0]
        w.write("game.yaml", _dump([f"{title}: imported from the VASSAL module {os.path.basename(os.fspath(vmod))} "
                                    "(docs/game-files.md).", "Sides, turns and phases are placeholders: edit them."],
                                   game))
        w.write("counters.yaml", _dump(["One counter per piece slot of the module; pieces.yaml says which slot each "
                                        "came from.  Each `side:` is worked out from the module (README.md, "
                                        "'Sides'): correct it here,", "with its `nationality:`, where it is wrong; "
                                        "type and values are yours to fill in."],
                                       {"game": game_id, "counters": counters}))
        w.write("pieces.yaml", _dump(["The module's piece slots (the counter manifest): names, gpid, images, "
                                      "layers and faces, mask, prototypes."], {"pieces": manifest}))
        record = {"module": {"name": module.name, "version": module.version,
                             "file": os.path.basename(os.fspath(vmod))},
                  "main": {"map": w.main[0], "board": w.main[1], "boards": w.main_boards or [w.main[1]],
                           "parts": w.parts},
                  "maps": maps, "boxes": w.boxes}
        w.write("rules.yaml", rules_starter(game_id, title, list(BLANK_TERRAIN), game["phases"]))
        w.write(RECORD, _dump(["What `toolkit vsav read --game` needs of the module: its maps, boards and grids "
                               "as VASSAL reads them.", "Written by `toolkit import-vmod`; not meant for editing."],
                              record))
        _check_loads(tmp, vmod)
        rows = write_scenarios(vmod, module, load_game(str(tmp)), load_record(tmp), w.write, slug)
        w.notes += [n for r in rows for n in r.notes]
        w.write("README.md", readme(module, vmod, title, (sides, whence), found, rows))
        if folder.is_dir():
            os.chmod(tmp, folder.stat().st_mode & 0o7777)
            folder.rmdir()            # empty (checked above); rename cannot replace a folder on every system
        os.rename(tmp, folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return ImportReport(folder, sorted(p for p in folder.rglob("*") if p.is_file()), w.notes, w.hexes)


def _check_loads(tmp: Path, vmod) -> None:
    """Load the game built in the temporary folder; a failure is the module's, named so (the folder is gone
    by the time the user reads the message)."""
    try:
        load_game(str(tmp))
    except (DataFileError, ValueError) as err:
        raise ScaffoldError(f"{os.fspath(vmod)}: the imported game would not load: "
                            f"{str(err).replace(str(tmp) + os.sep, '')}") from None
