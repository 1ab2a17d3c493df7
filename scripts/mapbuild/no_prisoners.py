"""No Prisoners (1915-18): the operational map, reconstructed from public geography.

The rulebook (``/work/shared/rules/no-prisoners.txt``) cites no hex numbers, so
the grid is our own choice: flat-top hexes of 30 miles flat-to-flat (2.11),
``CCRR`` names, odd columns shifted down, 0101 in the north-west corner, over
about 30.7-40.3 E and 23.6-34.6 N (Cairo to Medina, Damascus and Tyre).

Land, sea and lake come from the GSHHG mask with the hand water tables below
(1917 water); mountain/rough from GLOBE relief; sand, dry lakes and the sown
(clear) land from hand polygons; places from GeoNames with the hand table
below.  Everything lon/lat is written with ``crs: lonlat`` or turned into
whole-hex areas, hexside overrides and hex overrides.
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import shapely

from toolkit.hexgrid import Grid, Hex, hexside
from toolkit.hexgrid.coords import cube_round_array
from toolkit.mapdata.compiler import path_chain
from toolkit.render.scene import shared_edge

from .emit import areas_from_hexes, grid_of, write_map
from .sources import GEONAMES_NOTICE, GLOBE_NOTICE, GSHHG_NOTICE, Raster, elevation, find_place, land_mask

MAP_ID = "no-prisoners"
KM_PER_DEGREE = math.pi / 180 * 6371.0088
HEX_KM = 30 * 1.609344                      # 2.11A: 30 miles side to opposite side
SIZE = round(HEX_KM / math.sqrt(3), 4)      # centre-to-corner, map units = km
CROP = (30.5, 23.3, 40.6, 35.0)             # west, south, east, north of the data crops
ELEVATION_BLOCK = 4                         # GLOBE 30" cells averaged 4 x 4: 2' (about 3.7 km) cells
# lon/lat of the map's top-left corner (map point 0, 0): chosen by a search over offsets within one hex
# so that every named place falls in its own hex (nearest hex centre at most 25 km from the real spot).
NORTH_WEST = (30.69, 34.64)
LON0, LAT0 = 35.3, 29.0                     # projection centre (true-scale parallel)
COLUMNS, ROWS = (1, 23), (1, 25)

SEA_THRESHOLD = 0.9        # a hex is all-sea (all-lake) when at least 90% of its samples are sea (lake)
# A hexside between two land hexes is all-sea / all-lake (10.3A) when no land crosses its shared edge:
# each land hex is reduced to its main land (the largest 4-connected piece of land inside it, on a
# LAND_CELL_KM raster), and the hexside is passable when the main lands of the two hexes touch across
# the edge along at least LAND_CONTACT_KM; otherwise it is all-water, sea or lake by the water in a
# band WATER_BAND hex sizes either side of the edge (or, if the band is dry, in the two hexes).  So a
# straight coast whose edge runs partly offshore stays land, while the gulfs of Suez and Aqaba, the Dead
# Sea and the lagoons, narrower than a hex, still cut the hexes on their two shores apart (a hex the
# gulf runs through belongs to the shore holding most of its land).
LAND_CELL_KM = 1.0
LAND_CONTACT_KM = 1.0
WATER_BAND = 0.25
MOUNTAIN = {"relief": 1000, "high": 1300}  # metres: p90 - p10 relief inside the hex, p90 elevation
ROUGH = {"relief": 600}

SEA, LAND, LAKE = 0, 1, 2
SEA_TO_LAKE = -1           # a WATER_FIXES value: the polygon's sea cells become lake

# ---------------------------------------------------------------- hand tables

# 1917 water where today's mask differs (lon/lat polygons, value written into the land mask).
WATER_FIXES = [
    # Lake Nasser (1964-) does not exist: the Nile valley south of Aswan is land.
    (LAND, [(31.0, 23.3), (33.8, 23.3), (33.8, 24.1), (31.0, 24.1)]),
    # Lake Huleh, drained in the 1950s (about 35.60-35.64 E, 33.05-33.12 N).
    (LAKE, [(35.59, 33.05), (35.64, 33.05), (35.645, 33.10), (35.61, 33.125), (35.59, 33.10)]),
    # Sea of Galilee (the 1.25' mask misses most of it).
    (LAKE, [(35.52, 32.72), (35.64, 32.71), (35.65, 32.80), (35.62, 32.88), (35.55, 32.87), (35.52, 32.80)]),
    # Sabkhat el Bardawil lagoon, behind its sand bar (land in the mask).
    (LAKE, [(32.75, 31.08), (33.05, 31.05), (33.40, 31.10), (33.45, 31.15), (33.10, 31.20), (32.80, 31.17)]),
    # Lake Manzala, behind its broken sand bar from the Damietta mouth to Port Said: the mask has it as
    # sea.  Only its sea cells become lake (its islands and shores stay land).
    (SEA_TO_LAKE, [(31.76, 31.38), (31.84, 31.47), (31.93, 31.46), (31.98, 31.42), (32.02, 31.36), (32.13, 31.30),
                   (32.23, 31.26), (32.33, 31.22), (32.33, 31.12), (32.27, 31.05), (32.09, 31.04), (32.00, 31.12),
                   (31.90, 31.20), (31.78, 31.29)]),
    # The Great and Little Bitter Lakes and Lake Timsah are kept as the mask has them;
    # at this scale they lie along the Suez Canal hexsides (value "bitter_lakes" there).
]

# Sand seas (2.x/22.2 "sand hexes"), lon/lat polygons.
SAND = [
    # North Sinai dune belt: Qantara-Romani-Bir el Abd to El Arish, and the Haluza sands towards Audja.
    [(32.40, 30.55), (33.80, 30.60), (34.35, 30.80), (34.55, 31.10), (34.20, 31.20), (33.80, 31.05),
     (33.00, 30.95), (32.40, 30.90)],
    # The Great Nefud, south-western lobes (Tabuk-Jauf), as far as the map reaches.
    [(38.00, 28.30), (38.70, 27.90), (40.60, 27.60), (40.60, 29.40), (39.30, 29.40), (38.40, 29.00)],
]

# Dry lakes / wadis (22.2): qa' mudflats and the great wadis, lon/lat polygons.
DRY_LAKES = [
    [(36.05, 30.15), (36.45, 30.15), (36.45, 30.45), (36.05, 30.45)],   # Qa' el Jafr, east of Ma'an
    [(36.55, 31.65), (37.00, 31.65), (37.00, 32.00), (36.55, 32.00)],   # Qa' el Azraq and its oasis basin
    [(33.55, 30.20), (33.95, 30.20), (33.95, 30.85), (33.55, 30.85)],   # Wadi el Arish, middle course
]

# Sown land (clear) in 1917; every other land hex is desert unless rough, mountain, sand or dry lake.
SOWN = [
    # Nile delta east of the Damietta branch, Wadi Tumilat to Ismailia, and the Nile valley strip.
    [(30.50, 29.50), (31.40, 29.50), (31.40, 30.00), (31.90, 30.45), (32.20, 30.60), (32.10, 31.30),
     (31.50, 31.60), (30.50, 31.60)],
    # Palestine and Lebanon coastal plain and hills, Gaza to Tyre, to the Jordan rift.
    [(34.20, 31.30), (34.70, 31.10), (35.05, 31.30), (35.40, 31.60), (35.50, 32.40), (35.60, 33.00),
     (35.70, 33.40), (35.40, 34.30), (35.10, 34.30), (34.95, 32.90), (34.60, 31.90)],
    # Transjordan plateau (Kerak to Amman), the Hauran and the Damascus Ghouta.
    [(35.60, 31.00), (35.90, 31.00), (36.00, 31.60), (36.20, 32.00), (36.60, 32.30), (36.80, 32.90),
     (36.60, 33.50), (36.60, 34.30), (36.10, 34.30), (35.90, 33.60), (35.70, 32.80), (35.75, 31.60)],
]

# Hand terrain in priority order, with the share of a hex a polygon must cover (dry lakes and wadis
# are narrower than a hex: a quarter of it is enough).
HAND_TERRAIN = [("sand", SAND, 0.5), ("dry_lake", DRY_LAKES, 0.25), ("clear", SOWN, 0.5)]

# Places the rules name (rulebook spelling), plus the few the map needs (ports, canal, El Ula).
#   name: (kind, sector, geonames names tried in order, hint lon/lat)
# kind: city or town (2.x; VPs per 23.2 are printed on the map and unknown here).
PLACES: dict[str, tuple[str, str, tuple[str, ...], tuple[float, float]]] = {
    "Cairo": ("city", "Western", ("Cairo",), (31.24, 30.04)),
    "Port Said": ("city", "Western", ("Port Said",), (32.30, 31.26)),
    "Suez": ("town", "Western", ("Suez",), (32.55, 29.97)),
    "Qantara": ("town", "Western", ("Al Qantarah", "El Qantara", "Qantara"), (32.32, 30.85)),
    "El Arish": ("town", "Western", ("Arish", "El Arish", "Al 'Arish"), (33.80, 31.13)),
    "Kalaat": ("town", "Western", ("Nakhl", "Qal'at an Nakhl"), (33.75, 29.91)),
    "Audja": ("town", "Western", ("Nitzana", "El Auja"), (34.43, 30.88)),
    "Gaza": ("city", "Western", ("Gaza",), (34.47, 31.50)),
    "Beersheba": ("town", "Western", ("Beersheba", "Be'er Sheva"), (34.79, 31.25)),
    "Ramlah": ("town", "Western", ("Ramla", "Ramlah", "Ramle"), (34.87, 31.93)),
    "Jaffa": ("city", "Western", ("Jaffa", "Yafo"), (34.75, 32.05)),
    "Jerusalem": ("city", "Western", ("Jerusalem",), (35.21, 31.77)),
    "Haifa": ("city", "Western", ("Haifa",), (34.99, 32.82)),
    "Tyre": ("town", "Western", ("Tyre", "Sour", "Sur"), (35.20, 33.27)),
    "Damascus": ("city", "Damascus", ("Damascus",), (36.29, 33.51)),
    "Kiswe": ("town", "Eastern", ("Al Kiswah", "Kiswah", "Kiswe"), (36.24, 33.36)),
    "Dera": ("town", "Eastern", ("Daraa", "Dar'a", "Deraa"), (36.11, 32.62)),
    "Amman": ("town", "Eastern", ("Amman",), (35.93, 31.95)),
    "Ma'an": ("town", "Eastern", ("Ma'an", "Maan"), (35.73, 30.20)),
    "Aqaba": ("town", "Eastern", ("Aqaba", "Al 'Aqabah"), (35.01, 29.53)),
    "Tabuk": ("town", "Eastern", ("Tabuk",), (36.57, 28.38)),
    "El Ula": ("town", "Eastern", ("Al 'Ula", "Al Ula", "Al-`Ula"), (37.92, 26.61)),
    "Wejh": ("town", "Eastern", ("Al Wajh", "Wajh"), (36.45, 26.24)),
    "Yenbo": ("town", "Eastern", ("Yanbu", "Yanbu' al Bahr", "Yenbo"), (38.06, 24.09)),
    "Medina": ("city", "Eastern", ("Medina", "Al Madinah"), (39.61, 24.47)),
}

# Places GeoNames (population >= 500) lacks: positions from the Wikipedia articles'
# coordinates (Nakhl, Sinai: 29.91 N 33.75 E; Nitzana / El Auja: 30.88 N 34.43 E).
HAND_POSITIONS = {"Kalaat": (33.75, 29.91), "Audja": (34.43, 30.88)}

# Where the map deliberately moves a place by one hex, in offset steps from its real hex.
# Kiswe (17 km from Damascus) shares Damascus's 30-mile hex; 6.3D puts an Eastern entry hex
# "just south of Damascus" and the setups (25.3.2, 26.3.2) garrison Kiswe separately there.
MOVED = {"Kiswe": ("south of", "Damascus")}

PORTS = ["Port Said", "Suez", "El Arish", "Jaffa", "Haifa", "Tyre", "Aqaba", "Wejh", "Yenbo"]

# Supply depots (15.x).  allied: the Egyptian bases (assumed: Cairo, Port Said, Suez); the Red Sea
# ports the Allies used once taken, in CP hands at the start (15.2B, 15.8B, 15.9D: Aqaba, Wejh,
# Yenbo); Haifa, whose port supplies the Allies once captured (15.9E).  cp: the Eastern depots are
# inferred from the garrison list of 25.3.2/26.3.2 (depots must be occupied, 15.4B); the Western CP
# depots (Jerusalem, Tyre) are a guess -- the rules text does not locate them.
DEPOTS = {"Cairo": "allied", "Port Said": "allied", "Suez": "allied", "Aqaba": "allied", "Wejh": "allied",
          "Yenbo": "allied", "Haifa": "allied", "Kiswe": "cp", "Dera": "cp", "Amman": "cp", "Ma'an": "cp",
          "Medina": "cp", "Jerusalem": "cp", "Tyre": "cp"}

# Railways by line (feature value); 16.1: british and egypt form the Allied (red) net, the rest the CP
# (black) net.  Lon/lat waypoints (stations).  File order matters where lines share a hexside: the
# first line keeps it, so the Hejaz and British lines come first.
RAILWAYS = {
    "hejaz": [(36.29, 33.49), (36.24, 33.36), (36.20, 33.00), (36.11, 32.62), (36.21, 32.34), (36.09, 32.07),
              (35.93, 31.95), (36.04, 31.25), (35.97, 30.85), (35.73, 30.20), (35.88, 29.60), (36.01, 29.32),
              (36.57, 28.38), (37.30, 27.85), (37.70, 27.30), (37.95, 26.80), (37.92, 26.61), (38.30, 26.05),
              (38.67, 25.55), (39.10, 25.00), (39.61, 24.47)],
    # 2.1 addenda: Qantara-Romani-El Arish-Rafa-Gaza-Ramlah, also a road.
    "british": [(32.32, 30.85), (32.65, 30.99), (33.00, 31.02), (33.80, 31.13), (34.25, 31.29),
                (34.47, 31.50), (34.57, 31.67), (34.87, 31.93)],
    # Egyptian State Railways: western map edge - Cairo - Zagazig - Ismailia, then along the canal.
    "egypt": [(30.50, 30.05), (31.24, 30.05), (31.50, 30.59), (31.83, 30.54), (32.27, 30.60)],
    "egypt_canal": [(32.30, 31.26), (32.31, 30.85), (32.27, 30.60), (32.35, 30.40), (32.55, 29.97)],
    "haifa_deraa": [(34.99, 32.82), (35.29, 32.61), (35.50, 32.50), (35.59, 32.70), (35.80, 32.70),
                    (36.11, 32.62)],
    "jaffa_jerusalem": [(34.75, 32.05), (34.87, 31.93), (34.98, 31.77), (35.21, 31.77)],
    # The Ottoman line Afula - Tulkarm - Lydda - Junction Station - Beersheba - Asluj - Audja - Kossaima.
    # It met other lines only at Afula, Lydda/Junction Station and (in 1918) the British line at Ramlah/
    # Lydda: through Asluj (34.73 E 31.03 N) it keeps out of Rafa's hex on the British line.
    "beersheba": [(35.29, 32.61), (35.30, 32.46), (35.03, 32.31), (34.89, 31.95), (34.84, 31.78),
                  (34.79, 31.25), (34.73, 31.03), (34.43, 30.88), (34.40, 30.65)],
}

# The sector boundary (2.2, 17.x), south to north: the Red Sea and Gulf of Aqaba axis, Wadi Araba,
# the Dead Sea, the Jordan, Lake Huleh, to Damascus (21.3: on the boundary), then north to the map
# edge (6.3C/D).  Hexes whose centre lies east of it are Eastern.
BOUNDARY = [(37.40, 23.0), (36.40, 25.0), (35.40, 26.5), (34.70, 27.8), (34.55, 28.2), (34.75, 28.8),
            (34.85, 29.45), (34.80, 29.80), (35.15, 30.20), (35.35, 30.80), (35.45, 31.20), (35.45, 31.80),
            (35.55, 32.40), (35.62, 32.90), (35.70, 33.20), (36.29, 33.51), (36.29, 35.0)]

# The Suez Canal, Port Said to Suez (Port Tewfik); the bank towns lie west of it (16.2A, 25.4.1).
SUEZ_CANAL = [(32.34, 31.40), (32.34, 31.26), (32.32, 30.85), (32.30, 30.58), (32.36, 30.40),
              (32.42, 30.30), (32.48, 30.22), (32.56, 30.10), (32.57, 29.93), (32.57, 29.70)]
BITTER_LAKES = (30.18, 30.45)   # latitudes of the canal stretch through the Bitter Lakes
CANAL_TOWNS = ["Port Said", "Qantara", "Suez"]

TERRAIN = {
    "desert": {"color": "#ecd9a6", "base": True, "label": "Desert"},   # first: the default terrain
    "clear": {"color": "#c9dca0", "base": True, "label": "Clear"},
    "sand": {"color": "#f3e27a", "base": True, "label": "Sand"},
    "dry_lake": {"color": "#d8c9a8", "base": True, "label": "Dry lake / wadi"},
    "rough": {"color": "#c9a66b", "base": True, "label": "Rough"},
    "mountain": {"color": "#9c7448", "base": True, "label": "Mountain"},
    "sea": {"color": "#8fb8e0", "base": True, "label": "Sea"},
    "lake": {"color": "#a8d0f0", "base": True, "label": "Lake / lagoon"},
    "city": {"color": "#b03030", "base": False, "label": "City"},
    "town": {"color": "#e08060", "base": False, "label": "Town"},
    "port": {"color": "#2050a0", "base": False, "label": "Port"},
}
FEATURES = {
    "suez_canal": {"kind": "hexside", "color": "#1f5fd0", "width": 6},
    "all_sea_hexside": {"kind": "hexside", "color": "#4f8fd8", "width": 4},
    "all_lake_hexside": {"kind": "hexside", "color": "#6fb0e8", "width": 4},
    "sector_boundary": {"kind": "hexside", "color": "#7a1fa0", "width": 5, "dash": "8,4"},
    "road": {"kind": "path", "color": "#8b5a2b", "width": 5},
    "railway": {"kind": "path", "color": "#202020", "width": 2.5, "dash": "5,2"},
    "depot": {"kind": "path", "color": "#000000", "width": 1},
}


# ---------------------------------------------------------------- geometry

def grid_spec() -> dict[str, Any]:
    """The grid and projection sections: flat-top CCRR, map point (0, 0) at NORTH_WEST."""
    coslat = math.cos(math.radians(LAT0))
    return {
        "grid": {"orientation": "flat", "size": SIZE, "naming": {"scheme": "ccrr", "shifted": "odd", "digits": 2},
                 "columns": list(COLUMNS), "rows": list(ROWS)},
        "projection": {"kind": "equirectangular", "lon0": LON0, "lat0": LAT0,
                       "x0": round((LON0 - NORTH_WEST[0]) * coslat * KM_PER_DEGREE, 3),
                       "y0": round((NORTH_WEST[1] - LAT0) * KM_PER_DEGREE, 3), "units_per_km": 1},
    }


class Projector:
    """lon/lat <-> map units for the map's projection section."""

    def __init__(self, projection: dict[str, Any]):
        self.p = projection
        self.k = KM_PER_DEGREE * math.cos(math.radians(projection["lat0"]))

    def to_map(self, lon, lat):
        p = self.p
        return p["x0"] + (np.asarray(lon) - p["lon0"]) * self.k, p["y0"] - (np.asarray(lat) - p["lat0"]) * KM_PER_DEGREE

    def to_lonlat(self, x, y):
        p = self.p
        return p["lon0"] + (np.asarray(x) - p["x0"]) / self.k, p["lat0"] - (np.asarray(y) - p["y0"]) / KM_PER_DEGREE

    def hex_of(self, grid: Grid, lonlat: tuple[float, float]) -> Hex:
        x, y = self.to_map(*lonlat)
        return grid.layout.hex_at(float(x), float(y))


