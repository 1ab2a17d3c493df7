"""An independent, exact rational reference for segment/hex contacts.

Cyrus-Beck clipping of the segment against each hexagon's six edges in the
integer lattice plane, with :class:`fractions.Fraction` parameters.  Used only
by the tests to check :mod:`toolkit.los.contacts`, which works differently
(cube strips, vectorised integers).
"""
from fractions import Fraction

import numpy as np

from toolkit.hexgrid import CORNERS
from toolkit.los.contacts import CORNER, HEXSIDE, INTERIOR


def _cross(ax, ay, bx, by):
    return ax * by - ay * bx


def clip_kind(dx, dy, cx, cy):
    """Contact kind of segment (0,0)->(dx,dy) with the hexagon centred at (cx,cy), or None."""
    t_lo, t_hi, on_edge = Fraction(0), Fraction(1), False
    corners = [(cx + ox, cy + oy) for ox, oy in CORNERS]
    orient = 1 if _cross(corners[1][0] - corners[0][0], corners[1][1] - corners[0][1],
                         corners[2][0] - corners[0][0], corners[2][1] - corners[0][1]) > 0 else -1
    for k in range(6):
        (x0, y0), (x1, y1) = corners[k], corners[(k + 1) % 6]
        ex, ey = x1 - x0, y1 - y0
        f0 = orient * _cross(ex, ey, -x0, -y0)      # inside when >= 0
        fd = orient * _cross(ex, ey, dx, dy)
        if fd == 0:
            if f0 < 0:
                return None
            on_edge |= f0 == 0
            continue
        t = Fraction(-f0, fd)
        if fd > 0:
            t_lo = max(t_lo, t)
        else:
            t_hi = min(t_hi, t)
    if t_lo > t_hi:
        return None
    if t_lo == t_hi:
        return CORNER
    return HEXSIDE if on_edge else INTERIOR


def reference_contacts(offset, hexes):
    """{(dq, dr): kind} for the segment (0,0)->offset against the given relative hexes."""
    dq, dr = offset
    dx, dy = 3 * dq, 3 * dr
    hq = np.array([h[0] for h in hexes], dtype=np.int64)
    hr = np.array([h[1] for h in hexes], dtype=np.int64)
    ox = np.array([c[0] for c in CORNERS])
    oy = np.array([c[1] for c in CORNERS])
    px, py = 3 * hq[:, None] + ox, 3 * hr[:, None] + oy
    cr = dx * py - dy * px
    proj = dx * px + dy * py
    near = (cr.min(1) <= 0) & (cr.max(1) >= 0) & (proj.min(1) <= dx * dx + dy * dy) & (proj.max(1) >= 0)
    out = {}
    for q, r in zip(hq[near].tolist(), hr[near].tolist()):
        if (q, r) in ((0, 0), (dq, dr)):
            continue
        kind = clip_kind(dx, dy, 3 * q, 3 * r)
        if kind is not None:
            out[(q, r)] = kind
    return out
