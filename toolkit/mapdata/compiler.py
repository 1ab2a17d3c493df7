"""Compile a map file into a :class:`~toolkit.mapdata.compiled.CompiledMap`.

The rasterization rules (area coverage, path chains, hexside crossings,
points, overrides) are documented in ``docs/map-format.md``.
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import shapely
from pydantic import ValidationError

from ..hexgrid import Grid, Hex, HexNameError, Hexside, Layout, cube_round_array, hexside
from .compiled import BoardImage, CompiledMap, HexInfo, HexsideFeatureType, LosDefaults, TerrainType, naming_from_json
from ..datafile import parse_yaml, read_regular
from .errors import MapError, from_validation_error
from .key import source_hash
from .schema import AreaSpec, GridSpec, LineSpec, MapSpec, Projection, check_references

#: Tolerance on the coverage threshold (a half-covered hex counts as covered at 0.5).
COVERAGE_EPS = 1e-9
#: Kilometres per degree of latitude (spherical Earth, mean radius 6371.0088 km).
KM_PER_DEGREE = math.pi / 180.0 * 6371.0088
#: Bisection depth when two consecutive samples of a path are not adjacent.
_MAX_BISECT = 48


def compile_map(path: str | Path) -> CompiledMap:
    """Read and compile a map file; raises :class:`MapError` naming the file on any problem."""
    return compile_source(read_regular(path, str(path), MapError), str(path))


def compile_source(source: str | bytes | dict[str, Any], source_name: str = "<string>") -> CompiledMap:
    """Compile YAML text (str or bytes) or an already-parsed dict; ``source_name`` appears in errors."""
    if isinstance(source, dict):
        data, digest = source, source_hash(json.dumps(source, sort_keys=True, default=str).encode())
    else:
        raw = source.encode() if isinstance(source, str) else source
        data, digest = parse_yaml(raw, source_name, MapError), source_hash(raw)
    try:
        spec = MapSpec.model_validate(data)
    except ValidationError as err:
        raise from_validation_error(err, source_name) from None
    check_references(spec, source_name)
    return _Build(spec, source_name).run(digest)


def build_grid(spec: GridSpec) -> Grid:
    """The grid of a map file; without ``origin`` the hexes' bounding box starts at (0, 0)."""
    naming = naming_from_json(spec.orientation, spec.naming.model_dump())
    grid = Grid(Layout(spec.orientation, spec.size, spec.origin or (0.0, 0.0)), naming, spec.columns, spec.rows)
    if spec.origin is not None:
        return grid
    minx, miny, _, _ = grid.bounds()
    return Grid(Layout(spec.orientation, spec.size, (-minx, -miny)), naming, spec.columns, spec.rows)


def project(projection: Projection | None, points: Sequence[Sequence[float]], crs: str) -> np.ndarray:
    """Map units of ``points`` given in ``crs`` (``map`` or ``lonlat``), as an (n, 2) array."""
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    if crs == "map":
        return pts
    p = projection
    k = KM_PER_DEGREE * p.units_per_km
    return np.column_stack((p.x0 + (pts[:, 0] - p.lon0) * math.cos(math.radians(p.lat0)) * k,
                            p.y0 - (pts[:, 1] - p.lat0) * k))


def hex_polygons(grid: Grid) -> np.ndarray:
    """The shapely polygons of ``grid.hex_list``, in the same order."""
    lay = grid.layout
    centres = np.array([lay.centre(h) for h in grid.hex_list])
    offsets = np.array(lay.corners(Hex(0, 0))) - np.array(lay.centre(Hex(0, 0)))
    return shapely.polygons(centres[:, None, :] + offsets[None, :, :])


