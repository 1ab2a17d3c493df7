"""Reading a published VASSAL module (untrusted): its maps, boards, grids, sides and piece slots.

The archive goes through :mod:`toolkit.vassal.engine.safezip` (no traversal, size
limits while inflating) and ``buildFile.xml`` (or ``buildFile``) through
:func:`~toolkit.vassal.engine.safezip.parse_xml` (no DOCTYPE or entities, no network,
no huge trees).  Attributes are read as the engine's ``setAttribute`` reads
them (VASSAL 3.6.0): ``HexGrid`` ``dx`` is recomputed from ``dy`` when absent
or equal to the default width, ``x0``/``y0`` are integers (a module where they
are not has no grid in the engine either, and is refused here), numbering
defaults are ``HexGridNumbering``'s (stagger on, offsets 1, leading 1).

Boards are laid out from the BoardPicker's default ``setup`` (else its first
board, as a new game without a board dialog).  Board sizes are the images'
(read from the image header only) or the board's ``width``/``height``.
"""
from __future__ import annotations

import io
import math
import os
import re
import warnings
from dataclasses import dataclass, field

from ...hexgrid import VassalNumbering
from ..engine import vgrid
from ..engine.pieces import MAX_TRAITS, PieceLimitError, Trait, parse_add_piece, split_chain
from ..engine.safezip import ArchiveError, check_entry_name, open_archive, parse_xml
from ..engine.seqenc import decode

MAX_BUILD_FILE_BYTES = 64 << 20
MAX_IMAGE_BYTES = 256 << 20
MAX_BOARD_PIXELS = 300_000_000   # a board image's width x height (the engine would need gigabytes beyond)
MAX_ZONE_POINTS = 10_000
STAND_IN_HEXES = (30, 20)        # columns and rows of a blank stand-in for a gridded board without its image
MAX_NUMBER = 10_000_000          # a whole-number attribute's magnitude (sizes, origins, offsets in pixels)
MIN_SPACING, MAX_SPACING = 1.0, 1e6   # a hex grid's dx and dy in pixels
DEFAULT_DY = 64.0
DEFAULT_DX = math.sqrt(3) / 2 * DEFAULT_DY

_PKG = "VASSAL.build.module."
MAP_CLASSES = (_PKG + "Map", _PKG + "PrivateMap", _PKG + "PlayerHand",
               "VASSAL.build.widget.WidgetMap")   # a map in a chart window's tab or panel
BOARD = _PKG + "map.boardPicker.Board"
PICKER = _PKG + "map.BoardPicker"
_GRID = _PKG + "map.boardPicker.board."
HEX_GRID, REGION_GRID, ZONED_GRID, SQUARE_GRID = (_GRID + n for n in ("HexGrid", "RegionGrid", "ZonedGrid",
                                                                      "SquareGrid"))
REGION, ZONE, NUMBERING = _GRID + "Region", _GRID + "mapgrid.Zone", _GRID + "mapgrid.HexGridNumbering"
NUMBERINGS = (NUMBERING, _GRID + "mapgrid.SquareGridNumbering")
PIECE_SLOTS = ("VASSAL.build.widget.PieceSlot", "VASSAL.build.widget.CardSlot")
PROTOTYPE = _PKG + "PrototypeDefinition"
SETUP = _PKG + "PredefinedSetup"
DECK = _PKG + "map.DrawPile"
WIDGET = "VASSAL.build.widget."   # the piece window's lists, tabs, panels and boxes (a slot's palette folders)
ROOTS = ("VASSAL.build.GameModule", "VASSAL.launch.BasicModule")   # the engine loads both (BasicModule: older)
ROSTER = _PKG + "PlayerRoster"
EXTENSION = _PKG + "ModuleExtension"
SVG_UNITS = {"": 1.0, "px": 1.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "pt": 96 / 72, "pc": 16.0}   # CSS


