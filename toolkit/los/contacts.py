"""Exact contact classification of centre-to-centre segments with hexes.

For a segment from the centre of hex ``(0, 0)`` to the centre of hex
``(dq, dr)`` this module lists every other hex the segment meets and how:

* ``INTERIOR`` -- the segment passes through the inside of the hex;
* ``HEXSIDE``  -- it runs exactly along one of the hex's sides (the hex on
  the other side of that hexside, the *partner*, is met the same way);
* ``CORNER``   -- it only grazes one corner of the hex.

The hex of cube centre ``h`` is the set of points ``p`` with
``|(px-hx)-(py-hy)| <= 1``, ``|(py-hy)-(pz-hz)| <= 1`` and
``|(pz-hz)-(px-hx)| <= 1`` (three strips, one per pair of opposite sides).
Along the segment ``p(t) = t * (a, b, c)`` each strip is an interval of
``t`` whose ends are integers once ``t`` is scaled by ``M``, a common
multiple of the three directional coefficients; intersecting the intervals
decides the contact with integer arithmetic only -- no tolerance.  The whole
computation is vectorised with numpy over many segments at once.

>>> t = classify_offsets([(-1, 2)])        # LL27 -> KK29 on the Siege map
>>> [(int(q), int(r), KIND_NAMES[k]) for q, r, k in zip(t.dq, t.dr, t.kind)]
[(-1, 1, 'hexside'), (0, 1, 'hexside')]
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

INTERIOR, HEXSIDE, CORNER = 1, 2, 3
KIND_NAMES = {INTERIOR: "interior", HEXSIDE: "hexside", CORNER: "corner"}

# Axial step that raises the strip value of family x-y, y-z, z-x by 2: the
# partner across a hexside of that family lies one such step away.
_FAMILY_STEP = np.array([(1, 0), (0, -1), (-1, 1)], dtype=np.int64)


@dataclass(frozen=True)
class ContactTable:
    """Contacts of many segments, grouped by segment (CSR layout).

    Segment ``i`` owns entries ``indptr[i]:indptr[i + 1]``, sorted along the
    segment by ``lo`` (then ``hi``).  Per entry: the hex offset ``(dq, dr)``
    relative to the viewer, its ``kind``, the ``side`` (+1/-1 for hexside
    contacts, 0 otherwise), the partner hex ``(pdq, pdr)`` for hexside
    contacts, and the exact parameter interval ``[lo, hi] / scale[i]`` of the
    segment inside the hex.
    """

    offsets: np.ndarray
    indptr: np.ndarray
    dq: np.ndarray
    dr: np.ndarray
    kind: np.ndarray
    side: np.ndarray
    pdq: np.ndarray
    pdr: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    scale: np.ndarray

    def segment(self, i: int) -> slice:
        """The entry slice of segment ``i``."""
        return slice(int(self.indptr[i]), int(self.indptr[i + 1]))


def _frames(offsets: np.ndarray):
    """Per segment: a rotation of the grid taking it to ``(0, 0) -> (N, d)`` with ``-N <= d <= 0``.

    Returns ``(k, sign, n, d)``: the cube component ``k`` of largest magnitude
    becomes the first (a cyclic permutation of the cube coordinates, a 120°
    rotation) and ``sign`` makes it positive (a 180° rotation).  ``n`` is the
    hex distance.  Rotations of the grid keep every incidence (meeting, running
    along, touching) and every side of the line.
    """
    x, z = offsets[:, 0], offsets[:, 1]
    y = -x - z
    cube = np.stack([x, y, z], axis=1)
    k = np.argmax(np.abs(cube), axis=1)
    rows = np.arange(len(offsets))
    first = cube[rows, k]
    third = cube[rows, (k + 2) % 3]
    sign = np.where(first < 0, -1, 1)
    return k, sign, np.abs(first), sign * third


def _unframe(k: np.ndarray, sign: np.ndarray, fq: np.ndarray, fr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Axial ``(q, r)`` of frame hexes ``(fq, fr)`` under the rotations of :func:`_frames`."""
    a, b, c = sign * fq, sign * (-fq - fr), sign * fr  # frame cube components 0, 1, 2
    # Original x is frame component (-k) % 3, original z is (2 - k) % 3.
    q = np.where(k == 0, a, np.where(k == 1, c, b))
    r = np.where(k == 0, c, np.where(k == 1, b, a))
    return q, r


