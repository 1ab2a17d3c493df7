"""A backend-neutral scene: the map and its overlays as drawing primitives.

:func:`build_scene` turns a :class:`~toolkit.mapdata.compiled.CompiledMap`
and overlays into a :class:`Scene` -- a list of :class:`Polygon`,
:class:`Polyline`, :class:`Circle`, :class:`Text` and :class:`Arrow` in map
units, drawn in order.  :mod:`.svg` and :mod:`.png` only serialise a scene.

How the map is drawn, bottom to top:

* each hex filled with its *base* terrain colour (the first terrain of the
  hex that the vocabulary marks ``base``), shaded by elevation: 10 % darker
  per level above 0, lighter per level below; a thin grey outline;
* each *non-base* terrain (village, city ...) as a smaller concentric hexagon
  in its colour (successive ones smaller still);
* hexside features (kind ``"hexside"``: walls, canals ...) as thick lines on
  the exact shared edge, then path features (kind ``"path"``: roads,
  railways, streams) as lines between the two hex centres, so a chain of
  hexsides reads as one road;
* the elevation (when not 0) as a small brown number at the left of the
  hex, the place name in bold with a white halo just below the centre (or,
  for the VASSAL board, along the bottom edge where a counter leaves it
  readable);
* the hex name under the top of each hex, last of the map so no line crosses
  it, with a halo of its hex's colour lightened;
* the overlays' shapes in the order given, then their labels (so a route
  arrow never hides an MP cost), and the title above the map.

>>> from toolkit.hexgrid import CCRR, Grid, Hex, Layout
>>> from toolkit.mapdata.compiled import CompiledMap, HexInfo
>>> g = Grid(Layout("flat", 30.0), CCRR(), (1, 2), (1, 1))
>>> m = CompiledMap("m", "", g, {}, {}, {h: HexInfo() for h in g.hexes()}, {})
>>> [type(i).__name__ for i in build_scene(m).items if i.tag == "hex"]
['Polygon', 'Polygon']
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence, Union

from ..hexgrid import Hex, HexNameError, Layout
from ..mapdata.compiled import CompiledMap, HexsideFeatureType, TerrainType
from . import style

Point = tuple[float, float]


@dataclass(frozen=True)
class Polygon:
    """A closed shape; ``fill``/``stroke`` ``None`` means not painted."""

    points: tuple[Point, ...]
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0
    dash: tuple[float, ...] = ()
    opacity: float = 1.0
    tag: str = ""


@dataclass(frozen=True)
class Polyline:
    """An open line; solid lines have round caps and joins, dashed ones butt caps."""

    points: tuple[Point, ...]
    stroke: str
    width: float
    dash: tuple[float, ...] = ()
    opacity: float = 1.0
    tag: str = ""


@dataclass(frozen=True)
class Circle:
    """A circle around ``centre``."""

    centre: Point
    radius: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0
    opacity: float = 1.0
    tag: str = ""


@dataclass(frozen=True)
class Text:
    """One line of text centred (both ways) on ``pos``; ``size`` is the em size."""

    pos: Point
    text: str
    size: float
    fill: str = style.INK
    bold: bool = False
    halo: str | None = None
    halo_width: float = 0.0
    tag: str = ""


@dataclass(frozen=True)
class Arrow:
    """A line through ``points`` ending in a triangular head of length ``head``."""

    points: tuple[Point, ...]
    stroke: str
    width: float
    head: float
    opacity: float = 1.0
    tag: str = ""

    def shaft(self) -> tuple[Point, ...]:
        """The line part: ``points`` with the last one pulled back to the base of the head."""
        (x0, y0), (x1, y1) = self.points[-2], self.points[-1]
        d = math.hypot(x1 - x0, y1 - y0) or 1.0
        k = min(1.0, self.head * 0.8 / d)
        return (*self.points[:-1], (x1 - (x1 - x0) * k, y1 - (y1 - y0) * k))

    def head_points(self) -> tuple[Point, Point, Point]:
        """The head triangle: tip at the last point."""
        (x0, y0), (x1, y1) = self.points[-2], self.points[-1]
        d = math.hypot(x1 - x0, y1 - y0) or 1.0
        ux, uy = (x1 - x0) / d, (y1 - y0) / d
        bx, by = x1 - ux * self.head, y1 - uy * self.head
        half = self.head * 0.5
        return ((x1, y1), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half))


Item = Union[Polygon, Polyline, Circle, Text, Arrow]


@dataclass
class Scene:
    """Primitives in drawing order, inside ``bounds`` = ``(minx, miny, maxx, maxy)`` in map units."""

    bounds: tuple[float, float, float, float]
    items: list[Item] = field(default_factory=list)
    background: str = style.BACKGROUND


def crop(scene: Scene, bounds: tuple[float, float, float, float]) -> Scene:
    """The part of ``scene`` inside ``bounds``: the items that reach into it (by their points' bounding box,
    widened by a text's size or a circle's radius), nothing else."""
    minx, miny, maxx, maxy = bounds

    def inside(item: Item) -> bool:
        if isinstance(item, Circle):
            (x, y), pad = item.centre, item.radius
            xs, ys = (x,), (y,)
        elif isinstance(item, Text):
            (x, y), pad = item.pos, item.size * max(1, len(item.text))
            xs, ys = (x,), (y,)
        else:
            xs, ys, pad = [p[0] for p in item.points], [p[1] for p in item.points], getattr(item, "width", 0.0)
        return min(xs) - pad <= maxx and max(xs) + pad >= minx and min(ys) - pad <= maxy and max(ys) + pad >= miny

    return Scene(bounds, [item for item in scene.items if inside(item)], scene.background)


# --------------------------------------------------------------- overlays

@dataclass(frozen=True)
class Highlight:
    """Hexes tinted in ``color``; a hex's string (e.g. an MP cost ``"3½"``) is printed big in it."""

    hexes: dict[Hex, str | None]
    color: str = "#ffcc00"