#: What one module may hold, counted in ``buildFile.xml`` before anything else is read: (what, elements, limit).
ELEMENT_LIMITS = (("maps", MAP_CLASSES, 100), ("boards", (BOARD,), 500), ("zones", (ZONE,), 5_000),
                  ("piece slots", PIECE_SLOTS, 20_000), ("predefined setups", (SETUP,), 1_000))
MAX_SIDES = 100   # the PlayerRoster's sides


class ModuleReadError(ValueError):
    """A module that cannot be imported: names the file, the element or attribute, and the fix."""


def check_element_counts(root, label: str) -> None:
    """Refuse a module holding more maps, boards, zones or piece slots than :data:`ELEMENT_LIMITS` allow."""
    kinds = {tag: what for what, tags, _ in ELEMENT_LIMITS for tag in tags}
    counts = dict.fromkeys((what for what, _, _ in ELEMENT_LIMITS), 0)
    for el in root.iter(*kinds):
        counts[kinds[el.tag]] += 1
    for what, _, limit in ELEMENT_LIMITS:
        if counts[what] > limit:
            raise ModuleReadError(f"{label}: {counts[what]:,} {what}, over the limit of {limit:,} for an import "
                                  "(docs/vassal.md, 'Limits'); import a module with fewer")


@dataclass(frozen=True)
class BoardSlot:
    """A board of a map and its place in the BoardPicker's default layout."""

    board: vgrid.Board
    col: int = 0
    row: int = 0
    reversed: bool = False
    image_bytes: bytes = b""   # the board image as the module holds it (empty without an image)


@dataclass(frozen=True)
class ModuleMap:
    """A ``Map`` (or private map, player hand): its name, edge buffer and boards in their default layout."""

    name: str
    edge: tuple[int, int]
    boards: tuple[BoardSlot, ...]
    launch: bool = False   # opened from a toolbar button (an off-map box window) rather than docked
    catalogue: tuple[BoardSlot, ...] = ()   # every board its BoardPicker offers, with its image (a save may
    #                                          place any)

    def layout(self) -> vgrid.MapLayout:
        """The map with its default boards placed, as the engine lays them out."""
        return vgrid.MapLayout(self.name, tuple(vgrid.place_boards(
            [(b.board, b.col, b.row, b.reversed) for b in self.boards], self.edge)))


@dataclass(frozen=True)
class Layer:
    """A ``Layer`` (``emb2``) trait: its name and each level's image and name."""

    name: str
    images: tuple[str, ...]
    level_names: tuple[str, ...]


@dataclass(frozen=True)
class PieceDef:
    """A piece slot of the palette (or an at-start stack): names, gpid, image, layers, mask, prototypes."""

    slot: str
    name: str
    gpid: str
    image: str
    layers: tuple[Layer, ...] = ()
    mask_image: str | None = None
    prototypes: tuple[str, ...] = ()
    traits: tuple[str, ...] = ()
    folders: tuple[str, ...] = ()   # the palette's list, tab and panel names above the slot, outermost first
    properties: tuple[tuple[str, str], ...] = ()   # Marker and dynamic property values, its prototypes' too
    deck: str = ""   # the DrawPile (deck) holding the card slot, if any

    @property
    def faces(self) -> tuple[str, ...]:
        """The images a player flips between: the first layer with two or more levels, else the piece's image."""
        flip = next((la for la in self.layers if len([i for i in la.images if i]) >= 2), None)
        return tuple(i for i in flip.images if i) if flip else ((self.image,) if self.image else ())


@dataclass(frozen=True)
class Setup:
    """A ``PredefinedSetup`` that loads a saved game of the module (File menu, nested menus included)."""

    name: str
    file: str
    menus: tuple[str, ...] = ()   # the menus it sits in, outermost first

    @property
    def title(self) -> str:
        """The setup as the File menu shows it: ``Menu > Submenu > Name``."""
        return " > ".join((*self.menus, self.name))


