"""``toolkit vsav write`` for a game imported from a published module: a save of *their* module.

A position of a game folder ``toolkit import-vmod`` wrote goes back into the module it came from:

* **The module** is read again at write time (through the untrusted-archive guards and the import's element
  limits): its piece slots, prototypes and piece layers.  Which file: ``--module THEIR.vmod``, else the file
  the import record names (``vassal.yaml`` ``module.file``), looked for in the game folder and beside it.  Its
  name must be the record's (a save of another module would not load as theirs).
* **Pieces** are the module's own: each counter's piece slot (``pieces.yaml``: by gpid, else -- or when several
  share it -- by slot name, told apart by piece name, image and faces, and in their order when alike in all),
  with every prototype expanded in place as the
  engine's ``PieceCloner`` does (the prototype's traits and their states, nested prototypes too, an unknown
  one dropped), the slot's gpid in its BasicPiece.  Its states then show the position: the flip layer (the
  first layer with two faces) at the back face's level for the game's ``back_flag``, the mask on for its
  ``hidden_flag``, a rotation of as many angles as ``game.yaml`` ``facing`` has flags at the facing's angle.
* **Where**: a hex of the game's map at its centre on the main board (the map file's pixels, the board's
  place on the map), snapped as the engine snaps a dropped piece; a box at a point the engine names as the
  box's location (a zone, a region, a cell).  Every point is checked by the engine's own naming
  (:mod:`toolkit.vassal.engine.vgrid`) before it is written.  Pieces at one point stack, per piece layer;
  pieces that never stack stand alone.  Every map gets its default boards (a ``BoardPicker`` command).

What cannot go (markers, units on no hex or box, a counter without a slot, a piece over the trait limit
the save reader reads) is returned, never silently dropped; flags the module's pieces do not show are noted.
"""
from __future__ import annotations

import math
import os
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from ...datafile import parse_yaml, read_regular
from ...fileio import write_atomic
from ...game import GameDataError, Position
from ...game.position import MarkerAt, Unit
from ..engine import vgrid
from ..engine.pieces import (MAX_TRAITS, PieceLimitError, Trait, basic_state, encode_add_piece, java_int,
                             parse_add_piece, split_chain)
from ..engine.safezip import open_archive, parse_xml
from ..engine.seqenc import decode, encode
from ..saves.imported import PIECES, RECORD, ImportRecord, load_record
from ..saves.savefile import SaveContents, encode_save
from .moduleread import (EXTENSION, MAP_CLASSES, MAX_BUILD_FILE_BYTES, PIECE_SLOTS, PROTOTYPE, ROOTS,
                         ModuleReadError, check_element_counts)

LAYERS = "VASSAL.build.module.map.LayeredPieceCollection"
MAX_PROTOTYPE_DEPTH = 32   # prototypes naming prototypes: the engine's recursion limiter stops loops too
MAX_EXPANSIONS = 1_000     # prototypes expanded for one piece (one naming itself twice doubles at every level)
NEVER_STACK = "R"          # Immobilized's stacking option "never stack" (its default); "L" stacks


class WritebackError(ValueError):
    """A save that cannot be written for the module: names the file and what to do."""


@dataclass(frozen=True)
class SlotRecord:
    """A piece slot of the module as the counter manifest (``pieces.yaml``) lists it."""

    slot: str    # the slot's entry name in the palette
    name: str    # the piece's (BasicPiece) name
    gpid: str
    image: str
    faces: tuple[str, ...] = ()   # the images a player flips between
    occurrence: int = 0           # how many slots listed before it look the same (old modules repeat slots)

    @property
    def looks(self) -> tuple:
        """What tells it from other slots: entry name, piece name, gpid, image, faces."""
        return self.slot, self.name, self.gpid, self.image, self.faces


