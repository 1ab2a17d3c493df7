"""The map compiler: exact results on the example map, rasterization rules, chains, cache, catalog."""
from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.hexgrid import Hex, Layout, hexside
from toolkit.mapdata import (CompiledMap, MapError, compile_map, compile_source, list_maps, load_map, open_map,
                             path_chain)
from toolkit.mapdata import cache as cache_module
from toolkit.mapdata.compiler import hexes_at


@pytest.fixture
def example(example_path):
    return compile_map(example_path)


def names(cmap, hexes):
    return [cmap.name(h) for h in hexes]


def with_(cmap, pred):
    return sorted(cmap.name(h) for h, info in cmap.hexes.items() if pred(info))


def sides_with(cmap, feature):
    return sorted((cmap.name(s.a), cmap.name(s.b)) for s, attrs in cmap.hexsides.items() if feature in attrs)


# --- the example map, checked against hand-computed answers -------------------------------------------------------

def test_example_every_hex_present_and_hexsides_non_empty(example):
    assert set(example.hexes) == set(example.grid.hexes()) and len(example.hexes) == 120
    assert all(example.hexsides.values())


def test_example_hill_is_exactly_the_three_hex_union(example):
    # The polygon is the union of 0504, 0505, 0605; the 40% hexagon in 0303 must not make it hill.
    assert with_(example, lambda i: "hill" in i.terrain) == ["0504", "0505", "0605"]
    assert example.hexes[example.resolve("0303")].terrain == ("clear",)
    assert [example.hexes[example.resolve(n)].elevation for n in ("0504", "0505", "0605")] == [1, 2, 1]


def test_example_woods_village_and_default_terrain(example):
    assert with_(example, lambda i: "woods" in i.terrain) == ["0908", "0909", "1210"]
    assert example.hexes[example.resolve("0908")].terrain == ("woods", "village")  # 60% hexagon adds village
    assert with_(example, lambda i: i.terrain == ("clear",)) == sorted(
        set(names(example, example.grid.hexes())) - {"0504", "0505", "0605", "0908", "0909", "1210"})


def test_example_region_clipped_and_half_covered_column(example):
    # x <= 55 halves column 4 exactly: 50% coverage counts; the polygon sticks out of the map (clipped).
    assert with_(example, lambda i: i.region == "West") == [f"{c:02d}{r:02d}" for c in range(1, 5) for r in range(1, 11)]


ROAD = ["0106", "0207", "0307", "0408", "0508", "0507", "0506", "0505", "0605", "0704", "0804", "0903", "1003",
        "1102", "1202"]


def test_example_road_chain(example):
    road = [[10, 103.923], [70, 138.564], [70, 86.603], [190, 17.321]]
    chain = path_chain(example.grid.layout, road)
    assert names(example, chain[:-1]) == ROAD and chain[-1] == Hex(13, -5) and chain[-1] not in example.grid
    assert with_(example, lambda i: i.features.get("road") == "primary") == sorted(ROAD)
    assert sides_with(example, "road") == sorted(tuple(sorted(p)) for p in zip(ROAD, ROAD[1:]))
    assert all(example.hexsides[hexside(example.resolve(a), example.resolve(b))]["road"] == "primary"
               for a, b in zip(ROAD, ROAD[1:]))


def test_example_walls(example):
    # The line runs along the west edges of 0504 and 0505; the override removes 0406|0505 and adds 0508|0608.
    assert sides_with(example, "wall") == [("0404", "0504"), ("0405", "0504"), ("0405", "0505"), ("0508", "0608")]
    assert example.hexside(example.resolve("0508"), example.resolve("0608")) == {"wall": "true"}


def test_example_places_and_overrides(example):
    assert {p: example.name(h) for p, h in example.places.items()} == {
        "Emmaus": "0303", "Latrun": "1008", "Nebi Samuel": "0505"}  # Latrun is given in lon/lat
    assert example.resolve("latrun") == example.resolve("1008")
    assert example.hexes[example.resolve("1210")].features == {"stream": "spring"}
    assert example.los.blocking_hexside_features == ("wall",) and example.los.rule == "10.7.1"


