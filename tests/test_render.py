"""Rendering: SVG structure and geometry, PNG pixels, overlays, file writing."""
from __future__ import annotations

import math

import pytest
from lxml import etree
from PIL import ImageColor

from toolkit.hexgrid import CCRR, Grid, Hex, Layout, hexside
from toolkit.mapdata.compiled import CompiledMap, HexInfo, HexsideFeatureType, TerrainType
from toolkit.render import (Highlight, LosOverlay, PathOverlay, build_scene, png_transform, render_png, render_svg,
                            write_image)
from toolkit.render.style import elevation_color

SVG = "{http://www.w3.org/2000/svg}"

TERRAIN = {t.name: t for t in (
    TerrainType("clear", "#eee8cc"), TerrainType("forest", "#7fb069"), TerrainType("rough", "#c9a87c"),
    TerrainType("water", "#8ec3e6"), TerrainType("village", "#d2452f", base=False),
    TerrainType("city", "#6e6e6e", base=False),
)}
FEATURES = {f.name: f for f in (
    HexsideFeatureType("stream", "#2f72d0", 2.5, "path"), HexsideFeatureType("road", "#8a5a2b", 3.0, "path"),
    HexsideFeatureType("railway", "#2b2b2b", 2.0, "path", "6,4"), HexsideFeatureType("wall", "#4a2f1f", 5.0),
    HexsideFeatureType("boundary", "#a020a0", 3.0, "hexside", "8,4"),
)}


def plain_map(columns: int, rows: int) -> CompiledMap:
    """A small all-clear map."""
    grid = Grid(Layout("flat", 30.0), CCRR(), (1, columns), (1, rows))
    return CompiledMap("plain", "Plain", grid, TERRAIN, FEATURES, {h: HexInfo(("clear",)) for h in grid.hexes()}, {})


def make_map(title: str = "Test Valley") -> CompiledMap:
    """A hand-built 12 x 10 flat-top CCRR map with every kind of terrain, feature and label."""
    grid = Grid(Layout("flat", 30.0), CCRR(), (1, 12), (1, 10))
    hexes = {h: HexInfo(("clear",)) for h in grid.hexes()}
    at = grid.parse

    def put(name: str, **kw) -> None:
        info = hexes[at(name)]
        for key, value in kw.items():
            setattr(info, key, value)

    for name in ("0203", "0204", "0303", "0304", "0403"):
        put(name, terrain=("forest",))
    for name in ("0808", "0908", "0909", "1008"):
        put(name, terrain=("water",))
    for name in ("0506", "0507", "0606"):
        put(name, terrain=("rough",), elevation=1)
    put("0606", elevation=2)
    put("0505", terrain=("clear", "village"), place="Oakford")
    put("1003", terrain=("clear", "city"), place="Kingsbridge", elevation=1)
    put("0209", terrain=("forest", "village"), place="Hollow End")
    sides: dict = {}

    def line(feature: str, names: list[str]) -> None:
        for a, b in zip(names, names[1:]):
            sides.setdefault(hexside(at(a), at(b)), {})[feature] = True

    line("road", ["0101", "0202", "0302", "0403", "0404", "0504", "0505", "0605", "0704", "0804", "0803", "0902",
                  "1003"])
    line("railway", ["0110", "0210", "0309", "0409", "0508", "0608", "0707", "0807", "0906", "1006", "1105", "1205"])
    line("stream", ["0601", "0602", "0702", "0703", "0803", "0903", "0904", "1004", "1005"])
    for a, b in [("1003", "1004"), ("1003", "1103"), ("1003", "0903"), ("1003", "1002")]:
        sides.setdefault(hexside(at(a), at(b)), {})["wall"] = True
    for a, b in [("0106", "0107"), ("0207", "0206"), ("0307", "0306")]:
        sides.setdefault(hexside(at(a), at(b)), {})["boundary"] = True
    return CompiledMap("test", title, grid, TERRAIN, FEATURES, hexes, sides)


def demo_overlays(cmap: CompiledMap) -> list:
    """One overlay of each kind, placed over the demo map."""
    at, layout = cmap.grid.parse, cmap.grid.layout
    return [
        Highlight({at("0705"): "1", at("0706"): "2", at("0806"): "3½", at("0606"): None}),
        PathOverlay([at(n) for n in ("0705", "0706", "0806", "0906")], "#1f4fd8"),
        LosOverlay(layout.centre(at("0202")), layout.centre(at("0206")), False,
                   block_point=layout.corners(at("0204"))[1], blocking_hexes=[at("0204")],
                   touched_hexes=[at(n) for n in ("0202", "0203", "0204", "0205", "0206")]),
    ]


