"""Placing hexes in map units: orientation, hex size and origin.

Map units have ``x`` growing east and ``y`` growing *south* (image
convention, as in SVG and VASSAL).  ``size`` is the distance from a hex's
centre to its corners; ``origin`` is the map-unit centre of axial hex (0, 0).

>>> lay = Layout("flat", 10.0, (0.0, 0.0))
>>> lay.centre(Hex(1, 0))
(15.0, 8.660254037844386)
>>> lay.hex_at(15.0, 8.0)
Hex(q=1, r=0)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from .coords import Hex, cube_round
from .lattice import CORNERS, SCALE

SQRT3 = math.sqrt(3.0)
Orientation = Literal["flat", "pointy"]


@dataclass(frozen=True)
class Layout:
    """How the hex grid sits in map units."""

    orientation: Orientation
    size: float
    origin: tuple[float, float] = (0.0, 0.0)

    def axial_to_point(self, fq: float, fr: float) -> tuple[float, float]:
        """Map units of fractional axial coordinates."""
        x0, y0 = self.origin
        if self.orientation == "flat":
            return (x0 + self.size * 1.5 * fq, y0 + self.size * SQRT3 * (fr + fq / 2))
        return (x0 + self.size * SQRT3 * (fq + fr / 2), y0 + self.size * 1.5 * fr)

    def point_to_axial(self, x: float, y: float) -> tuple[float, float]:
        """Fractional axial coordinates of a map point."""
        dx, dy = (x - self.origin[0]) / self.size, (y - self.origin[1]) / self.size
        if self.orientation == "flat":
            return (2.0 / 3.0 * dx, -dx / 3.0 + SQRT3 / 3.0 * dy)
        return (SQRT3 / 3.0 * dx - dy / 3.0, 2.0 / 3.0 * dy)

    def centre(self, h: Hex) -> tuple[float, float]:
        """The centre of a hex in map units."""
        return self.axial_to_point(h.q, h.r)

    def lattice_to_point(self, x: float, y: float) -> tuple[float, float]:
        """Map units of a point of the exact integer lattice."""
        return self.axial_to_point(x / SCALE, y / SCALE)

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        """The six corners of a hex in map units, in edge order."""
        return [self.axial_to_point(h.q + cx / SCALE, h.r + cy / SCALE) for cx, cy in CORNERS]

    def hex_at(self, x: float, y: float) -> Hex:
        """The hex containing a map point (ties resolved by cube rounding)."""
        return cube_round(*self.point_to_axial(x, y))

    @property
    def width(self) -> float:
        """Flat-to-flat distance across a hex (the distance between neighbours' centres)."""
        return self.size * SQRT3
