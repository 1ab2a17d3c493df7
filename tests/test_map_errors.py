"""One test per class of map-file error: each names the file, the key path and what was expected."""
from __future__ import annotations

import pytest

from toolkit.mapdata import MapError, compile_source

FILE = "maps/x/map.yaml"


def fails(data, match: str) -> MapError:
    with pytest.raises(MapError, match=match) as info:
        compile_source(data, FILE)
    assert str(info.value).startswith(FILE + ": ")
    return info.value


def test_unknown_terrain(map_dict):
    map_dict["areas"] = [{"terrain": "hill", "polygon": [[0, 0], [9, 0], [0, 9]]},
                         {"terrain": "hils", "polygon": [[0, 0], [9, 0], [0, 9]]}]
    err = fails(map_dict, "unknown terrain 'hils'; expected one of: clear, hill, village")
    assert err.path == "areas[1].terrain"


def test_unknown_feature(map_dict):
    map_dict["lines"] = [{"feature": "raod", "points": [[0, 0], [20, 20]]}]
    err = fails(map_dict, "unknown feature 'raod'; expected one of: road, wall")
    assert err.path == "lines[0].feature"


def test_override_hex_outside_extent(map_dict):
    map_dict["overrides"] = {"hexes": {"0509": {"elevation": 1}}}
    err = fails(map_dict, "outside the map")
    assert err.path == "overrides.hexes.0509"


def test_bad_hex_name(map_dict):
    map_dict["overrides"] = {"hexes": {"5x": {"elevation": 1}}}
    err = fails(map_dict, "'5x' is not a hex name: expected 4 digits")
    assert err.path == "overrides.hexes.5x"


@pytest.mark.parametrize("polygon, why", [
    ([[0, 0], [20, 20], [20, 0], [0, 20]], "Self-intersection"),
    ([[0, 0], [20, 20]], "expected at least 3 points, got 2"),
])
def test_invalid_polygon(map_dict, polygon, why):
    map_dict["areas"] = [{"terrain": "hill", "polygon": polygon}]
    err = fails(map_dict, f"invalid polygon: .*{why}")
    assert err.path == "areas[0].polygon"


def test_duplicate_place(map_dict):
    map_dict["points"] = [{"place": "Emmaus", "at": [10, 17]}, {"place": "emmaus", "at": [40, 17]}]
    err = fails(map_dict, "duplicate place name 'emmaus': already hex 0101 \\(from points\\[0\\].place\\)")
    assert err.path == "points[1].place"


def test_hexside_between_non_adjacent_hexes(map_dict):
    map_dict["overrides"] = {"hexsides": [{"between": ["0101", "0103"], "set": {"wall": True}}]}
    err = fails(map_dict, "hexes 0101 and 0103 are not adjacent")
    assert err.path == "overrides.hexsides[0].between"


def test_lonlat_without_projection(map_dict):
    map_dict["points"] = [{"place": "Latrun", "at": [35.0, 31.8], "crs": "lonlat"}]
    err = fails(map_dict, "crs: lonlat needs a top-level 'projection' section")
    assert err.path == "points[0].crs"


def test_point_outside_map(map_dict):
    map_dict["points"] = [{"place": "Far", "at": [500, 17]}]
    err = fails(map_dict, r"point \(500, 17\) in map units is outside the map")
    assert err.path == "points[0].at"


def test_yaml_syntax_error():
    err = fails("id: x\ntitle: [unclosed\ngrid: {}\n", "YAML syntax error")
    assert err.path.startswith("line 3, column ")


@pytest.mark.parametrize("change, path, problem", [
    (lambda d: d.pop("title"), "title", "missing required key"),
    (lambda d: d["grid"].update(size="big"), "grid.size", "input should be a valid number.*got 'big'"),
    (lambda d: d["grid"].update(colums=[1, 2]), "grid.colums", "unknown key"),
])
def test_missing_key_or_wrong_type(map_dict, change, path, problem):
    change(map_dict)
    err = fails(map_dict, problem)
    assert err.path == path


# Issue 11: maps from strangers -- bounded work, one clear refusal each.

@pytest.mark.parametrize("size", [1e300, float("inf"), float("nan")])
def test_grid_size_must_be_a_sane_finite_number(map_dict, size):
    map_dict["grid"]["size"] = size
    err = fails(map_dict, "grid.size")
    assert "1000000" in str(err) or "finite" in str(err)


def test_grid_of_a_trillion_hexes_is_refused_at_once(map_dict):
    map_dict["grid"]["columns"], map_dict["grid"]["rows"] = [1, 1_000_000], [1, 1_000_000]
    err = fails(map_dict, "at most 1,000,000")
    assert err.path == "grid"


@pytest.mark.parametrize("far", [1e12, float("inf")])
def test_a_line_to_infinity_is_refused(map_dict, far):
    map_dict["lines"] = [{"feature": "road", "points": [[0, 0], [far, 5]]}]
    err = fails(map_dict, "lines")
    assert err.path.startswith("lines[0].points")


def test_a_line_far_off_the_grid_names_its_point(map_dict):
    map_dict["lines"] = [{"feature": "road", "points": [[0, 0], [5e6, 5]]}]
    err = fails(map_dict, r"point \(5e\+06, 5\) in map units lies far outside the grid")
    assert err.path == "lines[0].points"