@dataclass(frozen=True)
class Imported:
    """What the import wrote about the module: its name, version and file name (``vassal.yaml`` ``module``),
    and each counter's piece slots (``pieces.yaml``)."""

    module: dict[str, str]
    slots: dict[str, tuple[SlotRecord, ...]]

    @classmethod
    def of(cls, folder: Path) -> "Imported":
        """Read from a game folder ``toolkit import-vmod`` wrote."""
        def data(name: str) -> dict:
            path = folder / name
            return parse_yaml(read_regular(path, str(path), GameDataError), str(path), GameDataError) \
                if path.is_file() else {}

        module = data(RECORD).get("module") or {}
        slots: dict[str, tuple[SlotRecord, ...]] = {}
        seen: Counter[tuple] = Counter()
        try:
            for p in data(PIECES).get("pieces") or []:
                ref = SlotRecord(*(str(p.get(k) or "") for k in ("slot", "name", "gpid", "image")),
                                 tuple(str(f) for f in p.get("faces") or ()))
                ref = replace(ref, occurrence=seen[ref.looks])
                seen[ref.looks] += 1
                slots[str(p["counter"])] = (*slots.get(str(p["counter"]), ()), ref)
            return cls({str(k): str(v) for k, v in module.items() if v is not None}, slots)
        except (KeyError, TypeError, AttributeError) as err:
            raise GameDataError(str(folder / PIECES), "", f"not a readable counter manifest ({err}); it is written "
                                                          "by `toolkit import-vmod`: import the module again") from None


@dataclass(frozen=True)
class PieceSlot:
    """A palette slot of the module: its entry name, gpid and AddPiece definition."""

    entry: str
    gpid: str
    text: str


@dataclass(frozen=True)
class ModulePieces:
    """What a save of a published module needs of its ``buildFile``: name, version, slots, prototypes, and
    each map's piece layers (``LayeredPieceCollection``: the property and the layers in order)."""

    path: str
    name: str
    version: str
    slots: tuple[PieceSlot, ...]
    prototypes: dict[str, str]
    layers: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)


def read_module_pieces(path: str | os.PathLike[str]) -> ModulePieces:
    """The piece slots, prototypes and piece layers of a module, read through the untrusted-archive guards and
    the import's element limits (:data:`~.moduleread.ELEMENT_LIMITS`); refusals name the file."""
    label = os.fspath(path)
    with open_archive(path) as arc:
        entry = next((e for e in ("buildFile.xml", "buildFile") if e in arc), None)
        if entry is None:
            raise ModuleReadError(f"{label}: no buildFile.xml (or buildFile) entry -- not a VASSAL module")
        root = parse_xml(arc.read(entry, MAX_BUILD_FILE_BYTES), f"{label}: entry {entry!r}")
    if root.tag == EXTENSION or root.tag not in ROOTS:
        raise ModuleReadError(f"{label}: entry {entry!r}: not a module (its root is {str(root.tag)[:60]!r})")
    check_element_counts(root, label)
    slots = tuple(PieceSlot(el.get("entryName") or "", el.get("gpid") or "", (el.text or "").strip())
                  for el in root.iter(*PIECE_SLOTS))
    prototypes = {el.get("name") or "": (el.text or "").strip() for el in root.iter(PROTOTYPE)}
    layers = {}
    for m in root.iter(*MAP_CLASSES):
        el = next((c for c in m if c.tag == LAYERS), None)
        if el is not None:
            layers[m.get("mapName") or ""] = (el.get("property") or "", tuple(decode(el.get("layerOrder") or "", ",")))
    return ModulePieces(label, root.get("name") or "", root.get("version") or "", slots, prototypes, layers)


# ---------------------------------------------------------------- pieces as the engine clones them


def _chain(text: str) -> tuple[list[Trait], str, str]:
    """A definition's traits (outermost first), BasicPiece type and state: an AddPiece command, or (old
    modules' prototypes) a bare type."""
    if text.startswith("+/"):
        p = parse_add_piece(text)
        return p.traits, p.basic_type, p.basic_state
    return split_chain(text, "")


