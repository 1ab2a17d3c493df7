"""Saved games of the toolkit's own modules: positions in and out, with the modules' conventions.

The module builder (:mod:`toolkit.vassal.build.buildfile`) fixes the map name, the board name (the
game's title), the counter images and the PieceSlot gpids; saves written here
use the same, so VASSAL matches every piece to its palette entry, and saves
read back map gpids to counters first.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import IO

from dataclasses import dataclass, field

from ...fileio import write_atomic
from ...game import Game, GameDataError, Position, PositionFile, load_game, modules_dir
from ...game.position import MarkerAt, Unit
from ..design.board import BoardLayout, board_layout, hex_centre
from ..design.boxes import BoxesLayout, boxes_layout
from ..design.counters import game_counter_size
from .imported import imported_save_to_position, load_counter_map, load_record
from ..design.gameprops import property_commands, read_properties
from ..design.piecedefs import BOXES_MAP, LAYERS, MAIN_MAP, UNIT_LAYER, marker_piece, piece_gpids, unit_piece
from .savefile import SaveContents, Unplaced, encode_save, read_save, save_to_position, source_label
from ..engine.seqenc import encode
from ..design.turns import position_turn_command, read_position_turn


#: A marker a save puts in a hex lies this far from the centre, on top of the stack and up-right of it as a
#: stack's own pieces lie: the stack's lower-left corner (its values) and the place name below stay in view.
MARKER_OFFSET = (16, -12)   # its top 40 px above the centre: the place name of the hex above stays clear
_PARTS: dict[int, tuple] = {}  # id(game) -> (game, board, boxes, gpids); the game is kept so its id stays its own


@dataclass
class ModuleLayout:
    """A position laid out in a toolkit module's save: hexes on the main map, boxes and tracks on the second."""

    game: Game
    board: BoardLayout
    boxes: BoxesLayout
    gpids: dict[str, str]
    used: dict[str, dict[str, int]] = field(default_factory=dict)  # zone -> unit id (or marker #n) -> slot

    @classmethod
    def of(cls, game: Game) -> "ModuleLayout":
        """The layout of a game's own module (its parts computed once per game)."""
        if id(game) not in _PARTS:
            _PARTS[id(game)] = (game, board_layout(game.map), boxes_layout(game, game_counter_size(game)), piece_gpids(game))
        return cls(*_PARTS[id(game)])

    def _slot(self, kind: str, key: str, thing: Unit | MarkerAt) -> tuple[str, int, int]:
        """The next free slot of a zone; a carried unit shares its carrier's."""
        zone = self.boxes.zone(kind, key)
        used = self.used.setdefault(zone.name, {})
        carrier = thing.carried_by if isinstance(thing, Unit) else None
        i = used[carrier] if carrier in used else len(set(used.values()))
        used[thing.id if isinstance(thing, Unit) else f"#{len(used)}"] = i
        return (BOXES_MAP, *zone.slot(i))

    def place(self, thing: Unit | MarkerAt) -> tuple[str, int, int] | None:
        """A hex centre on the main map (a marker a little off it, so that it shows beside a stack); a slot of
        a box (carried units on their carrier), a turn or the markers; a unit waiting in the game's
        ``arrivals_box`` with an arrival turn, a slot of that turn's box on the turn record track."""
        if thing.hex is not None:
            x, y = hex_centre(self.board, self.game.map, thing.hex)
            dx, dy = (0, 0) if isinstance(thing, Unit) else MARKER_OFFSET
            return MAIN_MAP, x + dx, y + dy
        if isinstance(thing, Unit) and thing.arrives is not None and thing.box == self.game.spec.arrivals_box:
            return self._slot("turn", thing.arrives, thing)
        if thing.box is not None and thing.box in self.game.spec.boxes:
            return self._slot("box", thing.box, thing)
        if isinstance(thing, MarkerAt):
            if thing.turn is not None and thing.turn in self.game.spec.turns:
                return self._slot("turn", thing.turn, thing)
            return self._slot("markers", "", thing)
        return None

    def unit_piece(self, unit: Unit, pid: str, map_name: str, x: int, y: int) -> str:
        """The unit's full piece (:func:`piecedefs.unit_piece`)."""
        return unit_piece(self.game, unit, self.gpids[unit.counter.id], pid, map_name, x, y)

    def marker_piece(self, marker: MarkerAt, pid: str, map_name: str, x: int, y: int) -> str:
        """The marker's full piece (:func:`piecedefs.marker_piece`)."""
        return marker_piece(self.game, marker, self.gpids[marker.marker], pid, map_name, x, y)

    def stack_layer(self, thing: Unit | MarkerAt) -> int | None:
        """Units stack in the units layer; markers never stack."""
        return LAYERS.index(UNIT_LAYER) if isinstance(thing, Unit) else None

    def game_commands(self, position: Position) -> list[str]:
        """Both maps' boards, the turn tracker at the position's turn and phase, the scenario and parameters."""
        spec = self.game.spec
        return [encode([f"{MAIN_MAP}BoardPicker", spec.title, 0, 0], "\t"),
                encode([f"{BOXES_MAP}BoardPicker", BOXES_MAP, 0, 0], "\t"),
                position_turn_command(spec, position.turn, position.phasing_side, position.phase),
                *property_commands(position.scenario, position.params)]

    def zone_of(self, map_name: str, x: int, y: int) -> tuple[str, str] | None:
        """The zone of a point of the boxes map, as ``(kind, key)``; None elsewhere."""
        if map_name != BOXES_MAP:
            return None
        z = self.boxes.zone_at(x, y)
        return (z.kind, z.key) if z is not None else None