@dataclass
class PublishedModule:
    """What the importer needs of a module."""

    path: str
    name: str
    version: str
    maps: list[ModuleMap] = field(default_factory=list)
    sides: list[str] = field(default_factory=list)
    pieces: list[PieceDef] = field(default_factory=list)
    setups: list[Setup] = field(default_factory=list)
    decks: list[str] = field(default_factory=list)   # the DrawPiles' names
    size: int = 0   # the archive's entries, inflated (declared sizes; reading checks them)
    notes: list[str] = field(default_factory=list)   # what the import leaves out, and why


class _Reader:
    """One module being read: the archive, the file name for errors, and the notes gathered."""

    def __init__(self, arc, path: str):
        self.arc, self.path, self.notes = arc, path, []

    def fail(self, where: str, problem: str) -> ModuleReadError:
        return ModuleReadError(f"{self.path}: {where}: {problem}")

    # ------------------------------------------------------------ attributes

    def integer(self, el, key: str, default: int, where: str) -> int:
        text = el.get(key)
        if text is None or text == "":
            return default
        if len(text) > 40:   # never converted: Python refuses huge digit strings, and floats overflow on them
            raise self.fail(f"{where} {key}", f"{text[:40]!r}…: {len(text):,} characters, over the limit of 40")
        try:
            value = int(text.strip())
        except ValueError:
            raise self.fail(f"{where} {key}", f"{text[:40]!r} is not a whole number (VASSAL drops such a grid; "
                                               "fix the module in VASSAL's editor)") from None
        if abs(value) > MAX_NUMBER:
            raise self.fail(f"{where} {key}", f"{value}: over the limit of {MAX_NUMBER:,} in magnitude")
        return value

    def number(self, el, key: str, default: float, where: str) -> float:
        text = el.get(key)
        if text is None or text == "":
            return default
        try:
            value = float(text.strip())
        except ValueError:
            raise self.fail(f"{where} {key}", f"{text[:40]!r} is not a number") from None
        if not math.isfinite(value) or not MIN_SPACING <= value <= MAX_SPACING:
            raise self.fail(f"{where} {key}", f"{text[:40]!r}: expected a spacing of {MIN_SPACING:g} to "
                                               f"{MAX_SPACING:,.0f} pixels")
        return value

    @staticmethod
    def flag(el, key: str, default: bool) -> bool:
        text = el.get(key)
        return default if text is None or text == "" else text.strip() == "true"

    # ------------------------------------------------------------ grids

    def numbering(self, grid_el, sideways: bool, max_cells: tuple[int, int], where: str) -> VassalNumbering | None:
        """A grid's ``HexGridNumbering`` or ``SquareGridNumbering`` (None without one); ``max_cells`` is the
        engine's ``getMaxColumns``/``getMaxRows`` of the grid's container (used when descending)."""
        el = next((c for c in grid_el if c.tag in NUMBERINGS), None)
        if el is None:
            return None
        where = f"{where} {el.tag.rsplit('.', 1)[-1]}"
        values = dict(
            sideways=sideways, first="V" if (el.get("first") or "H")[:1] == "V" else "H", sep=el.get("sep") or "",
            h_type="A" if (el.get("hType") or "N")[:1] == "A" else "N",
            v_type="A" if (el.get("vType") or "N")[:1] == "A" else "N",
            h_leading=self.integer(el, "hLeading", 1, where), v_leading=self.integer(el, "vLeading", 1, where),
            h_off=self.integer(el, "hOff", 1, where), v_off=self.integer(el, "vOff", 1, where),
            h_descend=self.flag(el, "hDescend", False), v_descend=self.flag(el, "vDescend", False),
            stagger=el.tag == NUMBERING and self.flag(el, "stagger", True),
            max_columns=max_cells[0], max_rows=max_cells[1],
            location_format=el.get("locationFormat") or "$gridLocation$")
        for key in ("h_leading", "v_leading"):
            if not 0 <= values[key] <= 8:
                raise self.fail(f"{where} {key.replace('_l', 'L')}", f"{values[key]}: expected 0 to 8 leading zeros")
        numbering = VassalNumbering(**values)
        problem = numbering.check_format()
        if problem:
            raise self.fail(f"{where} locationFormat", f"{values['location_format'][:80]!r}: {problem} "
                                                       "(the importer reads names back into hexes)")
        return numbering

    def _spacing(self, el, where: str) -> tuple[float, float]:
        """``(dx, dy)`` as ``HexGrid.setAttribute`` leaves them (attributes in name order: dx, then dy)."""
        dx = self.number(el, "dx", DEFAULT_DX, where)
        dy = self.number(el, "dy", DEFAULT_DY, where)
        return (math.sqrt(3) / 2 * dy if dx == DEFAULT_DX else dx), dy

    def grid(self, el, size: tuple[int, int], where: str, depth: int = 0):
        """A grid element as the engine builds it (None for a grid the importer does not read, with a note)."""
        if el.tag == HEX_GRID:
            where = f"{where} HexGrid"
            dx, dy = self._spacing(el, where)
            sideways = self.flag(el, "sideways", False)
            w, h = size   # HexGridNumbering.getMaxColumns / getMaxRows, exactly as the engine divides
            cells = (math.floor(w / dy + 0.5), math.floor(h / dx + 0.5))
            return vgrid.HexGrid(dx, dy, self.integer(el, "x0", 0, where), self.integer(el, "y0", 32, where),
                                 sideways, self.flag(el, "snapTo", True), self.numbering(el, sideways, cells, where))
        if el.tag == SQUARE_GRID:
            return self.square_grid(el, size, f"{where} SquareGrid")
        if el.tag == REGION_GRID:
            regions = tuple(vgrid.Region(r.get("name") or "", self.integer(r, "originx", 0, f"{where} Region"),
                                         self.integer(r, "originy", 0, f"{where} Region"))
                            for r in el if r.tag == REGION)
            return vgrid.RegionGrid(regions, self.flag(el, "snapto", True))
        if el.tag == ZONED_GRID and depth == 0:
            zones, background = [], None
            for child in el:
                if child.tag == ZONE:
                    zones.append(self.zone(child, where))
                elif isinstance(child.tag, str) and child.tag in (HEX_GRID, REGION_GRID, SQUARE_GRID):
                    background = self.grid(child, size, f"{where} ZonedGrid background", depth + 1)
            return vgrid.ZonedGrid(tuple(zones), background)
        self.notes.append(f"{where}: {str(el.tag).rsplit('.', 1)[-1]} is not imported (hex, square, region and "
                          "zoned grids are); its points are named 'offboard' here")
        return None

    def square_grid(self, el, size: tuple[int, int], where: str) -> vgrid.SquareGrid:
        """A ``SquareGrid`` (the engine's defaults: 48 x 48 pixel cells, origin 24, 24)."""
        dx, dy = self.number(el, "dx", 48.0, where), self.number(el, "dy", 48.0, where)
        cells = (math.trunc(size[0] / dx + 0.5), math.trunc(size[1] / dy + 0.5))   # SquareGridNumbering.getMax*
        return vgrid.SquareGrid(dx, dy, self.integer(el, "x0", 24, where), self.integer(el, "y0", 24, where),
                                self.flag(el, "snapTo", True), self.numbering(el, False, cells, where))

    def zone(self, el, where: str) -> vgrid.Zone:
        name = el.get("name") or ""
        where = f"{where} Zone {name[:40]!r}"
        pts = []
        for token in decode(el.get("path") or "", ";")[:MAX_ZONE_POINTS + 1]:
            xy = decode(token, ",")
            try:
                pts.append((int(xy[0].strip()), int(xy[1].strip())))
            except (ValueError, IndexError):
                continue   # PolygonEditor.reset skips what does not parse
        if len(pts) > MAX_ZONE_POINTS:
            raise self.fail(f"{where} path", f"more than {MAX_ZONE_POINTS} points (limit)")
        x, y, w, h = vgrid.Zone(name, tuple(pts)).bounds() if pts else (0, 0, 0, 0)
        grid = next((self.grid(c, (w, h), where, 1) for c in el
                     if isinstance(c.tag, str) and c.tag in (HEX_GRID, REGION_GRID, SQUARE_GRID)), None)
        return vgrid.Zone(name, tuple(pts), el.get("locationFormat") or "$name$", grid,
                          self.flag(el, "useParentGrid", False))

    # ------------------------------------------------------------ boards and maps

    def image(self, name: str, where: str) -> tuple[bytes, tuple[int, int]] | None:
        """A board image and its size; None when the module lacks it."""
        entry = f"images/{name}"
        if entry not in self.arc:
            return None
        data = self.arc.read(entry, MAX_IMAGE_BYTES)
        size = svg_size(data) if name.lower().endswith(".svg") else _raster_size(data)
        if isinstance(size, str):
            raise self.fail(f"{where} image", f"{name[:80]!r} is not a readable image ({size})")
        self.check_pixels(size, f"{where} image", f"{name[:80]!r} is")
        return data, size

    def stand_in(self, el, grid_el, where: str) -> tuple[int, int]:
        """The size of a blank stand-in for a gridded board whose image is missing: the board's ``width`` and
        ``height`` when it has them, else what its zones and regions cover and :data:`STAND_IN_HEXES` of its hex
        or square grid (or its zoned grid's background) from the grid's origin."""
        if el.get("width") and el.get("height"):
            return self.integer(el, "width", 0, where), self.integer(el, "height", 0, where)
        w = h = 0
        for z in (c for c in grid_el if c.tag == ZONE):
            pts = [decode(t, ",") for t in decode(z.get("path") or "", ";")[:MAX_ZONE_POINTS]]
            for xy in pts:
                try:
                    w, h = max(w, int(xy[0]) + 1), max(h, int(xy[1]) + 1)
                except (ValueError, IndexError):
                    continue
        for r in grid_el.iter(REGION):   # a region grid's (or a zoned grid's background's) named points
            w = max(w, self.integer(r, "originx", 0, where) + 1)
            h = max(h, self.integer(r, "originy", 0, where) + 1)
        spaced = [grid_el] + [c for c in grid_el if c.tag in (HEX_GRID, SQUARE_GRID)]
        for g in (g for g in spaced if g.tag in (HEX_GRID, SQUARE_GRID)):
            dx, dy = self._spacing(g, where) if g.tag == HEX_GRID else (self.number(g, "dx", 48.0, where),
                                                                       self.number(g, "dy", 48.0, where))
            gx, gy = self.integer(g, "x0", 0, where), self.integer(g, "y0", 0, where)
            if g.tag == HEX_GRID and self.flag(g, "sideways", False):
                dx, dy, gx, gy = dy, dx, gy, gx
            w = max(w, math.ceil(gx + dx * STAND_IN_HEXES[0]))
            h = max(h, math.ceil(gy + dy * (STAND_IN_HEXES[1] + 0.5)))
        size = (min(w, MAX_NUMBER), min(h, MAX_NUMBER))
        self.check_pixels(size, f"{where} stand-in", "the board's stand-in would be")
        return size

    def missing_image(self, el, grid_el, image: str, where: str) -> tuple[bytes, tuple[int, int]]:
        """A board whose image the module lacks: a gridded one gets a blank stand-in (:meth:`stand_in`), any
        other is blank and 0 x 0 pixels, as the engine sizes it; a note says which."""
        missing = f"{where} image: {image[:80]!r} is missing from the module (no entry {('images/' + image)[:90]!r})"
        if grid_el is None:
            self.notes.append(f"{missing}; the board is kept blank and 0 x 0 pixels, as VASSAL shows it")
            return b"", (0, 0)
        size = self.stand_in(el, grid_el, where)
        self.notes.append(f"{missing}; warning: the board is a blank stand-in of {size[0]} x {size[1]} pixels (VASSAL "
                          "shows it 0 x 0, every point 'offboard'): put the real image in the game folder's images/ "
                          "and its size in the map file's board.size")
        return b"", size

    def check_pixels(self, size: tuple[int, int], where: str, what: str) -> None:
        """Refuse a board over :data:`MAX_BOARD_PIXELS` (its image's, or the declared width and height)."""
        if size[0] * size[1] > MAX_BOARD_PIXELS:
            raise self.fail(where, f"{what} {size[0]} x {size[1]} pixels, over the limit of {MAX_BOARD_PIXELS:,} "
                                   "pixels")

    def board(self, el, where: str) -> tuple[vgrid.Board, bytes]:
        name = el.get("name") or ""
        where = f"{where} Board {name[:40]!r}"
        image = el.get("image") or ""
        grid_el = next((c for c in el if isinstance(c.tag, str) and c.tag.startswith(_GRID)), None)
        problem = check_entry_name(f"images/{image}") if image else None
        if problem and "backslash" not in problem:   # never an entry of any archive: hostile, not missing
            raise self.fail(f"{where} image", f"{image[:80]!r}: no such entry can exist ({problem})")
        found = self.image(image, where) if image else None
        if found is not None:
            data, size = found
        elif image:
            data, size = self.missing_image(el, grid_el, image, where)
        else:
            data, size = b"", (self.integer(el, "width", 500, where), self.integer(el, "height", 500, where))
            self.check_pixels(size, f"{where} width and height", "the board is")
        grid = None if grid_el is None else self.grid(grid_el, size, where)
        return vgrid.Board(name, size[0], size[1], image, grid), data

    def module_map(self, el) -> ModuleMap:
        name = el.get("mapName") or ""
        where = f"Map {name[:40]!r}"
        picker = next((c for c in el if c.tag == PICKER), None)
        boards: dict[str, tuple[vgrid.Board, bytes]] = {}
        reversible: set[str] = set()
        for b in (c for c in picker if c.tag == BOARD) if picker is not None else ():
            board, data = self.board(b, where)
            boards.setdefault(board.name, (board, data))
            if self.flag(b, "reversible", False):
                reversible.add(board.name)
        setup = next((c.text or "" for c in picker if c.tag == "setup"), "") if picker is not None else ""
        slots = self._setup(setup, boards, name, reversible) if setup else []
        if not slots and boards:
            first = next(iter(boards.values()))
            slots = [BoardSlot(first[0], image_bytes=first[1])]
        edge = (self.integer(el, "edgeWidth", 0, where), self.integer(el, "edgeHeight", 0, where))
        return ModuleMap(name, edge, tuple(slots), self.flag(el, "launch", False),
                         tuple(BoardSlot(b, image_bytes=data) for b, data in boards.values()))

    def _setup(self, text: str, boards: dict, map_name: str, reversible: set[str]) -> list[BoardSlot]:
        """The BoardPicker's default ``setup`` command: ``<map>BoardPicker TAB board[/rev] TAB col TAB row ...``; a
        board is turned by ``/rev`` only when it is ``reversible`` (the engine's ``Board.setReversed``)."""
        toks = decode(text, "\t")
        out = []
        for i in range(1, len(toks) - 2, 3):
            nt = decode(toks[i], "/")
            if nt[0] not in boards:
                self.notes.append(f"Map {map_name[:40]!r}: the default setup names board {nt[0][:40]!r}, which it "
                                  "does not have; left out")
                continue
            try:
                col, row = int(toks[i + 1]), int(toks[i + 2])
            except ValueError:
                continue
            if 0 <= col < 64 and 0 <= row < 64:
                board, data = boards[nt[0]]
                turned = len(nt) > 1 and nt[1] == "rev" and nt[0] in reversible
                out.append(BoardSlot(board, col, row, turned, data))
        return out

    # ------------------------------------------------------------ pieces

    def piece(self, el, prototypes: dict[str, str]) -> PieceDef | None:
        text = (el.text or "").strip()
        slot = el.get("entryName") or ""
        try:
            p = parse_add_piece(text, MAX_TRAITS) if text.startswith("+/") else None
        except (PieceLimitError, ValueError) as err:
            self.notes.append(f"piece slot {slot[:40]!r}: not read ({err})")
            return None
        if p is None:
            self.notes.append(f"piece slot {slot[:40]!r}: no piece definition; left out")
            return None
        traits, protos = list(p.traits), []
        properties = dict(p.properties)
        queue = [t.type for t in traits if t.kind == "prototype"]
        while queue and len(protos) < 32:   # prototypes may name prototypes; bounded
            pname = decode(queue.pop(0), ";")[1:2]
            pname = pname[0] if pname else ""
            if pname in protos or pname not in prototypes:
                continue
            protos.append(pname)
            text = prototypes[pname]
            try:   # an AddPiece command, as the editor writes it (or, in old modules, the bare type)
                more = parse_add_piece(text, MAX_TRAITS).traits if text.startswith("+/") else \
                    split_chain(text, "", MAX_TRAITS)[0]
            except (PieceLimitError, ValueError):
                continue
            traits += more
            queue += [t.type for t in more if t.kind == "prototype"]
            for t in more:
                for k, v in t.marker_properties().items():
                    properties.setdefault(k, v)
        layers = tuple(_layer(t) for t in traits if t.kind == "emb2")
        mask = next((decode(t.type, ";")[3:4] for t in traits if t.kind == "obs"), None)
        folders, deck = _palette_place(el)
        return PieceDef(slot, p.name, el.get("gpid") or "", p.image, layers, (mask[0] or None) if mask else None,
                        tuple(protos), tuple(t.kind for t in traits), folders,
                        tuple((k[:60], v[:60]) for k, v in properties.items() if k)[:64], deck)


