"""The compiled map: per-hex and per-hexside attributes on a grid.

This is what every other part of the toolkit reads.  It is produced by
:mod:`toolkit.mapdata.compiler` from a map file and cached on disk as JSON
(:meth:`CompiledMap.to_json` / :meth:`CompiledMap.from_json`).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Any

from ..hexgrid import CCRR, Diagonal, Grid, Hex, HexNameError, Hexside, Layout, VassalNumbering, hexside


@dataclass(frozen=True)
class TerrainType:
    """One entry of the map's terrain vocabulary (drawing style only; no rules)."""

    name: str
    color: str = "#e8e4d0"
    label: str = ""
    base: bool = True


@dataclass(frozen=True)
class HexsideFeatureType:
    """One hexside or line feature of the vocabulary (road, river, wall, ...)."""

    name: str
    color: str = "#404040"
    width: float = 2.0
    kind: str = "hexside"  # "path": a chain of hexes (roads, rails); "hexside": drawn on the edge (walls, canals)
    dash: str = ""


@dataclass
class HexInfo:
    """Attributes of one hex after compilation."""

    terrain: tuple[str, ...] = ()
    elevation: int = 0
    place: str | None = None
    region: str | None = None
    features: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class LosDefaults:
    """The map's default line-of-sight obstacles (data, for the ``los`` command)."""

    convention: str = "touch"
    rule: str = ""
    blocking_terrain: tuple[str, ...] = ()
    blocking_hexside_features: tuple[str, ...] = ()
    elevation: str = "none"  # "none" | "higher-than-both" | "higher-than-either"


@dataclass(frozen=True)
class BoardImage:
    """The VASSAL board a map was imported from: image (relative to the map file), pixel size, and the scale
    from map units to board pixels (``px = scale[0] * x``, ``py = scale[1] * y``)."""

    image: str
    size: tuple[int, int]
    scale: tuple[float, float] = (1.0, 1.0)
    module: str = ""
    map: str = ""
    board: str = ""

    def pixel(self, x: float, y: float) -> tuple[float, float]:
        """The board pixel of a map point."""
        return self.scale[0] * x, self.scale[1] * y


def naming_json(naming) -> dict[str, Any]:
    """A naming scheme as the map file's ``grid.naming`` mapping."""
    if isinstance(naming, Diagonal):
        return {"scheme": "diagonal", "shifted": naming.shifted}
    if isinstance(naming, CCRR):
        return {"scheme": "ccrr", "shifted": naming.shifted, "digits": naming.digits}
    return {"scheme": "vassal", **{k: v for k, v in asdict(naming).items() if k != "sideways"}}


def naming_from_json(orientation: str, nd: dict[str, Any]):
    """The naming scheme of a ``grid.naming`` mapping (a checked map file's, or :func:`naming_json`'s)."""
    if nd["scheme"] == "diagonal":
        return Diagonal(shifted=nd["shifted"])
    if nd["scheme"] == "vassal":
        return VassalNumbering(sideways=orientation == "pointy", **{k: v for k, v in nd.items() if k != "scheme"})
    return CCRR(orientation=orientation, shifted=nd["shifted"], digits=nd.get("digits", 2))


@dataclass
class CompiledMap:
    """A map ready for the rules: grid, vocabulary, hexes, hexsides, places."""

    id: str
    title: str
    grid: Grid
    terrain_types: dict[str, TerrainType]
    feature_types: dict[str, HexsideFeatureType]
    hexes: dict[Hex, HexInfo]
    hexsides: dict[Hexside, dict[str, Any]]
    los: LosDefaults = field(default_factory=LosDefaults)
    source_hash: str = ""
    board: BoardImage | None = None

    @property
    def places(self) -> dict[str, Hex]:
        """Place name -> hex, for every named hex."""
        return {info.place: h for h, info in self.hexes.items() if info.place}

    def name(self, h: Hex) -> str:
        """The printed name of a hex (those of the map's hexes worked out once: answers name thousands)."""
        found = self._names.get(h)
        return found if found is not None else self.grid.name(h)

    @cached_property
    def _names(self) -> dict[Hex, str]:
        names: dict[Hex, str] = {}
        for h in self.hexes:
            try:
                names[h] = self.grid.name(h)
            except HexNameError:
                continue   # a hex the naming scheme cannot name: grid.name says why, when asked
        return names

    def resolve(self, text: str) -> Hex:
        """The hex of a hex name or a place name (case-insensitive for places).

        Raises :class:`~toolkit.hexgrid.HexNameError` naming the map if neither matches.
        """
        try:
            return self.grid.parse(text)
        except HexNameError as err:
            wanted = text.strip().casefold()
            for place, h in self.places.items():
                if place.casefold() == wanted:
                    return h
            raise HexNameError(f"map {self.id!r}: {text!r} is neither a hex nor a place ({err})") from None

    def hexside(self, a: Hex, b: Hex) -> dict[str, Any]:
        """Attributes of the hexside between two adjacent hexes (empty if none)."""
        return self.hexsides.get(hexside(a, b), {})

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`from_json` reverses it exactly."""
        g = self.grid
        return {
            "id": self.id,
            "title": self.title,
            "source_hash": self.source_hash,
            "grid": {
                "orientation": g.layout.orientation,
                "size": g.layout.size,
                "origin": list(g.layout.origin),
                "naming": naming_json(g.naming),
                "columns": list(g.columns),
                "rows": list(g.rows),
            },
            "terrain_types": [vars(t) for t in self.terrain_types.values()],
            "feature_types": [vars(t) for t in self.feature_types.values()],
            "los": {**vars(self.los), "blocking_terrain": list(self.los.blocking_terrain),
                    "blocking_hexside_features": list(self.los.blocking_hexside_features)},
            "hexes": [[h.q, h.r, list(i.terrain), i.elevation, i.place, i.region, i.features]
                      for h, i in self.hexes.items()],
            "hexsides": [[s.a.q, s.a.r, s.b.q, s.b.r, attrs] for s, attrs in self.hexsides.items()],
            "board": None if self.board is None else asdict(self.board),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "CompiledMap":
        """Rebuild a compiled map from :meth:`to_json` output."""
        gd = data["grid"]
        nd = gd["naming"]
        naming = naming_from_json(gd["orientation"], nd)
        grid = Grid(Layout(gd["orientation"], gd["size"], tuple(gd["origin"])), naming,
                    tuple(gd["columns"]), tuple(gd["rows"]))
        los = data["los"]
        return cls(
            id=data["id"],
            title=data["title"],
            source_hash=data.get("source_hash", ""),
            grid=grid,
            terrain_types={t["name"]: TerrainType(**t) for t in data["terrain_types"]},
            feature_types={t["name"]: HexsideFeatureType(**t) for t in data["feature_types"]},
            los=LosDefaults(**{**los, "blocking_terrain": tuple(los["blocking_terrain"]),
                               "blocking_hexside_features": tuple(los["blocking_hexside_features"])}),
            hexes={Hex(q, r): HexInfo(tuple(t), e, p, reg, dict(f)) for q, r, t, e, p, reg, f in data["hexes"]},
            hexsides={Hexside(Hex(aq, ar), Hex(bq, br)): dict(a) for aq, ar, bq, br, a in data["hexsides"]},
            board=None if not data.get("board") else BoardImage(**{**data["board"], "size": tuple(data["board"]["size"]),
                                                                   "scale": tuple(data["board"]["scale"])}),
        )
