"""*The Siege of Jerusalem* fire and melee: missile fire, rocks, melee odds, Breach attacks, mining, recovery.

Every number comes from ``modules/siege-of-jerusalem/tables.yaml`` (fire and melee sections, read by
:mod:`.combat_tables`) or the counters; every explanation cites its rule; the line of fire is
:mod:`.lof`.  :func:`combat` takes the units of ONE attack (``kind`` ``melee`` -- also ``attack`` --,
``missile`` or ``breach``) and returns a :class:`CombatResult`; :func:`combat_json` is its stable JSON form
(the keys of the other games, plus ``row``, ``column``, ``results``, ``primary``, ``reconstructed``).
:func:`fire` says whether one unit may fire at another (LOF, range band, mandatory targets).

Readings of points the rulebook leaves open (the tables' own reconstructions are marked in tables.yaml):

* **Missile.**  The firing units' AF by range band (Weapons Effects Table, 9.2) are added (9.1, 9.6).  The
  row is the target hex's type (13.2): a Siege Engine row when one is in the hex, ``testudo`` /
  ``broken_testudo`` (13.4, 16.4), the ``artillery`` row when the Artillery is the Primary Target (or the
  only target) in a Ground hex, else the terrain's row, Wall hexes of the northern perimeter of the New
  City on the ``north_wall`` row (13.22: read as a Wall hex next to a New City hex and to a hex outside
  the city).  ``--primary`` defaults to ``infantry`` when both are present (noted).  The LOF drm of the
  firing units (Breach, Indirect Fire, Towers) count once for the single roll, the worst line deciding.
* **Rocks** (10.2): Fresh Zealots, Militia and Cauldrons on an Elevated Hex against adjacent Combat units
  on a Ground hex, or from a Bastion/Fortress against a lower adjacent Elevated Hex.
* **Melee** crossings (11.11-11.14, 11.17, 11.2, 11.6, 18.8) are read per attacking hex; two adjacent
  Elevated Hexes are *connected* (7.12) unless the map marks the hexside otherwise (a ``connected``
  hexside feature, when the map has any, is then required).  An attack from a Building hex next to the defending
  Building hex is read as "from the same Building" (11.19).
* **Breach** (10.1, 12.5): Rams and Armored Towers need a Fresh pushing Heavy Infantry / Velites unit
  (a Ram: of its own Legion, 6.41) and attack only the hex their Facing arrow points at (10.11: flag
  ``facing_*``, or the position parameter ``facing``; with neither, read as facing the target, noted).
* **Flank Attacks** (11.85) are worked out from the defender's six neighbours (:func:`flank_attack`):
  closed by attacking units, the attacker's ZOC, or terrain the defender could not retreat into as the
  levels go (an Elevated Hex is left by a Stairway, connected Breach or Elevated Hex, a Ramp, or -- Romans
  only -- a Ladder or Tower).  Our reading: closed hexsides and Ladder hexes (Jews) also count impassable;
  a Gate's Entry hexside is open to the Jews only (8.91).
* **One fire a hex** (9.1, 9.6): the caller names the units that already fired and the hexes already
  attacked on the same table this phase; the calculator refuses a second attack.  **Erratic shots**
  (9.31) are reported (``erratic``: the natural 1 and the friendly units exposed), never rolled.
* **Tower and Ladder levels** (9.11, 9.12): ``level`` picks riders, pushers or both; ``targets`` and
  ``immune`` list the units; rocks and oil only ever hit the pushers; a Ladder's Base unit is immune
  while climbers remain.
* Results list each natural die 1-6 with the final roll; ``probability`` is the chance of any effect
  (melee, missile) or of a Breach (breach).  ``kills_on`` stays ``null`` (higher rolls favour the attacker).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

from ...game import Position, Unit
from ...game.moves import Reason
from ...game.odds import Strength, number, odds_json, ratio
from ...hexgrid import Hex, hexside
from ...mapdata import CompiledMap
from .combat_tables import CombatTables, load_combat_tables, melee_column, missile_column, table_result
from .lof import Drm, LofResult, fire_kind, height, lof

KINDS = ("melee", "attack", "missile", "breach")
PRIMARY = ("infantry", "artillery")
ENGINES = ("ram", "siege_tower", "armored_tower")
ROCKS = ("zealots", "militia", "cauldron")
NOT_OTHER_FACTION = ("zealots", "cauldron")          # 11.842 (Garrisons by nationality)
FORTRESS = ("fort", "fortress")
STAIRWAY = "stairway"
ENTRY = "gate_entry"
NEW_CITY = "New City"


# -- results ------------------------------------------------------------------------------------------------------
@dataclass
class CombatResult:
    """Everything about one attack: strengths, odds or row and column, drm, results, or why not."""

    kind: str
    attackers: list[Strength] = field(default_factory=list)
    defenders: list[Strength] = field(default_factory=list)
    attack: Fraction = Fraction(0)
    defence: Fraction = Fraction(0)
    raw_odds: str | None = None
    odds: str | None = None
    row: str | None = None
    column: str | int | None = None
    primary: str | None = None
    modifiers: list[Drm] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)
    probability: Fraction | None = None
    refused: Reason | None = None
    notes: list[str] = field(default_factory=list)
    reconstructed: list[str] = field(default_factory=list)
    flank: dict[str, Any] | None = None
    erratic: dict[str, Any] | None = None
    targets: list[str] | None = None
    immune: list[str] = field(default_factory=list)

    @property
    def total_modifier(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def allowed(self) -> bool:
        return self.refused is None


def combat_json(result: CombatResult) -> dict[str, Any]:
    """The stable JSON form of a :class:`CombatResult` (the shared keys plus ``row``, ``column``, ``results``)."""
    return {
        **odds_json(result),
        "row": result.row,
        "column": result.column,
        "primary": result.primary,
        "kills_on": None,
        "results": list(result.results),
        "reconstructed": list(result.reconstructed),
        "flank": result.flank,
        "erratic": result.erratic,
        "targets": result.targets,
        "immune": list(result.immune),
    }


class _Refuse(Exception):
    def __init__(self, rule: str, message: str):
        super().__init__(message)
        self.reason = Reason(rule, message)


# -- unit and hex facts -------------------------------------------------------------------------------------------
def _cls(u: Unit) -> str:
    return str(u.counter.value("unit_class") or "")


def fresh(u: Unit) -> bool:
    """Fresh: not Disrupted, in Rout or in Panic (2.3, 16.2)."""
    return not (u.has("disrupted") or u.has("routed") or u.has("panicked"))


def _melee_strength(u: Unit) -> Fraction:
    m = u.counter.value("melee", back=not fresh(u))
    return Fraction(str(m)) if m is not None else Fraction(0)


def _formation(u: Unit) -> str | None:
    """The Faction/Legion a unit counts as for integrity (6.7, 11.842); None: counts for none."""
    if u.type in NOT_OTHER_FACTION or u.counter.nationality == "garrison" or u.counter.value("commander"):
        return None
    if _cls(u) in ("artillery", "siege_engine"):
        return None
    return u.counter.value("formation")


def _terrain(cmap: CompiledMap, h: Hex) -> str:
    t = cmap.hexes[h].terrain
    return t[0] if t else "clear"


def _side_feature(cmap: CompiledMap, a: Hex, b: Hex, feature: str) -> bool:
    return feature in cmap.hexsides.get(hexside(a, b), {})


def is_north_wall(cmap: CompiledMap, h: Hex) -> bool:
    """13.22: a Wall hex of the New City's northern perimeter: the map's ``north_wall`` terrain when it has any;
    otherwise read as a Wall hex next to a New City hex and to a Ground hex outside the city."""
    if _terrain(cmap, h) != "wall":
        return False
    if _has_north_wall(cmap):
        return "north_wall" in cmap.hexes[h].terrain
    ns = [n for n in h.neighbors() if n in cmap.hexes]
    return any(cmap.hexes[n].region == NEW_CITY for n in ns) and any(
        cmap.hexes[n].region is None and _terrain(cmap, n) in ("clear", "slope") for n in ns)


def _has_north_wall(cmap: CompiledMap) -> bool:
    key = (cmap.id, cmap.source_hash)
    if key not in _NORTH:
        _NORTH[key] = any("north_wall" in i.terrain for i in cmap.hexes.values())
    return _NORTH[key]


_NORTH: dict[tuple[str, str], bool] = {}
_CONNECTED: dict[tuple[str, str], bool] = {}


def defence_kind(cmap: CompiledMap, position: Position | None, h: Hex) -> str:
    """The Breach Defence kind of an Elevated Hex (12.2): north_wall, wall, bridge, bastion, gate, fort, fortress."""
    t = load_combat_tables()
    kind = fire_kind(cmap, None, h, t)
    if kind == "wall" and is_north_wall(cmap, h):
        return "north_wall"
    return kind


def _connected(cmap: CompiledMap, a: Hex, b: Hex) -> bool:
    """Two adjacent Elevated Hexes are connected (7.12); a map with ``connected`` hexside features decides itself."""
    key = (cmap.id, cmap.source_hash)
    if key not in _CONNECTED:
        _CONNECTED[key] = any("connected" in attrs for attrs in cmap.hexsides.values())
    if _CONNECTED[key]:
        return _side_feature(cmap, a, b, "connected")
    return True


def _damage(position: Position, h: Hex) -> int:
    total = 0
    for m in position.markers_at(h, "breach_damage"):
        try:
            total += int(m.value or 0)
        except (TypeError, ValueError):
            pass
    return total


def _night(position: Position) -> bool:
    return position.turn in position.game.spec.place_lists.get("night_turns", [])


# -- dice --------------------------------------------------------------------------------------------------------
def _roll_results(rolls, row_results, total: int, codes=None) -> tuple[list[dict[str, Any]], Fraction]:
    out, hits = [], 0
    for die in range(1, 7):
        final = die + total
        r = table_result(tuple(rolls), tuple(row_results), final)
        hits += r != "-"
        out.append({"die": die, "final": final, "result": r})
    return out, Fraction(hits, 6)


# -- missile -------------------------------------------------------------------------------------------------------
def missile_af(t: CombatTables, u: Unit, distance: int) -> tuple[float | None, str, int | None]:
    """A missile unit's AF at ``distance`` (9.2): (AF or None beyond range, band name, the Primary range)."""
    bands = t.weapons_effects.bands(u.type)
    if not bands:
        return None, "none", None
    names = ("primary", "secondary", "tertiary")
    for i, (reach, af) in enumerate(bands):
        if distance <= reach:
            return af, names[min(i, 2)], bands[0][0]
    return None, "beyond range", bands[0][0]


