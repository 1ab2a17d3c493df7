"""The map as the page draws it: the SVG of :mod:`toolkit.render` and the geometry of its hexes in the SVG's
own user units (map units: ``viewBox`` is the scene's bounds, :func:`toolkit.render.scene.map_frame`)."""
from __future__ import annotations

import base64
import io
import mimetypes
from pathlib import Path
from typing import Any, Sequence

from lxml import etree

from ..mapdata import CompiledMap
from ..render import Overlay, render_png, render_svg
from ..render.scene import map_frame
from ..render.svg import SVG_NS

DIGITS = 4   # decimals of the coordinates (as the SVG writes them)


def map_svg(cmap: CompiledMap, overlays: Sequence[Overlay] = ()) -> bytes:
    """The map drawn by :func:`toolkit.render.render_svg` (UTF-8 bytes)."""
    return render_svg(cmap, overlays).encode("utf-8")


BOARD_SHOW_THROUGH = 0.25   # the hexes' fill opacity over a board image


def with_board_image(svg: bytes, cmap: CompiledMap, folder: Path | None) -> bytes:
    """The map SVG with the published board image it was imported from as its background (``board.image``,
    relative to ``folder``, the game folder holding the map file), embedded, under hexes that let it show
    through; the SVG as it was for a map without a board image or when the image is not there."""
    image = folder / cmap.board.image if cmap.board is not None and folder is not None else None
    if image is None or not image.is_file():
        return svg
    root = etree.fromstring(svg)
    kind = mimetypes.guess_type(image.name)[0] or "image/png"
    (sx, sy), (w, h) = cmap.board.scale, cmap.board.size
    href = f"data:{kind};base64," + base64.b64encode(image.read_bytes()).decode("ascii")
    board = etree.Element(f"{{{SVG_NS}}}image", x="0", y="0", width=f"{w / sx:.4f}", height=f"{h / sy:.4f}",
                          preserveAspectRatio="none", href=href, **{"class": "board"})
    root.insert(1, board)   # over the background rectangle, under everything else
    for hexagon in root.iterfind(f"{{{SVG_NS}}}polygon[@class='hex']"):
        hexagon.set("fill-opacity", str(BOARD_SHOW_THROUGH))
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def map_png(cmap: CompiledMap, overlays: Sequence[Overlay] = ()) -> bytes:
    """The map drawn by :func:`toolkit.render.render_png` (PNG bytes, the CLI's default width)."""
    out = io.BytesIO()
    render_png(cmap, None, overlays).save(out, format="PNG")
    return out.getvalue()


def geometry_json(cmap: CompiledMap) -> dict[str, Any]:
    """``{"map", "orientation", "viewBox", "corners", "hexes"}``: the SVG's viewBox ``[x, y, w, h]``, the six
    corner offsets from a hex's centre (the same for every hex, in edge order) and every hex's centre by name."""
    layout = cmap.grid.layout
    minx, miny, maxx, maxy = map_frame(cmap)
    first = next(iter(cmap.hexes))
    cx, cy = layout.centre(first)
    return {
        "map": cmap.id,
        "orientation": layout.orientation,
        "viewBox": [_r(minx), _r(miny), _r(maxx - minx), _r(maxy - miny)],
        "corners": [[_r(x - cx), _r(y - cy)] for x, y in layout.corners(first)],
        "hexes": {cmap.name(h): [_r(x), _r(y)] for h in cmap.hexes for x, y in [layout.centre(h)]},
    }


def _r(v: float) -> float:
    return round(v, DIGITS)