def path_chain(layout: Layout, points: Sequence[Sequence[float]]) -> list[Hex]:
    """The hexes a polyline passes through, in order, consecutive ones adjacent.

    Each segment is sampled at steps of at most ``size / 8``; where two
    consecutive samples fall in non-adjacent hexes the gap is bisected, and a
    gap that never resolves (the line runs exactly through a corner) gets the
    shared neighbour whose centre is nearest the segment (ties: smallest hex).
    """
    pts = np.asarray(points, dtype=float)
    step = layout.size / 8.0
    samples = [pts[:1]]
    for a, b in zip(pts[:-1], pts[1:]):
        n = max(1, math.ceil(float(np.hypot(*(b - a))) / step))
        samples.append(a + (b - a) * (np.arange(1, n + 1) / n)[:, None])
    xy = np.vstack(samples)
    qr = hexes_at(layout, xy)
    keep = np.flatnonzero(np.r_[True, np.any(qr[1:] != qr[:-1], axis=1)])
    hexes = [Hex(q, r) for q, r in qr[keep].tolist()]
    d = np.diff(qr[keep], axis=0)
    far = np.max(np.abs(np.column_stack((d, d.sum(axis=1)))), axis=1) > 1  # hexes[i], hexes[i + 1] not adjacent
    chain = hexes[:1]
    for i, h in enumerate(hexes[1:]):
        if far[i]:
            p, q = xy[keep[i + 1] - 1], xy[keep[i + 1]]
            chain += _bridge(layout, (p, q), p, q, chain[-1], h, 0)
        chain.append(h)
    return chain


def hexes_at(layout: Layout, points: np.ndarray) -> np.ndarray:
    """Vectorized :meth:`Layout.hex_at`: the axial ``(q, r)`` of each point of an (n, 2) array."""
    q, r = cube_round_array(*layout.point_to_axial(points[:, 0], points[:, 1]))
    return np.column_stack((q, r))


def _bridge(layout: Layout, seg: tuple, p: np.ndarray, q: np.ndarray, a: Hex, b: Hex, depth: int) -> list[Hex]:
    """Hexes strictly between ``a`` (containing p) and ``b`` (containing q) on segment p-q."""
    if a.distance(b) <= 1:
        return []
    if depth >= _MAX_BISECT:
        common = sorted(set(a.neighbors()) & set(b.neighbors()))
        return [min(common, key=lambda c: (_segment_distance(layout.centre(c), *seg), c))]
    m = (p + q) / 2.0
    h = layout.hex_at(*m)
    if h == a:
        return _bridge(layout, seg, m, q, a, b, depth + 1)
    if h == b:
        return _bridge(layout, seg, p, m, a, b, depth + 1)
    return _bridge(layout, seg, p, m, a, h, depth + 1) + [h] + _bridge(layout, seg, m, q, h, b, depth + 1)


def _segment_distance(c: tuple[float, float], p: np.ndarray, q: np.ndarray) -> float:
    d = q - p
    t = float(np.clip(np.dot(np.asarray(c) - p, d) / max(float(np.dot(d, d)), 1e-300), 0.0, 1.0))
    return float(np.hypot(*(np.asarray(c) - (p + t * d))))