def expand(traits: list[Trait], prototypes: dict[str, str], depth: int = 0, budget: list[int] | None = None
           ) -> list[Trait]:
    """The traits with each prototype replaced by its own traits and states, in place (``PieceCloner``); a
    prototype the module does not define is dropped, as the engine drops it.  More than
    :data:`~toolkit.vassal.engine.pieces.MAX_TRAITS` levels, or :data:`MAX_EXPANSIONS` prototypes expanded
    (``budget``, shared by the nested calls), raise :class:`PieceLimitError`."""
    budget = [MAX_EXPANSIONS] if budget is None else budget
    out: list[Trait] = []
    for t in traits:
        name = (decode(t.type, ";")[1:2] or [""])[0] if t.kind == "prototype" else None
        if name is None:
            out.append(t)
        elif depth < MAX_PROTOTYPE_DEPTH and name in prototypes:
            budget[0] -= 1
            if budget[0] < 0:
                raise PieceLimitError(f"more than {MAX_EXPANSIONS} prototypes expanded (prototypes naming one "
                                      "another)")
            out += expand(_chain(prototypes[name])[0], prototypes, depth + 1, budget)
        if len(out) > MAX_TRAITS:
            raise PieceLimitError(f"{len(out)}+ trait levels with its prototypes, over the limit of {MAX_TRAITS} "
                                  "a save is read with")
    return out


@dataclass(frozen=True)
class SlotPiece:
    """A slot's piece as the engine puts it in a game: traits expanded, BasicPiece type and state."""

    slot: PieceSlot
    traits: tuple[Trait, ...]
    basic_type: str
    persistent: dict[str, str]

    @classmethod
    def of(cls, slot: PieceSlot, prototypes: dict[str, str]) -> "SlotPiece":
        """The slot's piece with its prototypes expanded (:func:`expand`)."""
        if not slot.text.startswith("+/"):
            raise ValueError("the slot holds no piece definition")
        p = parse_add_piece(slot.text)
        return cls(slot, tuple(expand(p.traits, prototypes)), p.basic_type, dict(p.persistent))

    def add_piece(self, traits: list[Trait], pid: str, map_name: str, x: int, y: int) -> str:
        """The AddPiece command of this piece with the given trait states, at a map point."""
        return encode_add_piece(pid, traits, self.basic_type, basic_state(map_name, x, y, self.slot.gpid,
                                                                          self.persistent))

    def stacks(self) -> bool:
        """Whether the piece stacks: no ``Does not stack`` trait (``immob`` whose stacking option is ``R``, its
        default, rather than ``L``)."""
        for t in self.traits:
            if t.kind == "immob":
                option = (decode(t.type, ";")[3:4] or [NEVER_STACK])[0] or NEVER_STACK
                return option[0] != NEVER_STACK
        return True


def _set_state(traits: list[Trait], i: int, state: str) -> list[Trait]:
    """The traits with the ``i``-th one in another state."""
    return [*traits[:i], Trait(traits[i].type, state), *traits[i + 1:]]


def flip_states(traits: list[Trait], back: bool) -> tuple[list[Trait], bool]:
    """The traits with the flip layer (the first layer with two faces) at its back or front face's level, and
    whether the piece has such a layer."""
    for i, t in enumerate(traits):
        faces = [n for n, image in enumerate(t.layer_images(), 1) if image]   # none for a trait that is no layer
        if len(faces) >= 2:
            return _set_state(traits, i, str(faces[1] if back else faces[0])), True
    return traits, False


def mask_states(traits: list[Trait], by: str | None) -> tuple[list[Trait], bool]:
    """The traits with the mask (``obs``) on for ``by`` (a side's name) or off (None), and whether it has one."""
    for i, t in enumerate(traits):
        if t.kind == "obs":
            toks = decode(t.state, ";") if t.state else [""]
            toks[0] = "null" if by is None else by
            return _set_state(traits, i, encode(toks, ";")), True
    return traits, False


