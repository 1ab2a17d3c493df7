"""Build a game's VASSAL module (``.vmod``): ``build_module(game, out_path)`` (a bundled id or a game folder).

The module is a zip holding ``buildFile.xml``, ``moduledata`` (VassalVersion
3.6.0) and ``images/`` (the board, every counter face and marker).  Builds are
reproducible: the same inputs give a byte-identical file (entries sorted, fixed
timestamps and permissions, fixed compression: XML deflated at level 9, PNGs
stored since they are compressed already).  The file is written atomically.
"""
from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

from ...fileio import write_atomic
from ...game import load_position
from ...game.module import Game, load_game
from PIL import Image, ImageDraw

from ..design.board import DEFAULT_PIXELS_PER_HEX, board_image, board_layout
from ..design.boxes import boxes_image, boxes_layout
from .buildfile import BOARD_IMAGE, BOXES_IMAGE, build_file_xml, moduledata_xml
from ..design.counters import counter_images, game_counter_size
from ..design.entry import mark_entry_hexes
from .charts import chart_file, chart_pages
from .helpdocs import NOTES_FILE, notes_html
from ..design.piecedefs import MOVED_IMAGE
from ..saves.positions import position_save

ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def _png(img) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=6, optimize=False)
    return buf.getvalue()


def moved_flag() -> Image.Image:
    """The small flag drawn on a counter that moved this turn (Mark moved)."""
    img = Image.new("RGBA", (12, 12), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rectangle([1, 1, 10, 10], fill=(230, 190, 30, 255), outline=(60, 40, 0, 255))
    d.line([3, 6, 5, 9, 9, 2], fill=(60, 40, 0, 255), width=2)
    return img


def module_files(game: Game, pixels_per_hex: int = DEFAULT_PIXELS_PER_HEX) -> dict[str, bytes]:
    """Every file of the module, by path inside the zip."""
    cmap = game.map
    board = board_layout(cmap, pixels_per_hex)
    size = game_counter_size(game)
    boxes = boxes_layout(game, size)
    setups = scenario_saves(game)
    charts = chart_pages(game)
    files = {
        "buildFile.xml": build_file_xml(game, board, boxes, setups=sorted(setups), charts=list(charts)),
        "moduledata": moduledata_xml(game),
        f"images/{BOARD_IMAGE}": _png(mark_entry_hexes(board_image(cmap, board, _map_path(game)), game, board)),
        f"images/{BOXES_IMAGE}": _png(boxes_image(game, boxes)),
        f"images/{MOVED_IMAGE}": _png(moved_flag()),
        NOTES_FILE: notes_html(game),
    }
    for name, data in counter_images(game, size).items():
        files[f"images/{name}"] = data
    files.update((chart_file(title), page) for title, page in charts.items())
    files.update(setups)
    return files


def _map_path(game: Game) -> Path | None:
    """The game's map file, when it is a file (its ``board.image`` is relative to it), not a bundled map id."""
    return game.map_file if isinstance(game.map_file, Path) else None


def scenario_saves(game: Game) -> dict[str, bytes]:
    """Each scenario position of the game as a save, by its file name in the module (predefined setups)."""
    return {f"{path.stem}.vsav": position_save(load_position(path, game))[0]
            for path in sorted((game.folder / "scenarios").glob("*.yaml"))}


def zip_bytes(files: dict[str, bytes]) -> bytes:
    """A deterministic zip of ``files``."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.create_system = 3
            info.external_attr = 0o644 << 16
            if name.endswith(".png"):
                info.compress_type = zipfile.ZIP_STORED
                z.writestr(info, files[name])
            else:
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, files[name], compresslevel=9)
    return buf.getvalue()


class ModuleError(ValueError):
    """A game the VASSAL export cannot build (the message names the file and key)."""


def build_module(game: str | os.PathLike[str], out_path: str | os.PathLike[str]) -> Path:
    """Build the VASSAL module of ``game`` -- a bundled game id, or the path of a game folder the user named
    (``toolkit.game.module.load_game``) -- into ``out_path``; returns the path.

    Raises :class:`ModuleError` for a pointy-top map: the export lays flat-top grids only (``board.py``).
    """
    loaded = load_game(game)
    if loaded.map.grid.layout.orientation != "flat":
        where = loaded.spec.map if loaded.bundled else loaded.folder / loaded.spec.map
        raise ModuleError(f"{where}: grid.orientation: 'pointy': the VASSAL export supports flat-top grids only "
                          "(pointy-top boards are not laid out yet); use `orientation: flat` to build a module")
    return write_atomic(out_path, zip_bytes(module_files(loaded)))