def _adjacent_enemies(position: Position, u: Unit) -> list[Unit]:
    return [e for n in u.hex.neighbors() for e in position.at(n) if e.side != u.side and e.hex is not None]


def mandatory_targets(position: Position, u: Unit) -> list[Hex]:
    """9.7: the adjacent enemy hexes a missile unit must choose among (empty: it may fire at any target).

    Adjacent Siege Engines and Artillery are never mandatory targets, but other units in their hex are.
    """
    hexes = []
    for n in u.hex.neighbors():
        if any(e.side != u.side and _cls(e) not in ("siege_engine", "artillery") for e in position.at(n)):
            hexes.append(n)
    return hexes


def _rock_thrower(u: Unit) -> bool:
    return bool(u.counter.value("rocks")) or u.type in ROCKS


def _check_firer(position: Position, t: CombatTables, u: Unit, target: Hex, reasons: list[Reason]) -> tuple[
        float, str, LofResult | None]:
    """One unit's fire at ``target``: (AF, how, LOF), or raise _Refuse (9.x, 10.2, 5.3, 18.21)."""
    cmap = position.game.map
    if u.hex is None:
        raise _Refuse("9.1", f"{u.id} is not on the map")
    if not fresh(u):
        raise _Refuse("2.52", f"{u.id} is not Fresh: only Fresh units fire (2.52, 16.2)")
    if any(x.has("panicked") for x in position.at(u.hex)):
        raise _Refuse("17.22", f"{u.id} shares its hex with a Panicked unit: no attack from it")
    dist = u.hex.distance(target)
    if dist == 0:
        raise _Refuse("9.2", f"{u.id} is in the target hex")
    if (u.has("pushing") or u.has("ladder_base") or u.has("on_ladder")) and _cls(u) != "artillery":
        raise _Refuse("9.4", f"{u.id} is beneath a Siege Engine or in a Ladder hex: missile units may not fire")
    if u.type in ("foederati", "syrian_archers") and any(_cls(x) == "heavy_infantry" for x in position.at(u.hex)) \
            or _cls(u) == "heavy_infantry" and any(x.type in ("foederati", "syrian_archers") for x in position.at(u.hex)):
        raise _Refuse("11.1", f"{u.id}: Heavy Infantry stacked with Foederati or Syrian Archers may not fire (and vice versa)")
    kind_here = fire_kind(cmap, position, u.hex, t)
    af, band, primary = missile_af(t, u, dist)
    rocks = _rock_thrower(u) and (af is None or dist == 1)
    if rocks and t.weapons_effects.bands(u.type) is None:
        if dist != 1:
            raise _Refuse("10.2", f"{u.id} throws rocks only at adjacent units (10.2)")
        hf, ht = height(cmap, position, u.hex, t), height(cmap, position, target, t)
        if hf == 0:
            raise _Refuse("10.2", f"{u.id} throws rocks only from an Elevated Hex (2.523, 10.2)")
        if ht > 0 and not (kind_here in ("bastion", "fort", "fortress") and ht < hf):
            raise _Refuse("10.2", f"rocks from {cmap.name(u.hex)} reach a lower Elevated Hex only from a Bastion or "
                                  "Fortress (10.2)")
        af = t.weapons_effects.rocks.get(u.type, 0)
        return af, f"rocks {af:g} (10.2)", None
    if af is None:
        if band == "none":
            raise _Refuse("2.522", f"{u.id} has no missile fire (2.522)")
        raise _Refuse("9.2", f"{u.id} reaches {_reach(t, u)} hexes; the target is at range {dist} (9.2)")
    if _cls(u) == "artillery" and kind_here in ("built_up", "building", "temple", "breach"):
        raise _Refuse("9.3", f"Artillery never fires from a Built-up or Breach hex ({cmap.name(u.hex)})")
    if dist > 1 and u.has("out_of_cc"):
        raise _Refuse("5.3", f"{u.id} is out of CC: it may fire only at adjacent units (5.3)")
    if dist > 1 and _night(position):
        raise _Refuse("18.21", f"{position.turn} is a night turn: fire only at adjacent targets (18.21)")
    must = mandatory_targets(position, u)
    if must and target not in must:
        raise _Refuse("9.7", f"{u.id} is adjacent to enemy units ({', '.join(cmap.name(h) for h in must)}): it may "
                             "fire only at adjacent units (9.7)")
    line = lof(cmap, u.hex, target, position, tables=t)
    if not line.visible:
        raise _Refuse(line.rule, f"no line of fire from {cmap.name(u.hex)}: "
                                 + "; ".join(r.message for r in line.reasons))
    how = f"{band} range {dist}: {af:g} AF (9.2)"
    return af, how, line


def _reach(t: CombatTables, u: Unit) -> int:
    bands = t.weapons_effects.bands(u.type) or [(0, 0)]
    return bands[-1][0]