@dataclass(frozen=True)
class PathOverlay:
    """A route: an arrow from hex centre to hex centre, head at the last hex."""

    hexes: list[Hex]
    color: str = "#1f4fd8"


@dataclass(frozen=True)
class LosOverlay:
    """A line of sight in map units: green while seen, red from ``block_point`` on."""

    start: Point
    end: Point
    visible: bool
    block_point: Point | None = None
    blocking_hexes: list[Hex] = field(default_factory=list)
    touched_hexes: list[Hex] = field(default_factory=list)


Overlay = Union[Highlight, PathOverlay, LosOverlay]


# --------------------------------------------------------------- geometry helpers

def default_scale(layout: Layout) -> float:
    """Map units per style unit when none is given: a hex's size is :data:`style.HEX_RADIUS` style units."""
    return layout.size / style.HEX_RADIUS


def map_frame(cmap: CompiledMap, *, show_title: bool = True, scale: float | None = None) -> tuple[float, float, float, float]:
    """The scene bounds: the hexes' bounds plus the margin and, with a title, the title band above."""
    s = scale or default_scale(cmap.grid.layout)
    minx, miny, maxx, maxy = cmap.grid.bounds()
    m = style.MARGIN * s
    top = m + (style.TITLE_BAND * s if show_title and cmap.title else 0.0)
    return (minx - m, miny - top, maxx + m, maxy + m)


def shrink(points: Sequence[Point], centre: Point, factor: float) -> tuple[Point, ...]:
    """``points`` scaled by ``factor`` about ``centre``."""
    cx, cy = centre
    return tuple((cx + (x - cx) * factor, cy + (y - cy) * factor) for x, y in points)


def shared_edge(layout: Layout, a: Hex, b: Hex) -> tuple[Point, Point]:
    """The two corners of ``a`` on its edge with adjacent hex ``b``."""
    d = a.direction_to(b)
    if d is None:
        raise ValueError(f"hexes {tuple(a)} and {tuple(b)} are not adjacent")
    corners = layout.corners(a)
    return corners[d], corners[(d + 1) % 6]


def parse_dash(dash: str, scale: float) -> tuple[float, ...]:
    """An SVG-style dash pattern (``"6,3"`` or ``"6 3"``, style units) in map units; ``()`` for solid."""
    values = tuple(float(v) * scale for v in dash.replace(",", " ").split())
    return values if sum(values) > 0 else ()


# --------------------------------------------------------------- the builder

def build_scene(cmap: CompiledMap, overlays: Sequence[Overlay] = (), *, show_names: bool = True,
                show_title: bool = True, scale: float | None = None, places_at_edge: bool = False) -> Scene:
    """The scene of a map with overlays drawn on top, in order.

    ``scale`` is map units per style unit (see :mod:`.style`); by default a
    hex's size is 30 style units.  ``show_names`` prints hex names,
    ``show_title`` the map title (when it has one) above the map.
    ``places_at_edge`` prints place names along the bottom edge of their hex, at the hex names' size, where a
    counter lying in the hex leaves them readable (the VASSAL board).
    """
    s = scale or default_scale(cmap.grid.layout)
    scene = Scene(map_frame(cmap, show_title=show_title, scale=s))
    items = scene.items
    items += _terrain(cmap, s)
    items += _features(cmap, s, "hexside")
    items += _features(cmap, s, "path")
    items += _labels(cmap, s, places_at_edge)
    if show_names:
        items += _hex_names(cmap, s)
    drawn = [item for overlay in overlays for item in _overlay(cmap, overlay, s)]
    items += [i for i in drawn if not isinstance(i, Text)] + [i for i in drawn if isinstance(i, Text)]
    if show_title and cmap.title:
        minx, miny, maxx, _ = scene.bounds
        items.append(Text(((minx + maxx) / 2, miny + (style.MARGIN + style.TITLE_BAND) / 2 * s), cmap.title,
                          style.TITLE_SIZE * s, bold=True, tag="title"))
    return scene


