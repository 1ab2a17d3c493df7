"""The map as the page draws it: the SVG of :mod:`toolkit.render` and the geometry of its hexes in the SVG's
own user units (map units: ``viewBox`` is the scene's bounds, :func:`toolkit.render.scene.map_frame`)."""
from __future__ import annotations

import io
from typing import Any, Sequence

from ..mapdata import CompiledMap
from ..render import Overlay, render_png, render_svg
from ..render.scene import map_frame

DIGITS = 4   # decimals of the coordinates (as the SVG writes them)


def map_svg(cmap: CompiledMap, overlays: Sequence[Overlay] = ()) -> bytes:
    """The map drawn by :func:`toolkit.render.render_svg` (UTF-8 bytes)."""
    return render_svg(cmap, overlays).encode("utf-8")


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