def _palette_place(el) -> tuple[tuple[str, ...], str]:
    """The palette folders above a piece slot (list, tab, panel and box names, outermost first) and the deck
    (``DrawPile``) holding it, if any."""
    folders, deck = [], ""
    for a in el.iterancestors():
        if a.tag == DECK and not deck:
            deck = a.get("name") or ""
        elif isinstance(a.tag, str) and a.tag.startswith(WIDGET) and (a.get("entryName") or "").strip():
            folders.append(a.get("entryName").strip()[:60])
    return tuple(reversed(folders)), deck


def _setups(root) -> list[Setup]:
    """Every ``PredefinedSetup`` that loads a file, with the menus it sits in (``isMenu`` setups nest)."""
    out = []
    for el in root.iter(SETUP):
        if el.get("isMenu") == "true" or el.get("useFile") == "false" or not (el.get("file") or "").strip():
            continue
        menus = tuple((a.get("name") or "")[:60] for a in el.iterancestors(SETUP))[::-1]
        out.append(Setup((el.get("name") or "")[:120], el.get("file").strip(), menus))
    return out


def _raster_size(data: bytes) -> tuple[int, int] | str:
    """A raster image's size from its header (no pixel is decoded), or why it cannot be read."""
    from PIL import Image

    try:
        with warnings.catch_warnings():   # the size is checked by the caller, against the importer's own limit
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:
                return img.size
    except (Image.DecompressionBombError, OSError, ValueError) as err:
        return str(err)