def _terrain_split(cmap: CompiledMap, terrain: Sequence[str]) -> tuple[TerrainType | None, list[TerrainType]]:
    """The hex's base terrain type (or ``None``) and its non-base ones, in order."""
    known = [cmap.terrain_types[t] for t in terrain if t in cmap.terrain_types]
    base = next((t for t in known if t.base), None)
    return base, [t for t in known if not t.base]


def _terrain(cmap: CompiledMap, s: float) -> list[Item]:
    layout = cmap.grid.layout
    fills: list[Item] = []
    insets: list[Item] = []
    for h in cmap.grid.hexes():
        info = cmap.hexes.get(h)
        base, extras = _terrain_split(cmap, info.terrain if info else ())
        color = style.elevation_color(base.color if base else style.DEFAULT_TERRAIN, info.elevation if info else 0)
        corners = tuple(layout.corners(h))
        fills.append(Polygon(corners, fill=color, stroke=style.OUTLINE_COLOR, width=style.OUTLINE_WIDTH * s, tag="hex"))
        for t, factor in zip(extras, style.INSET_FACTORS):
            insets.append(Polygon(shrink(corners, layout.centre(h), factor), fill=t.color,
                                  stroke=style.shade(t.color, 0.6), width=style.INSET_OUTLINE_WIDTH * s,
                                  tag=f"terrain {t.name}"))
    return fills + insets


def _features(cmap: CompiledMap, s: float, kind: str) -> list[Item]:
    """Lines of every feature of ``kind``, grouped by vocabulary order so a road type draws as one layer."""
    layout = cmap.grid.layout
    order = list(cmap.feature_types)
    found = [(name, side) for side, attrs in cmap.hexsides.items() for name, value in attrs.items()
             if value and _feature_type(cmap, name).kind == kind]
    found.sort(key=lambda f: (order.index(f[0]) if f[0] in order else len(order), f[0]))
    items: list[Item] = []
    for name, side in found:
        ftype = _feature_type(cmap, name)
        points = (layout.centre(side.a), layout.centre(side.b)) if kind == "path" else shared_edge(layout, side.a, side.b)
        items.append(Polyline(points, ftype.color, ftype.width * s, parse_dash(ftype.dash, s), tag=f"{kind} {name}"))
    return items


def _feature_type(cmap: CompiledMap, name: str) -> HexsideFeatureType:
    """The vocabulary entry of a feature; an unknown one is drawn in the default hexside style."""
    return cmap.feature_types.get(name) or HexsideFeatureType(name)


def _printed_name(cmap: CompiledMap, h: Hex) -> str | None:
    """The hex's name, or ``None`` where the naming scheme has none (e.g. a negative diagonal number)."""
    try:
        return cmap.grid.name(h)
    except HexNameError:
        return None


#: Where a place name goes with ``places_at_edge``: this many hex sizes below the centre, in the band of a
#: flat-top hex (half-height 0.866) that a VASSAL counter (half-side 0.61 at 80 px per hex) leaves free.
PLACE_EDGE_DY = 0.74
#: ... and this many hex sizes right of it: a stack grows up and right (2 px a counter), so the stack of the hex
#: below-left reaches further right than that of the hex below-right reaches left (Mea Shearim, Jewish Quarter).
PLACE_EDGE_DX = 0.085


def _labels(cmap: CompiledMap, s: float, places_at_edge: bool = False) -> list[Item]:
    """Elevation numbers and place names, with the offsets suited to the orientation (place names along the
    bottom edge of the hex with ``places_at_edge``)."""
    layout = cmap.grid.layout
    place_dx, place_dy, place_size = (PLACE_EDGE_DX, PLACE_EDGE_DY, style.NAME_SIZE) if places_at_edge \
        else (0.0, 0.5, style.PLACE_SIZE)
    items: list[Item] = []
    for h in cmap.grid.hexes():
        x, y = layout.centre(h)
        info = cmap.hexes.get(h)
        if info and info.elevation:
            items.append(Text((x - 0.62 * layout.size, y), str(info.elevation), style.ELEVATION_SIZE * s,
                              fill=style.ELEVATION_COLOR, bold=True, tag="elevation"))
        if info and info.place:
            items.append(Text((x + place_dx * layout.size, y + place_dy * layout.size), info.place, place_size * s,
                              bold=True,
                              halo=style.HALO, halo_width=style.PLACE_HALO * s, tag="place"))
    return items


