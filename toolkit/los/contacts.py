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

from ..hexgrid import cube_round_array

INTERIOR, HEXSIDE, CORNER = 1, 2, 3
KIND_NAMES = {INTERIOR: "interior", HEXSIDE: "hexside", CORNER: "corner"}

# Axial step that raises the strip value of family x-y, y-z, z-x by 2: the
# partner across a hexside of that family lies one such step away.
_FAMILY_STEP = np.array([(1, 0), (0, -1), (-1, 1)], dtype=np.int64)
_NEIGHBOURHOOD = np.array([(0, 0), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)], dtype=np.int64)


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


def _candidates(offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Segment index and hex of every hex that may meet each segment.

    Sampling the segment at each of its ``N + 1`` hex steps and taking the
    rounded hex with its six neighbours is a superset: any point of the
    segment is within half a step of a sample, and a sample is within 2/3 of
    its hex centre, so any hex met lies within cube distance < 2 of it.
    """
    dq, dr = offsets[:, 0], offsets[:, 1]
    n = np.maximum.reduce([np.abs(dq), np.abs(dr), np.abs(dq + dr)])
    counts = n + 1
    seg = np.repeat(np.arange(len(offsets)), counts)
    starts = np.cumsum(counts) - counts
    j = np.arange(int(counts.sum())) - np.repeat(starts, counts)
    frac = j / np.repeat(n, counts)
    rq, rr = cube_round_array(frac * dq[seg], frac * dr[seg])
    seg7 = np.repeat(seg, 7)
    cq = np.repeat(rq, 7) + np.tile(_NEIGHBOURHOOD[:, 0], len(rq))
    cr = np.repeat(rr, 7) + np.tile(_NEIGHBOURHOOD[:, 1], len(rr))
    # Drop the two end hexes, then duplicates.
    keep = ~(((cq == 0) & (cr == 0)) | ((cq == dq[seg7]) & (cr == dr[seg7])))
    seg7, cq, cr = seg7[keep], cq[keep], cr[keep]
    span = 2 * int(n.max(initial=0)) + 8
    key = (seg7 * span + (cq + span // 2)) * span + (cr + span // 2)
    _, first = np.unique(key, return_index=True)
    return seg7[first], cq[first], cr[first]


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

    seg, hq, hr = _candidates(offsets)
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
