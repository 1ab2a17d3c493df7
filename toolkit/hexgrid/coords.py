"""Exact integer hex coordinates (axial, with the cube coordinate derived).

Every hex is an :class:`Hex` ``(q, r)``; the third cube coordinate is
``s = -q - r``.  Nothing here knows about pixels, names or rules.

>>> Hex(0, 0).distance(Hex(2, -1))
2
>>> sorted(Hex(0, 0).neighbors())[:2]
[Hex(q=-1, r=0), Hex(q=-1, r=1)]
>>> hexside(Hex(1, 0), Hex(0, 0)) == hexside(Hex(0, 0), Hex(1, 0))
True
"""
from __future__ import annotations

from typing import Iterator, NamedTuple

from ..lazy import lazy_module

np = lazy_module("numpy")   # only cube_round_array needs it: naming a hex loads no numpy (issue 31)

#: The six axial directions.  Direction ``i`` is the neighbour across edge ``i``
#: of :data:`toolkit.hexgrid.lattice.CORNERS` (corner ``i`` to corner ``i + 1``).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


class Hex(NamedTuple):
    """A hex in axial coordinates; hashable, ordered, immutable."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    def __add__(self, other: tuple[int, int]) -> "Hex":  # type: ignore[override]
        return Hex(self.q + other[0], self.r + other[1])

    def __sub__(self, other: tuple[int, int]) -> "Hex":
        return Hex(self.q - other[0], self.r - other[1])

    def neighbor(self, direction: int) -> "Hex":
        """The neighbour across edge ``direction`` (0..5)."""
        dq, dr = DIRECTIONS[direction % 6]
        return Hex(self.q + dq, self.r + dr)

    def neighbors(self) -> list["Hex"]:
        """The six neighbours, in direction order."""
        return [Hex(self.q + dq, self.r + dr) for dq, dr in DIRECTIONS]

    def distance(self, other: "Hex") -> int:
        """Number of hex steps between two hexes."""
        dq, dr = self.q - other.q, self.r - other.r
        return max(abs(dq), abs(dr), abs(dq + dr))

    def direction_to(self, other: "Hex") -> int | None:
        """The direction index of an adjacent hex, or ``None`` if not adjacent."""
        try:
            return DIRECTIONS.index((other.q - self.q, other.r - self.r))
        except ValueError:
            return None

    def ring(self, radius: int) -> list["Hex"]:
        """The hexes exactly ``radius`` steps away (``[self]`` for radius 0)."""
        if radius == 0:
            return [self]
        out = []
        h = Hex(self.q + DIRECTIONS[4][0] * radius, self.r + DIRECTIONS[4][1] * radius)
        for side in range(6):
            for _ in range(radius):
                out.append(h)
                h = h.neighbor(side)
        return out

    def spiral(self, radius: int) -> Iterator["Hex"]:
        """All hexes within ``radius`` steps, ring by ring from the centre."""
        for k in range(radius + 1):
            yield from self.ring(k)


class Hexside(NamedTuple):
    """The edge between two adjacent hexes, stored once: ``a < b`` always."""

    a: Hex
    b: Hex

    def other(self, h: Hex) -> Hex:
        """The hex on the other side of this hexside from ``h``."""
        if h == self.a:
            return self.b
        if h == self.b:
            return self.a
        raise ValueError(f"{h} is not on hexside {self}")


def hexside(h1: Hex, h2: Hex) -> Hexside:
    """The canonical key of the hexside between two adjacent hexes.

    Raises :class:`ValueError` if the hexes are not adjacent.
    """
    if h1.distance(h2) != 1:
        raise ValueError(f"hexes {tuple(h1)} and {tuple(h2)} are not adjacent")
    return Hexside(h1, h2) if h1 < h2 else Hexside(h2, h1)


def cube_round(fq: float, fr: float) -> Hex:
    """The hex containing fractional axial coordinates ``(fq, fr)``."""
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


def cube_round_array(fq: np.ndarray, fr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised :func:`cube_round`: integer ``(q, r)`` arrays of the hexes containing the points."""
    fs = -fq - fr
    q, r, s = np.rint(fq), np.rint(fr), np.rint(fs)
    dq, dr, ds = np.abs(q - fq), np.abs(r - fr), np.abs(s - fs)
    fix_q = (dq > dr) & (dq > ds)
    q = np.where(fix_q, -r - s, q)
    r = np.where(~fix_q & (dr > ds), -q - s, r)
    return q.astype(np.int64), r.astype(np.int64)
