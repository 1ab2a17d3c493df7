"""*The Siege of Jerusalem* line of fire (9.5-9.52, 9.9, 9.13, 10.3), on the exact LOS engine.

The geometry is ``toolkit.los`` under the ``cross`` convention of 9.5: an obstacle hex blocks when the
line passes through its inside; along a hexside only when both hexes of it block; a corner never.  This
module only decides which in-between hexes are obstacles for a given pair of ends, from the terrain, the
position (units, Towers, Breach markers) and ``tables.yaml`` ``line_of_fire`` (heights and readings).

The ends: a hex of an Elevated terrain (2.11) without a Breach marker is *Elevated*, with its height
(Wall, Gate, Bridge 1 < Bastion 2 < Fort, Fortress 3; the Temple District's outer walls count as
Bastions, 13.22; the Temple's central hex, the tallest structure, 4, 10.3); any other hex is *Ground
level* (height 0; a Breach is a Ground hex, 2.12).  An in-between hex is an obstacle when:

* **Buildings** (2.13): always, except the Building hexes adjoining the Temple's central hex when that
  hex is an end (10.3).
* **Built-up** (2.13, 9.51): between two Ground-level ends always; when one end is Elevated, only a
  Built-up hex next to the Ground-level end; between two Elevated ends never.
* **Elevated Hexes** (9.5, 9.9, 2.11): never when no higher than the lower end (an Elevated end fires
  over lower or equal walls); always when higher than both ends; in between, reading
  ``lower_elevated_near_higher_end``: ``fortress`` (default) -- not an obstacle when the higher end is a
  Fort/Fortress (or the Temple) and the hex is nearer to it than to the other end (9.5 example: Fort DD19
  fires past Wall CC20 at AA21; "if DD19 were a Bastion ... the LOF could be blocked"); ``higher`` -- the
  same for any higher end; ``never``.  From the Temple's central hex the Temple's own walls never block
  (10.3).
* **Slopes** (9.52): between two Ground-level ends at different elevations whose line meets a Slope
  (the ends included), more than one level Ground ("Clear") hex blocks.  Reading ``slope_count``:
  ``higher-level`` (default, symmetric) counts the level Ground hexes at the higher end's elevation
  that the line passes through, that end included; ``literal`` counts every level Ground hex crossed
  plus the target's, the firer's excluded.  TT46 sees RR48 on the crest and Bastion QQ49 behind it, not
  QQ48 (9.52 example).
* **Units** (9.9): a hex with Combat units; reading ``units_block``: ``same-level`` (default) -- it blocks
  fire between two ends at its own level (Ground-Ground through a Ground or Built-up hex, Elevated-
  Elevated through an Elevated Hex); ``all`` -- every fire; ``none``.  Indirect Fire passes over such hexes
  where 9.9 allows it (both ends at Ground level, or Elevated ends of the same height), at -1 (not added
  to the Breach -1).  A hex holding a Tower / Armored Tower is not a unit obstacle: fire through its
  inside is at -1 per such hex (9.13).
* **Breach** (9.5, 13.3): Ground-level fire from or through (not into) a Breach hex at a Ground-level
  target is at -1.

Every reading gives the same verdict from either end except ``slope_count: literal`` (property-tested).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ...game import Position
from ...game.moves import Reason
from ...hexgrid import Hex
from ...los import LosEngine, LosResult, Obstacles
from ...mapdata import CompiledMap
from .combat_tables import CombatTables, load_combat_tables

RULE = "9.5"
TOWERS = ("siege_tower", "armored_tower")
TEMPLE_DISTRICT = "Temple District"

_ENGINES: dict[tuple[str, str], LosEngine] = {}


def engine(cmap: CompiledMap) -> LosEngine:
    """One exact LOS engine per map (it caches geometry)."""
    key = (cmap.id, cmap.source_hash)
    if key not in _ENGINES:
        _ENGINES[key] = LosEngine(cmap.grid)
    return _ENGINES[key]


def default_readings(tables: CombatTables | None = None) -> dict[str, str]:
    """Each LOF reading's default (the first of its ``choices`` in tables.yaml)."""
    t = tables or load_combat_tables()
    return {k: r.choices[0] for k, r in t.line_of_fire.readings.items()}