def svg_root(cmap: CompiledMap, overlays=()):
    return etree.fromstring(render_svg(cmap, overlays).encode("utf-8"))


def points_of(element) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in element.get("points").split()]


def close(p, q, tol=1e-3) -> bool:
    return math.dist(p, q) < tol


def pixel(image, cmap, point, **kw):
    k, ox, oy = png_transform(cmap, image.width, **kw)
    return image.getpixel((math.floor(k * point[0] + ox), math.floor(k * point[1] + oy)))


def near(rgb, color: str, tol: int = 4) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(rgb, ImageColor.getrgb(color)))


# ----------------------------------------------------------------- SVG

def test_svg_has_one_hex_polygon_per_hex_and_all_labels():
    cmap = make_map()
    root = svg_root(cmap)
    assert len(root.findall(f"{SVG}polygon[@class='hex']")) == len(cmap.grid)
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert {cmap.grid.name(h) for h in cmap.grid.hexes()} <= texts
    assert {"Oakford", "Kingsbridge", "Hollow End", "Test Valley"} <= texts
    assert len(root.findall(f"{SVG}polygon[@class='terrain village']")) == 2


def test_svg_wall_lies_exactly_on_the_shared_edge():
    cmap = make_map()
    a, b = cmap.grid.parse("1003"), cmap.grid.parse("1103")
    walls = [points_of(e) for e in svg_root(cmap).findall(f"{SVG}polyline[@class='hexside wall']")]
    assert len(walls) == 4
    # corners of b across from a: the same two points, found from the other hex
    d = b.direction_to(a)
    corners = cmap.grid.layout.corners(b)
    expected = {corners[d], corners[(d + 1) % 6]}
    matching = [w for w in walls if all(any(close(p, e) for e in expected) for p in w)]
    assert len(matching) == 1 and len(matching[0]) == 2


def test_svg_road_joins_the_two_centres_and_railway_is_dashed():
    cmap = make_map()
    root = svg_root(cmap)
    layout = cmap.grid.layout
    a, b = cmap.grid.parse("0505"), cmap.grid.parse("0605")
    roads = [points_of(e) for e in root.findall(f"{SVG}polyline[@class='path road']")]
    assert len(roads) == 12
    assert any({tuple(round(v, 3) for v in p) for p in r} ==
               {tuple(round(v, 3) for v in layout.centre(h)) for h in (a, b)} for r in roads)
    rails = root.findall(f"{SVG}polyline[@class='path railway']")
    assert rails and all(e.get("stroke-dasharray") == "6 4" for e in rails)


def test_svg_overlays_and_escaping():
    cmap = make_map(title="Fords & <Bridges>")
    root = svg_root(cmap, demo_overlays(cmap))
    assert "Fords & <Bridges>" in {t.text for t in root.iter(f"{SVG}text")}
    assert "3½" in {t.text for t in root.iter(f"{SVG}text")}
    assert len(root.findall(f"{SVG}polygon[@class='highlight']")) == 4
    assert len(root.findall(f"{SVG}polygon[@class='los-blocking']")) == 1
    assert root.findall(f"{SVG}polyline[@class='los-blocked']")
    assert root.findall(f"{SVG}g[@class='route']")


def test_unknown_overlay_is_refused():
    with pytest.raises(TypeError, match="Highlight"):
        build_scene(plain_map(3, 3), ["not an overlay"])


# ----------------------------------------------------------------- PNG

def test_png_has_requested_width_and_frame_aspect():
    cmap = make_map()
    image = render_png(cmap, 600)
    minx, miny, maxx, maxy = build_scene(cmap).bounds
    assert image.width == 600
    assert image.height == round((maxy - miny) * 600 / (maxx - minx))


def test_pixels_per_hex_sets_centre_spacing():
    cmap = plain_map(4, 4)
    k, ox, oy = png_transform(cmap, pixels_per_hex=64)
    layout = cmap.grid.layout
    (x0, y0), (x1, y1) = layout.centre(Hex(1, 0)), layout.centre(Hex(1, 1))
    assert math.isclose(math.dist((k * x0, k * y0), (k * x1, k * y1)), 64)
    with pytest.raises(ValueError):
        png_transform(cmap, 100, pixels_per_hex=64)


def test_centre_pixels_show_terrain_elevation_and_insets():
    cmap = make_map()
    image = render_png(cmap, 900)
    layout, at = cmap.grid.layout, cmap.grid.parse
    assert near(pixel(image, cmap, layout.centre(at("0108"))), "#eee8cc")
    assert near(pixel(image, cmap, layout.centre(at("0909"))), "#8ec3e6")
    assert near(pixel(image, cmap, layout.centre(at("0507"))), elevation_color("#c9a87c", 1))
    assert near(pixel(image, cmap, layout.centre(at("0209"))), "#d2452f")  # village inset on forest


