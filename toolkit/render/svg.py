"""Serialise a :class:`~toolkit.render.scene.Scene` to SVG text.

The SVG's user units are map units (``viewBox`` = the scene bounds), so
coordinates in the file are exactly those of the hex layout.  Every element
carries the primitive's ``tag`` as its ``class`` (``hex``, ``hexside wall``,
``path road``, ``place`` ...).
"""
from __future__ import annotations

from typing import Callable, Sequence

from lxml import etree

from ..mapdata.compiled import CompiledMap
from . import style
from .scene import Arrow, Circle, Item, Overlay, Point, Polygon, Polyline, Scene, Text, build_scene

SVG_NS = "http://www.w3.org/2000/svg"
FONT_FAMILY = "DejaVu Sans, Verdana, Arial, sans-serif"


def _num(v: float) -> str:
    return f"{v:.4f}".rstrip("0").rstrip(".")


def _points(points: Sequence[Point]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _paint(fill: str | None, stroke: str | None, width: float, dash: Sequence[float] = (),
           opacity: float = 1.0) -> dict[str, str]:
    """Fill/stroke attributes shared by every shape."""
    attrs = {"fill": fill or "none", "stroke": stroke or "none"}
    if stroke:
        attrs |= {"stroke-width": _num(width), "stroke-linejoin": "round",
                  "stroke-linecap": "butt" if dash else "round"}
    if dash:
        attrs["stroke-dasharray"] = " ".join(_num(d) for d in dash)
    if opacity < 1:
        attrs["opacity"] = _num(opacity)
    return attrs


def _polygon(parent: etree._Element, p: Polygon) -> etree._Element:
    return etree.SubElement(parent, f"{{{SVG_NS}}}polygon", points=_points(p.points),
                     **_paint(p.fill, p.stroke, p.width, p.dash, p.opacity))


def _polyline(parent: etree._Element, p: Polyline) -> etree._Element:
    return etree.SubElement(parent, f"{{{SVG_NS}}}polyline", points=_points(p.points),
                     **_paint(None, p.stroke, p.width, p.dash, p.opacity))


def _circle(parent: etree._Element, c: Circle) -> etree._Element:
    return etree.SubElement(parent, f"{{{SVG_NS}}}circle", cx=_num(c.centre[0]), cy=_num(c.centre[1]), r=_num(c.radius),
                     **_paint(c.fill, c.stroke, c.width, (), c.opacity))


def _text(parent: etree._Element, t: Text) -> etree._Element:
    attrs = {"x": _num(t.pos[0]), "y": _num(t.pos[1]), "font-size": _num(t.size), "font-family": FONT_FAMILY,
             "text-anchor": "middle", "dominant-baseline": "central", "fill": t.fill}
    if t.bold:
        attrs["font-weight"] = "bold"
    if t.halo:
        attrs |= {"stroke": t.halo, "stroke-width": _num(t.halo_width), "stroke-linejoin": "round",
                  "paint-order": "stroke"}
    element = etree.SubElement(parent, f"{{{SVG_NS}}}text", **attrs)
    element.text = t.text
    return element


def _arrow(parent: etree._Element, a: Arrow) -> etree._Element:
    group = etree.SubElement(parent, f"{{{SVG_NS}}}g", **({"opacity": _num(a.opacity)} if a.opacity < 1 else {}))
    etree.SubElement(group, f"{{{SVG_NS}}}polyline", points=_points(a.shaft()), **_paint(None, a.stroke, a.width))
    etree.SubElement(group, f"{{{SVG_NS}}}polygon", points=_points(a.head_points()),
                     **_paint(a.stroke, a.stroke, a.width / 2))
    return group


_WRITERS: dict[type, Callable[[etree._Element, Item], etree._Element]] = {
    Polygon: _polygon, Polyline: _polyline, Circle: _circle, Text: _text, Arrow: _arrow,
}


def scene_to_svg(scene: Scene, width_px: float | None = None) -> str:
    """The SVG document (UTF-8 XML declaration included; encode before parsing with lxml).

    User units are map units; the displayed size is ``width_px`` wide (default: one pixel per map unit).
    """
    minx, miny, maxx, maxy = scene.bounds
    w, h = maxx - minx, maxy - miny
    px = (width_px or w) / w
    root = etree.Element(f"{{{SVG_NS}}}svg", nsmap={None: SVG_NS}, version="1.1", width=_num(w * px),
                         height=_num(h * px), viewBox=f"{_num(minx)} {_num(miny)} {_num(w)} {_num(h)}")
    etree.SubElement(root, f"{{{SVG_NS}}}rect", x=_num(minx), y=_num(miny), width=_num(w), height=_num(h),
                     fill=scene.background)
    for item in scene.items:
        element = _WRITERS[type(item)](root, item)
        if item.tag:
            element.set("class", item.tag)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True).decode("utf-8")


def render_svg(cmap: CompiledMap, overlays: Sequence[Overlay] = (), *, width_px: float | None = None, **opts) -> str:
    """The map with overlays as SVG text; ``opts`` go to :func:`~toolkit.render.scene.build_scene`.

    The document is ``width_px`` wide, by default the width of a PNG at
    :data:`~toolkit.render.style.DEFAULT_PIXELS_PER_HEX`.
    """
    scene = build_scene(cmap, overlays, **opts)
    minx, _, maxx, _ = scene.bounds
    return scene_to_svg(scene, width_px or (maxx - minx) * style.DEFAULT_PIXELS_PER_HEX / cmap.grid.layout.width)
