"""The map file schema: defaults, value normalization, JSON Schema."""
from __future__ import annotations

import pytest
import yaml

from toolkit.mapdata import MapSpec, map_json_schema
from toolkit.mapdata.compiler import build_grid


def test_example_file_validates(example_path):
    spec = MapSpec.model_validate(yaml.safe_load(example_path.read_text()))
    assert spec.default_terrain() == "clear"
    assert spec.overrides.hexsides[0].set_ == {"wall": "true"}  # YAML true -> "true"
    assert spec.overrides.hexsides[1].set_ == {"wall": None}  # null removes


def test_defaults(map_dict):
    spec = MapSpec.model_validate(map_dict)
    assert (spec.coverage, spec.projection, spec.areas, spec.los.convention) == (0.5, None, [], "touch")
    assert spec.features["wall"].width == 2.0


def test_default_origin_puts_map_at_zero(map_dict):
    grid = build_grid(MapSpec.model_validate(map_dict).grid)
    assert grid.bounds()[:2] == pytest.approx((0.0, 0.0))


def test_override_false_removes_and_numbers_become_strings(map_dict):
    map_dict["overrides"] = {"hexes": {"0101": {"features": {"road": 3, "wall": False}}}}
    assert MapSpec.model_validate(map_dict).overrides.hexes["0101"].features == {"road": "3", "wall": None}


def test_json_schema_forbids_extra_keys():
    schema = map_json_schema()
    assert schema["additionalProperties"] is False
    assert {"id", "title", "grid", "terrain"} <= set(schema["required"])
    assert "set" in schema["$defs"]["HexsideOverride"]["properties"]
    assert all(d.get("additionalProperties") is False for d in schema["$defs"].values())


def test_diagonal_naming_needs_flat(map_dict):
    map_dict["grid"].update(orientation="pointy", naming={"scheme": "diagonal"})
    with pytest.raises(ValueError, match="diagonal naming scheme needs orientation: flat"):
        MapSpec.model_validate(map_dict)