def rotation_states(traits: list[Trait], index: int, angles: int) -> tuple[list[Trait], bool]:
    """The traits with the rotation (``rotate`` of ``angles`` fixed angles) at angle ``index``, and whether the
    piece has such a rotation."""
    for i, t in enumerate(traits):
        if t.kind == "rotate" and java_int((decode(t.type, ";")[1:2] or ["0"])[0]) == angles:
            return _set_state(traits, i, str(index)), True
    return traits, False


# ---------------------------------------------------------------- where pieces go


def _board_to_map(pb: vgrid.PlacedBoard, px: int, py: int) -> tuple[int, int]:
    """The map point of a board point (a reversed board is turned half round)."""
    if pb.reversed:
        px, py = pb.board.width - px, pb.board.height - py
    return pb.x + px, pb.y + py


def grid_at(board: vgrid.Board, px: int, py: int):
    """The grid that snaps a board point: a zone's (or its parent's), else the board's (``ZonedGrid.snapTo``)."""
    g = board.grid
    if isinstance(g, vgrid.ZonedGrid):
        z = g.zone_at(px, py)
        return g.grid_of(z) if z is not None and g.grid_of(z) is not None else g.background
    return g


def snapped(layout: vgrid.MapLayout, mx: int, my: int) -> tuple[int, int]:
    """A map point snapped as the engine snaps a dropped piece (``Board.snapTo``; unchanged off the boards)."""
    found = layout.board_at(mx, my)
    if found is None:
        return mx, my
    pb, (px, py) = found
    grid = grid_at(pb.board, px, py)
    return _board_to_map(pb, *grid.snap(px, py)) if grid is not None else (mx, my)


def _named(zone: vgrid.Zone) -> str:
    """The name of every point of a zone whose location format has no grid location (``$name$`` its name)."""
    return re.sub(r"\$([A-Za-z0-9_]*)\$", lambda m: zone.name if m.group(1) == "name" else "", zone.location_format)


def _candidates(board: vgrid.Board, boxes: dict[str, str]) -> list[tuple[int, int]]:
    """Board points that may name a box: a point inside each zone (one whose every point has one name: only
    if that is a name of ``boxes``), the regions and the square-grid cells of a zone's own grid (bounded, and
    the cells looked at, as the import looks at them)."""
    from shapely import Polygon

    from .importer import MAX_ZONE_CELLS

    g, out = board.grid, []
    zones = g.zones if isinstance(g, vgrid.ZonedGrid) else ()
    for z in zones:
        if len(z.path) >= 3 and ("$gridLocation$" in z.location_format or _named(z) in boxes):
            pt = Polygon(z.path).representative_point()   # a zone of one name is looked at only if it is a box's
            out.append((math.floor(pt.x), math.floor(pt.y)))
        grid = None if z.use_parent_grid else z.grid
        if isinstance(grid, vgrid.RegionGrid):
            out += [(r.x, r.y) for r in grid.regions]
        elif isinstance(grid, vgrid.SquareGrid):
            x, y, w, h = z.bounds()   # a cell centre on the zone's edge: its nearest point inside, as the import
            if (w / grid.dx + 2) * (h / grid.dy + 2) <= MAX_ZONE_CELLS:
                hx, hy = math.ceil(grid.dx / 2), math.ceil(grid.dy / 2)
                out += [(min(max(cx, x), x + w - 1), min(max(cy, y), y + h - 1))
                        for cx, cy in grid.centres((x - hx, y - hy, w + 2 * hx, h + 2 * hy))]
    return out


def _regions(board: vgrid.Board) -> list[vgrid.Region]:
    """The regions of a board's own (or background) ``RegionGrid``: each names its own point, unless a zone
    covers it."""
    g = board.grid.background if isinstance(board.grid, vgrid.ZonedGrid) else board.grid
    return list(g.regions) if isinstance(g, vgrid.RegionGrid) else []


