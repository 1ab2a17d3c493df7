"""Rasterise a :class:`~toolkit.render.scene.Scene` with Pillow.

Map units become pixels by the affine map of :func:`png_transform`::

    px = scale * x + offset_x,   py = scale * y + offset_y

in continuous pixel coordinates (pixel ``(i, j)`` covers ``[i, i+1) x [j, j+1)``),
with ``offset = -scale * (scene's min x, min y)`` so the scene's top-left
corner is pixel ``(0, 0)``.  ``scale`` is ``width_px / scene width`` or
``pixels_per_hex / layout.width`` (``pixels_per_hex`` = pixel distance between
adjacent hex centres).  A hex centre therefore lies at a known pixel position,
which is what a VASSAL grid laid on the image needs.

The scene is drawn at 3x (2x or 1x for very large images) and downsampled
with LANCZOS for antialiasing.  Text uses DejaVu Sans when installed (it has
``½`` and accented letters), else Pillow's scalable default font.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw, ImageFont

from ..mapdata.compiled import CompiledMap
from .scene import Arrow, Circle, Item, Overlay, Point, Polygon, Polyline, Scene, Text, build_scene, map_frame
from .style import DEFAULT_PIXELS_PER_HEX

MAX_SUPERSAMPLED_PIXELS = 64_000_000


def png_transform(cmap: CompiledMap, width_px: int | None = None, *, pixels_per_hex: float | None = None,
                  show_title: bool = True, scale: float | None = None) -> tuple[float, float, float]:
    """``(scale, offset_x, offset_y)`` taking map units to the pixels of :func:`render_png`.

    Give at most one of ``width_px`` and ``pixels_per_hex`` (default
    :data:`DEFAULT_PIXELS_PER_HEX`); ``show_title`` and ``scale`` must be those
    passed to :func:`render_png`, as they change the frame.
    """
    if width_px is not None and pixels_per_hex is not None:
        raise ValueError("give width_px or pixels_per_hex, not both")
    minx, miny, maxx, _ = map_frame(cmap, show_title=show_title, scale=scale)
    if width_px is not None:
        if width_px < 1:
            raise ValueError(f"width_px must be a positive number of pixels, got {width_px}")
        k = width_px / (maxx - minx)
    else:
        k = (pixels_per_hex or DEFAULT_PIXELS_PER_HEX) / cmap.grid.layout.width
    return k, -minx * k, -miny * k


def render_png(cmap: CompiledMap, width_px: int | None = None, overlays: Sequence[Overlay] = (), *,
               pixels_per_hex: float | None = None, show_names: bool = True, show_title: bool = True,
               scale: float | None = None) -> Image.Image:
    """The map with overlays as an RGB image ``width_px`` wide (or at ``pixels_per_hex``).

    Pixel positions follow :func:`png_transform` called with the same arguments.
    """
    k, ox, oy = png_transform(cmap, width_px, pixels_per_hex=pixels_per_hex, show_title=show_title, scale=scale)
    scene = build_scene(cmap, overlays, show_names=show_names, show_title=show_title, scale=scale)
    return rasterise(scene, (k, ox, oy))


def rasterise(scene: Scene, transform: tuple[float, float, float],
              max_pixels: int = MAX_SUPERSAMPLED_PIXELS) -> Image.Image:
    """Draw a scene with the affine ``(scale, offset_x, offset_y)``; the image covers the scene bounds.

    The scene is drawn 3 or 2 times larger and scaled down (smooth edges) while the large canvas has at most
    ``max_pixels`` pixels (4 bytes each), else at its own size."""
    k, ox, oy = transform
    minx, miny, maxx, maxy = scene.bounds
    size = (max(1, round((maxx - minx) * k)), max(1, round((maxy - miny) * k)))
    ss = next(f for f in (3, 2, 1) if size[0] * size[1] * f * f <= max_pixels or f == 1)
    canvas = _Canvas((size[0] * ss, size[1] * ss), (k * ss, ox * ss, oy * ss), scene.background)
    for item in scene.items:
        canvas.draw(item)
    image = canvas.image if ss == 1 else canvas.image.resize(size, Image.Resampling.LANCZOS)
    return image.convert("RGB")


@lru_cache(maxsize=128)
def text_font(size: int, bold: bool, condensed: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans (``condensed``: DejaVu Sans Condensed, else plain DejaVu Sans) at ``size`` px,
    else Pillow's default font (scalable in Pillow >= 10.1)."""
    names = ["DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"]
    if condensed:
        names.insert(0, "DejaVuSansCondensed-Bold.ttf" if bold else "DejaVuSansCondensed.ttf")
    for name in names:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1: one small bitmap font
        return ImageFont.load_default()


