"""The map file format (YAML), validated with pydantic v2.

The format is documented in ``docs/map-format.md``.  :class:`MapSpec` checks
structure and types; :func:`check_references` checks that names used in the
file are defined in its vocabularies.  Geometry is checked by the compiler.

>>> spec = MapSpec.model_validate({"id": "m", "title": "M",
...     "grid": {"orientation": "flat", "size": 10, "naming": {"scheme": "ccrr"},
...              "columns": [1, 3], "rows": [1, 2]},
...     "terrain": {"clear": {}}})
>>> spec.coverage, spec.default_terrain()
(0.5, 'clear')
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

import shapely
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator

from ..datafile import brief
from ..hexgrid import VassalNumbering
from .errors import MapError, expected

MAX_HEXES = 1_000_000  # the largest grid a map may declare (columns x rows)
Coordinate = Annotated[float, Field(allow_inf_nan=False, ge=-1e9, le=1e9)]  # finite; the compiler checks the extent
Point2 = tuple[Coordinate, Coordinate]
Crs = Literal["map", "lonlat"]
Fraction = Annotated[float, Field(gt=0, le=1)]
Parity = Literal["odd", "even"]


def _feature_value(v: Any) -> Any:
    """YAML ``true`` and numbers become strings: every feature value is a string."""
    if v is True:
        return "true"
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return str(v)
    return v


def _removable_value(v: Any) -> Any:
    """In overrides, ``false`` (like ``null``) removes the feature."""
    return None if v is False else _feature_value(v)


def _hex_name(v: Any) -> Any:
    """Refuse a number for a hex name: unquoted, YAML reads ``0101`` as the octal number 65."""
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        raise ValueError(f"hex name {v!r} is a number: quote hex names, e.g. '0101' "
                         "(unquoted, YAML reads 0101 as the octal number 65)")
    return v


def _hex_pair(v: Any) -> Any:
    """Refuse anything but a list of two items where a hexside is expected."""
    if not isinstance(v, (list, tuple)) or len(v) != 2:
        raise ValueError(f"a hexside is given as the two hexes it lies between, e.g. ['0401', '0501']; got {brief(v)}")
    return v


FeatureValue = Annotated[str, BeforeValidator(_feature_value)]
OverrideValue = Annotated[Optional[str], BeforeValidator(_removable_value)]
HexName = Annotated[str, BeforeValidator(_hex_name), Field(min_length=1, max_length=200)]
HexPair = Annotated[tuple[HexName, HexName], BeforeValidator(_hex_pair)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)


class CcrrNaming(_Model):
    """Four-digit column-then-row names (``0507``)."""

    scheme: Literal["ccrr"]
    shifted: Parity = "odd"
    digits: int = Field(2, ge=1, le=4)


class DiagonalNaming(_Model):
    """Letter columns and diagonal numbers (Siege of Jerusalem); flat-top only."""

    scheme: Literal["diagonal"]
    shifted: Parity = "odd"


class VassalNaming(_Model):
    """The names a VASSAL ``HexGridNumbering`` gives (``toolkit import-vmod``); offsets are the engine's raw
    column and row, ``orientation: pointy`` is a ``sideways`` grid."""

    scheme: Literal["vassal"]
    first: Literal["H", "V"] = "H"
    sep: str = Field("", max_length=16)
    h_type: Literal["N", "A"] = "N"
    v_type: Literal["N", "A"] = "N"
    h_leading: int = Field(1, ge=0, le=8)
    v_leading: int = Field(1, ge=0, le=8)
    h_off: int = Field(1, ge=-10**6, le=10**6)
    v_off: int = Field(1, ge=-10**6, le=10**6)
    h_descend: bool = False
    v_descend: bool = False
    stagger: bool = True
    max_columns: int = Field(0, ge=0, le=10**6)
    max_rows: int = Field(0, ge=0, le=10**6)
    location_format: str = Field("$gridLocation$", max_length=200)

    @field_validator("location_format")
    @classmethod
    def _readable(cls, v: str) -> str:
        problem = VassalNumbering(location_format=v).check_format()
        if problem:
            raise ValueError(f"location_format {v!r} cannot be read back: {problem}")
        return v


class BoardSpec(_Model):
    """The VASSAL board a map was imported from: its image and how map units lie on its pixels."""

    image: str = Field(min_length=1, max_length=300)
    size: tuple[Annotated[int, Field(gt=0, le=10**6)], Annotated[int, Field(gt=0, le=10**6)]]
    scale: tuple[Annotated[float, Field(gt=0, le=1e6)], Annotated[float, Field(gt=0, le=1e6)]] = (1.0, 1.0)
    module: str = ""
    map: str = ""
    board: str = ""

    @field_validator("image")
    @classmethod
    def _inside(cls, v: str) -> str:
        if v.startswith(("/", "\\")) or "\\" in v or ".." in v.split("/") or ":" in v:
            raise ValueError(f"{v!r}: give a path relative to the map file, inside its folder")
        return v


class GridSpec(_Model):
    """Orientation, hex size, origin, naming scheme and offset extent."""

    orientation: Literal["flat", "pointy"]
    size: float = Field(gt=0, le=1e6, allow_inf_nan=False)
    origin: Optional[Point2] = None
    naming: Annotated[Union[CcrrNaming, DiagonalNaming, VassalNaming], Field(discriminator="scheme")]
    columns: tuple[int, int]
    rows: tuple[int, int]

    @field_validator("columns", "rows")
    @classmethod
    def _range(cls, v: tuple[int, int]) -> tuple[int, int]:
        if v[0] > v[1]:
            raise ValueError(f"expected [first, last] with first <= last, got {list(v)}")
        return v

    @model_validator(mode="after")
    def _diagonal_is_flat(self) -> "GridSpec":
        if self.naming.scheme == "diagonal" and self.orientation != "flat":
            raise ValueError("the diagonal naming scheme needs orientation: flat")
        hexes = (self.columns[1] - self.columns[0] + 1) * (self.rows[1] - self.rows[0] + 1)
        if hexes > MAX_HEXES:
            raise ValueError(f"the grid has {hexes:,} hexes; a map may have at most {MAX_HEXES:,} "
                             "(narrow `columns` and `rows`)")
        return self


class Projection(_Model):
    """Equirectangular projection of lon/lat degrees onto map units."""

    kind: Literal["equirectangular"] = "equirectangular"
    lon0: float
    lat0: float = Field(ge=-89, le=89)
    x0: float = 0.0
    y0: float = 0.0
    units_per_km: float = Field(gt=0)


class TerrainSpec(_Model):
    """One terrain type of the vocabulary."""

    color: str = "#e8e4d0"
    label: str = ""
    base: bool = True
    elevation: Optional[int] = None


class FeatureSpec(_Model):
    """One line feature of the vocabulary: ``path`` (chain of hexes) or ``hexside``."""

    kind: Literal["path", "hexside"]
    color: str = "#404040"
    width: float = Field(2.0, gt=0)
    dash: str = ""


class LosSpec(_Model):
    """The map's default line-of-sight obstacles."""

    convention: str = "touch"
    rule: str = ""
    blocking_terrain: list[str] = []
    blocking_hexside_features: list[str] = []
    elevation: Literal["none", "higher-than-both", "higher-than-either"] = "none"