def band_contacts(offsets) -> tuple[np.ndarray, ...]:
    """Every hex each segment ``(0, 0) -> offset`` meets, with its contact, exactly and without candidates.

    In the frame of :func:`_frames` the segment runs from ``(0, 0)`` to
    ``(N, d)``, ``-N <= d <= 0``.  On the lattice (centres at ``3·(q, r)``)
    the line's normal is ``(-d, N)``; hex ``(q, r)`` lies at signed distance
    ``3k`` with ``k = N·r - d·q``, and the hexagon's support in that normal is
    ``h = N + max(-d, N + d)``.  So the closed hex meets the line iff
    ``3|k| <= h``, its inside iff ``3|k| < h``; on equality the line runs
    along a side when two corners tie (``2d = -N``, the only frame direction
    parallel to a side) and otherwise touches one corner.  Hex points lie
    within 2/3 of their centre's ``q``, so only columns ``1 .. N-1`` can hold
    a hex met other than the two ends, and there the whole chord of the line
    lies inside the segment.  A column holds at most two such hexes
    (``2h / 3N <= 4/3``).  The partner across a side is ``(q, r - sign k)``.

    Returns ``(segment, dq, dr, kind, side, pdq, pdr)``, grouped by segment and
    ordered along each segment by column; ``side`` is ``sign k`` for hexside
    contacts (opposite for the two hexes of a hexside), else 0.
    """
    offsets = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
    k, sign, n, d = _frames(offsets)
    h = n + np.maximum(-d, n + d)
    cols = np.maximum(n - 1, 0)
    seg = np.repeat(np.arange(len(offsets)), cols)
    first = np.cumsum(cols) - cols
    fq = np.arange(int(cols.sum()), dtype=np.int64) - np.repeat(first, cols) + 1
    ns, ds, hs = n[seg], d[seg], h[seg]
    num = 3 * ds * fq
    r_lo = -((hs - num) // (3 * ns))
    r_hi = (num + hs) // (3 * ns)
    count = np.maximum(r_hi - r_lo + 1, 0)
    pick = np.repeat(np.arange(len(seg)), count)
    j = np.arange(int(count.sum()), dtype=np.int64) - np.repeat(np.cumsum(count) - count, count)
    seg, fq, fr = seg[pick], fq[pick], r_lo[pick] + j
    ns, ds, hs = ns[pick], ds[pick], hs[pick]
    kk = ns * fr - ds * fq
    edge = 3 * np.abs(kk) == hs
    kind = np.where(~edge, INTERIOR, np.where(2 * ds == -ns, HEXSIDE, CORNER)).astype(np.int8)
    side = np.where(kind == HEXSIDE, np.sign(kk), 0).astype(np.int8)
    ks, ss = k[seg], sign[seg]
    dq, dr = _unframe(ks, ss, fq, fr)
    pdq, pdr = _unframe(ks, ss, fq, fr - side)
    pdq = np.where(kind == HEXSIDE, pdq, 0)
    pdr = np.where(kind == HEXSIDE, pdr, 0)
    return seg, dq, dr, kind, side, pdq, pdr


def band_cells(offsets, stride: int, sentinel: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`band_contacts` packed for one-to-all queries on a flattened hex array of row length ``stride``.

    Returns ``(indptr, cell, pcell, side)``: segment ``i`` owns entries
    ``indptr[i]:indptr[i + 1]``; ``cell`` is the hex met as ``dq * stride + dr``;
    ``pcell`` is what must also be an obstacle for the contact to block under
    ``cross`` -- the hex itself when met inside, the partner across the side
    for a hexside run, ``sentinel`` (never an obstacle) for a corner graze;
    ``side`` is +1/-1 for hexside runs, 0 otherwise.  Same geometry as
    :func:`band_contacts`, in int32 and without per-entry coordinates.
    """
    offsets = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
    k, sign, n, d = _frames(offsets)
    n, d = n.astype(np.int32), d.astype(np.int32)
    h = n + np.maximum(-d, n + d)
    # cell = fq * A + fr * B for the rotation of each segment (see _unframe).
    s = np.int32(stride)
    a_coef = (sign * np.array([s, -1, 1 - s], dtype=np.int32)[k]).astype(np.int32)
    b_coef = (sign * np.array([1, s - 1, -s], dtype=np.int32)[k]).astype(np.int32)
    cols = np.maximum(n - 1, 0)
    seg = np.repeat(np.arange(len(offsets), dtype=np.int32), cols)
    ends = np.cumsum(cols, dtype=np.int64)
    fq = np.arange(int(ends[-1]) if len(ends) else 0, dtype=np.int32) - np.repeat((ends - cols).astype(np.int32), cols) + 1
    ns, ds, hs = n[seg], d[seg], h[seg]
    num = 3 * ds * fq
    r_lo = -((hs - num) // (3 * ns))
    two = (num + hs) // (3 * ns) > r_lo  # a second hex in this column
    # Entries: (column, r_lo) always, (column, r_lo + 1) when ``two``; kept in column order.
    fr = np.stack([r_lo, r_lo + 1], axis=1)
    valid = np.stack([np.ones(len(fq), dtype=bool), two], axis=1)
    per_col = 1 + two.astype(np.int32)
    col_of = np.repeat(np.arange(len(fq), dtype=np.int32), per_col)
    fr = fr[valid]
    fq, seg = fq[col_of], seg[col_of]
    ns, ds, hs = ns[col_of], ds[col_of], hs[col_of]
    kk = ns * fr - ds * fq
    edge = 3 * np.abs(kk) == hs
    along = edge & (2 * ds == -ns)
    side = np.where(along, np.sign(kk), 0).astype(np.int8)
    a_e, b_e = a_coef[seg], b_coef[seg]
    cell = fq * a_e + fr * b_e
    pcell = np.where(edge, np.where(along, cell - side * b_e, np.int32(sentinel)), cell).astype(np.int32)
    csum = np.concatenate([[0], np.cumsum(per_col, dtype=np.int64)])
    indptr = csum[np.concatenate([[0], ends])]
    return indptr, cell.astype(np.int32), pcell, side


def _strip(coef: np.ndarray, value: np.ndarray, scale: np.ndarray):
    """Scaled ``t`` interval of one strip, and whether the segment lies on its edge line."""
    safe = np.where(coef == 0, 1, coef)
    a = (value - 1) * scale // safe
    b = (value + 1) * scale // safe
    lo = np.where(coef > 0, a, b)
    hi = np.where(coef > 0, b, a)
    parallel = coef == 0
    inside = np.abs(value) <= 1
    lo = np.where(parallel, np.where(inside, -1, scale + 1), lo)
    hi = np.where(parallel, np.where(inside, scale + 1, -1), hi)
    return lo, hi, parallel & (np.abs(value) == 1)


def classify_offsets(offsets) -> ContactTable:
    """Classify, exactly, every hex met by each segment ``(0,0) -> offset``.

    ``offsets`` is a sequence of axial ``(dq, dr)`` pairs, none ``(0, 0)``.
    The viewer's and target's own hexes are not listed.
    """
    offsets = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
    if len(offsets) and not np.all(np.any(offsets != 0, axis=1)):
        raise ValueError("a segment needs two different hexes")
    a, c = offsets[:, 0], offsets[:, 1]
    b = -a - c
    coefs = np.stack([a - b, b - c, c - a])  # per family, per segment
    absc = np.abs(coefs)
    scale = np.prod(np.where(absc == 0, 1, absc), axis=0)

    seg, hq, hr = band_contacts(offsets)[:3]
    hy = -hq - hr
    values = (hq - hy, hy - hr, hr - hq)
    sc = scale[seg]
    lo, hi = np.zeros_like(seg), sc.copy()
    on_edge = np.zeros(len(seg), dtype=bool)
    side = np.zeros(len(seg), dtype=np.int64)
    family = np.zeros(len(seg), dtype=np.int64)
    for k in range(3):
        klo, khi, kedge = _strip(coefs[k][seg], values[k], sc)
        lo, hi = np.maximum(lo, klo), np.minimum(hi, khi)
        on_edge |= kedge
        side = np.where(kedge, values[k], side)
        family = np.where(kedge, k, family)

    met = lo <= hi
    kind = np.where(lo == hi, CORNER, np.where(on_edge, HEXSIDE, INTERIOR))
    side = np.where(kind == HEXSIDE, side, 0)
    pdq = np.where(kind == HEXSIDE, hq - side * _FAMILY_STEP[family, 0], 0)
    pdr = np.where(kind == HEXSIDE, hr - side * _FAMILY_STEP[family, 1], 0)

    sel = np.flatnonzero(met)
    order = sel[np.lexsort((hr[sel], hq[sel], hi[sel], lo[sel], seg[sel]))]
    counts = np.bincount(seg[order], minlength=len(offsets))
    indptr = np.concatenate([[0], np.cumsum(counts)])
    return ContactTable(
        offsets=offsets, indptr=indptr, dq=hq[order], dr=hr[order], kind=kind[order].astype(np.int8),
        side=side[order].astype(np.int8), pdq=pdq[order], pdr=pdr[order], lo=lo[order], hi=hi[order],
        scale=scale,
    )