def svg_size(data: bytes) -> tuple[int, int] | str:
    """An SVG board image's size in pixels (the engine draws SVG boards too), or why it cannot be read: the
    root ``<svg>`` tag's ``width`` and ``height`` (CSS units at 96 pixels an inch), else its ``viewBox``.
    Only that tag is looked at (a regular expression over the first 64 KB: nothing is parsed or expanded)."""
    tag = re.search(rb"<svg\b[^>]*>", data[:1 << 16])
    if tag is None:
        return "no <svg> element"
    attrs = {k.decode(): v.decode("utf-8", "replace") for k, v in
             re.findall(rb'\s([A-Za-z]+)\s*=\s*["\']([^"\']*)["\']', tag.group())}
    lengths = [re.fullmatch(r"\s*([0-9]{1,9}(?:\.[0-9]{1,9})?)\s*([a-z]*)\s*", attrs.get(k, ""))
               for k in ("width", "height")]
    if all(m is not None and m.group(2) in SVG_UNITS for m in lengths):
        return tuple(math.ceil(float(m.group(1)) * SVG_UNITS[m.group(2)] - 1e-9) for m in lengths)
    box = (attrs.get("viewBox") or "").replace(",", " ").split()
    try:
        size = math.ceil(float(box[2])), math.ceil(float(box[3]))
        return size if all(0 <= v <= MAX_NUMBER for v in size) else "its viewBox is out of range"
    except (IndexError, ValueError, OverflowError):
        return "its <svg> element has no width and height in pixels or units, and no viewBox"