def _ring(points: list[tuple[float, float]], what: str) -> list[tuple[float, float]]:
    if len(points) < 3:
        raise ValueError(f"invalid {what}: expected at least 3 points, got {len(points)}")
    if not shapely.Polygon(points).is_valid:
        raise ValueError(f"invalid {what}: {shapely.is_valid_reason(shapely.Polygon(points))}")
    return points


def _one_form(item: BaseModel, forms: tuple[str, ...], geometric: tuple[str, ...]) -> None:
    """Raise unless ``item`` gives exactly one key of ``forms``; the ``geometric`` keys go only with the first."""
    given = [key for key in forms if getattr(item, key) is not None]
    if len(given) != 1:
        raise ValueError(f"give exactly one of {', '.join(forms)}" + (f"; got {' and '.join(given)}" if given else ""))
    misplaced = [key for key in geometric if key in item.model_fields_set]
    if given[0] != forms[0] and misplaced:
        raise ValueError(f"remove {', '.join(misplaced)}: used only with {forms[0]}, not with {given[0]}")


def _one_of(*forms: str) -> dict[str, Any]:
    """JSON Schema: exactly one of ``forms`` is required."""
    return {"oneOf": [{"required": [key]} for key in forms]}


class AreaSpec(_Model):
    """Terrain, region and/or elevation for the hexes a polygon covers, or for a list of hexes."""

    model_config = ConfigDict(json_schema_extra=_one_of("polygon", "hexes"))

    polygon: Optional[list[Point2]] = None
    hexes: Optional[list[HexName]] = Field(None, min_length=1)
    holes: list[list[Point2]] = []
    crs: Crs = "map"
    terrain: Optional[str] = None
    region: Optional[str] = None
    elevation: Optional[int] = None
    coverage: Optional[Fraction] = None

    @field_validator("polygon")
    @classmethod
    def _valid_polygon(cls, v: Optional[list[Point2]]) -> Optional[list[Point2]]:
        return v if v is None else _ring(v, "polygon")

    @field_validator("holes")
    @classmethod
    def _valid_holes(cls, v: list[list[Point2]]) -> list[list[Point2]]:
        return [_ring(h, "hole") for h in v]

    @model_validator(mode="after")
    def _something_to_set(self) -> "AreaSpec":
        if self.terrain is None and self.region is None and self.elevation is None:
            raise ValueError("an area must set at least one of terrain, region, elevation")
        return self

    @model_validator(mode="after")
    def _one_geometry(self) -> "AreaSpec":
        _one_form(self, ("polygon", "hexes"), ("holes", "crs", "coverage"))
        if self.holes and not shapely.Polygon(self.polygon, self.holes).is_valid:
            raise ValueError(f"invalid polygon with holes: "
                             f"{shapely.is_valid_reason(shapely.Polygon(self.polygon, self.holes))}")
        return self


