"""The hexes of a grid as arrays, and one table of segment contacts for every offset between two of them.

Contacts depend only on the offset between viewer and target, so one table
serves every viewer.  Its segments are ordered by ``dq``, then ``dr``, and the
hexes of the map by ``q``, then ``r``: for any viewer, the targets of one map
column ``q`` are one run of consecutive segments, so a one-to-all query
gathers its entries with one slice per column -- no per-target indexing.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..hexgrid import Grid, Hex
from .contacts import band_cells

#: Largest number of contact entries classified in one numpy batch (caps temporary memory).
CHUNK_ENTRIES = 500_000


@dataclass
class Part:
    """Entries of a run of segments (one target each, in target order): ``counts`` per target, then columns."""

    counts: np.ndarray
    cell: np.ndarray
    pcell: np.ndarray | None = None
    side: np.ndarray | None = None
    starts: np.ndarray | None = None  # first entry of each target, computed once per query


@dataclass
class Entries:
    """What a one-to-all query needs: every contact (``touch``), the inside contacts and the hexside runs.

    ``inside`` holds the contacts through a hex's inside; ``runs`` the hexside
    contacts (only lines parallel to a hexside have any) with their partner
    cell and side; corner grazes are only in ``every``.
    """

    every: Part | None
    inside: Part | None
    runs: Part | None


class _CSR:
    """Entries grouped by segment: ``indptr`` and columns."""

    def __init__(self, indptr: np.ndarray, **cols: np.ndarray):
        self.indptr = indptr
        self.count = np.diff(indptr)
        self.cols = cols

    @property
    def nbytes(self) -> int:
        return self.indptr.nbytes + self.count.nbytes + sum(c.nbytes for c in self.cols.values())

    def part(self, sa: list[int], sb: list[int], names: tuple[str, ...]) -> Part:
        """Entries of the segment ranges ``sa[i]:sb[i]``, concatenated."""
        ip = self.indptr
        ea, eb = ip[sa].tolist(), ip[sb].tolist()
        cat = np.concatenate
        counts = cat([self.count[a:b] for a, b in zip(sa, sb)])
        cols = {name: cat([self.cols[name][a:b] for a, b in zip(ea, eb)]) for name in names}
        return Part(counts, **cols)


def split_entries(indptr: np.ndarray, cell: np.ndarray, pcell: np.ndarray, side: np.ndarray) -> dict[str, _CSR]:
    """The three groups of :class:`Entries` from :func:`band_cells` output."""
    seg = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
    out = {"every": _CSR(indptr, cell=cell)}
    for name, mask, cols in (("inside", pcell == cell, ("cell",)), ("runs", side != 0, ("cell", "pcell", "side"))):
        counts = np.bincount(seg[mask], minlength=len(indptr) - 1)
        ip = np.concatenate([[0], np.cumsum(counts)])
        data = {"cell": cell, "pcell": pcell, "side": side}
        out[name] = _CSR(ip, **{c: data[c][mask] for c in cols})
    return out


NEEDS = {"touch": ("every",), "cross": ("inside", "runs"), "both-sides": ("inside", "runs")}
COLUMNS = {"every": ("cell",), "inside": ("cell",), "runs": ("cell", "pcell", "side")}


class HexArrays:
    """A grid's hexes on a flattened array with a margin, and their runs of equal ``q``.

    ``cell(q, r) = (q - q0) * stride + (r - r0)``; the array has ``size`` cells
    and a second, never-blocking half from ``size`` on (:attr:`sentinel`).
    Hexes are numbered in *internal* order (by ``q``, then ``r``); ``to_list``
    takes an internal-order array to the grid's ``hex_list`` order.
    """

    def __init__(self, grid: Grid):
        hx = np.array(grid.hex_list, dtype=np.int64).reshape(-1, 2)
        self.hex_list = grid.hex_list
        self.index_of = {h: i for i, h in enumerate(grid.hex_list)}
        order = np.lexsort((hx[:, 1], hx[:, 0]))
        self.order = order                        # internal index -> list index
        self.to_list = np.argsort(order)          # list index -> internal index
        self.identity = bool(np.array_equal(order, np.arange(len(order))))
        self.q = hx[order, 0]
        self.r = hx[order, 1]
        self.q0, self.r0 = int(self.q.min()) - 2, int(self.r.min()) - 2
        self.stride = int(self.r.max()) - self.r0 + 3
        self.size = (int(self.q.max()) - self.q0 + 3) * self.stride
        self.sentinel = self.size
        self.cells = ((self.q - self.q0) * self.stride + (self.r - self.r0)).astype(np.int64)
        self.on_map = np.zeros(self.size, dtype=bool)
        self.on_map[self.cells] = True
        # Runs of consecutive r at equal q, in internal order.
        brk = np.flatnonzero((np.diff(self.q) != 0) | (np.diff(self.r) != 1)) + 1
        starts = np.concatenate([[0], brk])
        ends = np.concatenate([brk, [len(self.q)]])
        self.run_start, self.run_end = starts, ends
        self.run_q = self.q[starts]
        self.run_r0, self.run_r1 = self.r[starts], self.r[ends - 1]

    def __len__(self) -> int:
        return len(self.q)

    def internal(self, h: Hex) -> int:
        """Internal index of a map hex (ValueError if it is not on the map)."""
        return int(self.to_list[self.list_index(h)])

    def list_index(self, h) -> int:
        """Index of a map hex in ``grid.hex_list`` (ValueError if it is not on the map)."""
        try:
            return self.index_of[Hex(*h)]
        except (KeyError, TypeError):
            raise ValueError(f"hex {tuple(h) if isinstance(h, tuple) else h!r} is not on the map") from None

    def offsets_from(self, v: int, first: int = 0) -> np.ndarray:
        """Offsets from internal hex ``v`` to the internal hexes ``first ..`` (an ``(n, 2)`` array)."""
        return np.stack([self.q[first:] - self.q[v], self.r[first:] - self.r[v]], axis=1)


class OffsetTable:
    """Contacts of the segment for every offset ``(dq, dr)`` between two hexes of the map, built in one go.

    Segments are grouped in blocks of equal ``dq``; block ``dq`` holds every
    ``dr`` from ``dr_min[dq]`` to ``dr_max[dq]`` (the hull of the offsets that
    occur).  ``indptr`` delimits each segment's entries in ``cell``,
    ``pcell``, ``side`` (see :func:`band_cells`).
    """

    def __init__(self, hexes: HexArrays):
        self.hexes = hexes
        qspan = int(hexes.q.max() - hexes.q.min())
        self.qspan = qspan
        # Hull of dr per dq over every pair of runs.
        i, j = np.meshgrid(np.arange(len(hexes.run_q)), np.arange(len(hexes.run_q)), indexing="ij")
        i, j = i.ravel(), j.ravel()
        dq = hexes.run_q[j] - hexes.run_q[i] + qspan
        lo = hexes.run_r0[j] - hexes.run_r1[i]
        hi = hexes.run_r1[j] - hexes.run_r0[i]
        self.dr_min = np.full(2 * qspan + 1, np.iinfo(np.int64).max, dtype=np.int64)
        self.dr_max = np.full(2 * qspan + 1, np.iinfo(np.int64).min, dtype=np.int64)
        np.minimum.at(self.dr_min, dq, lo)
        np.maximum.at(self.dr_max, dq, hi)
        width = np.maximum(self.dr_max - self.dr_min + 1, 0)
        self.block = np.concatenate([[0], np.cumsum(width)])[:-1]
        offsets = np.stack([np.repeat(np.arange(-qspan, qspan + 1), width),
                            np.concatenate([np.arange(a, b + 1) for a, b in zip(self.dr_min, self.dr_max) if b >= a])],
                           axis=1)
        self.groups = split_entries(*_classify_in_chunks(offsets, hexes.stride, hexes.sentinel))
        self.n_slots = len(offsets)

    def __len__(self) -> int:
        return self.n_slots

    @property
    def nbytes(self) -> int:
        """Memory held by the table's arrays."""
        return sum(g.nbytes for g in self.groups.values())

    def entries(self, v: int, first: int = 0, convention: str = "touch") -> Entries:
        """Contacts from internal hex ``v`` to every internal hex from ``first`` on, in internal order."""
        hx = self.hexes
        q0, r0 = int(hx.q[v]), int(hx.r[v])
        ri = int(np.searchsorted(hx.run_end, first, side="right"))
        runs = slice(ri, None)
        r_from = hx.run_r0[runs].copy()
        if len(r_from) and first > hx.run_start[ri]:
            r_from[0] = hx.r[first]  # the run holding ``first`` starts at it
        dq = hx.run_q[runs] - q0 + self.qspan
        base = self.block[dq] - self.dr_min[dq] - r0
        sa = (base + r_from).tolist()
        sb = (base + hx.run_r1[runs] + 1).tolist()
        got = {g: self.groups[g].part(sa, sb, COLUMNS[g]) if sa else _empty(g) for g in NEEDS[convention]}
        return Entries(got.get("every"), got.get("inside"), got.get("runs"))