def _readings(tables: CombatTables, given: dict[str, str] | None) -> dict[str, str]:
    out = default_readings(tables)
    for k, v in (given or {}).items():
        if k not in tables.line_of_fire.readings:
            raise ValueError(f"LOF reading {k!r}: expected one of {', '.join(tables.line_of_fire.readings)}")
        choices = tables.line_of_fire.readings[k].choices
        if v not in choices:
            raise ValueError(f"LOF reading {k}={v!r}: expected one of {', '.join(choices)}")
        out[k] = v
    return out


@dataclass(frozen=True)
class Drm:
    """A die-roll modifier with its id, rule and why."""

    id: str
    value: int
    rule: str
    why: str


@dataclass
class LofResult:
    """A Siege line of fire: the verdict, why, and the drm the line itself brings."""

    los: LosResult                       # the verdict as an engine result (blocked_by set by these rules)
    visible: bool
    rule: str
    range: int
    reasons: list[Reason] = field(default_factory=list)
    drm: list[Drm] = field(default_factory=list)
    indirect: bool = False
    towers: tuple[Hex, ...] = ()
    breach: bool = False
    levels: tuple[str, str] = ("ground", "ground")
    heights: tuple[int, int] = (0, 0)
    readings: dict[str, str] = field(default_factory=dict)

    @property
    def blocked_by(self) -> tuple[Hex, ...]:
        return self.los.blocked_by


# -- terrain facts ---------------------------------------------------------------------------------------------------
def _terrain(cmap: CompiledMap, h: Hex) -> str:
    t = cmap.hexes[h].terrain
    return t[0] if t else "clear"


def breached(position: Position | None, h: Hex) -> bool:
    """Whether a Breach marker stands in ``h`` (12.2): the hex is then a Ground hex (2.12)."""
    return position is not None and bool(position.markers_at(h, "breach"))


def fire_kind(cmap: CompiledMap, position: Position | None, h: Hex, tables: CombatTables) -> str:
    """The terrain that decides fire: the map terrain, ``breach`` under a Breach marker, ``bastion`` for the
    Temple District's outer walls (13.22)."""
    t = _terrain(cmap, h)
    lof = tables.line_of_fire
    if t in lof.elevated and breached(position, h):
        return "breach"
    if t == "wall" and cmap.hexes[h].region == TEMPLE_DISTRICT:
        return lof.temple_outer_walls
    return t


def height(cmap: CompiledMap, position: Position | None, h: Hex, tables: CombatTables) -> int:
    """The fire height of a hex: 0 at Ground level, else its rank among Elevated Hexes (2.11, 10.3, 13.22)."""
    return int(tables.line_of_fire.heights.get(fire_kind(cmap, position, h, tables), 0))


def _temple_wall(cmap: CompiledMap, h: Hex, tables: CombatTables) -> bool:
    return _terrain(cmap, h) in tables.line_of_fire.elevated and cmap.hexes[h].region == TEMPLE_DISTRICT


def _has_combat_units(position: Position | None, h: Hex) -> bool:
    if position is None:
        return False
    return any(u.counter.value("combat_unit") is not False for u in position.at(h))


def _has_tower(position: Position | None, h: Hex) -> bool:
    return position is not None and (any(u.type in TOWERS for u in position.at(h))
                                     or bool(position.markers_at(h, "broken_siege_engine")))


