"""Which side each piece slot of a published module belongs to, worked out from the module itself.

The sides are the module's ``PlayerRoster`` (without one: the values of the slots' ``side``, ``faction`` or
``army`` property, :func:`module_sides`).  A module seldom says a slot's side in one place, so each slot is
looked at in this order, the first that names one of the sides winning:

1. **a property**: a Marker trait or dynamic property of the slot or of its prototypes whose name is one of
   :data:`SIDE_PROPERTIES` (``side``, ``faction``, ``army``, ``nationality`` ...) and whose value names a side;
2. **a prototype** named after a side (``Allies``, ``Jewish``);
3. **a palette folder** named after a side: the piece window's lists, tabs and panels above the slot, the
   innermost first (``German`` names ``Germans``);
4. **by elimination**: a slot in a palette folder at the level where folders name sides (``American`` beside
   ``German``) that names no side, when exactly one side is named by no folder of that level: that side;
5. otherwise the first side, counted as not worked out.

A name names a side when, lower-cased and with everything but letters and digits dropped, the two are equal,
one of four letters or more begins the other (``german`` / ``germans``), or they share their first five
letters (``allied`` / ``allies``), or it is the initials of a side's name of two words or more (``CP``).
The import's README says how many counters each way gave, and ``counters.yaml`` corrects it.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from .moduleread import PieceDef

#: Property names whose value is a side (or a nationality naming one), lower-cased.
SIDE_PROPERTIES = ("side", "faction", "army", "nationality", "nation", "country", "player", "owner", "force",
                   "allegiance")
HOW = ("property", "prototype", "palette folder", "elimination", "not worked out")
SIDE_VALUES = ("side", "faction", "army")   # properties whose values are the sides of a module without a roster
MAX_GUESSED_SIDES = 8
ROSTER, VALUES, NONE = "the module's PlayerRoster", "the values of the pieces' {} property (the module has no " \
    "PlayerRoster)", "none found (no PlayerRoster, no side property): one side"


def module_sides(roster: list[str], pieces: list[PieceDef]) -> tuple[list[str], str]:
    """The game's side names and where they come from: the module's ``PlayerRoster``; without one, the values
    of a :data:`SIDE_VALUES` property of its piece slots (two to :data:`MAX_GUESSED_SIDES` of them, in order of
    appearance); else one side, ``Players``."""
    if roster:
        return roster, ROSTER
    for key in SIDE_VALUES:
        values = list(dict.fromkeys(v for p in pieces for k, v in p.properties if k.lower() == key and v.strip()))
        if 2 <= len(values) <= MAX_GUESSED_SIDES:
            return values, VALUES.format(repr(key))
    return ["Players"], NONE


@dataclass(frozen=True)
class SideOf:
    """A slot's side id, how it was found (one of :data:`HOW`) and the name that gave it."""

    side: str
    how: str
    source: str = ""


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def names_side(text: str, sides: list[tuple[str, str]]) -> str | None:
    """The id of the side a name names (see the module docstring), or None."""
    k = _key(text)
    if not k:
        return None
    for sid, name in sides:
        words = re.findall(r"[a-z0-9]+", name.lower())
        if len(words) >= 2 and k == "".join(w[0] for w in words):   # initials: CP for Central Powers
            return sid
        for s in {_key(sid), _key(name)} - {""}:
            if k == s or (min(len(k), len(s)) >= 4 and (k.startswith(s) or s.startswith(k))) or \
                    (len(k) >= 5 and len(s) >= 5 and k[:5] == s[:5]):
                return sid
    return None


def _direct(p: PieceDef, sides: list[tuple[str, str]]) -> tuple[SideOf | None, int | None]:
    """A slot's side by property, prototype or palette folder (steps 1-3), and the depth of the folder."""
    for k, v in p.properties:
        sid = names_side(v, sides) if k.lower() in SIDE_PROPERTIES else None
        if sid:
            return SideOf(sid, HOW[0], f"{k}={v}"), None
    for proto in p.prototypes:
        sid = names_side(proto, sides)
        if sid:
            return SideOf(sid, HOW[1], proto), None
    for depth in range(len(p.folders) - 1, -1, -1):
        sid = names_side(p.folders[depth], sides)
        if sid:
            return SideOf(sid, HOW[2], p.folders[depth]), depth
    return None, None


def sides_of(pieces: list[PieceDef], sides: list[tuple[str, str]]) -> list[SideOf]:
    """Each slot's side (``sides``: ``(id, name)`` of the module's sides, at least one)."""
    found = [_direct(p, sides) for p in pieces]
    depths = Counter(d for _, d in found if d is not None)
    level = depths.most_common(1)[0][0] if depths else None
    named = {f.side for f, d in found if d == level and d is not None}
    left = [sid for sid, _ in sides if sid not in named]
    out = []
    for p, (f, _) in zip(pieces, found):
        if f is None and len(left) == 1 and level is not None and level < len(p.folders):
            f = SideOf(left[0], HOW[3], p.folders[level])
        out.append(f or SideOf(sides[0][0], HOW[4]))
    return out


def summary(found: list[SideOf], sides: list[tuple[str, str]]) -> list[str]:
    """Lines for the README: each side's counters and how they were found, with examples of the names."""
    lines = []
    for sid, name in sides:
        mine = [f for f in found if f.side == sid]
        ways = Counter(f.how for f in mine)
        parts = []
        for how in HOW:
            if ways[how]:
                sources = sorted({f.source for f in mine if f.how == how and f.source})
                shown = ", ".join(repr(s) for s in sources[:4]) + (" ..." if len(sources) > 4 else "")
                parts.append(f"{ways[how]} by {how}" + (f" ({shown})" if shown else ""))
        lines.append(f"- {name} (`{sid}`): {len(mine)} counters" + (": " + "; ".join(parts) if parts else ""))
    return lines