def _empty(group: str) -> Part:
    cols = {"cell": np.zeros(0, np.int32), "pcell": np.zeros(0, np.int32), "side": np.zeros(0, np.int8)}
    return Part(np.zeros(0, np.int64), **{c: cols[c] for c in COLUMNS[group]})


def _classify_in_chunks(offsets: np.ndarray, stride: int, sentinel: int):
    """:func:`band_cells` over many offsets, in batches of about :data:`CHUNK_ENTRIES` entries."""
    n = np.maximum.reduce([np.abs(offsets[:, 0]), np.abs(offsets[:, 1]), np.abs(offsets.sum(axis=1))])
    est = np.cumsum(2 * n)
    cuts = np.searchsorted(est, np.arange(CHUNK_ENTRIES, int(est[-1]) + CHUNK_ENTRIES, CHUNK_ENTRIES)) if len(est) else []
    bounds = sorted({0, len(offsets), *(int(c) for c in cuts if 0 < c < len(offsets))})
    if len(bounds) <= 2:
        return band_cells(offsets, stride, sentinel)
    parts = [band_cells(offsets[a:b], stride, sentinel) for a, b in zip(bounds, bounds[1:])]
    shift = np.cumsum([0] + [int(p[0][-1]) for p in parts])
    indptr = np.concatenate([[0]] + [p[0][1:] + s for p, s in zip(parts, shift)])
    return (indptr, np.concatenate([p[1] for p in parts]), np.concatenate([p[2] for p in parts]),
            np.concatenate([p[3] for p in parts]))


def direct_entries(hexes: HexArrays, v: int, first: int = 0, convention: str = "touch") -> Entries:
    """The same entries as :meth:`OffsetTable.entries`, classified on the spot (no table)."""
    indptr, cell, pcell, side = band_cells(hexes.offsets_from(v, first), hexes.stride, hexes.sentinel)
    if convention == "touch":
        return Entries(Part(np.diff(indptr), cell), None, None)
    groups = split_entries(indptr, cell, pcell, side)
    got = {g: Part(groups[g].count, **groups[g].cols) for g in NEEDS[convention]}
    return Entries(got.get("every"), got.get("inside"), got.get("runs"))
