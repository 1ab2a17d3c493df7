"""The exact integer lattice: an affine image of the hex grid.

Hex ``(q, r)`` has its centre at ``(3q, 3r)`` and its corners at the small
integer offsets :data:`CORNERS` from it.  The map from this plane to the real
(pixel) plane is affine, so incidence is preserved: a segment touches, crosses
or runs along a hexside here exactly when it does on the printed map.  All
line-of-sight predicates are decided in this plane with integer arithmetic.

>>> lattice_centre(Hex(1, -2))
(3, -6)
>>> lattice_corners(Hex(0, 0))[0]
(2, -1)
"""
from __future__ import annotations

from .coords import Hex

#: Corner ``i`` of the hex centred at the origin; edge ``i`` runs from corner
#: ``i`` to corner ``i + 1`` and faces neighbour ``DIRECTIONS[i]``.
CORNERS: tuple[tuple[int, int], ...] = ((2, -1), (1, 1), (-1, 2), (-2, 1), (-1, -1), (1, -2))

#: Lattice units per axial unit.
SCALE = 3


def lattice_centre(h: Hex) -> tuple[int, int]:
    """The lattice point of a hex centre."""
    return (SCALE * h.q, SCALE * h.r)


def lattice_corners(h: Hex) -> list[tuple[int, int]]:
    """The six lattice corners of a hex, in edge order."""
    x, y = SCALE * h.q, SCALE * h.r
    return [(x + dx, y + dy) for dx, dy in CORNERS]
