"""Writing generated map sources: YAML with provenance, and areas made of whole hexes."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

import shapely
import yaml

from toolkit.fileio import write_atomic
from toolkit.hexgrid import Grid, Hex
from toolkit.mapdata.compiler import build_grid
from toolkit.mapdata.schema import GridSpec


def grid_of(spec: dict[str, Any]) -> Grid:
    """The :class:`Grid` a map spec's ``grid`` section describes (default origin applied)."""
    return build_grid(GridSpec.model_validate(spec["grid"]))


def areas_from_hexes(grid: Grid, hexes: Iterable[Hex], **attrs: Any) -> list[dict[str, Any]]:
    """Area entries whose polygons are exactly the union of the given hexes (one per connected part)."""
    lay = grid.layout
    polys = [shapely.Polygon(lay.corners(h)) for h in hexes]
    if not polys:
        return []
    merged = shapely.union_all(polys, grid_size=1e-6)
    parts = getattr(merged, "geoms", [merged])
    out = []
    for p in parts:
        entry = {**attrs, "polygon": [[round(x, 4), round(y, 4)] for x, y in p.exterior.coords[:-1]]}
        if p.interiors:
            entry["holes"] = [[[round(x, 4), round(y, 4)] for x, y in ring.coords[:-1]] for ring in p.interiors]
        out.append(entry)
    return out


def write_map(path: Path, spec: dict[str, Any], header: Iterable[str]) -> Path:
    """Write a map spec as YAML, preceded by comment lines (provenance, licence notices)."""
    text = "".join(f"# {line}\n" for line in header)
    text += yaml.safe_dump(spec, sort_keys=False, allow_unicode=True, width=120)
    return write_atomic(path, text)