class LineSpec(_Model):
    """A path or hexside feature: a polyline, a chain of hexes (path) or a list of hexsides (hexside)."""

    model_config = ConfigDict(json_schema_extra=_one_of("points", "hexes", "hexsides"))

    feature: str
    value: FeatureValue = "true"
    points: Optional[list[Point2]] = None
    hexes: Optional[list[HexName]] = Field(None, min_length=2)
    hexsides: Optional[list[HexPair]] = Field(None, min_length=1)
    crs: Crs = "map"

    @field_validator("points")
    @classmethod
    def _two_points(cls, v: Optional[list[Point2]]) -> Optional[list[Point2]]:
        if v is not None and len(v) < 2:
            raise ValueError(f"a line needs at least 2 points, got {len(v)}")
        return v

    @model_validator(mode="after")
    def _one_geometry(self) -> "LineSpec":
        _one_form(self, ("points", "hexes", "hexsides"), ("crs",))
        return self


class PointSpec(_Model):
    """A named place at a point."""

    place: str = Field(min_length=1)
    at: Point2
    crs: Crs = "map"


class HexOverride(_Model):
    """Direct settings for one hex, applied after all geometry."""

    terrain: Optional[list[str]] = Field(None, min_length=1)
    elevation: Optional[int] = None
    place: Optional[str] = None
    region: Optional[str] = None
    features: dict[str, OverrideValue] = {}


class HexsideOverride(_Model):
    """Direct settings for the hexside between two adjacent hexes."""

    between: HexPair
    set_: dict[str, OverrideValue] = Field(alias="set")


