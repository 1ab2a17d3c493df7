"""A ``RegionGrid`` whose regions are the hexes of a map: one region per hex centre, named as the hexes are.

Some modules name hexes that ``HexGridNumbering`` cannot name (the Siege of Jerusalem's letter columns and
diagonal numbers, rule 2.14) with a ``RegionGrid`` of one ``Region`` per hex centre: the engine names a point
after the nearest region, that is after the hex holding it.  Such a grid is read as a hex map when every
region's name is a hex name of one of the toolkit's naming schemes (:data:`SCHEMES`, flat-top: letter columns
and diagonal numbers, or column-then-row digits) and the regions' points lie on one hex lattice of those
hexes (to :data:`TOLERANCE` pixels: the engine keeps whole pixels); at most :data:`MAX_REGIONS` regions.
The lattice is fitted by least squares: ``x = x0 + q * dx``, ``y = y0 + (r + q / 2) * dy`` for the axial hex
``(q, r)`` of each name.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...hexgrid import CCRR, Diagonal, HexNameError
from ..engine import vgrid

SCHEMES = (Diagonal(), CCRR("flat", "odd", 2))   # odd columns half a hex lower, as VASSAL's raw columns
TOLERANCE = 1.0   # pixels between a region's point and the fitted hex centre
MIN_REGIONS = 7   # a hex and its six neighbours
MAX_REGIONS = 20_000   # regions read as hexes (the engine's nearest region is a scan of them all, per point named)


@dataclass(frozen=True)
class Lattice:
    """A region grid read as hexes: the hex grid of its points (numbering: the toolkit's scheme) and the
    rectangle of board pixels its hexes cover."""

    grid: vgrid.HexGrid
    rect: tuple[int, int, int, int]
    names: frozenset[str]   # the regions that are hexes


def _fit(ts: list[float], vs: list[float]) -> tuple[float, float] | None:
    """``(a, b)`` of the least-squares line ``v = a + b * t`` (None when every ``t`` is the same)."""
    mt, mv = sum(ts) / len(ts), sum(vs) / len(vs)
    var = sum((t - mt) ** 2 for t in ts)
    if var == 0:
        return None
    b = sum((t - mt) * (v - mv) for t, v in zip(ts, vs)) / var
    return mv - b * mt, b


def region_lattice(grid: vgrid.RegionGrid | None) -> Lattice | None:
    """The hex lattice a region grid's regions make, or None when they are not one (see the module)."""
    regions = grid.regions if isinstance(grid, vgrid.RegionGrid) else ()
    if not MIN_REGIONS <= len(regions) <= MAX_REGIONS:
        return None
    for scheme in SCHEMES:
        try:
            axial = [scheme.parse(r.name) for r in regions]
        except HexNameError:
            continue
        fx = _fit([h.q for h in axial], [r.x for r in regions])
        fy = _fit([h.r + h.q / 2 for h in axial], [r.y for r in regions])
        if fx is None or fy is None or fx[1] <= 0 or fy[1] <= 0:
            continue
        (x0, dx), (y0, dy) = fx, fy
        if any(abs(x0 + h.q * dx - r.x) > TOLERANCE or abs(y0 + (h.r + h.q / 2) * dy - r.y) > TOLERANCE
               for h, r in zip(axial, regions)):
            continue
        xs, ys = [r.x for r in regions], [r.y for r in regions]
        half_x, half_y = round(dx / 2), round(dy / 2)
        rect = (min(xs) - half_x, min(ys) - half_y, max(xs) - min(xs) + 2 * half_x, max(ys) - min(ys) + 3 * half_y)
        return Lattice(vgrid.HexGrid(dx, dy, x0, y0, numbering=scheme), rect, frozenset(r.name for r in regions))
    return None
