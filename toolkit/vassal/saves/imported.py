"""Saves of a published module read onto the game folder ``toolkit import-vmod`` wrote.

The folder's ``vassal.yaml`` (the import record) holds every map's boards and
grids as the engine reads them; ``pieces.yaml`` which counter each piece slot
became.  A save's pieces are then placed as the engine names their points
(:mod:`toolkit.vassal.engine.vgrid`): on the main board (and the boards the
import joined with it into one map file), the hex of that name; in a
zone or region the import made a box, that box; anywhere else they are listed
with the engine's location name.  A counter mapping file (``piece name:
counter id``) names the counters where the module's pieces are called
otherwise.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from ...datafile import parse_yaml, read_regular
from ...game import Game, GameDataError, PositionFile
from ..engine import vgrid
from .savefile import BoardPlacement, SaveContents, Unplaced, save_to_position
from ..published.matching import SLOT_GPID, match_slots, set_aside_decks, slot_keys

RECORD = "vassal.yaml"
PIECES = "pieces.yaml"


@dataclass(frozen=True)
class ModuleMapRecord:
    """A map of the module: edge buffer, every board it offers, its default layout."""

    name: str
    edge: tuple[int, int]
    boards: dict[str, vgrid.Board]
    default: tuple[tuple[str, int, int, bool], ...]


@dataclass(frozen=True)
class ImportRecord:
    """What a save reader needs of the imported module."""

    main_map: str
    main_board: str
    maps: dict[str, ModuleMapRecord]
    main_boards: tuple[str, ...]   # the boards of the main map file (several when the import joined them)
    boxes: dict[str, str]        # engine location name -> box id
    pieces: dict[str, str]       # PieceSlot gpid -> counter id
    slots: dict[tuple[str, str], str] = field(default_factory=dict)   # (piece name, image) -> counter id
    parts: tuple[tuple[str, str], ...] = ()   # (map, board) of boards named with the main map's hex names

    def layout(self, save: SaveContents, map_name: str) -> vgrid.MapLayout | None:
        """A map with the boards the save places on it (else the module's default boards)."""
        m = self.maps.get(map_name)
        if m is None:
            return None
        placed = [(b.board, b.col, b.row, b.reversed) for b in save.boards_of(map_name)] or list(m.default)
        boards = [(m.boards[n], c, r, rev) for n, c, r, rev in placed if n in m.boards]
        return vgrid.MapLayout(map_name, tuple(vgrid.place_boards(boards, m.edge)))


def _load(path: Path) -> dict:
    return parse_yaml(read_regular(path, str(path), GameDataError), str(path), GameDataError)


_RECORDS: dict[tuple, ImportRecord] = {}


def load_record(folder: str | os.PathLike[str]) -> ImportRecord | None:
    """The import record of a game folder, or None when the folder was not imported from a module (read once
    per version of the files: a log's replay asks at every step)."""
    path = Path(folder) / RECORD
    if not path.is_file():
        return None
    stamp = tuple((f.stat().st_mtime_ns, f.stat().st_size) if f.is_file() else None
                  for f in (path, Path(folder) / PIECES))
    key = (str(path.resolve()), stamp)
    if key not in _RECORDS:
        _RECORDS[key] = _read_record(path, Path(folder))
    return _RECORDS[key]


def _read_record(path: Path, folder: Path) -> ImportRecord:
    data = _load(path)
    try:
        maps = {}
        for m in data["maps"]:
            boards = {b["name"]: vgrid.Board(str(b["name"]), int(b["size"][0]), int(b["size"][1]), str(b["image"]),
                                             vgrid.grid_from_dict(b["grid"])) for b in m["boards"]}
            default = tuple((str(b["name"]), int(b["slot"][0]), int(b["slot"][1]), bool(b["reversed"]))
                            for b in m["default"])
            maps[str(m["name"])] = ModuleMapRecord(str(m["name"]), (int(m["edge"][0]), int(m["edge"][1])), boards,
                                                   default)
        pieces_path = Path(folder) / PIECES
        manifest = _load(pieces_path)["pieces"] if pieces_path.is_file() else []
        pieces = {str(p["gpid"]): str(p["counter"]) for p in manifest if p.get("gpid")}
        main = data["main"]
        main_boards = tuple(str(b) for b in main.get("boards") or [main["board"]])
        parts = tuple((str(b["map"]), str(b["board"])) for b in main.get("parts") or [])
        for m, b in parts:
            if b not in maps[m].boards:
                raise KeyError(f"main.parts: board {b!r} is not a board of map {m!r}")
        return ImportRecord(str(main["map"]), str(main["board"]), maps, main_boards,
                            {str(k): str(v) for k, v in (data.get("boxes") or {}).items()}, pieces,
                            slot_keys(manifest), parts)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        raise GameDataError(str(path), "", f"not a readable import record ({type(err).__name__}: {err}); it is "
                                           "written by `toolkit import-vmod`: import the module again") from None


def load_counter_map(path: str | os.PathLike[str], game: Game) -> dict[str, str]:
    """A counter mapping file: ``module piece name: counter id``, every id a counter of the game."""
    file = os.fspath(path)
    data = _load(Path(path))
    out = {}
    for name, cid in data.items():
        if not isinstance(cid, str) or cid not in game.counters:
            known = ", ".join(list(game.counters)[:12])
            raise GameDataError(file, str(name), f"{cid!r} is not a counter of game {game.spec.id!r}; map each "
                                                 f"module piece name to one of: {known}")
        out[str(name)] = cid
    return out


def imported_save_to_position(save: SaveContents, game: Game, record: ImportRecord,
                              names: dict[str, str] | None = None) -> tuple[PositionFile, list[Unplaced]]:
    """The position a save of the published module shows on the imported game's map, and what it cannot
    place (with the engine's name of where it stands)."""
    layouts = {m: record.layout(save, m) for m in record.maps}
    save, decks = set_aside_decks(match_slots(save, record.pieces, record.slots))
    placed = list(save.boards)
    for m, rec in record.maps.items():   # a save without board commands: the module's default boards
        if not save.boards_of(m):
            placed += [BoardPlacement(m, n, c, r, rev) for n, c, r, rev in rec.default]
    save = replace(save, boards=placed)
    boards: dict[str, object] = {n: (b.width, b.height) for m in record.maps.values() for n, b in m.boards.items()}
    for name in record.main_boards:   # the boards whose names are hexes of the game's map
        boards[name] = record.maps[record.main_map].boards[name]
    for m, name in record.parts:      # part boards and overlays named with the main map's hex names
        boards[name] = record.maps[m].boards[name]
    gpids = record.pieces | {SLOT_GPID + c: c for c in record.slots.values()}

    def zones(map_name: str, x: int, y: int) -> tuple[str, str] | None:
        lay = layouts.get(map_name)
        box = record.boxes.get(lay.location_name(x, y)) if lay is not None else None
        return ("box", box) if box in game.spec.boxes else None

    pf, unplaced = save_to_position(save, game, gpids, boards=boards,
                                    edge={m: r.edge for m, r in record.maps.items()}, zones=zones, names=names)
    for i, u in enumerate(unplaced):   # say where the engine has the piece
        lay = layouts.get(u.map) if u.map else None
        if lay is not None:
            unplaced[i] = Unplaced(u.id, u.name, u.map, u.x, u.y, f"{u.reason} (the engine: "
                                                                  f"{lay.location_name(u.x, u.y)!r})", u.gpid)
    return pf, unplaced + decks