def test_example_stream_is_a_connected_chain(example):
    stream = with_(example, lambda i: "stream" in i.features and i.features["stream"] == "true")
    assert stream[0] == "0107" and stream[-1] == "1206" and len(sides_with(example, "stream")) == len(stream) - 1


def test_json_round_trip(example):
    again = CompiledMap.from_json(json.loads(json.dumps(example.to_json())))
    assert again == example


# --- rasterization rules on small maps ----------------------------------------------------------------------------

def hexagon(cmap, name, fraction):
    """A hexagon centred on a hex, covering ``fraction`` of it."""
    cx, cy = cmap.grid.layout.centre(cmap.resolve(name))
    r = cmap.grid.layout.size * math.sqrt(fraction)
    return [[cx + r * math.cos(math.pi / 3 * k), cy + r * math.sin(math.pi / 3 * k)] for k in range(6)]


def test_base_terrain_replaced_non_base_added_elevation_and_coverage(map_dict):
    plain = compile_source(map_dict)
    map_dict["areas"] = [
        {"terrain": "village", "polygon": hexagon(plain, "0202", 0.6)},
        {"terrain": "hill", "polygon": hexagon(plain, "0202", 0.7)},
        {"terrain": "clear", "elevation": 3, "polygon": hexagon(plain, "0202", 0.55)},
        {"terrain": "hill", "coverage": 0.3, "polygon": hexagon(plain, "0301", 0.4), "region": "R"},
        {"terrain": "hill", "polygon": hexagon(plain, "0401", 1.0), "holes": [hexagon(plain, "0401", 0.6)]},
    ]
    cmap = compile_source(map_dict)
    h = cmap.hexes[cmap.resolve("0202")]
    assert (h.terrain, h.elevation) == (("clear", "village"), 3)
    assert (cmap.hexes[cmap.resolve("0301")].terrain, cmap.hexes[cmap.resolve("0301")].region) == (("hill",), "R")
    assert cmap.hexes[cmap.resolve("0401")].terrain == ("clear",)  # 40% after the hole


def test_map_level_coverage_default(map_dict):
    plain = compile_source(map_dict)
    map_dict["coverage"] = 0.3
    map_dict["areas"] = [{"terrain": "hill", "polygon": hexagon(plain, "0202", 0.4)}]
    assert compile_source(map_dict).hexes[plain.resolve("0202")].terrain == ("hill",)


def test_first_value_wins_and_hexside_line_through_centre(map_dict):
    plain = compile_source(map_dict)
    lay = plain.grid.layout
    c = [lay.centre(plain.resolve(n)) for n in ("0101", "0201", "0301")]
    map_dict["lines"] = [{"feature": "road", "value": "a", "points": [c[0], c[1]]},
                         {"feature": "road", "value": "b", "points": [c[1], c[2]]},
                         # passes exactly through the centre of 0201, crossing nothing else: marks no hexside
                         {"feature": "wall", "points": [[c[1][0] - 3, c[1][1]], [c[1][0] + 3, c[1][1]]]}]
    cmap = compile_source(map_dict)
    assert cmap.hexes[plain.resolve("0201")].features == {"road": "a"}
    assert sides_with(cmap, "wall") == []


def test_hexside_line_crossing(map_dict):
    plain = compile_source(map_dict)
    (x1, y1), (x2, y2) = (plain.grid.layout.centre(plain.resolve(n)) for n in ("0102", "0103"))
    map_dict["lines"] = [{"feature": "wall", "value": 2, "points": [[x1 - 20, (y1 + y2) / 2], [x1 + 3, (y1 + y2) / 2]]}]
    cmap = compile_source(map_dict)
    assert cmap.hexsides == {hexside(plain.resolve("0102"), plain.resolve("0103")): {"wall": "2"}}


# --- path chains --------------------------------------------------------------------------------------------------

LAYOUTS = [Layout("flat", 10.0, (3.0, -2.0)), Layout("pointy", 7.0, (0.0, 0.0))]
coord = st.floats(-200, 200, allow_nan=False, allow_infinity=False)


@settings(max_examples=150, deadline=None)
@given(layout=st.sampled_from(LAYOUTS), points=st.lists(st.tuples(coord, coord), min_size=2, max_size=6))
def test_path_chain_property(layout, points):
    chain = path_chain(layout, points)
    assert all(a.distance(b) == 1 for a, b in zip(chain, chain[1:]))
    for end, h in ((points[0], chain[0]), (points[-1], chain[-1])):
        assert shapely.Polygon(layout.corners(h)).buffer(1e-9).covers(shapely.Point(end))


