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
from fractions import Fraction
from functools import lru_cache
from typing import Iterable, Mapping

import numpy as np

from ..hexgrid import Grid, Hex, Hexside, hexside, lattice_corners
from .contacts import HEXSIDE, KIND_NAMES, classify_offsets
from .convention import Convention
from .table import Entries, HexArrays, OffsetTable, direct_entries


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


def _segment_side_contact(a: Hex, b: Hex, side: Hexside) -> tuple[str, Fraction, tuple[int, int] | None, int] | None:
    """How the segment between the centres of ``a`` and ``b`` meets a hex edge, exactly.

    Returns ``(how, t, vertex, other)``: ``how`` is ``crossed`` (through the
    edge's inside, from one side to the other), ``along`` or ``corner`` (only
    an end point of the edge is on the segment); for ``corner``, ``vertex`` is
    that end point on the lattice and ``other`` the side (+1/-1) of the line
    the edge's other end lies on (0 when the edge lies on the line).
    """
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
        return ("along" if lo < hi else "corner"), lo, None, 0
    if o0 == 0 or o1 == 0:
        (px, py), other = ((e0x, e0y), o1) if o0 == 0 else ((e1x, e1y), o0)
        t = along(px, py)
        return ("corner", t, (px, py), 1 if other > 0 else -1) if 0 <= t <= 1 else None
    if (o0 > 0) == (o1 > 0):
        return None
    ex, ey = e1x - e0x, e1y - e0y
    s0 = ex * (p0y - e0y) - ey * (p0x - e0x)
    s1 = ex * (p0y + dy - e0y) - ey * (p0x + dx - e0x)
    if (s0 > 0) == (s1 > 0):
        return None
    return "crossed", Fraction(s0, s0 - s1), None, 0


@lru_cache(maxsize=8192)
def _offset_contacts(dq: int, dr: int) -> tuple[tuple[int, int, int, int, int, int, Fraction], ...]:
    """Contacts of the segment ``(0, 0) -> (dq, dr)``, in order along it (shared by every engine)."""
    t = classify_offsets([(dq, dr)])
    scale = int(t.scale[0])
    cols = (t.dq.tolist(), t.dr.tolist(), t.kind.tolist(), t.side.tolist(), t.pdq.tolist(), t.pdr.tolist(),
            t.lo.tolist())
    return tuple((q, r, k, s, pq, pr, Fraction(lo, scale)) for q, r, k, s, pq, pr, lo in zip(*cols))


@dataclass(frozen=True)
class ObstacleArrays:
    """Obstacles laid out on the engine's flattened hex array (see :meth:`LosEngine.obstacle_arrays`)."""

    block: np.ndarray             # bool, obstacle hexes (never outside the map, never in the sentinel half)
    level: np.ndarray | None      # float levels (-inf off the map) when an elevation rule applies
    elevation: str
    walls: frozenset[Hexside]
    wall_hex: np.ndarray | None   # bool, hexes with an obstacle hexside


#: Conventions whose verdict is the same from either end (all three: see docs/line-of-sight.md).
SYMMETRIC = frozenset(Convention)