def _wall_bonus(position: Position, t: CombatTables, u: Unit, target: Hex, line: LofResult | None) -> bool:
    """9.8: fire along a straight path of connected Wall/Bridge hexes from an Elevated Hex at a Wall/Bridge target."""
    cmap = position.game.map
    if line is None or _cls(u) == "artillery" or line.indirect:
        return False
    walls = ("wall", "bridge")
    if height(cmap, position, u.hex, t) == 0 or _terrain(cmap, target) not in walls:
        return False
    if cmap.hexes[target].region == "Temple District":
        return False  # the Temple's outer walls (9.8)
    dq, dr = target.q - u.hex.q, target.r - u.hex.r
    n = u.hex.distance(target)
    step = (dq // n, dr // n) if n and dq % n == 0 and dr % n == 0 else None
    if step is None or Hex(u.hex.q + step[0], u.hex.r + step[1]) not in u.hex.neighbors():
        return False
    path = [Hex(u.hex.q + step[0] * i, u.hex.r + step[1] * i) for i in range(1, n + 1)]
    return all(h in cmap.hexes and _terrain(cmap, h) in walls and not position.markers_at(h, "breach") for h in path)


LEVELS = ("both", "riders", "pushers")


def _levels(position: Position, res: CombatResult, attackers: list[Unit], target: Hex, level: str | None) -> None:
    """9.11 / 9.12: which units of a Tower or Ladder hex the fire may hurt; the rest are listed as immune."""
    here = [d for d in position.at(target) if _cls(d) != "siege_engine"]
    tower = any(d.type in ("siege_tower", "armored_tower") for d in position.at(target))
    rocks = [u.id for u in attackers if _rock_thrower(u) and (u.type == "cauldron" or u.hex.distance(target) == 1
                                                             and not missile_af(load_combat_tables(), u, 1)[0])]
    if tower:
        riders = [d for d in here if d.has("riding")]
        below = [d for d in here if not d.has("riding")]
        want = level or "both"
        if rocks and want in ("riders", "both") and riders:
            if want == "riders":
                raise _Refuse("9.11", f"{', '.join(rocks)}: Cauldrons and rock throwers may not fire at units atop a "
                                      "Tower, only at its pushers (9.11)")
            want = "pushers"
            res.notes.append("rocks or oil in the attack: only the pushers are the target (9.11)")
        if want == "both":
            res.targets = [d.id for d in here]
            if riders and below:
                res.notes.append("both levels targeted: the defender picks which units suffer (9.11)")
        else:
            hit, safe = (riders, below) if want == "riders" else (below, riders)
            res.targets = [d.id for d in hit]
            res.immune = [d.id for d in safe]
            res.notes.append(f"the {want} only are the target: units on the other level are immune; a DD result "
                             "against a lone unit eliminates it (9.11)")
        res.primary = res.primary
        return
    if level not in (None, "both"):
        raise _Refuse("9.11", f"--level {level}: a level is chosen only against a Tower hex (9.11)")
    base = [d for d in here if d.has("ladder_base")]
    climbers = [d for d in here if d.has("on_ladder")]
    if base and climbers:
        res.targets = [d.id for d in here if not d.has("ladder_base")]
        res.immune = [d.id for d in base]
        res.notes.append("a Ladder: the Base unit is unaffected while other units remain in the hex to absorb the "
                         "result; a DD may eliminate the unit atop before Disrupting both (9.12)")


def _erratic(position: Position, t: CombatTables, res: CombatResult, attackers: list[Unit], target: Hex) -> None:
    """9.31: Artillery firing at a higher target next to the firer's friends (not in the firing hex): a natural 1
    also Disrupts one friendly unit next to the target, the defender's choice.  Reported, never rolled."""
    cmap = position.game.map
    ht = height(cmap, position, target, t)
    arts = [u for u in attackers if _cls(u) == "artillery" and t.weapons_effects.bands(u.type)
            and height(cmap, position, u.hex, t) < ht]
    if not arts:
        return
    side = arts[0].side
    firing = {u.hex for u in arts}
    exposed = []
    for n in target.neighbors():
        if n in firing:
            continue
        here = position.at(n)
        for u in here:
            if u.side != side or _cls(u) == "siege_engine":
                continue
            if u.has("ladder_base") and any(x.has("on_ladder") for x in here):
                continue   # a Base unit with climbers on its Ladder is not affected (9.31)
            exposed.append(u.id)
    if not exposed:
        return
    res.erratic = {"rule": "9.31", "natural_die": 1, "artillery": [u.id for u in arts], "friendly_units": exposed,
                   "why": "Artillery fires at a higher target next to friendly units: on a natural 1 one of these, "
                          "the defender's choice, is also Disrupted"}
    for r in res.results:
        r["erratic"] = r["die"] == 1
    res.notes.append(f"erratic shot (9.31): a natural 1 also Disrupts one of {', '.join(exposed)} (defender's choice)")


def _missile(position: Position, t: CombatTables, res: CombatResult, attackers: list[Unit], defenders: list[Unit],
             primary: str | None, level: str | None = None) -> None:
    cmap = position.game.map
    target = defenders[0].hex
    reasons: list[Reason] = []
    lines: list[LofResult] = []
    total = Fraction(0)
    beyond_primary_jewish = False
    for u in attackers:
        af, how, line = _check_firer(position, t, u, target, reasons)
        a = Fraction(str(af))
        if _wall_bonus(position, t, u, target, line):
            a *= t.missile_drm.wall_bonus_factor
            how += ", doubled along the Wall (9.8)"
        if line is not None:
            lines.append(line)
        if _cls(u) == "artillery" and u.side == "jewish":
            _, band, _ = missile_af(t, u, u.hex.distance(target))
            beyond_primary_jewish |= band not in ("primary", "none")   # not Cauldrons' rocks
        res.attackers.append(Strength(u.id, a, how))
        total += a
    res.attack = total
    _levels(position, res, attackers, target, level)
    here = position.at(target)
    engine = next((e for e in here if e.type in ENGINES), None)
    combat = [d for d in here if _cls(d) != "siege_engine"]
    has_art = any(_cls(d) == "artillery" for d in combat)
    has_inf = any(_cls(d) not in ("artillery",) for d in combat)
    ground = height(cmap, position, target, t) == 0
    if has_art and has_inf and ground:
        res.primary = primary or "infantry"
        if primary is None:
            res.notes.append("the hex holds Artillery and Infantry: the Primary Target is infantry unless --primary "
                             "artillery is given (13.2)")
    elif has_art and ground and not has_inf:
        res.primary = "artillery"
    else:
        res.primary = primary if primary in PRIMARY and has_art else ("infantry" if has_inf else None)
    if engine is not None:
        res.row = engine.type
        why = f"a {engine.type.replace('_', ' ')} is in the hex (13.2)"
    elif any(d.has("testudo") for d in here):
        res.row, why = "testudo", "a Testudo (13.4)"
    elif any(d.has("broken_testudo") for d in here):
        res.row, why = "broken_testudo", "a Broken Testudo: a lower row (16.4)"
    elif res.primary == "artillery" and ground:
        res.row, why = "artillery", "the Artillery is the Primary Target (13.2)"
    else:
        kind = fire_kind(cmap, position, target, t)
        res.row = "north_wall" if kind == "wall" and is_north_wall(cmap, target) else t.missile_table.terrain_rows.get(kind, "clear")
        why = f"the target hex is {kind.replace('_', ' ')} (13.2, 13.22)"
    res.notes.append(f"row {res.row}: {why}")
    col, extra = missile_column(t, res.row, total)
    if col is None:
        raise _Refuse("13.2", f"{number(total)} AF is below the {res.row} row's first column "
                              f"({t.missile_table.rows[res.row].columns[0]} AF, 13.2)")
    res.column = col
    md = t.missile_drm
    heavy = [d for d in here if _cls(d) == "heavy_infantry" and fresh(d)]
    if heavy and engine is None and not any(d.has("testudo") or d.has("broken_testudo") for d in here) \
            and res.primary != "artillery" and not any(d.type in ("foederati", "syrian_archers") for d in here):
        d = md.get("fresh_heavy_infantry")
        res.modifiers.append(Drm("fresh_heavy_infantry", d.value, d.rule, "Fresh Heavy Infantry in the target hex"))
    if any(d.type == "militia" for d in here):
        d = md.get("militia")
        res.modifiers.append(Drm("militia", d.value, d.rule, "Militia in the target hex"))
    for u in attackers:
        if u.type == "cauldron":
            d = md.get("cauldron")
            res.modifiers.append(Drm("cauldron", d.value, d.rule, f"attacking Cauldron {u.id}"))
    if beyond_primary_jewish:
        d = md.get("jewish_artillery_beyond_primary")
        res.modifiers.append(Drm("jewish_artillery_beyond_primary", d.value, d.rule,
                                 "Jewish Artillery firing beyond its Primary range"))
    if lines:
        seen = set()
        for line in lines:
            for d in line.drm:
                if d.id != "tower_hex" and d.id not in seen:
                    seen.add(d.id)
                    res.modifiers.append(d)
        worst = max(lines, key=lambda x: len(x.towers))
        res.modifiers += [d for d in worst.drm if d.id == "tower_hex"]
    if extra:
        d = md.get("extreme")
        res.modifiers.append(Drm("extreme", d.value * extra, d.rule,
                                 f"{extra} multiple(s) of {t.missile_table.rows[res.row].multiple} AF beyond column 7"))
    res.results, res.probability = _roll_results(t.missile_table.rolls, t.missile_table.results[str(col)],
                                                 res.total_modifier)
    _erratic(position, t, res, attackers, target)
    res.reconstructed += ["missile_table.rows", "missile_table.results", "weapons_effects"]


# -- melee ---------------------------------------------------------------------------------------------------------
def _melee_crossing(position: Position, t: CombatTables, u: Unit, target: Hex,
                    counterattack: bool = False) -> tuple[Fraction, str, bool]:
    """(multiplier, how, counts as from Elevated/Breach/Ramp/Stairway for 11.7) of one attacker, or _Refuse."""
    cmap = position.game.map
    x = u.hex
    if counterattack:
        return _counterattack_crossing(position, u, target)
    mult = t.melee_drm.multipliers
    hx, ht = height(cmap, position, x, t), height(cmap, position, target, t)
    kx, kt = fire_kind(cmap, position, x, t), fire_kind(cmap, position, target, t)
    half = Fraction(str(mult["stairway"].factor))
    if u.has("riding"):
        if ht == 0:
            raise _Refuse("11.2", f"{u.id} rides a Tower: no melee against Ground or Built-up hexes")
        face = rider_facing(position, u)
        if face is not None and face != target:
            raise _Refuse("10.11", f"{u.id} rides a Tower facing {cmap.name(face)}: riders melee only through the "
                                   "Facing arrow (10.11, 11.2)")
        f = Fraction(str(mult["tower_riders"].factor))
        return f, f"atop a Tower against an Elevated Hex: x{number(f)} (11.2)", False
    if u.has("pushing"):
        raise _Refuse("11.2", f"{u.id} pushes a Siege Engine: pushing units do not attack (11.2, 11.3)")
    if u.has("on_ladder"):
        if ht == 0:
            raise _Refuse("11.6", f"{u.id} is on a Ladder: melee only against Elevated Hexes")
        f = Fraction(str(mult["ladder"].factor))
        return f, f"on a Ladder: x{number(f)} (11.6)", False
    if u.has("on_ramp"):
        return Fraction(1), "from a Ramp: normal strength (18.8)", True
    if hx == 0 and ht == 0:
        if kx == "breach":
            return half, f"from a Breach to a Ground hex: x{number(half)} (11.13)", True
        if _side_feature(cmap, x, target, "crest") and kt not in t.line_of_fire.slope:
            f = Fraction(str(mult["crest"].factor))
            return f, f"across a Crest at a non-Slope hex: x{number(f)} (11.17)", False
        return Fraction(1), "Ground to Ground: normal (11.11)", False
    if hx == 0 and ht > 0:
        if kx == "breach":
            return half, f"from a Breach to an Elevated Hex: x{number(half)} (11.13)", True
        if kt == "gate":
            raise _Refuse("8.91", f"{cmap.name(target)} is a Gate: closed to the enemy from Ground level (8.91, 11.14)")
        if _cls(u) in ("heavy_infantry", "light_infantry", "hq") and _side_feature(cmap, x, target, STAIRWAY):
            return half, f"across a Stairway hexside: x{number(half)} (11.11)", True
        raise _Refuse("11.11", f"{u.id} in {cmap.name(x)} cannot reach {cmap.name(target)}: from Ground level only "
                               "Infantry across a Stairway hexside, or from a Breach, Ladder, Tower or Ramp")
    if hx > 0 and ht == 0:
        if kx == "gate" and _side_feature(cmap, x, target, ENTRY):
            return half, f"from a Gate through its Entry hexside: x{number(half)} (11.14; a Sally opens the Gate)", True
        if _side_feature(cmap, x, target, STAIRWAY) or kt == "breach":
            return half, f"from an Elevated Hex down a Stairway or into a connected Breach: x{number(half)} (11.12)", True
        if any(d.has("on_ladder") or d.has("ladder_base") for d in position.at(target)):
            return Fraction(1), "from an Elevated Hex against a Ladder: normal (11.12, 11.61)", True
        if any(d.type in ENGINES for d in position.at(target)):
            return Fraction(1), "from an Elevated Hex against a Tower through its Ramp hexside: normal (11.12, 11.21)", True
        raise _Refuse("11.12", f"{cmap.name(x)} and {cmap.name(target)}: no Stairway hexside or Breach between them")
    if _cls(u) == "artillery" and u.type != "cauldron":
        raise _Refuse("11.1", f"{u.id}: Artillery does not attack in melee")
    if not _connected(cmap, x, target):
        raise _Refuse("11.12", f"{cmap.name(x)} and {cmap.name(target)} are not connected Elevated Hexes")
    return Fraction(1), "from a connected Elevated Hex: normal (11.12)", True


def sallies(position: Position) -> set[Hex]:
    """The Gates opened for a Sally this Melee Phase: the position parameter ``sallies`` (hex names, 11.14)."""
    cmap = position.game.map
    return {cmap.resolve(h) for h in str(position.params.get("sallies") or "").replace(",", " ").split()}


def _counterattack_crossing(position: Position, u: Unit, gate: Hex) -> tuple[Fraction, str, bool]:
    """11.14: a counterattack into a Gate opened for a Sally, from its Entry hex through the Entry hexside at normal
    strength; pushing units too (the 11.2 exception).  Read as through the Gate's inherent Stairway (no 11.7 -1)."""
    cmap = position.game.map
    if _terrain(cmap, gate) != "gate" or gate not in sallies(position):
        raise _Refuse("11.14", f"{cmap.name(gate)} is not a Gate opened for a Sally this phase (parameter sallies): "
                               "no counterattack")
    if not _side_feature(cmap, u.hex, gate, ENTRY):
        raise _Refuse("11.14", f"{u.id} in {cmap.name(u.hex)}: counterattacks only through the Gate's Entry hexside")
    if u.has("riding"):
        raise _Refuse("11.2", f"{u.id} rides a Tower: only the pushing units counterattack a Gate (11.2)")
    return Fraction(1), "a counterattack through the Gate's Entry hexside after a Sally: normal (11.14, 11.2)", True


def _same_building(cmap: CompiledMap, a: Hex, b: Hex) -> bool:
    return _terrain(cmap, a) in ("building", "temple") and _terrain(cmap, b) in ("building", "temple") and a.distance(b) == 1


def _complete_cohort(units: Sequence[Unit]) -> bool:
    by = {}
    for u in units:
        if _cls(u) == "heavy_infantry" and fresh(u) and u.counter.value("cohort") is not None:
            by.setdefault((u.counter.value("formation"), u.counter.value("cohort")), set()).add(u.counter.value("grade"))
    return any(g >= {"veteran", "line", "recruit"} for g in by.values())


def _melee(position: Position, t: CombatTables, res: CombatResult, attackers: list[Unit], defenders: list[Unit],
           flank: bool | None, counterattack: bool = False) -> None:
    cmap = position.game.map
    target = defenders[0].hex
    mult = t.melee_drm.multipliers
    if attackers and all(u.hex is not None and u.hex.distance(target) == 1 for u in attackers):
        res.flank = flank_attack(position, target, attackers[0].side, t)
        if flank is None:
            flank = res.flank["flank"]
            if flank:
                res.notes.append("Flank Attack: every hex next to the defender is closed (11.85)")
        elif flank != res.flank["flank"]:
            res.notes.append(f"Flank Attack {'declared' if flank else 'declined'} by the caller; the six hexes say "
                             f"{'yes' if res.flank['flank'] else 'no'} (11.85)")
    from_elevated_like = []
    for u in attackers:
        if u.hex is None or u.hex.distance(target) != 1:
            raise _Refuse("11.1", f"{u.id} is not adjacent to {cmap.name(target)}")
        if not fresh(u):
            raise _Refuse("11.1", f"{u.id} is not Fresh: only Fresh units attack (11.1, 16.2)")
        if _cls(u) == "siege_engine":
            raise _Refuse("11.4", f"{u.id} is a Siege Engine: no Melee Strength (2.53, 11.4)")
        if u.counter.value("melee_defense_only") and u.type != "cauldron":
            raise _Refuse("2.53", f"{u.id}'s Melee factor is for defence only (2.46, 2.53)")
        here = position.at(u.hex)
        if u.has("testudo"):
            raise _Refuse("11.5", f"{u.id} is in a Testudo: no melee attacks")
        if any(x.type == "ram" for x in here):
            raise _Refuse("11.3", f"{u.id} shares its hex with a Ram: no melee (11.3)")
        if u.has("ladder_base"):
            raise _Refuse("11.6", f"{u.id} is a Ladder's Base unit: it may not attack")
        if any(x.has("panicked") for x in here):
            raise _Refuse("17.22", f"{u.id} shares its hex with a Panicked unit: no attack from it")
        if _cls(u) == "heavy_infantry" and any(x.type in ("foederati", "syrian_archers") for x in here) \
                or u.type in ("foederati", "syrian_archers") and any(_cls(x) == "heavy_infantry" for x in here):
            raise _Refuse("11.1", f"{u.id}: Heavy Infantry stacked with Foederati or Syrian Archers may not attack")
        f, how, exempt = _melee_crossing(position, t, u, target, counterattack)
        if _cls(u) == "cavalry" and _terrain(cmap, u.hex) == "clear" and _terrain(cmap, target) == "clear":
            c = Fraction(str(mult["cavalry_clear"].factor))
            f *= c
            how += f"; Cavalry from and into Clear x{number(c)} (11.88)"
        if flank:
            c = Fraction(str(mult["flank"].factor))
            f *= c
            how += f"; Flank Attack x{number(c)} (11.85)"
        s = _melee_strength(u) * f
        res.attackers.append(Strength(u.id, s, f"{number(_melee_strength(u))} {how}"))
        from_elevated_like.append(exempt or height(cmap, position, u.hex, t) > 0)
    kt = fire_kind(cmap, position, target, t)
    ht = height(cmap, position, target, t)
    attack_elevated = all(height(cmap, position, u.hex, t) > 0 or u.has("riding") or u.has("on_ladder")
                          for u in attackers)
    for d in defenders:
        s, how = _melee_strength(d), "printed"
        if _cls(d) == "siege_engine":
            s, how = Fraction(0), "Siege Engines have no Melee Strength (2.53)"
        elif ht > 0:
            c = Fraction(str(mult["fortress_defence" if kt in FORTRESS else "elevated_defence"].factor))
            s *= c
            how = f"x{number(c)} on {'a Fortress' if kt in FORTRESS else 'an Elevated Hex'} (11.7)"
        elif kt in ("building", "temple") and not any(_same_building(cmap, u.hex, target) for u in attackers):
            c = Fraction(str(mult["building_defence"].factor))
            s *= c
            how = f"x{number(c)} in a Building (11.19)"
        if d.has("on_ladder") and attack_elevated:
            c = Fraction(str(mult["ladder"].factor))
            s *= c
            how = f"x{number(c)} on a Ladder (11.61)"
        elif d.has("on_ladder"):
            s, how = Fraction(0), "atop the Ladder: does not add against a Ground attack (11.62)"
        elif d.has("ladder_base") and not attack_elevated:
            c = Fraction(str(mult["ladder_base"].factor))
            s *= c
            how = f"x{number(c)}: the Ladder's Base unit (11.62)"
        elif d.has("riding") and not attack_elevated:
            pushers = [x for x in defenders if x.has("pushing")]
            if pushers:
                s, how = Fraction(0), "atop the Tower: does not add against a Ground attack (11.22)"
            else:
                c = Fraction(str(mult["riders_without_pushers"].factor))
                s *= c
                how = f"x{number(c)} atop a Tower with no pushers (11.22)"
        elif d.has("riding") and any(x.type == "armored_tower" for x in defenders):
            c = Fraction(str(mult["armored_tower_passengers"].factor))
            s *= c
            how = f"x{number(c)}: passenger of an Armored Tower (11.21)"
        res.defenders.append(Strength(d.id, s, how))
    res.attack = sum((s.strength for s in res.attackers), Fraction(0))
    res.defence = sum((s.strength for s in res.defenders), Fraction(0))
    if res.attack <= 0:
        raise _Refuse("11.81", "no attacking Melee Strength")
    if res.defence <= 0:
        res.notes.append("no defending Melee Strength: an empty Siege Engine is destroyed (11.4, 11.22)")
        raise _Refuse("11.4", "the defenders have no Melee Strength")
    res.raw_odds = ratio(res.attack, res.defence)
    col, extreme = melee_column(t, res.raw_odds)
    res.odds = res.column = col
    md = t.melee_drm
    add = lambda key, why, times=1: res.modifiers.append(  # noqa: E731
        Drm(key, md.get(key).value * times, md.get(key).rule, why))
    if extreme > 0:
        add("above_7_1", f"{res.raw_odds}: {extreme} above 7-1 (11.83)", extreme)
    elif extreme < 0:
        add("below_1_4", f"{res.raw_odds}: {-extreme} below 1-4 (11.83)", -extreme)
    if ht > 0 and not all(from_elevated_like):
        add("elevated_defence", "an Elevated Hex attacked not from an Elevated Hex, Breach, Ramp or Stairway (11.7)")
    elif ht > 0:
        res.notes.append("no -1 for the Elevated Hex: the attack comes from an Elevated Hex, Breach, Ramp or "
                         "Stairway (11.7, 11.18)")
    if kt == "built_up":
        add("built_up_defence", "the defender is in a Built-up hex (11.19)")
    in_temple = cmap.hexes[target].region == "Temple District" and ht == 0
    if in_temple and attackers[0].side == "jewish":
        add("temple_district", "Jews attacking within the Temple (11.16)")
    elif in_temple and defenders[0].side == "jewish":
        res.modifiers.append(Drm("temple_district", -md.get("temple_district").value, "11.16",
                                 "Jews defending within the Temple (11.16)"))
    by_hex: dict[Hex, list[Unit]] = {}
    for u in attackers:
        by_hex.setdefault(u.hex, []).append(u)
    if any(_complete_cohort(us) for us in by_hex.values()):
        add("cohort_attack", "a complete Fresh cohort attacks from one hex (11.841)")
    if _complete_cohort(defenders):
        add("cohort_defence", "a complete Fresh cohort defends (11.841)")
    if any(_cls(d) == "heavy_infantry" and fresh(d) for d in defenders):   # with the cohort -1 (11.842 example)
        add("fresh_heavy_infantry_defending", "Fresh Heavy Infantry defends (11.842 example)")
    factions = {f for f in map(_formation, attackers) if f}
    if len(factions) > 1:
        add("faction_integrity", f"{len(factions)} Factions/Legions attack: {', '.join(sorted(factions))} (11.842)",
            len(factions) - 1)
    dfac = {f for f in map(_formation, defenders) if f}
    if len(dfac) > 1:
        add("mixed_defenders", f"{len(dfac)} Factions/Legions stacked in defence (6.7)", len(dfac) - 1)
    if any(d.has("panicked") for n in [target, *target.neighbors()] for d in position.at(n) if d.side == defenders[0].side):
        add("panic_in_or_adjacent", "a Panicked unit in or next to the defender's hex (17.23)")
    elif any(d.has("routed") for d in position.at(target)):
        add("rout_in_hex", "a Routed unit in the defender's hex (17.23)")
    if _night(position) and attackers[0].side == "jewish":
        add("night_jewish_attack", "a Jewish melee attack at night (18.25)")
    mt = t.melee_table
    res.results, res.probability = _roll_results(mt.rolls, mt.results[col], res.total_modifier)
    for r in res.results:
        r["continuous_combat"] = r["die"] >= mt.continuous_combat or r["final"] >= mt.continuous_combat
    res.reconstructed += ["melee_table.results"] + (["melee_drm.built_up_defence"] if kt == "built_up" else [])


# -- breach --------------------------------------------------------------------------------------------------------
def breach_factor(position: Position, t: CombatTables, engine_unit: Unit, target: Hex) -> tuple[Fraction, str]:
    """One Ram / Armored Tower's Breach Attack Factor against ``target`` (2.521, 6.41, 10.1, 12.5), or _Refuse."""
    cmap = position.game.map
    u = engine_unit
    if u.type not in ("ram", "armored_tower") or u.counter.value("breach") is None:
        raise _Refuse("2.521", f"{u.id} is not a Ram or Armored Tower")
    if not fresh(u):
        raise _Refuse("2.521", f"{u.id} is uncrewed (Disrupted side): no Breach attack")
    if u.hex is None or u.hex.distance(target) != 1:
        raise _Refuse("10.1", f"{u.id} is not adjacent to {cmap.name(target)}")
    if height(cmap, position, target, t) == 0:
        raise _Refuse("10.1", f"{cmap.name(target)} is not an Elevated Hex (a Breach is a Ground hex)")
    facing = engine_facing(position, u)
    if facing is not None and facing != target:
        raise _Refuse("10.11", f"{u.id} faces {cmap.name(facing)}: a Ram or Armored Tower attacks only the hex its "
                               f"Facing arrow points at, not {cmap.name(target)} (10.11)")
    pushers = [p for p in position.at(u.hex) if p.side == u.side and fresh(p) and p.has("pushing")
               and (_cls(p) == "heavy_infantry" or p.type == "velites")]
    if u.type == "ram":
        pushers = [p for p in pushers if p.counter.value("formation") == u.counter.value("formation")]
    if not pushers:
        raise _Refuse("6.41" if u.type == "ram" else "10.1",
                      f"{u.id} has no Fresh pushing Heavy Infantry / Velites" + (" of its Legion" if u.type == "ram" else ""))
    f = Fraction(str(u.counter.value("breach")))
    how = f"Breach AF {number(f)} (2.53)"
    if _terrain(cmap, target) == "gate" and _side_feature(cmap, u.hex, target, ENTRY):
        f *= t.breach_table.gate_entry_factor
        how += ", doubled through the Gate's Entry hexside (10.1, 12.5)"
    return f, how


def _breach(position: Position, t: CombatTables, res: CombatResult, attackers: list[Unit], target: Hex) -> None:
    cmap = position.game.map
    for u in attackers:
        f, how = breach_factor(position, t, u, target)
        if engine_facing(position, u) is None:
            res.notes.append(f"{u.id} has no facing (flag facing_* or parameter facing): read as facing "
                             f"{cmap.name(target)} (10.11)")
        res.attackers.append(Strength(u.id, f, how))
    res.attack = sum((s.strength for s in res.attackers), Fraction(0))
    kind = defence_kind(cmap, position, target)
    bd = t.defence(kind)
    done = _damage(position, target)
    res.defence = Fraction(bd)
    res.row = kind
    cols = t.breach_table.columns
    col = max([c for c in cols if res.attack >= c] or [cols[0]])
    res.column = col
    res.notes.append(f"{cmap.name(target)} is {kind.replace('_', ' ')}: Breach Defence {bd}, damage so far {done} (12.2)")
    hits = 0
    for die, dmg in zip(range(1, 7), t.breach_table.damage[str(col)]):
        total = done + dmg
        crumbles = total >= bd
        hits += crumbles
        res.results.append({"die": die, "final": die, "result": "Breach" if crumbles else f"+{dmg}",
                            "damage": dmg, "total_damage": total, "breach": crumbles})
    res.probability = Fraction(hits, 6)
    res.reconstructed += ["breach_table.damage", f"breach_defence.{kind}"]


# -- 11.85 Flank Attacks, 10.11 facing ----------------------------------------------------------------------------
def _escape(position: Position, t: CombatTables, side: str, target: Hex, n: Hex) -> tuple[bool, str]:
    """Whether a defender of ``side`` in ``target`` could retreat into ``n`` as terrain goes (11.85), and why."""
    cmap = position.game.map
    name = cmap.name(n)
    if n not in cmap.hexes:
        return False, "off the map: impassable"
    ht, hn = height(cmap, position, target, t), height(cmap, position, n, t)
    jews = side == "jewish"
    here = position.at(n)
    if hn == 0 and ht == 0:
        from .tables import load_tables
        if any(_side_feature(cmap, target, n, f) for f in load_tables(position.game.folder).movement.blocked_hexsides):
            return False, f"{name}: the hexside is closed at Ground level (8.92): impassable"
        if jews and position.markers_at(n, "ladder"):
            return False, f"{name} is a Ladder hex: Jews may not enter it (6.5)"
        return True, f"{name}: Ground to Ground"
    if ht == 0 and hn > 0:
        if _terrain(cmap, n) == "gate" and _side_feature(cmap, target, n, ENTRY):
            return (True, f"{name}: into the Gate through its Entry hexside (8.91)") if jews else \
                (False, f"{name}: a Gate is closed to the enemy (8.91): impassable")
        if _side_feature(cmap, target, n, STAIRWAY) or fire_kind(cmap, position, target, t) == "breach":
            return True, f"{name}: up a Stairway or from a Breach (8.91, 8.93)"
        if not jews and any(d.has("on_ladder") or d.has("ladder_base") or d.has("riding") or d.has("pushing")
                            for d in position.at(target)):
            return True, f"{name}: up the Ladder or Tower in the defender's hex (11.85)"
        if any(m.toward == n for m in position.markers_at(target, "ramp")):
            return True, f"{name}: up the Ramp (18.8)"
        return False, f"{name}: an Elevated Hex with no Stairway from the defender's hex: impassable"
    if ht > 0 and hn > 0:
        if _connected(cmap, target, n):
            return True, f"{name}: a connected Elevated Hex (7.12)"
        return False, f"{name}: an Elevated Hex not connected to the defender's: impassable"
    # from an Elevated Hex down to Ground
    if _side_feature(cmap, target, n, STAIRWAY) or fire_kind(cmap, position, n, t) == "breach":
        return True, f"{name}: down a Stairway or into a connected Breach (8.91, 8.93)"
    if _terrain(cmap, target) == "gate" and _side_feature(cmap, target, n, ENTRY) and jews:
        return True, f"{name}: out through the Gate's Entry hexside (8.91)"
    if any(m.toward == target for m in position.markers_at(n, "ramp")):
        return True, f"{name}: down a Ramp (18.8)"
    if not jews and position.markers_at(n, "ladder"):
        return True, f"{name}: down a Ladder (11.85)"
    if not jews and any(d.type in ENGINES for d in here) and all(d.side == side for d in here):
        return True, f"{name}: onto a Tower (11.85)"
    if jews and (position.markers_at(n, "ladder") or any(d.type in ENGINES for d in here)):
        return False, f"{name}: a Ladder or Tower: Jews may not use them to escape (11.85)"
    return False, f"{name}: Ground below the wall, no Stairway, Ladder, Tower or Ramp: impassable"


def flank_attack(position: Position, target: Hex, attacking_side: str,
                 tables: CombatTables | None = None) -> dict[str, Any]:
    """11.85: whether the defender's hex is a Flank Attack target, worked out from its six neighbours.

    Each neighbour is closed when it holds attacking units, is impassable to the defender as terrain goes
    (off the map, an Elevated Hex without a Stairway / Breach / connection, a closed hexside; Ladders,
    Towers and Ramps open a way off an Elevated Hex, but not for the Jews), or lies in the attacker's ZOC.
    A fully stacked friendly hex stays open (unless in the attacker's ZOC).  Returns ``{"flank", "rule",
    "hexes": [{"hex", "closed", "why"}]}``.
    """
    from .zoc import zoc
    t = tables or load_combat_tables()
    cmap = position.game.map
    defenders = [d for d in position.at(target) if d.side != attacking_side]
    side = defenders[0].side if defenders else next(s.id for s in position.game.spec.sides if s.id != attacking_side)
    z = zoc(position).by_side.get(attacking_side, {})
    rows = []
    for n in target.neighbors():
        label = cmap.name(n) if n in cmap.hexes else f"({n.q},{n.r})"
        if n in cmap.hexes and any(u.side == attacking_side for u in position.at(n)):
            rows.append({"hex": label, "closed": True, "why": f"{label}: enemy units"})
            continue
        ok, why = _escape(position, t, side, target, n)
        if not ok:
            rows.append({"hex": label, "closed": True, "why": why})
        elif n in z:
            rows.append({"hex": label, "closed": True,
                         "why": f"{label}: in the attacker's ZOC ({', '.join(sorted({s.unit for s in z[n]}))})"})
        else:
            rows.append({"hex": label, "closed": False, "why": why + ": an escape route"})
    return {"flank": all(r["closed"] for r in rows), "rule": "11.85", "hexes": rows}


def engine_facing(position: Position, u: Unit) -> Hex | None:
    """The hex a Siege Engine's Facing arrow points at (10.11): its ``facing_*`` flag, else the position
    parameter ``facing`` (``unit:HEX`` pairs); None when neither is given."""
    from .movement import COMPASS, param_pairs
    import math
    cmap = position.game.map
    flag = next((f for f in u.flags if f.startswith("facing_")), None)
    if u.hex is None:
        return None
    if flag is not None and flag[7:] in COMPASS:
        want = COMPASS[flag[7:]]
        lay = cmap.grid.layout
        x0, y0 = lay.centre(u.hex)
        best, got = 1e9, None
        for n in u.hex.neighbors():
            if n not in cmap.hexes:
                continue
            x, y = lay.centre(n)
            d = abs((math.degrees(math.atan2(-(y - y0), x - x0)) - want + 180) % 360 - 180)
            if d < best:
                best, got = d, n
        return got
    named = param_pairs(position, "facing").get(u.id)
    return cmap.resolve(named) if named else None


def rider_facing(position: Position, u: Unit) -> Hex | None:
    """The hex the Facing arrow of the Tower ``u`` rides points at: riders melee and advance only through it
    (10.11, 11.2); None when the Tower has no facing given."""
    tower = next((x for x in position.at(u.hex) if x.type in ("siege_tower", "armored_tower")), None)
    return engine_facing(position, tower) if tower is not None else None


# -- the calculator -------------------------------------------------------------------------------------------------
def combat(position: Position, attackers: Sequence[str], defenders: Sequence[str], *, kind: str = "melee",
           primary: str | None = None, flank: bool | None = None, target: str | None = None,
           level: str | None = None, fired: Sequence[str] = (), fired_at: Sequence[str] = (),
           counterattack: bool = False, **_ignored: Any) -> CombatResult:
    """One attack: ``melee`` (``attack`` is read as melee), ``missile`` or ``breach``.

    ``defenders`` are the units in the attacked hex (all of them, 11.15); for a Breach attack they may be
    empty when ``target`` names the hex.  ``primary`` is the Primary Target type (13.2).  ``flank``: None
    works the Flank Attack out from the defender's six neighbours (11.85, :func:`flank_attack`); True/False
    override it (noted when they disagree).  ``level`` (``both``, ``riders``, ``pushers``) picks the target
    level in a Tower hex (9.11).  ``fired``: units that already fired this phase (9.1); ``fired_at``: hexes
    already attacked this phase on the same table (9.6).  ``counterattack``: a melee from a Gate's Entry hex into
    the Gate opened for a Sally (11.14, :func:`sallies`).  Unknown unit ids raise ``KeyError``; a bad kind
    or level ``ValueError``.
    """
    if kind not in KINDS:
        raise ValueError(f"kind {kind!r}: expected one of {', '.join(KINDS)}")
    if primary is not None and primary not in PRIMARY:
        raise ValueError(f"primary {primary!r}: expected infantry or artillery")
    unknown = [u for u in [*attackers, *defenders] if u not in position.by_id]
    if unknown:
        raise KeyError(f"unknown unit id(s): {', '.join(unknown)}")
    kind = "melee" if kind == "attack" else kind
    res = CombatResult(kind)
    t = load_combat_tables()
    att = [position.by_id[u] for u in attackers]
    dfn = [position.by_id[u] for u in defenders]
    try:
        if not att:
            raise _Refuse("9.1" if kind != "melee" else "11.1", "no attacking unit")
        if any(u.hex is None for u in [*att, *dfn]):
            raise _Refuse("3.3", "off-map units may not attack or be attacked (3.3)")
        hexes = {d.hex for d in dfn}
        if target is not None:
            hexes.add(position.game.map.resolve(target))
        if len(hexes) != 1:
            raise _Refuse("11.15", "the defenders must all be in one hex (11.15)")
        th = next(iter(hexes))
        if any(u.side == (dfn[0].side if dfn else None) for u in att):
            raise _Refuse("11.1", "attackers and defenders are on the same side")
        if dfn and kind != "breach":
            missing = [u.id for u in position.at(th) if u.id not in defenders and u.side == dfn[0].side]
            if missing and kind == "melee" and not any(d.has("on_ladder") or d.has("riding") for d in position.at(th)):
                res.notes.append(f"every unit in the hex defends (11.15): {', '.join(missing)} added")
                dfn += [position.by_id[m] for m in missing]
        if kind in ("missile", "breach"):
            again = [u.id for u in att if u.id in set(fired)]
            if again:
                raise _Refuse("9.1", f"{', '.join(again)} already fired this phase: each firing unit fires at one hex "
                                     "per Fire Phase (9.1)")
            done = {position.game.map.resolve(h) for h in fired_at}
            table = "Missile" if kind == "missile" else "Breach"
            if th in done:
                raise _Refuse("9.6", f"{position.game.map.name(th)} was already fired at on the {table} Table this "
                                     f"phase: every unit firing at a hex fires in one attack (9.6; the other table may "
                                     "still be used against an Elevated Hex)")
        if level is not None and level not in LEVELS:
            raise ValueError(f"level {level!r}: expected one of {', '.join(LEVELS)}")
        if kind == "missile":
            if not dfn:
                raise _Refuse("9.1", "no target units: missile fire is at units (9.1)")
            _missile(position, t, res, att, dfn, primary, level)
        elif kind == "melee":
            if not dfn:
                raise _Refuse("11.1", "no defending unit")
            _melee(position, t, res, att, dfn, flank, counterattack)
        else:
            _breach(position, t, res, att, th)
    except _Refuse as r:
        res.refused = r.reason
        res.probability = None
        res.results = []
    return res


# -- fire: may one unit fire at another -----------------------------------------------------------------------------
@dataclass
class FireResult:
    firer: Unit
    target: Unit
    range: int | None = None
    in_range: bool = False
    band: str | None = None
    af: float | None = None
    sees: bool = False
    line: LofResult | None = None
    mandatory: list[Hex] = field(default_factory=list)
    verdict: bool = False
    rule: str = "9.5"
    reasons: list[Reason] = field(default_factory=list)
    cmap: CompiledMap | None = None


def fire(position: Position, firer_id: str, target_id: str, **_ignored: Any) -> FireResult:
    """May ``firer_id`` fire at ``target_id``: range band (9.2), LOF (9.5-9.9), mandatory targets (9.7), CC and
    night (5.3, 18.21), rocks (10.2)."""
    t = load_combat_tables()
    u, v = position.by_id[firer_id], position.by_id[target_id]
    res = FireResult(u, v)
    if u.hex is None or v.hex is None:
        res.rule = "3.3"
        res.reasons.append(Reason("3.3", "both units must be on the map"))
        return res
    cmap = position.game.map
    res.cmap = cmap
    res.range = u.hex.distance(v.hex)
    af, band, _ = missile_af(t, u, res.range)
    res.af, res.band = af, band
    res.in_range = af is not None or (_rock_thrower(u) and res.range == 1)
    res.mandatory = mandatory_targets(position, u)
    line = lof(cmap, u.hex, v.hex, position, tables=t)
    res.line, res.sees = line, line.visible
    res.reasons += line.reasons
    try:
        if u.side == v.side:
            raise _Refuse("9.1", f"{u.id} and {v.id} are on the same side")
        if _cls(v) == "siege_engine":
            raise _Refuse("9.1", "fire does not affect Siege Engines, only the Combat units with them (9.1)")
        a, how, _ = _check_firer(position, t, u, v.hex, res.reasons)
        if v.has("riding") and how.startswith("rocks"):
            raise _Refuse("9.11", f"{u.id} throws rocks or oil: not at units atop a Tower, only its pushers (9.11)")
        if v.has("ladder_base") and any(x.has("on_ladder") for x in position.at(v.hex)):
            res.reasons.append(Reason("9.12", f"{v.id} is a Ladder's Base unit: unaffected while others remain in "
                                              "its hex (9.12)"))
        res.af = a
        res.reasons.append(Reason("9.2", how))
        res.verdict, res.rule = True, "9.5"
    except _Refuse as r:
        res.rule = r.reason.rule
        res.reasons.append(r.reason)
    return res


def fire_json(result: FireResult) -> dict[str, Any]:
    """The stable JSON form of :func:`fire` (the keys of *Jerusalem!*'s, plus band, af, mandatory_targets, lof)."""
    line = result.line
    name = result.cmap.name if result.cmap is not None else str
    return {
        "firer": result.firer.id,
        "target": result.target.id,
        "range": result.range,
        "in_range": result.in_range,
        "sees": result.sees,
        "spotters": [],
        "blocked_by": [] if line is None else [name(h) for h in line.blocked_by],
        "verdict": result.verdict,
        "rule": result.rule,
        "reasons": [{"rule": r.rule, "reason": r.message} for r in result.reasons],
        "band": result.band,
        "af": result.af,
        "mandatory_targets": [name(h) for h in result.mandatory],
        "lof": None if line is None else {"visible": line.visible, "rule": line.rule, "indirect": line.indirect,
                                          "drm": [{"id": d.id, "value": d.value, "rule": d.rule, "why": d.why}
                                                  for d in line.drm],
                                          "levels": list(line.levels)},
    }


# -- mining, replacements, recovery -----------------------------------------------------------------------------------
def mining_shafts(week: int, roll: int, completed: int = 0, tables: CombatTables | None = None) -> int:
    """New mine shafts from a Mining roll in ``week`` of preparation (19.2): roll + drm, less those completed, max 4."""
    t = tables or load_combat_tables()
    prep = t.preparation or {}
    drm = prep["mining_drm"][prep["weeks"].index(week)]
    if drm is None:
        raise ValueError(f"no mining in week {week} (19.2: at least two weeks)")
    cap = int(prep.get("max_shafts", 4))
    return max(0, min(cap, roll + drm) - completed)


def shaft_hexes(cmap: CompiledMap, target: Hex, engineering_roll: int,
                tables: CombatTables | None = None) -> tuple[list[Hex], int]:
    """The Elevated Hexes a shaft affects and the Damage drm (19.2.1): the target and its two adjacent
    Elevated Hexes; on a 4-6 one more each way along the wall."""
    t = tables or load_combat_tables()
    rows = t.engineering or [{"rolls": [1], "hexes": 3, "damage_drm": 1}, {"rolls": [2], "hexes": 3, "damage_drm": 2},
                             {"rolls": [3], "hexes": 3, "damage_drm": 3}, {"rolls": [4, 5, 6], "hexes": 5, "damage_drm": 0}]
    row = next(r for r in rows if engineering_roll in r["rolls"])
    elev = set(t.line_of_fire.elevated)

    def wall_neighbours(h: Hex, skip: set[Hex]) -> list[Hex]:
        ns = [n for n in h.neighbors() if n in cmap.hexes and _terrain(cmap, n) in elev and n not in skip
              and _connected(cmap, h, n)]
        return sorted(ns, key=lambda n: (-n.distance(target), cmap.name(n)))

    ends = wall_neighbours(target, {target})[:2]
    hexes = [target, *ends]
    if row["hexes"] >= 5:
        for e in ends:
            more = [n for n in wall_neighbours(e, set(hexes)) if n.distance(target) == 2]
            if more:
                hexes.append(more[0])
    return hexes, int(row["damage_drm"])


def shaft_damage(position: Position, hexes: Sequence[Hex], rolls: Sequence[int], drm: int) -> list[dict[str, Any]]:
    """19.22: each undermined hex's two-dice roll plus the drm against its Breach Defence less damage done."""
    t = load_combat_tables()
    cmap = position.game.map
    out = []
    for h, roll in zip(hexes, rolls):
        done = _damage(position, h)
        kind = defence_kind(cmap, position, h)
        bd = t.defence(kind)
        final = roll + drm
        already = bool(position.markers_at(h, "breach"))
        out.append({"hex": cmap.name(h), "kind": kind, "breach_defence": bd, "damage_before": done, "roll": roll,
                    "final": final, "breach": already or final >= bd - done,
                    "damage": None if already or final >= bd - done else done + final,
                    "rule": "19.22" if not already else "19.22 (already crumbled)"})
    return out


def replacements(weeks: int, eliminated: int, drawn_weeks: int | None = None, tables: CombatTables | None = None) -> int:
    """Roman Replacements drawn after ``weeks`` of preparation (19.3, 18.5: fractions dropped); after an earlier
    draw at ``drawn_weeks`` only the difference in rates."""
    t = tables or load_combat_tables()
    prep = t.preparation or {}
    pct = prep["roman_replacements_pct"][prep["weeks"].index(weeks)]
    before = 0 if drawn_weeks is None else prep["roman_replacements_pct"][prep["weeks"].index(drawn_weeks)]
    return int(Fraction(eliminated * (pct - before), 100))


def breach_damage(defence: int, before: int, added: int) -> tuple[int, bool]:
    """12.1: damage accumulates; at or above the Breach Defence the hex crumbles."""
    total = before + added
    return total, total >= defence


_NAME = re.compile(r"^([A-Za-z]+)(\d+)$")


def recovery_order(position: Position, side: str | None = None, order: str | None = None) -> list[Unit]:
    """17.1: the units that must roll for Recovery, in order: HQ first, then by row letter and number."""
    t = load_combat_tables()
    how = order or t.recovery_table.order
    cmap = position.game.map

    def key(u: Unit):
        m = _NAME.match(cmap.name(u.hex))
        letters, num = (m.group(1), int(m.group(2))) if m else (cmap.name(u.hex), 0)
        rowkey = (len(letters), letters) if how == "map" else (letters,)
        return (0 if _cls(u) == "hq" else 1, rowkey, num, u.id)

    units = [u for u in position.units if u.hex is not None and not fresh(u) and (side is None or u.side == side)
             and _cls(u) != "siege_engine"]
    return sorted(units, key=key)


def recovery(position: Position, unit_id: str, roll: int, *, enemy_missile: bool | None = None,
             out_of_cc: bool | None = None) -> dict[str, Any]:
    """One Recovery roll (17.1-17.3): drm with rules, the final roll and the outcome.  ``out_of_cc``: whether the
    unit is out of CC at the start of the Recovery Phase (5.1, 5.12); None works it out from the HQs
    (:func:`.command.out_of_command`: the trace of 5.2-5.6, not the ``out_of_cc`` flag)."""
    from .command import out_of_command
    t = load_combat_tables()
    rt = t.recovery_table
    u = position.by_id[unit_id]
    drm: list[Drm] = []

    def add(key: str, why: str):
        d = rt.get(key)
        drm.append(Drm(key, d.value, d.rule, why))

    if out_of_cc is None:
        out_of_cc = u.hex is not None and u.id in out_of_command(position, [u.id])
    if out_of_cc:
        add("not_in_cc", "not in CC at the start of the Recovery Phase (5.1, 5.12)")
    night = _night(position)
    if night:
        add("night", "a night turn (18.22)")
    if enemy_missile is None and u.hex is not None:
        enemy_missile = False
        for e in position.units:
            if e.side == u.side or e.hex is None or not fresh(e) or _cls(e) == "artillery":
                continue
            af, _, _ = missile_af(t, e, e.hex.distance(u.hex))
            if af is None or (night and e.hex.distance(u.hex) != 1):
                continue
            if lof(position.game.map, e.hex, u.hex, position, tables=t).visible:
                enemy_missile = True
                break
    if enemy_missile:
        add("enemy_missile_in_range", "within range and LOF of a Fresh enemy Missile unit (17.24, 18.22)")
    hqs = [h for h in position.units if h.side == u.side and _cls(h) == "hq" and h.id != u.id
           and (h.counter.value("commander") or h.counter.value("formation") == u.counter.value("formation"))]
    if any(h.has("panicked") for h in hqs):
        add("hq_panic", "its Commander or Leader is in Panic (17.3)")
    elif any(h.has("routed") for h in hqs):
        add("hq_rout", "its Commander or Leader is in Rout (17.3)")
    if _cls(u) != "hq" and u.hex is not None and any(h.hex == u.hex and fresh(h) for h in hqs):
        add("fresh_hq", "a Fresh HQ of its own in its hex (17.3)")
    total = sum(d.value for d in drm)
    final = roll + total
    number_ = int(u.counter.value("recovery", back=True) or 0)
    state = "panic" if u.has("panicked") else "rout" if u.has("routed") else "disrupted"
    if final <= number_:
        outcome = {"disrupted": "fresh", "rout": "disrupted", "panic": "rout"}[state]
    elif final >= rt.eliminated_on:
        outcome = "eliminated"
    elif final == rt.panic_on:
        outcome = "panic"
    elif final == rt.rout_on and state != "panic":
        outcome = "rout" if state == "disrupted" else state
    else:
        outcome = state
    return {"unit": u.id, "state": state, "roll": roll, "recovery_number": number_, "final": final,
            "modifiers": [{"id": d.id, "value": d.value, "rule": d.rule, "why": d.why} for d in drm],
            "outcome": outcome, "rule": "17.1, 17.2"}


# -- 11.86-11.9 advance after combat ----------------------------------------------------------------------------------
def advances(position: Position, attackers: Sequence[str], vacated: str, excess_e: int = 0,
             defenders: Sequence[str] = ()) -> dict[str, Any]:
    """Where each victorious attacker may advance once the defenders left ``vacated`` (11.86, 11.9).

    The vacated hex is always open to an attacker that could attack it (enemy ZOC and lack of CC do not
    matter, 11.9), within the side's stacking limit there; the exceptions: Jews who fought a Ladder from above
    (11.61) or a Tower from an Elevated Hex (11.21) stay; Tower riders go only through the facing arrow
    (10.11, 11.2).  ``excess_e`` further hexes (one per ``E`` that eliminated no one, 11.86) come from the move
    generator one step at a time from the vacated hex (no MF cost, only hexes the unit could enter, never
    leaving a Rigid ZOC); none when the vacated hex lies in enemy ZOC or the unit is out of CC, and none
    beyond a hex in enemy ZOC (11.9).  ``defenders``: units still in ``vacated`` to take off first (they left).
    Returns ``{"rule", "vacated", "stacking_limit", "units": {id: {"destinations": [{hex, steps, why}],
    "refused"}}}``.
    """
    from dataclasses import replace
    from .command import out_of_command
    from .movement import moves
    from .tables import load_tables
    from .zoc import zoc
    t = load_combat_tables()
    cmap = position.game.map
    v = cmap.resolve(vacated)
    gone = set(defenders)
    enemies_left = [u for u in position.at(v) if u.id not in gone and u.side != position.by_id[attackers[0]].side] \
        if attackers else []
    kind = fire_kind(cmap, position, v, t)
    stk = load_tables(position.game.folder).stacking.limit
    limit = stk.get(kind, stk.get("clear"))
    out: dict[str, Any] = {"rule": "11.86", "vacated": cmap.name(v), "excess_e": excess_e, "stacking_limit": limit,
                           "units": {}}
    if enemies_left:
        out["refused"] = {"rule": "11.9", "reason": f"{', '.join(u.id for u in enemies_left)} still hold "
                                                    f"{cmap.name(v)}: no advance until every defender is gone"}
        return out
    side = position.by_id[attackers[0]].side if attackers else position.phasing_side
    base = replace(position, units=tuple(u for u in position.units if u.id not in gone),
                   phase="movement", phasing_side=side)   # the generator answers in a Movement Phase
    for uid in attackers:
        u = position.by_id[uid]
        row: dict[str, Any] = {"destinations": [], "refused": None}
        out["units"][uid] = row
        hx = height(cmap, position, u.hex, t) if u.hex is not None else 0
        was = position.at(v)
        why = None
        if u.hex is None or u.hex.distance(v) != 1:
            why = ("11.86", f"{uid} is not next to {cmap.name(v)}")
        elif u.side == "jewish" and hx > 0 and any(d.has("on_ladder") or d.has("ladder_base") for d in was):
            why = ("11.61", "Jews who attack a Ladder from an Elevated Hex may not advance (11.61)")
        elif u.side == "jewish" and hx > 0 and any(d.type in ENGINES for d in was):
            why = ("11.21", "Jews may not advance into a Tower hex from an Elevated Hex (11.21)")
        elif u.has("riding"):
            face = rider_facing(position, u)
            if height(cmap, position, v, t) == 0 or (face is not None and face != v):
                why = ("11.2", "riders leave a Tower only into the vacant Elevated Hex its facing arrow points at "
                               "(10.11, 11.2)")
        elif u.has("pushing") or u.has("ladder_base") or u.has("testudo"):
            why = ("11.1", f"{uid} did not attack (pushing, Ladder Base or Testudo): it does not advance")
        if why:
            row["refused"] = {"rule": why[0], "reason": why[1]}
            continue
        moved = lambda p, h: replace(p, units=tuple(  # noqa: E731
            replace(x, hex=h, spent=0.0, flags=x.flags - {"riding", "on_ladder"}) if x.id == uid else x
            for x in p.units))
        here = moved(base, v)
        row["destinations"].append({"hex": cmap.name(v), "steps": 0,
                                    "why": "the vacated hex: enemy ZOC and CC do not matter (11.9)"})
        if excess_e <= 0:
            continue
        enemy_zoc = zoc(here).enemy(u.side)
        if v in enemy_zoc:
            row["beyond"] = {"rule": "11.9", "reason": f"{cmap.name(v)} is in enemy ZOC: no further advance (11.9)"}
            continue
        if u.has("out_of_cc") or out_of_command(here, [uid]):
            row["beyond"] = {"rule": "11.9", "reason": f"{uid} is out of CC: no further advance (11.9)"}
            continue
        seen = {v}
        frontier = [v]
        for step in range(1, excess_e + 1):
            nxt = []
            for cur in frontier:
                p = moved(base, cur)
                if step > 1 and cur in zoc(p).enemy(u.side):
                    continue
                result = moves(p, [uid])
                for h, d in result.destinations.items():
                    if h in seen or h.distance(cur) != 1 or len(d.path) != 2:
                        continue
                    seen.add(h)
                    nxt.append(h)
                    stop = h in zoc(moved(base, h)).enemy(u.side)
                    row["destinations"].append({"hex": cmap.name(h), "steps": step,
                                                "why": f"{step} hex(es) beyond the vacated hex, one per excess E "
                                                       "(11.86)" + ("; in enemy ZOC: no further (11.9)" if stop else "")})
            frontier = nxt
    return out