def test_hex_centres_land_where_png_transform_says():
    grid = Grid(Layout("flat", 25.0, (7.0, 3.0)), CCRR(), (1, 3), (1, 3))
    hexes = {h: HexInfo(("clear",)) for h in grid.hexes()}
    middle = grid.parse("0202")
    hexes[middle] = HexInfo(("water",))
    cmap = CompiledMap("t", "", grid, TERRAIN, {}, hexes, {})
    image = render_png(cmap, 333, show_names=False)
    k, ox, oy = png_transform(cmap, 333)
    pts = [(x + 0.5, y + 0.5) for y in range(image.height) for x in range(image.width)
           if near(image.getpixel((x, y)), "#8ec3e6", 2)]
    cx, cy = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    x, y = grid.layout.centre(middle)
    assert math.dist((cx, cy), (k * x + ox, k * y + oy)) < 0.3


def test_highlight_changes_the_centre_pixel():
    cmap = make_map()
    h = cmap.grid.parse("0108")
    centre = cmap.grid.layout.centre(h)
    plain = pixel(render_png(cmap, 700), cmap, centre)
    lit = pixel(render_png(cmap, 700, [Highlight({h: None}, "#ff00ff")]), cmap, centre)
    assert plain != lit and lit[1] < plain[1] - 40


def test_los_is_green_before_the_block_point_and_red_after():
    cmap = make_map()
    layout, at = cmap.grid.layout, cmap.grid.parse
    start, end = layout.centre(at("0802")), layout.centre(at("0807"))
    block = layout.centre(at("0804"))
    image = render_png(cmap, 1000, [LosOverlay(start, end, False, block)])

    def along(t):
        return pixel(image, cmap, (start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t))

    r, g, b = along(0.2)
    assert g > r + 60 and g > b + 40
    r, g, b = along(0.8)
    assert r > g + 100 and r > b + 100


# ----------------------------------------------------------------- files

def test_write_image_by_suffix(tmp_path):
    cmap = plain_map(4, 3)
    svg = write_image(tmp_path / "m.svg", cmap, width_px=200)
    png = write_image(tmp_path / "m.png", cmap, width_px=200)
    root = etree.fromstring(svg.read_bytes())
    assert root.tag == f"{SVG}svg" and root.get("width") == "200"
    assert png.read_bytes().startswith(b"\x89PNG")
    with pytest.raises(ValueError, match=r"\.svg.*\.png"):
        write_image(tmp_path / "m.jpg", cmap)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.png", "m.svg"]


# ----------------------------------------------------------------- hex names over lines

def railway_through_names() -> CompiledMap:
    """Three hexes in a column joined by a thick red railway, which runs straight through 0102's name."""
    grid = Grid(Layout("flat", 30.0), CCRR(), (1, 1), (1, 3))
    at = grid.parse
    feats = {"railway": HexsideFeatureType("railway", "#ff0000", 6.0, "path")}
    sides = {hexside(at("0101"), at("0102")): {"railway": True}, hexside(at("0102"), at("0103")): {"railway": True}}
    return CompiledMap("t", "", grid, TERRAIN, feats, {h: HexInfo(("clear",)) for h in grid.hexes()}, sides)


def test_hex_names_are_drawn_last_with_a_halo():
    scene = build_scene(make_map(), show_title=False)
    tags = [i.tag for i in scene.items]
    first_name = tags.index("hexname")
    assert all(t == "hexname" for t in tags[first_name:])  # nothing of the map drawn over them
    assert all(i.halo and i.halo_width > 0 for i in scene.items if i.tag == "hexname")


def test_a_railway_does_not_cross_out_a_hex_name():
    from toolkit.render import style
    from toolkit.render.png import text_font
    cmap = railway_through_names()
    image = render_png(cmap, pixels_per_hex=160, show_title=False)
    k, ox, oy = png_transform(cmap, pixels_per_hex=160, show_title=False)
    x, y = next(i.pos for i in build_scene(cmap).items if i.tag == "hexname" and i.text == "0102")
    px, py = k * x + ox, k * y + oy
    w, h = text_font(round(style.NAME_SIZE * k), False).getlength("0102"), style.NAME_SIZE * k
    box = [(i, j) for i in range(math.floor(px - w / 2), math.ceil(px + w / 2))
           for j in range(math.floor(py - h / 2), math.ceil(py + h / 2))]
    red = sum(1 for p in box if near(image.getpixel(p), "#ff0000", 60))
    # without the halo a quarter of the name's box is railway; with it, almost none
    assert red < 0.06 * len(box)