def _dashes(points: Sequence[Point], pattern: Sequence[float]) -> list[list[Point]]:
    """The "on" pieces of a polyline under an SVG-style dash pattern (pixel lengths)."""
    pieces: list[list[Point]] = []
    current = [points[0]]
    index, left, on = 0, pattern[0], True
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        length, pos = math.hypot(x1 - x0, y1 - y0), 0.0
        while length - pos > left:
            pos += left
            p = (x0 + (x1 - x0) * pos / length, y0 + (y1 - y0) * pos / length)
            if on:
                pieces.append(current + [p])
            current = [p]
            on, index = not on, (index + 1) % len(pattern)
            left = pattern[index]
        left -= length - pos
        if on:
            current.append((x1, y1))
    if on and len(current) > 1:
        pieces.append(current)
    return pieces


class _Canvas:
    """An RGBA image with the map-to-pixel transform; draws one primitive at a time."""

    def __init__(self, size: tuple[int, int], transform: tuple[float, float, float], background: str):
        self.image = Image.new("RGBA", size, background)
        self.k, ox, oy = transform
        # Pillow puts integer coordinates at pixel centres: shift by half a pixel.
        self.origin = (ox - 0.5, oy - 0.5)

    def draw(self, item: Item) -> None:
        """Paint one primitive; translucent ones go through a layer so overlaps do not add up."""
        opacity = getattr(item, "opacity", 1.0)
        if opacity >= 1:
            self._paint(ImageDraw.Draw(self.image), item, self.origin)
            return
        pts, pad = self._extent(item)
        x0, y0 = max(0, math.floor(min(p[0] for p in pts) - pad)), max(0, math.floor(min(p[1] for p in pts) - pad))
        x1 = min(self.image.width, math.ceil(max(p[0] for p in pts) + pad))
        y1 = min(self.image.height, math.ceil(max(p[1] for p in pts) + pad))
        if x1 <= x0 or y1 <= y0:
            return
        layer = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
        self._paint(ImageDraw.Draw(layer), item, (self.origin[0] - x0, self.origin[1] - y0))
        layer.putalpha(layer.getchannel("A").point(lambda a: round(a * opacity)))
        self.image.alpha_composite(layer, dest=(x0, y0))

    def _extent(self, item: Polygon | Polyline | Circle | Arrow) -> tuple[list[Point], float]:
        """Pixel points bounding a shape, and the padding its stroke needs."""
        if isinstance(item, Circle):
            (cx, cy), r = item.centre, item.radius
            pts: Sequence[Point] = ((cx - r, cy - r), (cx + r, cy + r))
        elif isinstance(item, Arrow):
            pts = (*item.points, *item.head_points())
        else:
            pts = item.points
        return [self._pt(p, self.origin) for p in pts], item.width * self.k + 2

    def _pt(self, p: Point, origin: tuple[float, float]) -> Point:
        return (p[0] * self.k + origin[0], p[1] * self.k + origin[1])

    def _paint(self, draw: ImageDraw.ImageDraw, item: Item, origin: tuple[float, float]) -> None:
        k = self.k
        if isinstance(item, Text):
            font = text_font(max(1, round(item.size * k)), item.bold)
            halo = round(item.halo_width * k / 2) if item.halo else 0
            draw.text(self._pt(item.pos, origin), item.text, fill=item.fill, font=font, anchor="mm",
                      stroke_width=halo, stroke_fill=item.halo)
        elif isinstance(item, Circle):
            (cx, cy), r, w = self._pt(item.centre, origin), item.radius * k, item.width * k if item.stroke else 0
            draw.ellipse((cx - r - w / 2, cy - r - w / 2, cx + r + w / 2, cy + r + w / 2), fill=item.fill,
                         outline=item.stroke, width=max(1, round(w)) if item.stroke else 0)
        elif isinstance(item, Arrow):
            self._line(draw, [self._pt(p, origin) for p in item.shaft()], item.stroke, item.width, ())
            draw.polygon([self._pt(p, origin) for p in item.head_points()], fill=item.stroke)
        else:
            pts = [self._pt(p, origin) for p in item.points]
            if isinstance(item, Polygon) and item.fill:
                draw.polygon(pts, fill=item.fill)
            if item.stroke:
                closed = isinstance(item, Polygon)
                self._line(draw, pts + pts[:2] if closed else pts, item.stroke, item.width, item.dash, caps=not closed)

    def _line(self, draw: ImageDraw.ImageDraw, pts: list[Point], color: str, width: float,
              dash: Sequence[float], caps: bool = True) -> None:
        """A stroked polyline in pixels: dashed with butt ends, or solid with round joins (and caps).

        A closed outline comes with its first segment repeated so its first corner is joined too.
        """
        w = max(1, round(width * self.k))
        if dash:
            for piece in _dashes(pts, [d * self.k for d in dash]):
                draw.line(piece, fill=color, width=w)
            return
        draw.line(pts, fill=color, width=w, joint="curve")
        if caps and w > 2:
            for x, y in (pts[0], pts[-1]):
                draw.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=color)
