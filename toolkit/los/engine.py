"""Line of sight between hex centres, decided exactly.

Three named conventions say when an obstacle hex blocks (see
``docs/line-of-sight.md``):

``touch``
    any obstacle the segment touches blocks -- through its inside, along one
    of its sides or at a single corner (e.g. Jerusalem! 10.7.1);
``cross``
    an obstacle blocks only if the segment passes through its inside; a
    segment running exactly along a hexside is blocked only if *both* hexes of
    that hexside are obstacles; grazing a corner never blocks (e.g. Siege of
    Jerusalem 9.5);
``both-sides``
    as ``cross``, but obstacles met along hexsides on the left and on the right
    of the line combine even when they are at different places along it.

The viewer's and the target's own hexes never block.  Obstacle *hexsides*
(walls drawn on hex edges) block when the segment crosses them; under
``touch`` also when it runs along or touches them.

>>> from toolkit.hexgrid import CCRR, Grid, Layout
>>> g = Grid(Layout("flat", 10.0), CCRR(), columns=(1, 5), rows=(1, 5))
>>> eng = LosEngine(g)
>>> res = eng.check(g.parse("0101"), g.parse("0501"), "touch", Obstacles(hexes=frozenset({g.parse("0301")})))
>>> res.visible, [g.name(h) for h in res.blocked_by], res.range
(False, ['0301'], 4)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Iterable, Mapping

import numpy as np

from ..hexgrid import Grid, Hex, Hexside, hexside, lattice_corners
from .contacts import HEXSIDE, INTERIOR, KIND_NAMES
from .table import OffsetTable


class Convention(str, Enum):
    """When an obstacle hex met by the line blocks it."""

    TOUCH = "touch"
    CROSS = "cross"
    BOTH_SIDES = "both-sides"


ELEVATION_RULES = ("none", "higher-than-both", "higher-than-either")


@dataclass(frozen=True)
class Obstacles:
    """What blocks sight, as a game's rules or a map's defaults supply it.

    ``hexes`` always block.  With ``elevation`` ``"higher-than-both"`` a hex
    also blocks when its level is above both ends' levels; with
    ``"higher-than-either"`` when it is above at least one end.  ``hexsides``
    are blocking hex edges.
    """

    hexes: frozenset[Hex] = frozenset()
    levels: Mapping[Hex, int] = field(default_factory=dict)
    elevation: str = "none"
    hexsides: frozenset[Hexside] = frozenset()

    def __post_init__(self):
        if self.elevation not in ELEVATION_RULES:
            raise ValueError(f"elevation rule {self.elevation!r}: expected one of {', '.join(ELEVATION_RULES)}")

    def threshold(self, a: Hex, b: Hex) -> float:
        """Level above which an in-between hex blocks for viewer ``a`` and target ``b``."""
        if self.elevation == "none":
            return float("inf")
        la, lb = self.levels.get(a, 0), self.levels.get(b, 0)
        return max(la, lb) if self.elevation == "higher-than-both" else min(la, lb)

    def blocks(self, h: Hex, threshold: float) -> bool:
        """Whether in-between hex ``h`` is an obstacle at this threshold."""
        return h in self.hexes or self.levels.get(h, 0) > threshold


@dataclass(frozen=True)
class Contact:
    """One hex met by the line: how, and where along it (``t`` from 0 at the viewer to 1)."""

    hex: Hex
    how: str
    t: Fraction
    partner: Hex | None = None
    side: int = 0


@dataclass(frozen=True)
class SideContact:
    """One obstacle hexside met by the line."""

    hexside: Hexside
    how: str  # "crossed" | "along" | "corner"
    t: Fraction


@dataclass(frozen=True)
class LosResult:
    """The verdict and everything needed to explain it."""

    origin: Hex
    target: Hex
    visible: bool
    convention: Convention
    rule: str
    range: int
    touched: tuple[Contact, ...]
    blocked_by: tuple[Hex, ...]
    blocking_hexsides: tuple[Hexside, ...]
    block_t: Fraction | None
    block_point: tuple[float, float] | None


def _segment_side_contact(a: Hex, b: Hex, side: Hexside) -> tuple[str, Fraction] | None:
    """How the segment between the centres of ``a`` and ``b`` meets a hex edge, exactly."""
    d = side.a.direction_to(side.b)
    corners = lattice_corners(side.a)
    (e0x, e0y), (e1x, e1y) = corners[d], corners[(d + 1) % 6]
    p0x, p0y = 3 * a.q, 3 * a.r
    dx, dy = 3 * (b.q - a.q), 3 * (b.r - a.r)
    o0 = dx * (e0y - p0y) - dy * (e0x - p0x)
    o1 = dx * (e1y - p0y) - dy * (e1x - p0x)
    dd = dx * dx + dy * dy

    def along(px: int, py: int) -> Fraction:
        return Fraction(dx * (px - p0x) + dy * (py - p0y), dd)

    if o0 == 0 and o1 == 0:
        t0, t1 = sorted((along(e0x, e0y), along(e1x, e1y)))
        lo, hi = max(t0, Fraction(0)), min(t1, Fraction(1))
        if lo > hi:
            return None
        return ("along" if lo < hi else "corner"), lo
    if o0 == 0 or o1 == 0:
        px, py = (e0x, e0y) if o0 == 0 else (e1x, e1y)
        t = along(px, py)
        return ("corner", t) if 0 <= t <= 1 else None
    if (o0 > 0) == (o1 > 0):
        return None
    ex, ey = e1x - e0x, e1y - e0y
    s0 = ex * (p0y - e0y) - ey * (p0x - e0x)
    s1 = ex * (p0y + dy - e0y) - ey * (p0x + dx - e0x)
    if (s0 > 0) == (s1 > 0):
        return None
    return "crossed", Fraction(s0, s0 - s1)


class LosEngine:
    """Exact line of sight on one grid; reuses contact geometry across queries."""

    def __init__(self, grid: Grid):
        self.grid = grid
        hx = np.array(grid.hex_list, dtype=np.int64)
        # Flattened hex arrays with a margin of two hexes: a line between two
        # map hexes only meets hexes within one step of the map.
        self._q0, self._r0 = int(hx[:, 0].min()) - 2, int(hx[:, 1].min()) - 2
        self._stride = int(hx[:, 1].max()) - self._r0 + 3
        self._size = (int(hx[:, 0].max()) - self._q0 + 3) * self._stride
        self._hex_cells = self.cells(hx)
        self._on_map = np.zeros(self._size, dtype=bool)
        self._on_map[self._hex_cells] = True
        self.table = OffsetTable(grid, self._stride)

    def cells(self, hexes: np.ndarray) -> np.ndarray:
        """Flat cell numbers of an ``(n, 2)`` array of hexes near the map."""
        return (hexes[:, 0] - self._q0) * self._stride + (hexes[:, 1] - self._r0)

    # -- one pair -----------------------------------------------------------
    def contacts(self, a: Hex, b: Hex) -> list[Contact]:
        """Every hex between ``a`` and ``b`` that the segment meets, in order from ``a``."""
        if a == b:
            return []
        slot = int(self.table.slots(np.array([[b.q - a.q, b.r - a.r]]))[0])
        t = self.table
        sl = slice(int(t.indptr[slot]), int(t.indptr[slot + 1]))
        scale = int(t.scale[slot])
        out = []
        for dq, dr, kind, side, pdq, pdr, lo in zip(t.dq[sl].tolist(), t.dr[sl].tolist(), t.kind[sl].tolist(),
                                                    t.side[sl].tolist(), t.pdq[sl].tolist(), t.pdr[sl].tolist(),
                                                    t.lo[sl].tolist()):
            partner = Hex(a.q + pdq, a.r + pdr) if kind == HEXSIDE else None
            out.append(Contact(Hex(a.q + dq, a.r + dr), KIND_NAMES[kind], Fraction(lo, scale), partner, side))
        return out

    def check(self, a: Hex, b: Hex, convention: Convention | str = Convention.TOUCH,
              obstacles: Obstacles = Obstacles(), rule: str = "") -> LosResult:
        """Line of sight from the centre of ``a`` to the centre of ``b``."""
        conv = Convention(convention)
        contacts = self.contacts(a, b)
        thr = obstacles.threshold(a, b)
        on_map = self.grid.hex_set
        ob = {c.hex for c in contacts if c.hex in on_map and obstacles.blocks(c.hex, thr)}
        blocking = [c for c in contacts if c.hex in ob and self._hex_blocks(c, conv, ob)]
        block_t = blocking[0].t if blocking else None
        if conv is Convention.BOTH_SIDES:
            flank = {s: [c for c in contacts if c.how == "hexside" and c.side == s and c.hex in ob] for s in (1, -1)}
            if flank[1] and flank[-1]:
                spine_t = max(flank[1][0].t, flank[-1][0].t)
                blocking = sorted(blocking + flank[1] + flank[-1], key=lambda c: (c.t, c.hex))
                block_t = spine_t if block_t is None else min(block_t, spine_t)
        sides = self._side_blocks(a, b, conv, obstacles.hexsides, contacts)
        if sides and (block_t is None or sides[0].t < block_t):
            block_t = sides[0].t
        blocked_by = tuple(dict.fromkeys(c.hex for c in blocking))
        return LosResult(
            origin=a, target=b, visible=block_t is None, convention=conv, rule=rule, range=a.distance(b),
            touched=tuple(contacts), blocked_by=blocked_by, blocking_hexsides=tuple(s.hexside for s in sides),
            block_t=block_t, block_point=None if block_t is None else self.point_at(a, b, block_t),
        )

    @staticmethod
    def _hex_blocks(c: Contact, conv: Convention, ob: set[Hex]) -> bool:
        if conv is Convention.TOUCH:
            return True
        if c.how == "interior":
            return True
        return c.how == "hexside" and c.partner in ob

    @staticmethod
    def _side_blocks(a: Hex, b: Hex, conv: Convention, sides: frozenset[Hexside],
                     contacts: Iterable[Contact]) -> list[SideContact]:
        if not sides or a == b:
            return []
        near = {a, b, *(c.hex for c in contacts)}
        keys = {hexside(h, n) for h in near for n in h.neighbors()} & sides
        found = []
        for key in keys:
            hit = _segment_side_contact(a, b, key)
            if hit and (conv is Convention.TOUCH or hit[0] == "crossed"):
                found.append(SideContact(key, *hit))
        return sorted(found, key=lambda s: (s.t, s.hexside))

    def point_at(self, a: Hex, b: Hex, t: Fraction) -> tuple[float, float]:
        """Map-unit point at parameter ``t`` along the segment between the two centres."""
        x0, y0 = self.grid.layout.centre(a)
        x1, y1 = self.grid.layout.centre(b)
        f = float(t)
        return (x0 + (x1 - x0) * f, y0 + (y1 - y0) * f)

    # -- one to all ---------------------------------------------------------
    def visible_from(self, a: Hex, convention: Convention | str = Convention.TOUCH,
                     obstacles: Obstacles = Obstacles(), targets: Iterable[Hex] | None = None,
                     max_range: int | None = None) -> dict[Hex, bool]:
        """Visibility from ``a`` to every hex of the map (or of ``targets``) in one call.

        Gives the same answer as :meth:`check` for each target, vectorised.
        """
        hexes = self.grid.hex_list if targets is None else tuple(Hex(*h) for h in targets)
        tg = np.array(hexes, dtype=np.int64).reshape(-1, 2)
        off = tg - np.array(a, dtype=np.int64)
        keep = np.any(off != 0, axis=1)
        if max_range is not None:
            keep &= np.maximum.reduce([np.abs(off[:, 0]), np.abs(off[:, 1]), np.abs(off.sum(axis=1))]) <= max_range
        ok = np.ones(len(tg), dtype=bool)
        idx = np.flatnonzero(keep)
        if len(idx):
            ok[idx] = self._visible_many(a, tg[idx], off[idx], Convention(convention), obstacles)
        if max_range is None:
            return dict(zip(hexes, ok.tolist()))
        return {h: v for h, v, k in zip(hexes, ok.tolist(), keep.tolist()) if k or h == a}

    def _obstacle_arrays(self, obstacles: Obstacles) -> tuple[np.ndarray, np.ndarray | None]:
        block = np.zeros(self._size, dtype=bool)
        if obstacles.hexes:
            block[self._cells_of(obstacles.hexes)] = True
        block &= self._on_map
        if obstacles.elevation == "none":
            return block, None
        level = np.zeros(self._size, dtype=np.float64)
        items = [(h, v) for h, v in obstacles.levels.items() if h in self.grid.hex_set]
        if items:
            level[self.cells(np.array([h for h, _ in items], dtype=np.int64))] = [v for _, v in items]
        return block, level

    def _cells_of(self, hexes: Iterable[Hex]) -> np.ndarray:
        """Cells of the given hexes that lie on the map."""
        on = [h for h in hexes if h in self.grid.hex_set]
        return self.cells(np.array(on, dtype=np.int64).reshape(-1, 2))

    def _visible_many(self, a: Hex, tg: np.ndarray, off: np.ndarray, conv: Convention,
                      obstacles: Obstacles) -> np.ndarray:
        t = self.table
        entries, owner = t.gather(t.slots(off))
        block, level = self._obstacle_arrays(obstacles)
        base = int(self.cells(np.array([a]))[0])
        n = len(tg)

        if level is not None:
            la = obstacles.levels.get(a, 0)
            lt = level[self.cells(tg)]
            thr = np.maximum(lt, la) if obstacles.elevation == "higher-than-both" else np.minimum(lt, la)

        def obstacle(cells: np.ndarray, owners: np.ndarray) -> np.ndarray:
            ob = block[cells]
            if level is not None:
                ob |= (level[cells] > thr[owners]) & self._on_map[cells]
            return ob

        def per_target(mask: np.ndarray) -> np.ndarray:
            return np.bincount(owner[mask], minlength=n) > 0

        ob = obstacle(t.cell[entries] + base, owner)
        if conv is Convention.TOUCH:
            blocked = per_target(ob)
        else:
            hit = ob & (t.kind[entries] == INTERIOR)
            spine = np.flatnonzero(ob & (t.kind[entries] == HEXSIDE))
            if len(spine):
                # Only obstacle hexes met along a hexside need their partner looked at.
                on_spine = entries[spine]
                hit[spine] = obstacle(t.pcell[on_spine] + base, owner[spine])
                if conv is Convention.BOTH_SIDES:
                    side = t.side[on_spine]
                    left, right = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
                    left[owner[spine][side > 0]] = True
                    right[owner[spine][side < 0]] = True
                    hit[spine[(left & right)[owner[spine]]]] = True
            blocked = per_target(hit)
        visible = ~blocked
        if obstacles.hexsides:
            visible = self._refine_hexsides(a, tg, visible, conv, obstacles, per_target(
                np.isin(t.cell[entries] + base, self._cells_of(h for s in obstacles.hexsides for h in s))))
        return visible

    def _refine_hexsides(self, a: Hex, tg: np.ndarray, visible: np.ndarray, conv: Convention,
                         obstacles: Obstacles, passes_near: np.ndarray) -> np.ndarray:
        """Re-check, exactly, the visible targets whose line meets a hex of an obstacle hexside."""
        ends = {h for s in obstacles.hexsides for h in s}
        cand = passes_near | np.array([Hex(int(q), int(r)) in ends for q, r in tg], dtype=bool)
        if a in ends:
            cand[:] = True
        out = visible.copy()
        for i in np.flatnonzero(cand & visible):
            b = Hex(int(tg[i, 0]), int(tg[i, 1]))
            out[i] = not self._side_blocks(a, b, conv, obstacles.hexsides, self.contacts(a, b))
        return out