class Overrides(_Model):
    """Hex and hexside overrides."""

    hexes: dict[str, HexOverride] = {}
    hexsides: list[HexsideOverride] = []


class MapSpec(_Model):
    """A whole map file."""

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    title: str
    grid: GridSpec
    board: Optional[BoardSpec] = None
    projection: Optional[Projection] = None
    coverage: Fraction = 0.5
    terrain: dict[str, TerrainSpec] = Field(min_length=1)
    features: dict[str, FeatureSpec] = {}
    los: LosSpec = LosSpec()
    areas: list[AreaSpec] = []
    lines: list[LineSpec] = []
    points: list[PointSpec] = []
    overrides: Overrides = Overrides()

    @model_validator(mode="after")
    def _has_base_terrain(self) -> "MapSpec":
        if not any(t.base for t in self.terrain.values()):
            raise ValueError("the terrain vocabulary needs at least one base terrain (base: true)")
        return self

    def default_terrain(self) -> str:
        """The first base terrain: what hexes covered by no base area get."""
        return next(name for name, t in self.terrain.items() if t.base)


def check_references(spec: MapSpec, file: str) -> None:
    """Raise :class:`MapError` if a terrain or feature name is undefined, or lonlat lacks a projection."""
    terrains, features = list(spec.terrain), list(spec.features)

    def need(names: list[str], vocab: list[str], what: str, path: str) -> None:
        """Raise for the first name not in ``vocab``; ``path`` may use ``{i}`` and ``{name}``."""
        for i, name in enumerate(names):
            if name not in vocab:
                raise MapError(file, path.format(i=i, name=name), expected(what, name, vocab))

    need(spec.los.blocking_terrain, terrains, "terrain", "los.blocking_terrain[{i}]")
    need(spec.los.blocking_hexside_features, features, "feature", "los.blocking_hexside_features[{i}]")
    for kind, items in (("areas", spec.areas), ("lines", spec.lines), ("points", spec.points)):
        for i, item in enumerate(items):
            if item.crs == "lonlat" and spec.projection is None:
                raise MapError(file, f"{kind}[{i}].crs", "crs: lonlat needs a top-level 'projection' section")
    for i, area in enumerate(spec.areas):
        need([area.terrain] if area.terrain else [], terrains, "terrain", f"areas[{i}].terrain")
    for i, line in enumerate(spec.lines):
        need([line.feature], features, "feature", f"lines[{i}].feature")
        _check_line_form(line, spec.features[line.feature].kind, file, f"lines[{i}]")
    for key, ov in spec.overrides.hexes.items():
        need(ov.terrain or [], terrains, "terrain", f"overrides.hexes.{key}.terrain[{{i}}]")
        need(list(ov.features), features, "feature", f"overrides.hexes.{key}.features.{{name}}")
    for i, side in enumerate(spec.overrides.hexsides):
        need(list(side.set_), features, "feature", f"overrides.hexsides[{i}].set.{{name}}")


#: How each kind of line feature is given by name: hexes for a path, hexsides for a hexside feature.
_NAMED_FORM = {"path": "hexes: [hex, hex, ...]", "hexside": "hexsides: [[hex, hex], ...]"}


def _check_line_form(line: LineSpec, kind: str, file: str, path: str) -> None:
    """Raise :class:`MapError` if a line names hexes for a hexside feature or hexsides for a path feature."""
    wrong = "hexsides" if kind == "path" else "hexes"
    if getattr(line, wrong) is not None:
        raise MapError(file, f"{path}.{wrong}",
                       f"feature {line.feature!r} is a {kind} feature (kind: {kind}); "
                       f"give it as {_NAMED_FORM[kind]} or as points, not as {wrong}")


def map_json_schema() -> dict[str, Any]:
    """The JSON Schema of the map file format (for ``toolkit schema map``)."""
    return MapSpec.model_json_schema(by_alias=True)