def hex_samples(grid: Grid, h: Hex, steps: int = 6) -> np.ndarray:
    """Points of a triangular lattice filling hex ``h`` (map units), centre included."""
    cx, cy = grid.layout.centre(h)
    d = grid.layout.size / steps
    pts = [(cx + d * (i + j / 2), cy + d * j * math.sqrt(3) / 2)
           for j in range(-steps, steps + 1) for i in range(-steps, steps + 1)
           if abs(i + j) <= steps and abs(i) <= steps]
    return np.array(pts)


def centre_segment(grid: Grid, a: Hex, b: Hex, n: int = 25) -> np.ndarray:
    """Points along the segment joining the centres of two hexes (map units)."""
    p, q = np.array(grid.layout.centre(a)), np.array(grid.layout.centre(b))
    t = np.linspace(0.0, 1.0, n)[:, None]
    return p + t * (q - p)


# ---------------------------------------------------------------- data

def rasters(data_dir: Path) -> tuple[Raster, Raster]:
    """The land mask and elevation crops: cut from the packages (and saved), else the committed crops."""
    mask_path, elev_path = data_dir / "landmask.npz", data_dir / "elevation.npz"
    try:
        mask, elev = land_mask(*CROP), coarsen(elevation(*CROP), ELEVATION_BLOCK)
    except (SystemExit, ModuleNotFoundError):   # no build packages (mpl_toolkits itself may be absent)
        return Raster.load(mask_path), Raster.load(elev_path)
    mask.save(mask_path, GSHHG_NOTICE)
    elev.save(elev_path, GLOBE_NOTICE)
    return mask, elev


