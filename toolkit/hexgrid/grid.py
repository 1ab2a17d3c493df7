"""A map's grid: layout, naming scheme and extent together.

>>> from toolkit.hexgrid import CCRR, Layout
>>> g = Grid(Layout("flat", 10.0), CCRR(), columns=(1, 3), rows=(1, 2))
>>> [g.name(h) for h in g.hexes()]
['0101', '0102', '0201', '0202', '0301', '0302']
>>> g.parse("0202") in g
True
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterator

from .coords import Hex
from .layout import Layout
from .naming import HexNameError, NamingScheme


@dataclass(frozen=True)
class Grid:
    """Layout + naming + the offset rectangle of hexes that exist."""

    layout: Layout
    naming: NamingScheme
    columns: tuple[int, int]
    rows: tuple[int, int]

    @cached_property
    def hex_list(self) -> tuple[Hex, ...]:
        """Every hex of the map, column by column (offset order)."""
        return tuple(
            self.naming.from_offset(c, w)
            for c in range(self.columns[0], self.columns[1] + 1)
            for w in range(self.rows[0], self.rows[1] + 1)
        )

    @cached_property
    def hex_set(self) -> frozenset[Hex]:
        """The hexes of the map as a set."""
        return frozenset(self.hex_list)

    def hexes(self) -> Iterator[Hex]:
        """Iterate over every hex of the map in offset order."""
        return iter(self.hex_list)

    def __contains__(self, h: object) -> bool:
        return h in self.hex_set

    def __len__(self) -> int:
        return len(self.hex_list)

    def name(self, h: Hex) -> str:
        """The printed name of a hex."""
        return self.naming.name(h)

    def parse(self, name: str) -> Hex:
        """The hex of a printed name, checked against the extent."""
        candidates = getattr(self.naming, "candidates", None)   # a name the scheme may give several hexes
        h = (next((c for c in candidates(name) if c in self.hex_set), None) if candidates else None) \
            or self.naming.parse(name)
        if h not in self.hex_set:
            raise HexNameError(f"hex {name!r} is outside the map (columns {self.columns}, rows {self.rows})")
        return h

    def neighbors(self, h: Hex) -> list[Hex]:
        """The neighbours of a hex that are on the map."""
        return [n for n in h.neighbors() if n in self.hex_set]

    def bounds(self) -> tuple[float, float, float, float]:
        """``(minx, miny, maxx, maxy)`` of all hex polygons, in map units."""
        xs, ys = [], []
        for h in self.hex_list:
            for x, y in self.layout.corners(h):
                xs.append(x)
                ys.append(y)
        return min(xs), min(ys), max(xs), max(ys)