def _layer(t: Trait) -> Layer:
    """A layer trait's name, its images and its levels' names."""
    f = decode(t.type[len("emb2;"):], ";")
    images = tuple(t.layer_images())
    names = tuple(decode(f[16], ",")) if len(f) > 16 else ()
    return Layer(f[18] if len(f) > 18 else "", images, names)


def read_published_module(path: str | os.PathLike[str]) -> PublishedModule:
    """Read a module through the untrusted-archive guards; raises :class:`ArchiveError` (archive or XML
    refused) or :class:`ModuleReadError` (a part the importer cannot read), naming the file."""
    label = os.fspath(path)
    with open_archive(path) as arc:
        entry = "buildFile.xml" if "buildFile.xml" in arc else "buildFile" if "buildFile" in arc else None
        if entry is None:
            raise ModuleReadError(f"{label}: no buildFile.xml (or buildFile) entry -- not a VASSAL module")
        root = parse_xml(arc.read(entry, MAX_BUILD_FILE_BYTES), f"{label}: entry {entry!r}")
        if root.tag == EXTENSION:
            raise ModuleReadError(f"{label}: a module extension (of the module {(root.get('module') or '')[:60]!r}), "
                                  "not a module: import the module it extends")
        if root.tag not in ROOTS:
            raise ModuleReadError(f"{label}: entry {entry!r}: the root element is {str(root.tag)[:60]!r}, "
                                  f"expected {' or '.join(ROOTS)}")
        check_element_counts(root, label)
        reader = _Reader(arc, label)
        module = PublishedModule(label, root.get("name") or "", root.get("version") or "")
        for el in root.iter():
            if not isinstance(el.tag, str):
                continue
            if el.tag in MAP_CLASSES:
                module.maps.append(reader.module_map(el))
            elif el.tag == ROSTER:
                module.sides += [(e.text or "").strip() for e in el if e.tag == "entry" and (e.text or "").strip()]
        prototypes = {el.get("name") or "": (el.text or "").strip() for el in root.iter(PROTOTYPE)}
        for el in root.iter(*PIECE_SLOTS):
            piece = reader.piece(el, prototypes)
            if piece is not None:
                module.pieces.append(piece)
        if len(module.sides) > MAX_SIDES:
            raise ModuleReadError(f"{label}: {len(module.sides):,} player sides, over the limit of {MAX_SIDES} for an "
                                  "import (docs/vassal.md, 'Limits')")
        module.setups = _setups(root)
        module.decks = [(el.get("name") or "")[:60] for el in root.iter(DECK)]
        module.size = sum(arc.size(n) for n in arc.names())
        module.notes = reader.notes
    return module


__all__ = ["ArchiveError", "BoardSlot", "Layer", "ModuleMap", "ModuleReadError", "PieceDef", "PublishedModule",
           "Setup", "read_published_module"]