def coarsen(r: Raster, block: int) -> Raster:
    """Block means of ``block`` x ``block`` cells (same georeference), to keep the committed crop small."""
    h, w = (s - s % block for s in r.values.shape)
    v = r.values[:h, :w].astype(float).reshape(h // block, block, w // block, block).mean(axis=(1, 3))
    return Raster(np.rint(v).astype(np.int16), r.west, r.north, r.cells_per_degree // block)


def water_1917(mask: Raster) -> Raster:
    """The land mask with the hand water fixes applied."""
    values = mask.values.copy()
    rows, cols = np.indices(values.shape)
    lon = mask.west + (cols + 0.5) / mask.cells_per_degree
    lat = mask.north - (rows + 0.5) / mask.cells_per_degree
    for value, poly in WATER_FIXES:
        inside = shapely.contains_xy(shapely.Polygon(poly), lon, lat)
        if value == LAND:
            values[inside & (values == LAKE)] = LAND
        elif value == SEA_TO_LAKE:
            values[inside & (values == SEA)] = LAKE
        else:
            values[inside] = value
    return Raster(values, mask.west, mask.north, mask.cells_per_degree)


def place_positions(data_dir: Path) -> dict[str, tuple[float, float]]:
    """Real lon/lat of every place: hand table, else GeoNames by its names (saved), else the saved file."""
    saved = data_dir / "places.json"
    try:
        found = {name: HAND_POSITIONS.get(name) or geonames_position(names, hint)
                 for name, (_, _, names, hint) in PLACES.items()}
    except ModuleNotFoundError:
        return {k: tuple(v) for k, v in json.loads(saved.read_text()).items()}
    saved.write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n")
    return found


def geonames_position(names: tuple[str, ...], hint: tuple[float, float]) -> tuple[float, float]:
    """The first of ``names`` GeoNames knows within 25 km of ``hint``."""
    for candidate in names:
        found = find_place(candidate, hint, within_km=25)
        if found:
            return tuple(round(v, 5) for v in found)
    raise LookupError(f"no GeoNames place {names} near {hint}: add it to HAND_POSITIONS")


# ---------------------------------------------------------------- classification

def classify_hex(water: np.ndarray, elev: np.ndarray, lon: np.ndarray, lat: np.ndarray) -> str:
    """Base terrain of one hex from its samples (see the thresholds at the top)."""
    if np.mean(water != LAND) >= SEA_THRESHOLD:
        return "sea" if np.sum(water == SEA) >= np.sum(water == LAKE) else "lake"
    land = water == LAND
    hi, lo = np.percentile(elev[land], 90), np.percentile(elev[land], 10)
    if hi - lo >= MOUNTAIN["relief"] and hi >= MOUNTAIN["high"]:
        return "mountain"
    if hi - lo >= ROUGH["relief"]:
        return "rough"
    for name, polys, coverage in HAND_TERRAIN:
        if any(np.mean(shapely.contains_xy(shapely.Polygon(p), lon, lat)) >= coverage for p in polys):
            return name
    return "desert"


def base_terrain(grid: Grid, proj: Projector, water: Raster, elev: Raster) -> dict[Hex, str]:
    out = {}
    for h in grid.hexes():
        lon, lat = proj.to_lonlat(*hex_samples(grid, h).T)
        out[h] = classify_hex(water.sample(lon, lat), elev.sample(lon, lat), lon, lat)
    return out


def land_cells(grid: Grid, proj: Projector, water: Raster,
               anchors: dict[Hex, tuple[float, float]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A LAND_CELL_KM raster over the grid: water value, hex index (-1 off the grid) and main-land mask.

    A cell is main land when it is land and belongs to the main piece of its own hex: pieces are
    4-connected land cells of one hex; the main one holds the hex's place (``anchors``: lon/lat of the
    place, e.g. Suez on the west bank of the canal), else it is the largest."""
    hexes = list(grid.hexes())
    index = {(h.q, h.r): i for i, h in enumerate(hexes)}
    corners = np.array([c for h in hexes for c in grid.layout.corners(h)])
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    xs = np.arange(x0 + LAND_CELL_KM / 2, x1, LAND_CELL_KM)
    ys = np.arange(y0 + LAND_CELL_KM / 2, y1, LAND_CELL_KM)
    x, y = np.meshgrid(xs, ys)
    w = water.sample(*proj.to_lonlat(x.ravel(), y.ravel())).reshape(x.shape)
    # The Suez Canal is too narrow for the mask but is water: it parts the land on its two banks (its own
    # hexsides are marked suez_canal, not all-sea).  Every cell it passes through becomes sea.
    line = np.column_stack(proj.to_map(*np.array(SUEZ_CANAL).T))
    for p, q in zip(line, line[1:]):
        t = np.linspace(0.0, 1.0, int(np.ceil(np.linalg.norm(q - p) / (LAND_CELL_KM / 4))) + 1)[:, None]
        pts = p + t * (q - p)
        cols = np.floor((pts[:, 0] - x0) / LAND_CELL_KM).astype(int)
        rows = np.floor((pts[:, 1] - y0) / LAND_CELL_KM).astype(int)
        ok = (rows >= 0) & (rows < w.shape[0]) & (cols >= 0) & (cols < w.shape[1])
        w[rows[ok], cols[ok]] = SEA
    q, r = cube_round_array(*grid.layout.point_to_axial(x, y))
    hid = np.vectorize(lambda a, b: index.get((int(a), int(b)), -1), otypes=[np.int64])(q, r)
    land = (w == LAND) & (hid >= 0)
    # Label the pieces: every land cell starts with its own number, then takes the smallest number of its
    # land neighbours in the same hex until nothing changes.
    big = np.iinfo(np.int64).max
    label = np.where(land, np.arange(land.size).reshape(land.shape), big)
    while True:
        new = label.copy()
        for axis in (0, 1):
            for step in (1, -1):
                other, same = np.roll(label, step, axis), np.roll(hid, step, axis) == hid
                edge = np.zeros_like(land)   # np.roll wraps round: never join across the raster's border
                if axis == 0:
                    edge[0 if step == 1 else -1, :] = True
                else:
                    edge[:, 0 if step == 1 else -1] = True
                new = np.where(land & same & ~edge, np.minimum(new, other), new)
        if np.array_equal(new, label):
            break
        label = new
    pieces, counts = np.unique(np.stack([hid[land], label[land]]), axis=1, return_counts=True)
    main_label = {}
    for (h, lab), n in zip(pieces.T, counts):
        if n > main_label.get(h, (0, 0))[0] or (n == main_label[h][0] and lab < main_label[h][1]):
            main_label[h] = (n, lab)
    best = np.full(len(hexes), -1, dtype=np.int64)
    for h, (_, lab) in main_label.items():
        best[h] = lab
    for h, lonlat in anchors.items():   # the piece nearest the place
        i = index[(h.q, h.r)]
        mine = land & (hid == i)
        if mine.any():
            px, py = (float(v) for v in proj.to_map(*lonlat))
            d = np.where(mine, (x - px) ** 2 + (y - py) ** 2, np.inf)
            best[i] = label.flat[int(np.argmin(d))]
    main = land & (label == best[np.where(hid >= 0, hid, 0)])
    return w, hid, main


def land_contacts(grid: Grid, hid: np.ndarray, main: np.ndarray) -> dict:
    """Kilometres of shared edge along which the main lands of two adjacent hexes touch, per hexside."""
    hexes = list(grid.hexes())
    out: dict = {}
    for a, b, ma, mb in ((hid[:, :-1], hid[:, 1:], main[:, :-1], main[:, 1:]),
                         (hid[:-1, :], hid[1:, :], main[:-1, :], main[1:, :])):
        touch = ma & mb & (a != b)
        pairs, counts = np.unique(np.stack([a[touch], b[touch]]), axis=1, return_counts=True)
        for (i, j), n in zip(pairs.T, counts):
            side = hexside(hexes[i], hexes[j])
            out[side] = out.get(side, 0.0) + n * LAND_CELL_KM
    return out


def edge_band(grid: Grid, a: Hex, b: Hex, n: int = 41, m: int = 11) -> np.ndarray:
    """Points (map units) of a band WATER_BAND hex sizes wide either side of the edge shared by a and b."""
    p, q = (np.array(c) for c in shared_edge(grid.layout, a, b))
    ca, cb = np.array(grid.layout.centre(a)), np.array(grid.layout.centre(b))
    u = (cb - ca) / np.linalg.norm(cb - ca)
    along = p + np.linspace(0.0, 1.0, n)[:, None] * (q - p)
    across = np.linspace(-WATER_BAND, WATER_BAND, m) * grid.layout.size
    return (along[:, None, :] + across[None, :, None] * u).reshape(-1, 2)


def water_hexsides(grid: Grid, proj: Projector, water: Raster, terrain: dict[Hex, str],
                   skip: set, anchors: dict[Hex, tuple[float, float]]) -> list[dict[str, Any]]:
    """all-sea / all-lake hexsides (10.3A) between two land hexes whose main lands do not touch (see the top).

    ``skip``: canal hexsides, and hexsides a railway crosses (it ran on land there, e.g. south of
    the Bardawil lagoon)."""
    _, hid, main = land_cells(grid, proj, water, anchors)
    contact = land_contacts(grid, hid, main)
    out = []
    for a in grid.hexes():
        for b in grid.neighbors(a):
            if b <= a or {terrain[a], terrain[b]} & {"sea", "lake"} or hexside(a, b) in skip:
                continue
            if contact.get(hexside(a, b), 0.0) >= LAND_CONTACT_KM:
                continue
            w = water.sample(*proj.to_lonlat(*edge_band(grid, a, b).T))
            if np.all(w == LAND):
                w = water.sample(*proj.to_lonlat(*np.vstack([hex_samples(grid, a), hex_samples(grid, b)]).T))
            if np.any(w != LAND):
                kind = "all_sea_hexside" if np.sum(w == SEA) >= np.sum(w == LAKE) else "all_lake_hexside"
                out.append({"between": [grid.name(a), grid.name(b)], "set": {kind: True}})
    return out


def canal_hexsides(grid: Grid, proj: Projector, terrain: dict[Hex, str], bank: list[Hex]) -> dict:
    """Hexsides between land hexes west and east of the canal line; the ``bank`` hexes count as west."""
    lons, lats = np.array(SUEZ_CANAL).T
    order = np.argsort(lats)

    def west(h: Hex) -> bool:
        lon, lat = proj.to_lonlat(*grid.layout.centre(h))
        return h in bank or lon < np.interp(lat, lats[order], lons[order])

    out = {}
    for a in grid.hexes():
        for b in grid.neighbors(a):
            lat = float(proj.to_lonlat(*np.mean(centre_segment(grid, a, b), axis=0))[1])
            if (terrain[a] == "sea" or terrain[b] == "sea" or not west(a) or west(b)
                    or not lats.min() <= lat <= lats.max()):
                continue
            out[hexside(a, b)] = "bitter_lakes" if BITTER_LAKES[0] <= lat <= BITTER_LAKES[1] else "true"
    return out


def railway_hexsides(grid: Grid, proj: Projector) -> set:
    """Hexsides crossed by any railway, as the compiler chains them."""
    out = set()
    for pts in RAILWAYS.values():
        chain = path_chain(grid.layout, np.column_stack(proj.to_map(*np.array(pts).T)).tolist())
        out |= {hexside(a, b) for a, b in zip(chain, chain[1:])}
    return out


def sectors(grid: Grid, proj: Projector, damascus: Hex, kiswe: Hex) -> dict[Hex, str]:
    """Western / Eastern by the boundary line; Damascus's own hex lies on it (21.3A)."""
    east = shapely.Polygon(BOUNDARY + [(60.0, 35.0), (60.0, 23.0)])
    out = {}
    for h in grid.hexes():
        lon, lat = proj.to_lonlat(*grid.layout.centre(h))
        out[h] = "Eastern" if east.contains(shapely.Point(float(lon), float(lat))) else "Western"
    out[damascus], out[kiswe] = "Damascus", "Eastern"
    return out


def boundary_hexsides(grid: Grid, region: dict[Hex, str]) -> list[dict[str, Any]]:
    """Hexsides between a Western and an Eastern hex (none touch Damascus's own edges)."""
    return [{"between": [grid.name(a), grid.name(b)], "set": {"sector_boundary": True}}
            for a in grid.hexes() for b in grid.neighbors(a)
            if a < b and {region[a], region[b]} == {"Western", "Eastern"}]


# ---------------------------------------------------------------- places

def place_hexes(grid: Grid, proj: Projector, terrain: dict[Hex, str],
                positions: dict[str, tuple[float, float]]) -> dict[str, tuple[Hex, tuple]]:
    """Hex and real lon/lat of every place: its real hex, MOVED ones moved, collisions to a free neighbour."""
    out = {name: (proj.hex_of(grid, pos), pos) for name, pos in positions.items()}
    for name, (_, anchor) in MOVED.items():
        out[name] = (out[anchor][0] + (0, 1), out[name][1])   # flat-top: +r is the hex directly south
    taken: set[Hex] = set()
    for name, (h, pos) in out.items():
        if h in taken:
            x, y = proj.to_map(*pos)
            free = [n for n in grid.neighbors(h) if n not in taken and terrain[n] != "sea"]
            h = min(free, key=lambda n: math.dist(grid.layout.centre(n), (float(x), float(y))))
            out[name] = (h, pos)
        taken.add(h)
    return out


def hex_overrides(grid: Grid, proj: Projector, places: dict[str, tuple[Hex, tuple]]) -> dict[str, dict]:
    """Places not in their real hex (moved, or off the water), and the depots."""
    out: dict[str, dict] = {}
    for name, (h, pos) in places.items():
        if name in MOVED or proj.hex_of(grid, pos) != h:
            out.setdefault(grid.name(h), {})["place"] = name
    for name, side in DEPOTS.items():
        out.setdefault(grid.name(places[name][0]), {})["features"] = {"depot": side}
    return dict(sorted(out.items()))


# ---------------------------------------------------------------- assembly

def build_spec(mask: Raster, elev: Raster, positions: dict[str, tuple[float, float]]) -> tuple[dict[str, Any], dict[str, tuple[Hex, tuple]]]:
    spec: dict[str, Any] = {"id": MAP_ID, "title": "No Prisoners! Suez, Palestine and Arabia 1915-18",
                            **grid_spec(), "coverage": 0.5, "terrain": TERRAIN, "features": FEATURES,
                            "los": {"convention": "touch", "rule": "none: the game has no line of sight",
                                    "blocking_terrain": [], "blocking_hexside_features": [], "elevation": "none"}}
    grid, proj, water = grid_of(spec), Projector(spec["projection"]), water_1917(mask)
    terrain = base_terrain(grid, proj, water, elev)
    places = place_hexes(grid, proj, terrain, positions)
    for h, _ in places.values():   # a hex with a coastal place is a coastal land hex
        if terrain[h] in ("sea", "lake"):
            terrain[h] = "clear"
    region = sectors(grid, proj, places["Damascus"][0], places["Kiswe"][0])
    canal = canal_hexsides(grid, proj, terrain, [places[n][0] for n in CANAL_TOWNS])

    areas = []
    for t in ("desert", "clear", "sand", "dry_lake", "rough", "mountain", "sea", "lake"):
        areas += areas_from_hexes(grid, [h for h, v in terrain.items() if v == t], terrain=t)
    for r in ("Western", "Eastern", "Damascus"):
        areas += areas_from_hexes(grid, [h for h, v in region.items() if v == r], region=r)
    for kind in ("city", "town"):
        areas += areas_from_hexes(grid, [places[n][0] for n, p in PLACES.items() if p[0] == kind], terrain=kind)
    areas += areas_from_hexes(grid, [places[n][0] for n in PORTS], terrain="port")
    spec["areas"] = [a for a in areas if a.get("terrain") != "desert"]   # desert is the default terrain

    spec["lines"] = [{"feature": f, "value": name, "points": [list(p) for p in pts], "crs": "lonlat"}
                     for name, pts in RAILWAYS.items() for f in ("railway", "road")]   # 8.7A: roads along rails
    spec["points"] = [{"place": n, "at": [round(v, 5) for v in pos], "crs": "lonlat"}
                      for n, (h, pos) in places.items() if n not in MOVED and proj.hex_of(grid, pos) == h]
    spec["overrides"] = {
        "hexes": hex_overrides(grid, proj, places),
        "hexsides": [{"between": [grid.name(s.a), grid.name(s.b)], "set": {"suez_canal": v}} for s, v in canal.items()]
        + water_hexsides(grid, proj, water, terrain, set(canal) | railway_hexsides(grid, proj),
                         {h: pos for h, pos in places.values()})
        + boundary_hexsides(grid, region),
    }
    return spec, places


def build(maps_dir: Path) -> Path:
    out_dir = maps_dir / MAP_ID
    mask, elev = rasters(out_dir / "data")
    spec, _ = build_spec(mask, elev, place_positions(out_dir / "data"))
    header = [
        "No Prisoners! (1915-18) operational map, reconstructed from public geography.",
        "GENERATED by scripts/build_maps.py no-prisoners (scripts/mapbuild/no_prisoners.py): do not edit by hand.",
        "Grid: 30-mile flat-top hexes (2.11A), CCRR, odd columns shifted down, 0101 at the north-west;",
        "the rulebook cites no hex numbers, so the numbering is ours.  See README.md.",
        GSHHG_NOTICE, GLOBE_NOTICE, GEONAMES_NOTICE,
    ]
    return write_map(out_dir / "map.yaml", spec, header)