def box_points(record: ImportRecord) -> dict[str, tuple[str, int, int]]:
    """Each box of the import (a location the engine names) at a map point the engine gives that name."""
    out: dict[str, tuple[str, int, int]] = {}
    wanted = set(record.boxes.values())
    for name in sorted(record.maps, key=lambda m: m == record.main_map):   # the main map's hexes last
        layout = record.layout(SaveContents(""), name)
        for pb in layout.boards:   # a region names a box by its name: the others (hexes ...) are not looked up
            points = _candidates(pb.board, record.boxes) + [(r.x, r.y) for r in _regions(pb.board)
                                                             if r.name in record.boxes]
            for px, py in points:
                mx, my = _board_to_map(pb, px, py)
                box = record.boxes.get(layout.location_name(mx, my))
                if box is not None and box not in out:
                    out[box] = (name, mx, my)
                    if len(out) == len(wanted):
                        return out
    return out


# ---------------------------------------------------------------- the layout of a save of their module


@dataclass
class PublishedLayout:
    """A position laid out in a save of the published module (the :class:`~..saves.savefile.SaveLayout` of
    :func:`~..saves.savefile.encode_save`); ``notes`` gathers what the module's pieces cannot show."""

    position: Position
    record: ImportRecord
    module: ModulePieces
    manifest: Imported
    notes: list[str] = field(default_factory=list)
    _pieces: dict[str, SlotPiece | None] = field(default_factory=dict)
    _maps: dict[str, str] = field(default_factory=dict)   # unit id -> the map it is placed on
    _seen: dict[PieceSlot, tuple] = field(default_factory=dict)   # slot -> how it looks (:meth:`_looks`)

    def __post_init__(self):
        self.main = self.record.layout(SaveContents(""), self.record.main_map)
        board = self.position.game.map.board
        self.main_board = next((pb for pb in self.main.boards if board is not None and pb.board.name == board.board),
                               None)
        joined = [pb for pb in self.main.boards if pb.board.name in self.record.main_boards]
        self.origin = (min(pb.x for pb in joined), min(pb.y for pb in joined)) if joined else None
        self.boxes = box_points(self.record) if any(u.box for u in self.position.units) else {}

    def board_point(self, px: float, py: float) -> tuple[int, int] | None:
        """The map point of a pixel of the game's map file: its board's, or (boards joined into one image) from
        the joined boards' top left."""
        if self.main_board is not None:
            return _board_to_map(self.main_board, round(px), round(py))
        return None if self.origin is None else (self.origin[0] + round(px), self.origin[1] + round(py))

    def slot_of(self, counter: str) -> SlotPiece | None:
        """The counter's piece (its slot matched by gpid, else by slot name, piece name and image); None, with
        a note, when the module has no such slot or its piece cannot be read."""
        if counter not in self._pieces:
            self._pieces[counter] = self._find(counter)
        return self._pieces[counter]

    @cached_property
    def _pools(self) -> dict[tuple[str, str], list[PieceSlot]]:
        """The module's slots by gpid (``("gpid", gpid)``) and by entry name (``("entry", name)``), in order."""
        out: dict[tuple[str, str], list[PieceSlot]] = {}
        for s in self.module.slots:
            if s.gpid:
                out.setdefault(("gpid", s.gpid), []).append(s)
            out.setdefault(("entry", s.entry), []).append(s)
        return out

    def _matches(self, ref: SlotRecord) -> list[PieceSlot]:
        """The module's slots that look like a manifest entry: its gpid's (else its entry name's), told apart by
        piece name, image and faces when several share it."""
        pool = self._pools.get(("gpid", ref.gpid), []) if ref.gpid else []
        pool = pool or self._pools.get(("entry", ref.slot), [])
        if len(pool) < 2:
            return pool
        return [s for s in pool if self._looks(s)[:2] == (ref.name, ref.image) and set(ref.faces) <= self._looks(s)[2]]

    def _looks(self, slot: PieceSlot) -> tuple[str, str, frozenset[str]]:
        """A slot's piece name and image, and every image of its layers (``emb2``, its prototypes' too): what
        the manifest's faces are among."""
        if slot not in self._seen:
            try:
                p = parse_add_piece(slot.text)
                traits = expand(p.traits, self.module.prototypes)
            except ValueError:
                self._seen[slot] = ("", "", frozenset())
            else:
                faces = {i for t in traits for i in t.layer_images() if i}
                self._seen[slot] = (p.name, p.image, frozenset(faces | {p.image}))
        return self._seen[slot]

    def _find(self, counter: str) -> SlotPiece | None:
        slot = None
        for ref in self.manifest.slots.get(counter, ()):   # the same look: the slots in their order
            found = self._matches(ref)
            if found:
                slot = found[min(ref.occurrence, len(found) - 1)]
                break
        if slot is None:
            self.notes.append(f"counter {counter!r}: no piece slot of {self.module.name!r} is recorded for it "
                              "(pieces.yaml); its units are not in the save")
            return None
        try:
            return SlotPiece.of(slot, self.module.prototypes)
        except ValueError as err:   # PieceLimitError too
            self.notes.append(f"counter {counter!r}: the piece of slot {slot.entry!r} is not written ({err})")
            return None

    def place(self, thing: Unit | MarkerAt) -> tuple[str, int, int] | None:
        """A unit's hex centre on the main board, snapped, or its box's point; None for markers, units
        elsewhere, counters without a piece."""
        if not isinstance(thing, Unit) or self.slot_of(thing.counter.id) is None:
            return None
        where = self.hex_point(thing) if thing.hex is not None else self.boxes.get(thing.box or "")
        if where is not None:
            self._maps[thing.id] = where[0]
        elif thing.box is not None:
            self.notes.append(f"{thing.id}: no point of the maps' default boards is named as box {thing.box!r} (its "
                              "zone or region lies on a board the module's default setup does not place)")
        return where

    def hex_point(self, unit: Unit) -> tuple[str, int, int] | None:
        """The map point of a unit's hex where the engine names it that hex (checked), snapped."""
        cmap = self.position.game.map
        point = None if cmap.board is None else self.board_point(*cmap.board.pixel(*cmap.grid.layout.centre(unit.hex)))
        if point is None:
            self.notes.append(f"{unit.id}: the game's map is no board of {self.record.main_map!r} (map.yaml has no "
                              "imported `board`); not in the save")
            return None
        mx, my = snapped(self.main, *point)
        if self.main.location_name(mx, my) != cmap.name(unit.hex):
            self.notes.append(f"{unit.id}: hex {cmap.name(unit.hex)} is named "
                              f"{self.main.location_name(mx, my)!r} by the module at its centre; not in the save")
            return None
        return self.record.main_map, mx, my

    def unit_piece(self, unit: Unit, pid: str, map_name: str, x: int, y: int) -> str:
        """The unit's piece: its slot's, the flip layer, mask and rotation showing the unit's flags."""
        piece = self.slot_of(unit.counter.id)
        spec = self.position.game.spec
        traits = list(piece.traits)
        shown: set[str] = set()
        if spec.back_flag and unit.counter.back is not None:
            traits, ok = flip_states(traits, unit.has(spec.back_flag))
            shown |= {spec.back_flag} if ok else set()
        if spec.hidden_flag:
            side = next(s.name for s in spec.sides if s.id == unit.counter.side)
            traits, ok = mask_states(traits, side if unit.has(spec.hidden_flag) else None)
            shown |= {spec.hidden_flag} if ok else set()
        if spec.facing is not None and unit.counter.type in spec.facing.unit_types:
            index = next((i for i, f in enumerate(spec.facing.flags) if unit.has(f)), 0)
            traits, ok = rotation_states(traits, index, len(spec.facing.flags))
            shown |= set(spec.facing.flags) if ok else set()
        lost = sorted(set(unit.flags) - shown)
        if lost:
            self.notes.append(f"{unit.id}: {', '.join(lost)} not shown: the module's piece {piece.slot.entry!r} "
                              "has no trait that shows it (a layer of two faces, a mask, a rotation of as many "
                              "angles as the game's facings)")
        return piece.add_piece(traits, pid, map_name, x, y)

    def marker_piece(self, marker: MarkerAt, pid: str, map_name: str, x: int, y: int) -> str:
        """Never called: markers are not placed (:meth:`place`)."""
        raise AssertionError("markers of an imported game are not written")

    def stack_layer(self, thing: Unit | MarkerAt) -> int | None:
        """The piece layer of the unit's map it lies in (``LayeredPieceCollection``: the index of its layer
        property's value, past the last for another value; 0 on a map without layers); None if it never stacks."""
        piece = self.slot_of(thing.counter.id)
        if not piece.stacks():
            return None
        prop, order = self.module.layers.get(self._maps.get(thing.id, ""), ("", ()))
        if not order:
            return 0
        value = next((t.marker_properties()[prop] for t in piece.traits if prop in t.marker_properties()), None)
        return order.index(value) if value in order else len(order)

    def game_commands(self, position: Position) -> list[str]:
        """Every map's default boards (``BoardPicker``)."""
        out = []
        for name, m in self.record.maps.items():
            boards = [(encode([b, *(["rev"] if rev else [])], "/"), c, r) for b, c, r, rev in m.default]
            if boards:
                out.append(encode([f"{name}BoardPicker", *(v for b in boards for v in b)], "\t"))
        return out