# -- the line ---------------------------------------------------------------------------------------------------------
def lof(cmap: CompiledMap, a: Hex, b: Hex, position: Position | None = None,
        readings: dict[str, str] | None = None, tables: CombatTables | None = None) -> LofResult:
    """The line of fire from ``a`` to ``b`` (both map hexes) under 9.5-9.52, 9.9, 9.13 and 10.3.

    ``position`` supplies units (9.9), Towers (9.13) and Breach markers (2.12, 9.5); without it only the
    terrain counts.  ``readings`` overrides the defaults of tables.yaml ``line_of_fire.readings``.
    """
    t = tables or load_combat_tables()
    rd = _readings(t, readings)
    lofd = t.line_of_fire
    eng = engine(cmap)
    contacts = eng.contacts(a, b)
    ha, hb = height(cmap, position, a, t), height(cmap, position, b, t)
    lo, hi = min(ha, hb), max(ha, hb)
    ground = {x for x, hh in ((a, ha), (b, hb)) if hh == 0}
    higher_end = a if ha >= hb else b
    lower_end = b if higher_end == a else a
    temple_ends = {x for x in (a, b) if _terrain(cmap, x) == "temple"}
    reasons: list[Reason] = []
    why: dict[Hex, Reason] = {}
    temple_exceptions: list[Hex] = []

    def terrain_obstacle(h: Hex) -> Reason | None:
        kind = fire_kind(cmap, position, h, t)
        if kind in lofd.buildings:
            if any(h in e.neighbors() for e in temple_ends) and kind != "temple":
                temple_exceptions.append(h)   # 10.3: the Temple fires through its adjoining Buildings
                return None
            return Reason(lofd.rule, f"{kind.replace('_', ' ')}: no fire through a Building (2.13)")
        if kind in lofd.built_up:
            if not ground:
                return None
            if len(ground) == 2:
                return Reason(lofd.rule, "Built-up: blocks fire at Ground level (2.13)")
            g = next(iter(ground))
            if h in g.neighbors():
                return Reason("9.51", f"Built-up next to the Ground-level end {cmap.name(g)} (9.51)")
            return None
        he = int(lofd.heights.get(kind, 0))
        if he == 0:
            return None
        if temple_ends and _temple_wall(cmap, h, t):
            temple_exceptions.append(h)       # 10.3: despite the Temple's Walls
            return None
        if he <= lo:
            return None
        if he > hi:
            return Reason(lofd.rule, f"{kind} higher than both ends (2.11, 9.9)" if lo
                          else f"{kind}: an Elevated Hex blocks Ground-level fire")
        r = rd["lower_elevated_near_higher_end"]
        top = fire_kind(cmap, position, higher_end, t)
        allowed = (r == "fortress" and top in ("fort", "fortress", "temple")) or (r == "higher" and he < hi)
        if allowed and h.distance(higher_end) < h.distance(lower_end):
            return None
        return Reason(lofd.rule, f"{kind} not lower than the higher end, or nearer the lower end (9.5 example; "
                                 f"reading {r})")

    obstacles = set()
    for c in contacts:
        if c.hex in cmap.hexes:
            w = terrain_obstacle(c.hex)
            if w:
                obstacles.add(c.hex)
                why[c.hex] = w
    res = eng.check(a, b, lofd.convention, Obstacles(hexes=frozenset(obstacles)), rule=lofd.rule)
    out = LofResult(res, res.visible, lofd.rule, res.range, reasons, readings=rd,
                    levels=tuple("ground" if x == 0 else "elevated" for x in (ha, hb)), heights=(ha, hb))
    if not res.visible:
        reasons += [Reason(why[h].rule, f"{cmap.name(h)}: {why[h].message}") for h in res.blocked_by]
        out.rule = reasons[0].rule            # the sub-rule that blocks (9.51) or 9.5
        out.los = dataclasses.replace(res, rule=out.rule)
        return out
    if temple_exceptions:
        reasons.append(Reason("10.3", "the Temple's central hex fires through "
                                      f"{', '.join(cmap.name(h) for h in dict.fromkeys(temple_exceptions))} "
                                      "(its adjoining Buildings and its own Walls do not block, 10.3)"))

    # 9.52: slopes between Ground-level ends at different elevations
    if len(ground) == 2 and cmap.hexes[a].elevation != cmap.hexes[b].elevation:
        met = [c for c in contacts if c.hex in cmap.hexes]
        slopes = [c.hex for c in met if c.how != "corner" and _terrain(cmap, c.hex) in lofd.slope]
        slopes += [x for x in (a, b) if _terrain(cmap, x) in lofd.slope]
        if slopes:
            up = a if cmap.hexes[a].elevation > cmap.hexes[b].elevation else b
            level = lambda x: fire_kind(cmap, position, x, t) in lofd.level_ground  # noqa: E731
            if rd["slope_count"] == "higher-level":
                counted = [c.hex for c in met if c.how == "interior" and level(c.hex)
                           and cmap.hexes[c.hex].elevation == cmap.hexes[up].elevation]
                counted += [up] if level(up) else []
            else:
                counted = [c.hex for c in met if c.how == "interior" and level(c.hex)] + ([b] if level(b) else [])
            if len(counted) > 1:
                names = ", ".join(cmap.name(x) for x in counted)
                blocked = dataclasses.replace(res, visible=False, blocked_by=tuple(dict.fromkeys(slopes)),
                                              block_t=None, block_point=None, rule="9.52")
                out.los, out.visible, out.rule = blocked, False, "9.52"
                reasons.append(Reason("9.52", f"Ground-level fire between elevations through Slope "
                                              f"{', '.join(cmap.name(x) for x in dict.fromkeys(slopes))} meets "
                                              f"{len(counted)} level Ground hexes ({names}); at most one "
                                              f"(reading {rd['slope_count']})"))
                return out

    # 9.13: Towers fired through
    towers = tuple(c.hex for c in contacts if c.how == "interior" and _has_tower(position, c.hex))
    for h in towers:
        out.drm.append(Drm("tower_hex", t.missile_drm.get("tower_hex").value, "9.13",
                           f"fire through Tower hex {cmap.name(h)}"))
    out.towers = towers

    # 9.5 / 13.3: from or through a Breach (Ground-level fire at a Ground-level target)
    through_breach = [c.hex for c in contacts if c.how == "interior" and fire_kind(cmap, position, c.hex, t) == "breach"]
    if len(ground) == 2 and (fire_kind(cmap, position, a, t) == "breach" or through_breach):
        out.breach = True
        d = t.missile_drm.get("breach")
        out.drm.append(Drm("breach", d.value, d.rule, "Ground-level fire from or through a Breach"))

    # 9.9: units as obstacles, Indirect Fire
    ub = rd["units_block"]
    if ub != "none" and position is not None:
        same_level = len(ground) == 2 or (not ground and ha == hb)

        def unit_obstacle(h: Hex) -> bool:
            if not _has_combat_units(position, h) or _has_tower(position, h):
                return False
            if ub == "all":
                return True
            if len(ground) == 2:
                return height(cmap, position, h, t) == 0
            return not ground and ha == hb and height(cmap, position, h, t) > 0

        units = {c.hex for c in contacts if c.hex in cmap.hexes and unit_obstacle(c.hex)}
        if units:
            res_u = eng.check(a, b, lofd.convention, Obstacles(hexes=frozenset(obstacles | units)), rule="9.9")
            if not res_u.visible:
                names = ", ".join(cmap.name(h) for h in res_u.blocked_by)
                if same_level:
                    out.indirect = True
                    if out.breach:
                        reasons.append(Reason("9.9", f"Indirect Fire over Combat units in {names}; its -1 does not "
                                                     "add to the Breach -1"))
                    else:
                        d = t.missile_drm.get("indirect_fire")
                        out.drm.append(Drm("indirect_fire", d.value, d.rule, f"Indirect Fire over Combat units in {names}"))
                        reasons.append(Reason("9.9", f"Indirect Fire over Combat units in {names}"))
                else:
                    out.los, out.visible, out.rule = res_u, False, "9.9"
                    reasons.append(Reason("9.9", f"Combat units in {names} block the line; Indirect Fire only between "
                                                 "two Ground-level ends or Elevated ends of the same height"))
                    return out
    reasons.append(Reason(lofd.rule, f"clear ({lofd.convention} convention, {out.levels[0]} to {out.levels[1]})"))
    return out


