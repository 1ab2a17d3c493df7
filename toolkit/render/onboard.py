"""A map's hex grid drawn over the board image it was imported from (``toolkit render`` of an imported map).

The board image is the module's own, pixel for pixel (a board over :data:`ON_BOARD_MAX_PIXELS` is drawn at a
half, a third … of its size, so the drawing stays within a few hundred MB); each hex is outlined and named where
the map file puts it (``board.scale`` takes map units to board pixels), so a misplaced grid shows at once.
"""
from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageDraw

from ..game.module import folder_file
from ..mapdata.compiled import CompiledMap
from ..picture import MAX_DECODED_PIXELS, open_picture, reduced
from .png import text_font

GRID_COLOUR = (200, 30, 30, 200)
NAME_COLOUR = (120, 0, 0, 255)
HIGHLIGHT_COLOUR = (255, 200, 0, 110)
ON_BOARD_MAX_PIXELS = 16_000_000   # the drawing: two RGBA layers of 64 MB each, and the board decoded


def board_image_path(cmap: CompiledMap, map_file: str | os.PathLike[str]) -> Path:
    """The board image of an imported map (its ``board.image``, relative to the map file's folder, and inside
    it once links are followed)."""
    if cmap.board is None:
        raise ValueError(f"{os.fspath(map_file)}: board: the map has no board image (only maps imported with "
                         "`toolkit import-vmod` have one)")
    return folder_file(Path(map_file).parent, cmap.board.image, os.fspath(map_file), "board.image", "board image",
                       "`image: images/board.png`")


def render_on_board(cmap: CompiledMap, image_path: str | os.PathLike[str], highlight=()) -> Image.Image:
    """The board image with every hex of the map outlined and named (``highlight``: hexes filled in); a board
    over :data:`ON_BOARD_MAX_PIXELS` is drawn reduced by a whole factor."""
    picture = open_picture(image_path, "the board image", MAX_DECODED_PIXELS)   # its size read, nothing decoded
    full = picture.size
    if full != tuple(cmap.board.size):
        raise ValueError(f"{os.fspath(image_path)}: the image is {full[0]} x {full[1]} pixels, the map's "
                         f"board.size says {cmap.board.size[0]} x {cmap.board.size[1]}")
    base = reduced(picture, ON_BOARD_MAX_PIXELS, "RGBA", os.fspath(image_path))
    sx, sy = base.size[0] / full[0], base.size[1] / full[1]
    layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    lay = cmap.grid.layout

    def px(x: float, y: float) -> tuple[float, float]:
        bx, by = cmap.board.pixel(x, y)
        return bx * sx, by * sy

    font = text_font(max(8, round(lay.size * min(cmap.board.scale) * sx / 3.2)), False, condensed=True)
    for h in cmap.grid.hex_list:
        corners = [px(x, y) for x, y in lay.corners(h)]
        if h in highlight:
            draw.polygon(corners, fill=HIGHLIGHT_COLOUR)
        draw.line(corners + corners[:1], fill=GRID_COLOUR, width=2)
        cx, cy = px(*lay.centre(h))
        draw.text((cx, cy), cmap.name(h), fill=NAME_COLOUR, font=font, anchor="mm")
    return Image.alpha_composite(base, layer).convert("RGB")
