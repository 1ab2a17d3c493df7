"""Saved games of the toolkit's own modules: positions in and out, with the modules' conventions.

The module builder (:mod:`.buildfile`) fixes the map name, the board name (the
game's title), the counter images and the PieceSlot gpids; saves written here
use the same, so VASSAL matches every piece to its palette entry, and saves
read back map gpids to counters first.
"""
from __future__ import annotations

import os
from pathlib import Path

from ..game import Game, GameDataError, Position, PositionFile, load_game, modules_dir
from .board import board_layout
from .buildfile import MAP_NAME, piece_gpids
from .counters import counter_image_name
from ..fileio import write_atomic
from .savefile import SaveContents, Unplaced, encode_position, read_save, save_to_position


def position_save(position: Position) -> tuple[bytes, list[str]]:
    """A position as ``.vsav`` bytes for the game's module, and the ids of units left out (off the map)."""
    game = position.game
    images = {c.id: counter_image_name(c.id) for c in game.manifest.counters}
    return encode_position(position, board_layout(game.map), MAP_NAME, piece_gpids(game),
                           board_name=game.spec.title, images=images, module_name=game.spec.title)


def write_position_save(position: Position, out_path: str | os.PathLike[str]) -> list[str]:
    """Write a position as a ``.vsav`` for the game's module; returns the ids of units left out (off the map)."""
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


def contents_to_position(save: SaveContents, game: Game) -> tuple[PositionFile, list[Unplaced]]:
    """The position a decoded save (or a replayed log's current state) shows, for the game's own module."""
    by_gpid = {gpid: pid for pid, gpid in piece_gpids(game).items() if pid in game.counters}
    return save_to_position(save, game, by_gpid, boards={game.spec.title: board_layout(game.map)},
                            map_name=MAP_NAME)


def read_position_save(path: str | os.PathLike[str], game_id: str | None = None) -> tuple[PositionFile, list[Unplaced]]:
    """The position a ``.vsav`` shows (game from ``game_id`` or the save's module name) and the pieces not placed."""
    save = read_save(path)
    return contents_to_position(save, _game_of(save, str(path), game_id))


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether two paths name the same file (to refuse writing over an input)."""
    pa, pb = Path(a), Path(b)
    return pa.exists() and pb.exists() and os.path.samefile(pa, pb) or pa.resolve() == pb.resolve()