def test_path_chain_through_a_corner_is_connected():
    lay = Layout("flat", 10.0)
    # Centre of (0,0) to centre of (1,1): runs exactly along the edge between (1,0) and (0,1).
    chain = path_chain(lay, [lay.centre(Hex(0, 0)), lay.centre(Hex(1, 1))])
    assert chain[0] == Hex(0, 0) and chain[-1] == Hex(1, 1)
    assert all(a.distance(b) == 1 for a, b in zip(chain, chain[1:]))


def test_vectorized_hex_at_matches_layout():
    lay = Layout("pointy", 9.0, (1.0, 2.0))
    pts = np.random.default_rng(3).uniform(-100, 100, (500, 2))
    assert [Hex(q, r) for q, r in hexes_at(lay, pts).tolist()] == [lay.hex_at(x, y) for x, y in pts]


# --- performance, cache, catalog ----------------------------------------------------------------------------------

def big_map() -> dict:
    rnd = random.Random(7)
    areas, lines = [], []
    for i in range(150):
        cx, cy, r = rnd.uniform(0, 1500), rnd.uniform(0, 1700), rnd.uniform(15, 80)
        areas.append({"terrain": rnd.choice(["hill", "village"]),
                      "polygon": [[cx + r * math.cos(k), cy + r * math.sin(k)] for k in range(6)]})
    for i in range(200):
        x, y, pts = rnd.uniform(0, 1500), rnd.uniform(0, 1700), []
        for _ in range(6):
            pts.append([x, y])
            x, y = x + rnd.uniform(-80, 80), y + rnd.uniform(-80, 80)
        lines.append({"feature": rnd.choice(["road", "wall"]), "points": pts})
    return {"id": "big", "title": "Big", "grid": {"orientation": "flat", "size": 10, "naming": {"scheme": "ccrr"},
            "columns": [1, 100], "rows": [1, 50]}, "terrain": {"clear": {}, "hill": {}, "village": {"base": False}},
            "features": {"road": {"kind": "path"}, "wall": {"kind": "hexside"}}, "areas": areas, "lines": lines}


def test_big_map_compiles_and_reloads_equal(tmp_path):
    # Speed is measured by scripts/bench.py, not here.
    src = tmp_path / "big.yaml"
    src.write_text(json.dumps(big_map()))  # JSON is YAML
    cmap = load_map(src, cache_dir=tmp_path)
    again = load_map(src, cache_dir=tmp_path)
    assert len(cmap.hexes) == 5000 and again == cmap


def test_cache_hit_invalidation_and_corruption(tmp_path, example_path, monkeypatch):
    src = tmp_path / "map.yaml"
    src.write_bytes(example_path.read_bytes())
    first = load_map(src, cache_dir=tmp_path / "c")
    [cached] = (tmp_path / "c").glob("*.json")

    def boom(*args, **kwargs):
        raise AssertionError("compiler called")

    monkeypatch.setattr(cache_module, "compile_source", boom)
    assert load_map(src, cache_dir=tmp_path / "c") == first
    src.write_text(src.read_text().replace("title: Example map", "title: Edited"))
    with pytest.raises(AssertionError, match="compiler called"):
        load_map(src, cache_dir=tmp_path / "c")
    monkeypatch.undo()
    assert load_map(src, cache_dir=tmp_path / "c").title == "Edited"
    cached.write_text("{not json")
    src.write_bytes(example_path.read_bytes())
    assert load_map(src, cache_dir=tmp_path / "c") == first
    assert json.loads(cached.read_text())["title"] == "Example map"
    assert not list((tmp_path / "c").glob(".*tmp"))


def test_catalog(example_path, tmp_path, monkeypatch):
    assert ("example", "Example map", example_path) in list_maps()
    assert open_map("example") == open_map(str(example_path))
    monkeypatch.setenv("TOOLKIT_MAPS_DIR", str(tmp_path))
    with pytest.raises(MapError, match="no such map file or bundled map"):
        open_map("nosuch")