# ---------------------------------------------------------------- the command


def find_module(folder: Path, imported: Imported, given: str | os.PathLike[str] | None) -> Path:
    """The module to write for: ``given``, else the file the import record names, in the game folder or beside
    it."""
    if given is not None:
        return Path(given)
    name = imported.module.get("file", "")
    found = next((p for p in (folder / name, folder.parent / name) if name and Path(name).name == name
                  and p.is_file()), None)
    if found is None:
        raise WritebackError(f"{folder}: the game was imported from {name or 'a module'!r}, found neither in the "
                             "game folder nor beside it; give the module with --module THEIR.vmod")
    return found


def imported_save(position: Position, module: str | os.PathLike[str] | None = None
                  ) -> tuple[bytes, list[str], list[str]]:
    """A position of an imported game as ``.vsav`` bytes of the module it came from, the ids of what it leaves
    out and the notes on what its pieces do not show (:class:`PublishedLayout`)."""
    folder = Path(position.game.folder)
    record = load_record(folder)
    if record is None:
        raise WritebackError(f"{folder}: not a game imported from a published module (no vassal.yaml)")
    imported = Imported.of(folder)
    path = find_module(folder, imported, module)
    pieces = read_module_pieces(path)
    expected = imported.module.get("name")
    if expected is not None and pieces.name != expected:
        raise WritebackError(f"{path}: module {pieces.name!r}, but the game was imported from {expected!r}; give "
                             "that module with --module")
    layout = PublishedLayout(position, record, pieces, imported)
    if imported.module.get("version") not in (None, pieces.version):
        layout.notes.append(f"{path}: version {pieces.version!r}, the game was imported from version "
                            f"{imported.module['version']!r}: pieces are matched by the slots of this one")
    data, omitted = encode_save(position, layout, module_name=pieces.name, module_version=pieces.version)
    return data, omitted, layout.notes


def write_imported_save(position: Position, out: str | os.PathLike[str],
                        module: str | os.PathLike[str] | None = None) -> tuple[list[str], list[str]]:
    """Write :func:`imported_save` to ``out`` (a temporary file renamed into place); what it left out and the
    notes."""
    data, omitted, notes = imported_save(position, module)
    write_atomic(out, data)
    return omitted, notes
