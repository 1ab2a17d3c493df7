"""Small Siege of Jerusalem positions built in memory for the rules tests."""
from __future__ import annotations

from toolkit.game import PositionFile, position_from_file


def pos(units, markers=(), turn="AP I/1", phase="movement", side="roman", params=None):
    """A position: ``units`` are ``(id, counter, hex, flags...)`` or dicts; ``markers`` dicts."""
    us = []
    for u in units:
        if isinstance(u, dict):
            us.append(u)
        else:
            uid, counter, hx, *flags = u
            us.append({"id": uid, "counter": counter, "hex": hx, "flags": list(flags)})
    pf = PositionFile(game="siege-of-jerusalem", turn=turn, phase=phase, phasing_side=side,
                      params=params or {}, units=us, markers=list(markers))
    return position_from_file(pf)