class _Build:
    """One compilation: the mutable per-hex and per-hexside state, filled step by step."""

    def __init__(self, spec: MapSpec, file: str):
        self.spec, self.file = spec, file
        self.grid = build_grid(spec.grid)
        self.bounds = self.grid.bounds()
        self.polys = hex_polygons(self.grid)
        self.tree = shapely.STRtree(self.polys)
        self.hex_area = 1.5 * math.sqrt(3.0) * spec.grid.size ** 2
        default = spec.default_terrain()
        elevation = spec.terrain[default].elevation or 0
        self.hexes = {h: HexInfo((default,), elevation) for h in self.grid.hex_list}
        self.sides: dict[Hexside, dict[str, Any]] = {}
        self.places: dict[str, tuple[Hex, str]] = {}  # casefolded name -> (hex, key path)

    def run(self, digest: str) -> CompiledMap:
        """Apply areas, lines, points and overrides in that order; return the compiled map."""
        self.areas()
        self.lines()
        self.points()
        self.overrides()
        s = self.spec
        return CompiledMap(
            id=s.id, title=s.title, grid=self.grid,
            terrain_types={n: TerrainType(n, t.color, t.label, t.base) for n, t in s.terrain.items()},
            feature_types={n: HexsideFeatureType(n, f.color, f.width, f.kind, f.dash) for n, f in s.features.items()},
            hexes=self.hexes, hexsides=self.sides,
            los=LosDefaults(s.los.convention, s.los.rule, tuple(s.los.blocking_terrain),
                            tuple(s.los.blocking_hexside_features), s.los.elevation),
            source_hash=digest,
            board=None if s.board is None else BoardImage(**s.board.model_dump()),
        )

    def to_map(self, points: Sequence, crs: str, where: str | None = None) -> np.ndarray:
        """Map units of points given in ``crs``; with ``where``, raises :class:`MapError` there for points far
        off the grid.

        Areas and lines may reach beyond the map's hexes (roads run off the
        edge), but not beyond the grid's extent grown by ten times its width
        and height: work on a line is proportional to its length in hexes.
        """
        pts = project(self.spec.projection, points, crs)
        if where is None:
            return pts
        minx, miny, maxx, maxy = self.bounds
        w, h = 10 * (maxx - minx), 10 * (maxy - miny)
        lo, hi = np.array([minx - w, miny - h]), np.array([maxx + w, maxy + h])
        if not (np.isfinite(pts).all() and (pts >= lo).all() and (pts <= hi).all()):
            bad = next(tuple(p) for p in pts.tolist() if not (np.isfinite(p).all() and (lo <= p).all()
                                                              and (p <= hi).all()))
            raise MapError(self.file, where, f"point ({bad[0]:.6g}, {bad[1]:.6g}) in map units lies far outside "
                                             f"the grid (x {minx:.6g}..{maxx:.6g}, y {miny:.6g}..{maxy:.6g}); "
                                             "check the coordinates and their crs")
        return pts

    def covered(self, geom: shapely.Geometry, coverage: float) -> list[Hex]:
        """The hexes of which ``geom`` covers at least ``coverage`` of the area."""
        idx = self.tree.query(geom, predicate="intersects")
        frac = shapely.area(shapely.intersection(self.polys[idx], geom)) / self.hex_area
        return [self.grid.hex_list[i] for i in np.sort(idx[frac >= coverage - COVERAGE_EPS])]

    def areas(self) -> None:
        """Terrain, elevation and region from areas, in file order."""
        vocab = self.spec.terrain
        for i, area in enumerate(self.spec.areas):
            ttype = vocab[area.terrain] if area.terrain else None
            elevation = area.elevation
            if elevation is None and ttype is not None and ttype.base:
                elevation = ttype.elevation or 0
            for h in self.area_hexes(area, f"areas[{i}]"):
                info = self.hexes[h]
                if ttype is not None and ttype.base:
                    info.terrain = (area.terrain, *(t for t in info.terrain if not vocab[t].base))
                elif ttype is not None and area.terrain not in info.terrain:
                    info.terrain = (*info.terrain, area.terrain)
                if elevation is not None:
                    info.elevation = elevation
                if area.region is not None:
                    info.region = area.region

    def area_hexes(self, area: AreaSpec, path: str) -> list[Hex]:
        """The hexes an area applies to: the hexes it names, or those its polygon covers enough of."""
        if area.hexes is not None:
            return [self.parse_hex(name, f"{path}.hexes[{j}]") for j, name in enumerate(area.hexes)]
        geom = shapely.Polygon(self.to_map(area.polygon, area.crs, f"{path}.polygon"),
                               [self.to_map(hole, area.crs, f"{path}.holes") for hole in area.holes])
        shapely.prepare(geom)
        return self.covered(geom, area.coverage or self.spec.coverage)

    def lines(self) -> None:
        """Path features (hex chains and their hexsides) and hexside features, in file order."""
        for i, line in enumerate(self.spec.lines):
            path = f"lines[{i}]"
            if self.spec.features[line.feature].kind == "path":
                chain = self.path_hexes(line, path)
                for h in chain:
                    if h in self.grid:
                        self.hexes[h].features.setdefault(line.feature, line.value)
                sides = [hexside(a, b) for a, b in zip(chain, chain[1:]) if a in self.grid and b in self.grid]
            elif line.hexsides is not None:
                sides = [self.named_hexside(pair, f"{path}.hexsides[{j}]") for j, pair in enumerate(line.hexsides)]
            else:
                sides = self.crossed_hexsides(self.to_map(line.points, line.crs, f"{path}.points"))
            for side in sides:
                self.sides.setdefault(side, {}).setdefault(line.feature, line.value)

    def path_hexes(self, line: LineSpec, path: str) -> list[Hex]:
        """The chain of a path line: its named hexes (each adjacent to the one before), or its polyline's chain."""
        if line.hexes is None:
            return path_chain(self.grid.layout, self.to_map(line.points, line.crs, f"{path}.points"))
        chain = [self.parse_hex(name, f"{path}.hexes[{j}]") for j, name in enumerate(line.hexes)]
        for j in range(1, len(chain)):
            self.need_adjacent(chain[j - 1], chain[j], f"{path}.hexes[{j}]",
                               "consecutive hexes of a chain must be neighbours: add the hexes between them "
                               "(or give the line as points)")
        return chain

    def crossed_hexsides(self, points: np.ndarray) -> list[Hexside]:
        """Hexsides whose centre-to-centre segment the polyline meets other than at a hex centre.

        Such a segment is met inside one of its two hexes, so the candidates are the
        hexsides around the hexes of the polyline's path chain.
        """
        lay = self.grid.layout
        chain = [h for h in path_chain(lay, points) if h in self.grid]
        sides = sorted({hexside(h, n) for h in chain for n in self.grid.neighbors(h)})
        segs = shapely.linestrings(np.array([[lay.centre(k.a), lay.centre(k.b)] for k in sides]).reshape(-1, 2, 2))
        matrix = shapely.relate(segs, shapely.LineString(points))
        return [k for k, m in zip(sides, matrix) if m[0] != "F" or m[1] != "F"]

    def points(self) -> None:
        """Places from points; a point must lie in a hex of the map."""
        for i, point in enumerate(self.spec.points):
            x, y = self.to_map([point.at], point.crs)[0]
            h = self.grid.layout.hex_at(x, y)
            if h not in self.grid:
                minx, miny, maxx, maxy = self.grid.bounds()
                raise MapError(self.file, f"points[{i}].at",
                               f"point ({x:g}, {y:g}) in map units is outside the map; expected a point in a "
                               f"hex of the map (map bounds x {minx:g}..{maxx:g}, y {miny:g}..{maxy:g})")
            self.set_place(h, point.place, f"points[{i}].place")

    def set_place(self, h: Hex, place: str, path: str) -> None:
        """Name a hex, replacing its former name; a name used by another hex is an error."""
        key = place.casefold()
        if key in self.places and self.places[key][0] != h:
            other, where = self.places[key]
            raise MapError(self.file, path, f"duplicate place name {place!r}: already hex "
                                            f"{self.grid.name(other)} (from {where}); expected a unique name")
        old = self.hexes[h].place
        if old is not None:
            self.places.pop(old.casefold(), None)
        self.places[key] = (h, path)
        self.hexes[h].place = place

    def parse_hex(self, name: str, path: str) -> Hex:
        """The hex of a name, checked against the extent; a bad name is a :class:`MapError` at ``path``."""
        try:
            return self.grid.parse(name)
        except HexNameError as err:
            raise MapError(self.file, path, str(err)) from None

    def named_hexside(self, names: Sequence[str], path: str) -> Hexside:
        """The hexside between two named hexes, which must be neighbours; errors name ``path``."""
        a, b = (self.parse_hex(name, f"{path}[{j}]") for j, name in enumerate(names))
        self.need_adjacent(a, b, path, "expected two neighbouring hexes")
        return hexside(a, b)

    def need_adjacent(self, a: Hex, b: Hex, path: str, fix: str) -> None:
        """Raise :class:`MapError` at ``path``, ending with ``fix``, unless hexes ``a`` and ``b`` are neighbours."""
        if a.distance(b) != 1:
            names = f"{self.grid.name(a)} and {self.grid.name(b)}"
            raise MapError(self.file, path, f"hexes {names} are not adjacent; {fix}")

    def overrides(self) -> None:
        """Hex overrides (replace terrain/elevation/place/region, merge features), then hexsides."""
        for name, ov in self.spec.overrides.hexes.items():
            path = f"overrides.hexes.{name}"
            h = self.parse_hex(name, path)
            info = self.hexes[h]
            if ov.terrain is not None:
                info.terrain = tuple(dict.fromkeys(ov.terrain))
            if ov.elevation is not None:
                info.elevation = ov.elevation
            if ov.region is not None:
                info.region = ov.region
            if ov.place is not None:
                self.set_place(h, ov.place, f"{path}.place")
            _merge(info.features, ov.features)
        for i, side in enumerate(self.spec.overrides.hexsides):
            key = self.named_hexside(side.between, f"overrides.hexsides[{i}].between")
            attrs = _merge(self.sides.get(key, {}), side.set_)
            if attrs:
                self.sides[key] = attrs
            else:
                self.sides.pop(key, None)


def _merge(target: dict[str, str], updates: dict[str, str | None]) -> dict[str, str]:
    """Update ``target`` in place: ``None`` values remove keys.  Returns ``target``."""
    for key, value in updates.items():
        if value is None:
            target.pop(key, None)
        else:
            target[key] = value
    return target