def position_save(position: Position) -> tuple[bytes, list[str]]:
    """A position as ``.vsav`` bytes for the game's module, and the ids of what it leaves out (none, normally)."""
    game = position.game
    return encode_save(position, ModuleLayout.of(game), module_name=game.spec.title)


def write_position_save(position: Position, out_path: str | os.PathLike[str]) -> list[str]:
    """Write a position as a ``.vsav`` for the game's module; returns the ids of what it leaves out."""
    data, omitted = position_save(position)
    write_atomic(out_path, data)
    return omitted


def _game_of(save, path: str, game_id: str | None):
    if game_id:
        return load_game(game_id)
    title = save.moduledata.get("name", "")
    for folder in sorted(modules_dir().glob("*/game.yaml")):
        game = load_game(folder.parent.name)
        if game.spec.title == title:
            return game
    known = ", ".join(p.parent.name for p in sorted(modules_dir().glob("*/game.yaml")))
    raise GameDataError(path, "moduledata.name", f"the save is for module {title!r}, which is none of the bundled "
                                                 f"games; give the game with --game (one of: {known})")


def game_of_save(save: SaveContents, path: str, game_id: str | None = None) -> Game:
    """The game of a decoded save or log: ``game_id`` if given, else the bundled game its module is named after."""
    return _game_of(save, path, game_id)


def contents_to_position(save: SaveContents, game: Game,
                         names: dict[str, str] | None = None) -> tuple[PositionFile, list[Unplaced]]:
    """The position a decoded save (or a replayed log's current state) shows: for the game's own module, or
    for the published module a game folder was imported from (:mod:`toolkit.vassal.saves.imported`).

    Turn, phase and phasing side come from the turn tracker when the save has its command.  ``names`` maps
    module piece names to counter ids (a counter mapping file).
    """
    record = None if game.bundled else load_record(game.folder)
    if record is not None:
        return imported_save_to_position(save, game, record, names)
    layout = ModuleLayout.of(game)
    by_gpid = {gpid: pid for pid, gpid in layout.gpids.items() if pid in game.counters}
    return save_to_position(save, game, by_gpid, boards={game.spec.title: layout.board}, map_name=MAIN_MAP,
                            zones=layout.zone_of, names=names, **read_position_turn(game.spec, save.other),
                            **read_properties(save.other))


def read_position_save(path: str | os.PathLike[str] | IO[bytes], game_id: str | None = None,
                       counters: str | os.PathLike[str] | None = None) -> tuple[PositionFile, list[Unplaced]]:
    """The position a ``.vsav`` (a path, or a file object named by its ``name``) shows (game from ``game_id`` or
    the save's module name) and the pieces not placed; ``counters`` is a counter mapping file (``module piece
    name: counter id``)."""
    save = read_save(path)
    game = _game_of(save, source_label(path), game_id)
    return contents_to_position(save, game, load_counter_map(counters, game) if counters else None)


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether two paths name the same file (to refuse writing over an input)."""
    pa, pb = Path(a), Path(b)
    return pa.exists() and pb.exists() and os.path.samefile(pa, pb) or pa.resolve() == pb.resolve()
