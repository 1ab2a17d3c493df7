"""The map as the page draws it: the SVG of :mod:`toolkit.render` and the geometry of its hexes in the SVG's
own user units (map units: ``viewBox`` is the scene's bounds, :func:`toolkit.render.scene.map_frame`)."""
from __future__ import annotations

import base64
import io
import logging
import mimetypes
from pathlib import Path
from typing import Any, Sequence

from lxml import etree

from ..datafile import read_regular
from ..game.module import GameDataError, folder_file
from ..mapdata import CompiledMap
from ..picture import MAX_PICTURE_BYTES
from ..render import Overlay, rasterise, render_svg, scene_to_svg
from ..render.scene import build_scene, crop, map_frame
from ..render.style import DEFAULT_PIXELS_PER_HEX
from ..render.svg import SVG_NS

EXCERPT_MARGIN_HEXES = 3   # an excerpt shows this many hexes around what it is about
EXCERPT_LEAST_HEXES = 12   # ... and at least this many hexes across
RULING_BAND = 0.42         # the verdict's lines under the excerpt, in hex widths each
BOARD_SHOW_THROUGH = 0.25  # the hexes' fill opacity over a board image

DIGITS = 4   # decimals of the coordinates (as the SVG writes them)
log = logging.getLogger("toolkit.web")


def map_svg(cmap: CompiledMap, overlays: Sequence[Overlay] = ()) -> bytes:
    """The map drawn by :func:`toolkit.render.render_svg` (UTF-8 bytes)."""
    return render_svg(cmap, overlays).encode("utf-8")


def with_board_image(svg: bytes, cmap: CompiledMap, folder: Path | None) -> bytes:
    """The map SVG with the published board image it was imported from as its background (``board.image``,
    relative to ``folder``, the game folder holding the map file), embedded, under hexes that let it show
    through; the SVG as it was for a map without a board image or when the image is not there."""
    if cmap.board is None or folder is None:
        return svg
    try:   # inside the game folder once links are followed, a regular file of a picture's size at most
        image = folder_file(folder, cmap.board.image, str(folder), "board.image", "board image",
                            "`image: images/board.png`")
        data = read_regular(image, str(image), GameDataError, MAX_PICTURE_BYTES)
    except GameDataError as err:
        log.warning("the map is shown without its board image: %s", err)
        return svg
    root = etree.fromstring(svg)
    kind = mimetypes.guess_type(image.name)[0] or "image/png"
    (sx, sy), (w, h) = cmap.board.scale, cmap.board.size
    href = f"data:{kind};base64," + base64.b64encode(data).decode("ascii")
    board = etree.Element(f"{{{SVG_NS}}}image", x="0", y="0", width=f"{w / sx:.4f}", height=f"{h / sy:.4f}",
                          preserveAspectRatio="none", href=href, **{"class": "board"})
    root.insert(1, board)   # over the background rectangle, under everything else
    for hexagon in root.iterfind(f"{{{SVG_NS}}}polygon[@class='hex']"):
        hexagon.set("fill-opacity", str(BOARD_SHOW_THROUGH))
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def excerpt_bounds(cmap: CompiledMap, points: Sequence[tuple[float, float]]) -> tuple[float, float, float, float]:
    """The map's part around ``points`` (map units): :data:`EXCERPT_MARGIN_HEXES` hexes around them, at least
    :data:`EXCERPT_LEAST_HEXES` hexes across, never beyond the map's own frame."""
    hex_w = cmap.grid.layout.width
    xs, ys = [x for x, _ in points], [y for _, y in points]
    half = max((max(xs) - min(xs)) / 2 + EXCERPT_MARGIN_HEXES * hex_w, EXCERPT_LEAST_HEXES * hex_w / 2)
    half_h = max((max(ys) - min(ys)) / 2 + EXCERPT_MARGIN_HEXES * hex_w, EXCERPT_LEAST_HEXES * hex_w / 3)
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    fx0, fy0, fx1, fy1 = map_frame(cmap)
    return max(fx0, cx - half), max(fy0, cy - half_h), min(fx1, cx + half), min(fy1, cy + half_h)


def excerpt_png(cmap: CompiledMap, overlays: Sequence[Overlay], points: Sequence[tuple[float, float]]) -> bytes:
    """The map's excerpt around ``points`` with ``overlays``, as PNG bytes at the CLI's pixels per hex."""
    scene = crop(build_scene(cmap, overlays), excerpt_bounds(cmap, points))
    k = DEFAULT_PIXELS_PER_HEX / cmap.grid.layout.width
    out = io.BytesIO()
    rasterise(scene, (k, -scene.bounds[0] * k, -scene.bounds[1] * k)).save(out, format="PNG", optimize=True)
    return out.getvalue()


def excerpt_svg(cmap: CompiledMap, overlays: Sequence[Overlay], points: Sequence[tuple[float, float]],
                lines: Sequence[str] = ()) -> bytes:
    """The map's excerpt around ``points`` with ``overlays`` as one SVG file that stands alone (nothing linked),
    with ``lines`` of text (the verdict, its rule) written under it."""
    scene = crop(build_scene(cmap, overlays), excerpt_bounds(cmap, points))
    doc = etree.fromstring(scene_to_svg(scene, None).encode("utf-8"))
    minx, miny, maxx, maxy = scene.bounds
    band = cmap.grid.layout.width * RULING_BAND
    height = maxy - miny + band * (len(lines) + 0.5)
    doc.set("viewBox", f"{minx:.2f} {miny:.2f} {maxx - minx:.2f} {height:.2f}")
    doc.set("width", f"{DEFAULT_PIXELS_PER_HEX / cmap.grid.layout.width * (maxx - minx):.0f}")
    doc.set("height", f"{DEFAULT_PIXELS_PER_HEX / cmap.grid.layout.width * height:.0f}")
    etree.SubElement(doc, f"{{{SVG_NS}}}rect", x=f"{minx:.2f}", y=f"{maxy:.2f}", width=f"{maxx - minx:.2f}",
                     height=f"{height - (maxy - miny):.2f}", fill="#ffffff")
    for i, line in enumerate(lines):
        text = etree.SubElement(doc, f"{{{SVG_NS}}}text", x=f"{minx + band * 0.3:.2f}",
                                y=f"{maxy + band * (i + 0.9):.2f}", fill="#111111",
                                style=f"font: {'bold ' if i == 0 else ''}{band * 0.55:.2f}px sans-serif")
        text.text = line
    return etree.tostring(doc, xml_declaration=True, encoding="UTF-8")


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