class LosEngine:
    """Exact line of sight on one grid; shares contact geometry across queries.

    The first one-to-all query classifies its own segments on the spot; the
    second builds :attr:`table`, the contacts of every offset between two map
    hexes, which makes every later query from any viewer a few gathers.
    """

    def __init__(self, grid: Grid):
        self.grid = grid
        self.hexes = HexArrays(grid)
        self._table: OffsetTable | None = None
        self._queries = 0
        self._arrays: dict[int, tuple[Obstacles, ObstacleArrays]] = {}

    @property
    def table(self) -> OffsetTable:
        """The contacts of every offset between two map hexes (built on first use)."""
        if self._table is None:
            self._table = OffsetTable(self.hexes)
        return self._table

    def prepare(self) -> "LosEngine":
        """Build :attr:`table` now rather than at the second one-to-all query."""
        self.table  # noqa: B018
        return self

    def _hex(self, h, what: str = "hex") -> Hex:
        """``h`` as a map :class:`Hex`; ValueError when it is not on the map."""
        try:
            hh = Hex(*h)
        except TypeError:
            raise ValueError(f"{what} {h!r} is not a hex (q, r)") from None
        if hh not in self.hexes.index_of:
            raise ValueError(f"{what} {tuple(hh)} is not on the map")
        return hh

    # -- one pair -----------------------------------------------------------
    def contacts(self, a: Hex, b: Hex) -> list[Contact]:
        """Every hex between ``a`` and ``b`` that the segment meets, in order from ``a``."""
        a, b = self._hex(a, "from"), self._hex(b, "to")
        if a == b:
            return []
        out = []
        for dq, dr, kind, side, pdq, pdr, t in _offset_contacts(b.q - a.q, b.r - a.r):
            partner = Hex(a.q + pdq, a.r + pdr) if kind == HEXSIDE else None
            out.append(Contact(Hex(a.q + dq, a.r + dr), KIND_NAMES[kind], t, partner, side))
        return out

    def check(self, a: Hex, b: Hex, convention: Convention | str = Convention.TOUCH,
              obstacles: Obstacles = Obstacles(), rule: str = "") -> LosResult:
        """Line of sight from the centre of ``a`` to the centre of ``b`` (both must be map hexes)."""
        conv = Convention(convention)
        a, b = self._hex(a, "from"), self._hex(b, "to")
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
        """The obstacle hexsides (walls) that block the segment, in order along it.

        Under ``touch`` every wall met blocks.  Otherwise a wall blocks where the
        line passes from one side of it to the other: through the inside of a
        wall hexside, or through a corner where walls meet with walls on *both*
        sides of the line (a joint of a chain); touching a joint with every wall
        on one side, or running along a wall, does not block.
        """
        if not sides or a == b:
            return []
        near = {a, b, *(c.hex for c in contacts)}
        keys = {hexside(h, n) for h in near for n in h.neighbors()} & sides
        found, joints = [], {}
        for key in sorted(keys):
            hit = _segment_side_contact(a, b, key)
            if hit is None:
                continue
            how, t, vertex, other = hit
            if conv is Convention.TOUCH or how == "crossed":
                found.append(SideContact(key, how, t))
            elif vertex is not None:
                joints.setdefault(vertex, []).append((other, key, t))
        for ends in joints.values():
            if {o for o, _, _ in ends} == {1, -1}:
                found += [SideContact(key, "joint", t) for _, key, t in ends]
        return sorted(found, key=lambda s: (s.t, s.hexside))

    def point_at(self, a: Hex, b: Hex, t: Fraction) -> tuple[float, float]:
        """Map-unit point at parameter ``t`` along the segment between the two centres."""
        x0, y0 = self.grid.layout.centre(a)
        x1, y1 = self.grid.layout.centre(b)
        f = float(t)
        return (x0 + (x1 - x0) * f, y0 + (y1 - y0) * f)

    # -- obstacles as arrays -------------------------------------------------
    def obstacle_arrays(self, obstacles: "Obstacles | np.ndarray") -> ObstacleArrays:
        """Obstacles on the flattened hex array; cached per :class:`Obstacles` object.

        ``obstacles`` may also be a boolean array over ``grid.hex_list`` (the
        blocking hexes; no levels, no walls).
        """
        hx = self.hexes
        if isinstance(obstacles, np.ndarray):
            mask = np.asarray(obstacles, dtype=bool)
            if mask.shape != (len(hx),):
                raise ValueError(f"obstacle array of shape {mask.shape}: expected ({len(hx)},), one per map hex")
            block = np.zeros(2 * hx.size, dtype=bool)
            block[hx.cells[hx.to_list[mask]]] = True
            return ObstacleArrays(block, None, "none", frozenset(), None)
        hit = self._arrays.get(id(obstacles))
        if hit is not None and hit[0] is obstacles:
            return hit[1]
        idx = hx.index_of
        block = np.zeros(2 * hx.size, dtype=bool)
        on = [idx[h] for h in obstacles.hexes if h in idx]
        block[hx.cells[hx.to_list[np.array(on, dtype=np.int64)]]] = True
        level = None
        if obstacles.elevation != "none":
            level = np.full(2 * hx.size, -np.inf)
            level[hx.cells] = 0.0
            items = [(idx[h], v) for h, v in obstacles.levels.items() if h in idx]
            if items:
                li = np.array([i for i, _ in items], dtype=np.int64)
                level[hx.cells[hx.to_list[li]]] = [v for _, v in items]
        wall_hex = None
        if obstacles.hexsides:
            wall_hex = np.zeros(2 * hx.size, dtype=bool)
            ends = [idx[h] for s in obstacles.hexsides for h in s if h in idx]
            wall_hex[hx.cells[hx.to_list[np.array(ends, dtype=np.int64)]]] = True
        arrays = ObstacleArrays(block, level, obstacles.elevation, frozenset(obstacles.hexsides), wall_hex)
        if len(self._arrays) >= 16:
            self._arrays.pop(next(iter(self._arrays)))
        self._arrays[id(obstacles)] = (obstacles, arrays)
        return arrays

    # -- one to all ---------------------------------------------------------
    def visible_array(self, a: Hex | int, convention: Convention | str = Convention.TOUCH,
                      obstacles: "Obstacles | ObstacleArrays | np.ndarray" = Obstacles()) -> np.ndarray:
        """Visibility from ``a`` (a map hex or its index in ``grid.hex_list``) to every map hex.

        Array in, array out: a boolean array in ``grid.hex_list`` order (the
        viewer's own hex is visible).  ``obstacles`` may be :class:`Obstacles`,
        prepared :class:`ObstacleArrays` or a boolean array over ``hex_list``.
        """
        hx = self.hexes
        if isinstance(a, (int, np.integer)):
            if not 0 <= int(a) < len(hx):
                raise ValueError(f"hex index {int(a)} is not on the map (0..{len(hx) - 1})")
            v = int(hx.to_list[int(a)])
        else:
            v = hx.internal(self._hex(a, "from"))
        arrays = obstacles if isinstance(obstacles, ObstacleArrays) else self.obstacle_arrays(obstacles)
        out = self._visible_internal(v, Convention(convention), arrays)
        return out if hx.identity else out[hx.to_list]

    def visible_from(self, a: Hex, convention: Convention | str = Convention.TOUCH,
                     obstacles: Obstacles = Obstacles(), targets: Iterable[Hex] | None = None,
                     max_range: int | None = None) -> dict[Hex, bool]:
        """Visibility from ``a`` to every hex of the map (or of ``targets``) in one call, as ``{hex: visible}``.

        Gives the same answer as :meth:`check` for each target.  Every hex must be a map hex.
        """
        a = self._hex(a, "from")
        hx = self.hexes
        if targets is None:
            hexes = self.grid.hex_list
            pick = None
        else:
            hexes = tuple(self._hex(h, "target") for h in targets)
            pick = np.array([hx.index_of[h] for h in hexes], dtype=np.int64)
        vis = self.visible_array(a, convention, obstacles)
        vals = (vis if pick is None else vis[pick]).tolist()
        if max_range is None:
            return dict(zip(hexes, vals))
        return {h: v for h, v in zip(hexes, vals) if a.distance(h) <= max_range}

    def _entries(self, v: int, first: int, conv: Convention) -> Entries:
        self._queries += 1
        if self._table is None and self._queries <= 1:
            return direct_entries(self.hexes, v, first, conv.value)
        return self.table.entries(v, first, conv.value)

    def _visible_internal(self, v: int, conv: Convention, arrays: ObstacleArrays, first: int = 0) -> np.ndarray:
        """Visibility from internal hex ``v`` to the internal hexes ``first ..``."""
        hx = self.hexes
        n = len(hx) - first
        if n <= 0:
            return np.zeros(0, dtype=bool)
        e = self._entries(v, first, conv)
        base = int(hx.cells[v])
        block, level = arrays.block, arrays.level
        thr_t = None
        if level is not None:
            lv, lt = level[base], level[hx.cells[first:]]
            thr_t = np.maximum(lt, lv) if arrays.elevation == "higher-than-both" else np.minimum(lt, lv)

        def obstacle(part, cells: np.ndarray) -> np.ndarray:
            ob = block[cells]
            if thr_t is not None:
                ob |= level[cells] > np.repeat(thr_t, part.counts)
            return ob

        def any_per_target(part, mask: np.ndarray) -> np.ndarray:
            if len(mask) == 0:
                return np.zeros(n, dtype=bool)
            if part.starts is None:
                part.starts = np.cumsum(part.counts) - part.counts
            starts = part.starts
            if starts[-1] >= len(mask):  # trailing targets without entries: reduceat needs a start inside
                mask = np.concatenate([mask, [False]])
            return np.logical_or.reduceat(mask, starts) & (part.counts > 0)

        if conv is Convention.TOUCH:
            blocked = any_per_target(e.every, obstacle(e.every, e.every.cell + base))
        else:
            blocked = any_per_target(e.inside, obstacle(e.inside, e.inside.cell + base))
            runs = e.runs
            if len(runs.cell):
                ob = obstacle(runs, runs.cell + base)
                blocked |= any_per_target(runs, ob & obstacle(runs, runs.pcell + base))
                if conv is Convention.BOTH_SIDES:
                    blocked |= any_per_target(runs, ob & (runs.side > 0)) & any_per_target(runs, ob & (runs.side < 0))
        visible = ~blocked
        if arrays.walls:
            every = e.every if e.every is not None else self._entries(v, first, Convention.TOUCH).every
            near = any_per_target(every, arrays.wall_hex[every.cell + base])
            near |= arrays.wall_hex[hx.cells[first:]] | arrays.wall_hex[base]
            a = Hex(int(hx.q[v]), int(hx.r[v]))
            for i in np.flatnonzero(near & visible).tolist():
                b = Hex(int(hx.q[first + i]), int(hx.r[first + i]))
                if b != a and self._side_blocks(a, b, conv, arrays.walls, self.contacts(a, b)):
                    visible[i] = False
        return visible

    # -- all to all ----------------------------------------------------------
    def visibility_matrix(self, convention: Convention | str = Convention.TOUCH,
                          obstacles: "Obstacles | np.ndarray" = Obstacles(), block_rows: int = 256):
        """Who sees whom, for every pair of map hexes, as a packed bit matrix (see :mod:`toolkit.los.matrix`)."""
        from .matrix import VisibilityMatrix

        conv = Convention(convention)
        arrays = self.obstacle_arrays(obstacles)
        hx = self.hexes
        n = len(hx)
        self.prepare()
        packed = np.zeros((n, (n + 7) // 8), dtype=np.uint8)
        symmetric = conv in SYMMETRIC
        for i0 in range(0, n, block_rows):
            i1 = min(n, i0 + block_rows)
            rows = np.zeros((i1 - i0, n), dtype=bool)
            for v in range(i0, i1):
                if symmetric:
                    rows[v - i0, v] = True
                    rows[v - i0, v + 1:] = self._visible_internal(v, conv, arrays, v + 1)
                else:
                    rows[v - i0] = self._visible_internal(v, conv, arrays)
            if symmetric:
                own = rows[:, i0:i1]
                rows[:, i0:i1] = own | own.T
                if i0:
                    lo, hi = i0 // 8, (i1 + 7) // 8
                    bits = np.unpackbits(packed[:i0, lo:hi], axis=1)[:, i0 - 8 * lo:i1 - 8 * lo]
                    rows[:, :i0] = bits.T
            packed[i0:i1] = np.packbits(rows, axis=1)
        hexes = tuple(Hex(int(q), int(r)) for q, r in zip(hx.q.tolist(), hx.r.tolist()))
        return VisibilityMatrix(hexes, packed, conv)
