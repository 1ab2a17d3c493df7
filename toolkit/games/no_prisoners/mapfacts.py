"""Static facts of a *No Prisoners* map, computed once per map and cached.

What the supply (15.x), rail (16.x), ZOC (10.3) and command (7.2) code needs to
know about the hexes themselves, whoever stands on them:

* the hex graph (in-map neighbours);
* prohibited terrain: all-sea / all-lake hexes and all-sea / all-lake hexsides
  (10.3 A, 15.6 A);
* sectors: each hex's region (``Western``, ``Eastern``, ``Damascus``) and the
  ``sector_boundary`` hexsides (2.2, 17.x, 21.3 A);
* rail: the rail hexes, the rail links between them (a hexside carrying the
  ``railway`` feature, with its line name), and which printed lines belong to
  which side's net at the start (16.1 A: the red British and Egyptian lines are
  Allied, every other line Central Powers);
* printed depots and their owners (15.2, 15.3, 15.9).

Readings of our own (the map README lists what the reconstructed map approximates):

* a hex whose region is missing (a synthetic test map) belongs to no sector and
  is open to both;
* the western map edge (16.2 D) is the map's westernmost column.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ...hexgrid import Hex
from ...mapdata import CompiledMap
from .tables import RailTable

PROHIBITED_TERRAIN = frozenset({"sea", "lake"})            # 10.3 A, 15.6 A
PROHIBITED_HEXSIDES = ("all_sea_hexside", "all_lake_hexside")  # 10.3 A, 15.6 A
WESTERN, EASTERN, DAMASCUS = "Western", "Eastern", "Damascus"
ALLIED, CP = "allied", "cp"          # depot owners on the map (README: ``depot`` = allied / cp)
CITY_TERRAIN = frozenset({"city", "town"})                 # 15.8 A


def _truthy(v) -> bool:
    return v not in (None, False, "false", "False", "no", "0", 0, "")


@dataclass(frozen=True)
class RailLink:
    """A rail connection between two adjacent rail hexes, and its printed line."""

    a: Hex
    b: Hex
    line: str


class MapFacts:
    """What supply, rail nets and command radius need to know about a *No Prisoners* map."""

    def __init__(self, cmap: CompiledMap, rail: RailTable):
        self.cmap = cmap
        self.allied_lines = rail.allied_lines
        self.built_lines = rail.built_lines
        hexes = cmap.hexes
        self.neighbors: dict[Hex, tuple[Hex, ...]] = {
            h: tuple(n for n in h.neighbors() if n in hexes) for h in hexes}
        self.region: dict[Hex, str | None] = {h: info.region for h, info in hexes.items()}
        self.prohibited: frozenset[Hex] = frozenset(
            h for h, info in hexes.items() if info.terrain and info.terrain[0] in PROHIBITED_TERRAIN)
        self.water_sides: set[frozenset[Hex]] = set()
        self.boundary_sides: set[frozenset[Hex]] = set()
        self.rail: dict[Hex, dict[Hex, str]] = {}
        for side, attrs in cmap.hexsides.items():
            pair = frozenset((side.a, side.b))
            if any(_truthy(attrs.get(k)) for k in PROHIBITED_HEXSIDES):
                self.water_sides.add(pair)
            if _truthy(attrs.get("sector_boundary")):
                self.boundary_sides.add(pair)
            line = attrs.get("railway")
            if _truthy(line) and side.a in hexes and side.b in hexes:
                self.rail.setdefault(side.a, {})[side.b] = str(line)
                self.rail.setdefault(side.b, {})[side.a] = str(line)
        for h, info in hexes.items():          # a lone rail hex (a line's end with no link) is still a rail hex
            if _truthy(info.features.get("railway")):
                self.rail.setdefault(h, {})
        self.rail_hexes: frozenset[Hex] = frozenset(self.rail)
        self.lines_at: dict[Hex, frozenset[str]] = {
            h: frozenset(set(links.values()) | ({str(hexes[h].features["railway"])}
                                                if _truthy(hexes[h].features.get("railway")) else set()))
            for h, links in self.rail.items()}
        self.allied_line_hexes = frozenset(h for h, ls in self.lines_at.items() if ls & self.allied_lines)
        self.cp_line_hexes = frozenset(h for h, ls in self.lines_at.items() if ls - self.allied_lines)
        west = min(h.q for h in hexes) if hexes else 0
        self.west_edge: frozenset[Hex] = frozenset(h for h in hexes if h.q == west)
        self.depots: dict[Hex, str] = {h: str(info.features["depot"]).lower() for h, info in hexes.items()
                                       if _truthy(info.features.get("depot"))}
        self.towns: frozenset[Hex] = frozenset(h for h, info in hexes.items() if CITY_TERRAIN & set(info.terrain))

    # -- sectors -----------------------------------------------------------------------------------------------
    def sector(self, h: Hex) -> str | None:
        """The hex's sector (``Western`` / ``Eastern`` / ``Damascus``, or ``None`` on a map without sectors)."""
        return self.region.get(h)

    def in_sector(self, h: Hex, sector: str | None) -> bool:
        """Whether a line or radius of ``sector`` may use hex ``h`` (17.2, 17.5, 21.3 A/B).

        Damascus lies on the boundary and is open to both sectors; a hex with no
        region, or a trace with no sector, is never excluded.
        """
        r = self.region.get(h)
        return sector is None or r is None or r == sector or r == DAMASCUS

    def crosses_boundary(self, a: Hex, b: Hex) -> bool:
        """Whether the hexside between two adjacent hexes is the sector boundary (17.x)."""
        return frozenset((a, b)) in self.boundary_sides

    # -- terrain -----------------------------------------------------------------------------------------------
    def water_hexside(self, a: Hex, b: Hex) -> bool:
        """An all-sea or all-lake hexside (10.3 A)."""
        return frozenset((a, b)) in self.water_sides

    def zoc_reaches(self, a: Hex, b: Hex) -> bool:
        """Whether a ZOC from ``a`` extends into adjacent ``b`` (10.3 A/B, 17.3 A: not over water or the boundary).

        We read "all-sea hexside" as covering all-sea hexes too: no ZOC goes into a sea hex.
        """
        pair = frozenset((a, b))
        return pair not in self.water_sides and pair not in self.boundary_sides and b not in self.prohibited

    def land_step(self, a: Hex, b: Hex) -> str | None:
        """Why a supply line may not step from ``a`` into adjacent ``b`` over the map alone, or ``None``.

        Returns ``"terrain"`` (prohibited hex or hexside, 15.6 A, 10.3 A) or ``"boundary"`` (17.2 A).
        """
        pair = frozenset((a, b))
        if pair in self.boundary_sides:
            return "boundary"
        if b in self.prohibited or pair in self.water_sides:
            return "terrain"
        return None

    # -- rail --------------------------------------------------------------------------------------------------
    def rail_links(self, h: Hex) -> dict[Hex, str]:
        """Rail-linked neighbours of a hex and the line of each link."""
        return self.rail.get(h, {})

    def links(self) -> Iterable[RailLink]:
        """Every rail link once."""
        for a, near in self.rail.items():
            for b, line in near.items():
                if a < b:
                    yield RailLink(a, b, line)


_FACTS: dict[tuple[str, str], MapFacts] = {}


def map_facts(cmap: CompiledMap, rail: RailTable) -> MapFacts:
    """The static facts of a map with the game's rail nets (cached per map source and rail table)."""
    key = (cmap.id, cmap.source_hash, rail.allied_lines, rail.built_lines)
    if key not in _FACTS:
        _FACTS[key] = MapFacts(cmap, rail)
    return _FACTS[key]
