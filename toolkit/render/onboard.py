"""A map's hex grid drawn over the board image it was imported from (``toolkit render`` of an imported map).

The board image is the module's own, pixel for pixel; each hex is outlined and named where the map file
puts it (``board.scale`` takes map units to board pixels), so a misplaced grid shows at once.
"""
from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageDraw

from ..mapdata.compiled import CompiledMap
from .png import text_font

GRID_COLOUR = (200, 30, 30, 200)
NAME_COLOUR = (120, 0, 0, 255)
HIGHLIGHT_COLOUR = (255, 200, 0, 110)


def board_image_path(cmap: CompiledMap, map_file: str | os.PathLike[str]) -> Path:
    """The board image of an imported map (its ``board.image``, relative to the map file's folder)."""
    if cmap.board is None:
        raise ValueError(f"{os.fspath(map_file)}: board: the map has no board image (only maps imported with "
                         "`toolkit import-vmod` have one)")
    path = Path(map_file).parent / cmap.board.image
    if not path.is_file():
        raise ValueError(f"{os.fspath(map_file)}: board.image: {cmap.board.image!r} is not a file next to the map "
                         f"({path}); put the board image there or correct the path")
    return path


def render_on_board(cmap: CompiledMap, image_path: str | os.PathLike[str], highlight=()) -> Image.Image:
    """The board image with every hex of the map outlined and named (``highlight``: hexes filled in)."""
    with Image.open(image_path) as src:
        base = src.convert("RGBA")
    if base.size != tuple(cmap.board.size):
        raise ValueError(f"{os.fspath(image_path)}: the image is {base.size[0]} x {base.size[1]} pixels, the map's "
                         f"board.size says {cmap.board.size[0]} x {cmap.board.size[1]}")
    layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    lay, px = cmap.grid.layout, cmap.board.pixel
    font = text_font(max(8, round(lay.size * min(cmap.board.scale) / 3.2)), False, condensed=True)
    for h in cmap.grid.hex_list:
        corners = [px(x, y) for x, y in lay.corners(h)]
        if h in highlight:
            draw.polygon(corners, fill=HIGHLIGHT_COLOUR)
        draw.line(corners + corners[:1], fill=GRID_COLOUR, width=2)
        cx, cy = px(*lay.centre(h))
        draw.text((cx, cy), cmap.name(h), fill=NAME_COLOUR, font=font, anchor="mm")
    return Image.alpha_composite(base, layer).convert("RGB")
