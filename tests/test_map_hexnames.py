"""Map input by hex names: areas by hexes, path lines by hex chains, hexside lines by hexsides."""
from __future__ import annotations

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.mapdata import compile_source, map_json_schema

BY_NAMES = """
id: by-names
title: By names
grid: {orientation: flat, size: 10, naming: {scheme: ccrr}, columns: [1, 4], rows: [1, 3]}
terrain: {clear: {}, hill: {elevation: 1}, village: {base: false}}
features: {road: {kind: path}, river: {kind: hexside}}
areas:
  - {terrain: hill, hexes: ["0101", "0102", "0201"]}
  - {terrain: village, region: Town, hexes: ["0201", "0302"]}
  - {elevation: 5, hexes: ["0102"]}
lines:
  - {feature: road, value: primary, hexes: ["0101", "0201", "0301", "0302"]}
  - {feature: river, hexsides: [["0102", "0202"], ["0203", "0202"]]}
overrides:
  hexes:
    "0101": {terrain: [clear]}
"""


def test_areas_roads_and_rivers_by_name_compile_exactly():
    cmap = compile_source(BY_NAMES, "by-names.yaml")
    road = {"road": "primary"}
    expected = {  # name: (terrain, elevation, region, features); the override wins over the first area
        "0101": (("clear",), 1, None, road), "0102": (("hill",), 5, None, {}), "0103": (("clear",), 0, None, {}),
        "0201": (("hill", "village"), 1, "Town", road), "0202": (("clear",), 0, None, {}),
        "0203": (("clear",), 0, None, {}), "0301": (("clear",), 0, None, road),
        "0302": (("clear", "village"), 0, "Town", road), "0303": (("clear",), 0, None, {}),
        "0401": (("clear",), 0, None, {}), "0402": (("clear",), 0, None, {}), "0403": (("clear",), 0, None, {}),
    }
    assert {cmap.name(h): (i.terrain, i.elevation, i.region, i.features) for h, i in cmap.hexes.items()} == expected
    assert {frozenset((cmap.name(s.a), cmap.name(s.b))): attrs for s, attrs in cmap.hexsides.items()} == {
        frozenset(("0101", "0201")): road, frozenset(("0201", "0301")): road, frozenset(("0301", "0302")): road,
        frozenset(("0102", "0202")): {"river": "true"}, frozenset(("0202", "0203")): {"river": "true"},
    }
    assert compile_source(BY_NAMES, "by-names.yaml").to_json() == cmap.to_json()  # deterministic


GRIDS = [
    {"orientation": "flat", "size": 10, "naming": {"scheme": "ccrr"}, "columns": [1, 6], "rows": [1, 5]},
    {"orientation": "pointy", "size": 7, "naming": {"scheme": "ccrr", "shifted": "even"},
     "columns": [2, 7], "rows": [0, 4]},
    {"orientation": "flat", "size": 12, "naming": {"scheme": "diagonal"}, "columns": [1, 5], "rows": [3, 8]},
]


def walk(grid, start: int, steps: list[int]) -> list:
    """A chain of adjacent hexes from ``hex_list[start]``, one step per direction, skipping steps off the map."""
    chain = [grid.hex_list[start % len(grid.hex_list)]]
    for d in steps:
        nxt = chain[-1].neighbors()[d]
        if nxt in grid:
            chain.append(nxt)
    return chain


@settings(max_examples=60, deadline=None)
@given(grid=st.sampled_from(GRIDS),
       walks=st.lists(st.tuples(st.integers(0, 999), st.lists(st.integers(0, 5), min_size=1, max_size=10)),
                      min_size=1, max_size=3))
def test_hex_chain_compiles_like_the_polyline_through_its_centres(grid, walks):
    spec = {k: v for k, v in yaml.safe_load(BY_NAMES).items() if k not in ("areas", "lines", "overrides")}
    spec["grid"] = grid
    plain = compile_source(spec)
    chains = [c for c in (walk(plain.grid, start, steps) for start, steps in walks) if len(c) >= 2]
    by_names = [{"feature": "road", "value": str(k), "hexes": [plain.name(h) for h in c]} for k, c in enumerate(chains)]
    by_points = [{"feature": "road", "value": str(k), "points": [plain.grid.layout.centre(h) for h in c]}
                 for k, c in enumerate(chains)]
    named, drawn = compile_source(spec | {"lines": by_names}), compile_source(spec | {"lines": by_points})
    assert (named.hexes, named.hexsides) == (drawn.hexes, drawn.hexsides)


def test_json_schema_offers_every_form():
    defs = map_json_schema()["$defs"]
    assert {"polygon", "hexes"} <= set(defs["AreaSpec"]["properties"])
    assert defs["AreaSpec"]["oneOf"] == [{"required": ["polygon"]}, {"required": ["hexes"]}]
    assert defs["LineSpec"]["oneOf"] == [{"required": [k]} for k in ("points", "hexes", "hexsides")]