def can_see(position: Position, viewer_hex: Hex, target_hex: Hex, **readings: str) -> LosResult:
    """The Siege line of fire as an engine result, for ``toolkit los --position``: its ``rule`` is the one that
    decides (9.5, 9.51, 9.52, 9.9)."""
    r = lof(position.game.map, viewer_hex, target_hex, position, readings or None)
    return r.los


def sight_json(position: Position, viewer_hex: Hex, target_hex: Hex) -> dict[str, Any]:
    """What ``toolkit los --position`` adds to the verdict: each reason with its rule (9.5-9.52, 9.9, 10.3) and
    the fire modifiers the line brings (Indirect Fire 9.9, Towers 9.13, Breach 9.5/13.3), as :func:`lof_json`."""
    cmap = position.game.map
    return lof_json(cmap, lof(cmap, viewer_hex, target_hex, position))


def lof_json(cmap: CompiledMap, result: LofResult) -> dict[str, Any]:
    """Siege keys added to ``los --json``: the rule, why, the drm, Indirect Fire, Towers, levels, readings."""
    return {
        "rule": result.rule,
        "levels": list(result.levels),
        "heights": list(result.heights),
        "reasons": [{"rule": r.rule, "reason": r.message} for r in result.reasons],
        "drm": [{"id": d.id, "value": d.value, "rule": d.rule, "why": d.why} for d in result.drm],
        "indirect": result.indirect,
        "towers": [cmap.name(h) for h in result.towers],
        "readings": dict(result.readings),
    }
