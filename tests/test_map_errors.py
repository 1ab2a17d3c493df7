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


# Map input by hex names: areas by hexes, path lines by hex chains, hexside lines by hexsides.

@pytest.mark.parametrize("item, problem", [
    ({"terrain": "hill"}, "give exactly one of polygon, hexes$"),
    ({"terrain": "hill", "hexes": ["0101"], "polygon": [[0, 0], [9, 0], [0, 9]]},
     "give exactly one of polygon, hexes; got polygon and hexes"),
])
def test_area_needs_exactly_one_of_polygon_and_hexes(map_dict, item, problem):
    map_dict["areas"] = [item]
    assert fails(map_dict, problem).path == "areas[0]"


def test_area_by_hexes_refuses_polygon_keys(map_dict):
    map_dict["areas"] = [{"terrain": "hill", "hexes": ["0101"], "coverage": 0.3, "crs": "map"}]
    err = fails(map_dict, "remove crs, coverage: used only with polygon, not with hexes")
    assert err.path == "areas[0]"


@pytest.mark.parametrize("name, problem", [
    ("5x", "'5x' is not a hex name: expected 4 digits"),
    ("0509", "hex '0509' is outside the map"),
])
def test_area_hex_name_bad_or_off_the_map(map_dict, name, problem):
    map_dict["areas"] = [{"terrain": "hill", "hexes": ["0101", name]}]
    assert fails(map_dict, problem).path == "areas[0].hexes[1]"


def test_unquoted_hex_name_read_as_a_number():
    source = ("id: x\ntitle: X\ngrid: {orientation: flat, size: 10, naming: {scheme: ccrr}, columns: [1, 4], "
              "rows: [1, 3]}\nterrain: {clear: {}, hill: {}}\nareas: [{terrain: hill, hexes: ['0102', 0101]}]\n")
    err = fails(source, r"hex name 65 is a number: quote hex names, e.g. '0101' \(unquoted, YAML reads 0101 as")
    assert err.path == "areas[0].hexes[1]"


def test_line_needs_exactly_one_of_points_hexes_hexsides(map_dict):
    map_dict["lines"] = [{"feature": "road", "points": [[0, 0], [20, 20]], "hexes": ["0101", "0102"]}]
    assert fails(map_dict, "give exactly one of points, hexes, hexsides; got points and hexes").path == "lines[0]"


def test_hex_chain_refuses_crs(map_dict):
    map_dict["lines"] = [{"feature": "road", "hexes": ["0101", "0102"], "crs": "lonlat"}]
    assert fails(map_dict, "remove crs: used only with points, not with hexes").path == "lines[0]"


def test_hex_chain_with_a_gap(map_dict):
    map_dict["lines"] = [{"feature": "road", "hexes": ["0101", "0201", "0203"]}]
    err = fails(map_dict, "hexes 0201 and 0203 are not adjacent; consecutive hexes of a chain must be neighbours: "
                          "add the hexes between them")
    assert err.path == "lines[0].hexes[2]"


def test_hexside_list_with_non_adjacent_pair(map_dict):
    map_dict["lines"] = [{"feature": "wall", "hexsides": [["0101", "0102"], ["0101", "0301"]]}]
    err = fails(map_dict, "hexes 0101 and 0301 are not adjacent; expected two neighbouring hexes")
    assert err.path == "lines[0].hexsides[1]"


@pytest.mark.parametrize("pair, path, problem", [
    (["0101", "0102", "0103"], "lines[0].hexsides[0]", r"a hexside is given as the two hexes it lies between, "
                                                       r"e.g. \['0401', '0501'\]; got \['0101', '0102', '0103'\]"),
    (["0101", "0x"], "lines[0].hexsides[0][1]", "'0x' is not a hex name"),
])
def test_hexside_pair_malformed_or_misnamed(map_dict, pair, path, problem):
    map_dict["lines"] = [{"feature": "wall", "hexsides": [pair]}]
    assert fails(map_dict, problem).path == path


@pytest.mark.parametrize("line, path, problem", [
    ({"feature": "road", "hexsides": [["0101", "0102"]]}, "lines[0].hexsides",
     r"feature 'road' is a path feature \(kind: path\); give it as hexes: \[hex, hex, ...\] or as points, "
     "not as hexsides"),
    ({"feature": "wall", "hexes": ["0101", "0102"]}, "lines[0].hexes",
     r"feature 'wall' is a hexside feature \(kind: hexside\); give it as hexsides: \[\[hex, hex\], ...\] or as "
     "points, not as hexes"),
])
def test_line_form_must_suit_the_feature_kind(map_dict, line, path, problem):
    map_dict["lines"] = [line]
    assert fails(map_dict, problem).path == path