def _hex_names(cmap: CompiledMap, s: float) -> list[Item]:
    """Hex names under the top of each hex, drawn after every line and label of the map so that roads,
    railways and walls never cross them: each has a halo of its hex's colour, lightened."""
    layout = cmap.grid.layout
    # high enough in a flat-top hex that a VASSAL counter on the hex (toolkit.vassal.design.counters) leaves it visible
    name_dy = -0.78 if layout.orientation == "flat" else -0.6
    items: list[Item] = []
    for h in cmap.grid.hexes():
        name = _printed_name(cmap, h)
        if not name:
            continue
        x, y = layout.centre(h)
        info = cmap.hexes.get(h)
        base, _ = _terrain_split(cmap, info.terrain if info else ())
        fill = style.elevation_color(base.color if base else style.DEFAULT_TERRAIN, info.elevation if info else 0)
        items.append(Text((x, y + name_dy * layout.size), name, style.NAME_SIZE * s, fill=style.NAME_COLOR,
                          halo=style.shade(fill, style.NAME_HALO_LIGHTEN), halo_width=style.NAME_HALO * s,
                          tag="hexname"))
    return items


def _overlay(cmap: CompiledMap, overlay: Overlay, s: float) -> list[Item]:
    if isinstance(overlay, Highlight):
        return _highlight(cmap.grid.layout, overlay, s)
    if isinstance(overlay, PathOverlay):
        return _path(cmap.grid.layout, overlay, s)
    if isinstance(overlay, LosOverlay):
        return _los(cmap.grid.layout, overlay, s)
    raise TypeError(f"unknown overlay {type(overlay).__name__}; expected Highlight, PathOverlay or LosOverlay")


def _highlight(layout: Layout, hl: Highlight, s: float) -> list[Item]:
    tints: list[Item] = [Polygon(tuple(layout.corners(h)), fill=hl.color, opacity=style.HIGHLIGHT_OPACITY,
                                 tag="highlight") for h in hl.hexes]
    texts: list[Item] = [Text(layout.centre(h), label, style.HIGHLIGHT_TEXT_SIZE * s, bold=True, halo=style.HALO,
                              halo_width=style.PLACE_HALO * s, tag="highlight-label")
                         for h, label in hl.hexes.items() if label]
    return tints + texts


def _path(layout: Layout, path: PathOverlay, s: float) -> list[Item]:
    if not path.hexes:
        return []
    centres = tuple(layout.centre(h) for h in path.hexes)
    items: list[Item] = [Circle(centres[0], style.PATH_DOT * s, fill=path.color, tag="route-start")]
    if len(centres) > 1:
        items.append(Arrow(centres, path.color, style.PATH_WIDTH * s, style.PATH_HEAD * s,
                           opacity=style.PATH_OPACITY, tag="route"))
    return items


def _los(layout: Layout, los: LosOverlay, s: float) -> list[Item]:
    items: list[Item] = [Polygon(tuple(layout.corners(h)), stroke=style.LOS_TOUCHED, width=style.LOS_TOUCHED_WIDTH * s,
                                 tag="los-touched") for h in los.touched_hexes]
    items += [Polygon(tuple(layout.corners(h)), stroke=style.LOS_BLOCKED, width=style.LOS_BLOCKING_WIDTH * s,
                      tag="los-blocking") for h in los.blocking_hexes]
    width = style.LOS_WIDTH * s
    if los.visible:
        items.append(Polyline((los.start, los.end), style.LOS_VISIBLE, width, tag="los-visible"))
    else:
        cut = los.block_point if los.block_point is not None else los.start
        if cut != los.start:
            items.append(Polyline((los.start, cut), style.LOS_VISIBLE, width, tag="los-visible"))
        items.append(Polyline((cut, los.end), style.LOS_BLOCKED, width, tag="los-blocked"))
    items.append(Circle(los.start, style.LOS_DOT * s, fill=style.LOS_VISIBLE, stroke=style.HALO, width=width / 2,
                        tag="los-start"))
    items.append(Circle(los.end, style.LOS_DOT * s, fill=style.LOS_VISIBLE if los.visible else style.LOS_BLOCKED,
                        stroke=style.HALO, width=width / 2, tag="los-end"))
    if not los.visible and los.block_point is not None:
        (x, y), r = los.block_point, style.LOS_MARK * s
        items.append(Circle((x, y), r, fill=style.HALO, stroke=style.LOS_BLOCKED, width=width, tag="los-block"))
        k = r * 0.55
        items.append(Polyline(((x - k, y - k), (x + k, y + k)), style.LOS_BLOCKED, width, tag="los-block"))
        items.append(Polyline(((x - k, y + k), (x + k, y - k)), style.LOS_BLOCKED, width, tag="los-block"))
    return items
