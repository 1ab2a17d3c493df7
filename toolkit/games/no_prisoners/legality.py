"""*No Prisoners* position checker: every unit and marker where the rules allow it to be.

:func:`check` returns one :class:`Violation` per broken rule, each naming its rule, the
hexes and the units; :func:`check_json` is its stable JSON form (the shape of
*Jerusalem!*'s: ``{"legal", "violations": [{"rule", "message", "hexes", "units"}]}``).
Every message ends with its rule number.

What is checked, and the readings the rulebook leaves open:

* **Stacking (9.1, 9.4, 9.5, 22.2)**, per side and hex, at all times (a position is read
  as the end of a phase or combat, 9.2 A): the land units that do not stack free are at
  most the hex's limit (tables.yaml ``stacking.limit``, reconstructed: a city or town
  replaces the base terrain's limit; on a winter turn ``weather.winter.stacking``
  overrides base terrains).  Support units (asterisk), air groups, naval squadrons and
  the railhead and FSD markers stack free (9.4).  A land unit in an all-sea / all-lake
  hex (limit 0) is reported under 9.1 (8.4: prohibited terrain).
* **Enemy units in one hex (9.3)**: land units of both sides.  Air groups and naval
  squadrons on the map mark a target hex and are not units (19.2 A); the railhead and
  the FSD stay where they are when the enemy enters (15.8 C, 16.3 C).
* **Sectors (17.1, 21.3 A/C, 11.8 B, 11.9 B)**: a unit with a sector letter is in a hex
  of that sector, or (Allied units only) in Damascus, which no CP unit ever enters
  (21.3 A); Allied units of the two sectors never share Damascus (21.3 C).  An air group
  or naval squadron on the map is in its own sector.
* **Railhead (16.2)**: at most one marker; not on the map before it arrives (16.2 A,
  tables.yaml ``rail.railhead.arrives``); on a rail hex of an Allied (red) line (16.2 A/B).
  It may never ENTER an enemy-occupied hex or EZOC (16.2 C) but stays when the enemy
  comes (16.3 C), so an enemy unit on it is a violation only in a scenario set-up,
  where it is placed (16.2 A: empty of CP units and their ZOCs).
* **FSD (15.8)**: at most one marker, on a city or town of the Eastern sector (15.8 A).
  When the marker carries the current turn and the position is in the Allied Eastern
  Reinforcement Phase it is being placed now: :func:`~toolkit.games.no_prisoners.supply.fsd_placement`
  must allow it (Eastern Allied unit there, 12-hex trace, 15.8 A/B).  Once placed it
  needs no trace and survives enemy occupation (15.8 B/C).
* **Scenario set-up (3.C/D, 9.5, 25.x, 26.x)**: when the position is a set-up the
  placement zones of tables.yaml ``setup_zones`` (with game.yaml ``place_lists``) are
  checked: each listed unit on the map within ``radius`` hexes of one of the places (0 =
  on it), or on the named terrain and sector; ``each_place_one`` (one on each place);
  ``max_per_hex``; markers; units held in boxes; and no other unit on the map (3.D:
  the rest enter later).  A position is a set-up when ``params.setup`` is true, or
  (without ``params.setup``) when it names a ``scenario`` and has the turn and phase of
  that scenario's file in the module's ``scenarios`` folder (its first turn, before
  anything moved).
* ``turn_end`` is accepted for the command line's sake; no *No Prisoners* rule here
  depends on it.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any


from ...datafile import read_yaml
from ...game import GameDataError, Position, Unit
from ...game.violations import Violation, violation
from ...hexgrid import Hex
from .mapfacts import DAMASCUS, EASTERN, WESTERN, MapFacts, map_facts
from .places import place_hexes
from .railnet import RAILHEAD
from .supply import FSD, allied_side, counter_sector, fsd_placement, is_unit
from .tables import Tables, Zone, load_tables


def _where(position: Position, h: Hex) -> str:
    cmap = position.game.map
    place = cmap.hexes[h].place
    return f"{cmap.name(h)} ({place})" if place else cmap.name(h)


def _names(units) -> str:
    return ", ".join(u.id for u in units)


def stacks_free(u: Unit, t: Tables) -> bool:
    return (u.type in t.stacking.free_types or bool(u.counter.value("stacks_free", default=False))
            or bool(u.counter.value("support", default=False)) or not is_unit(u))


def check(position: Position, turn_end: bool | None = None, **_ignored: Any) -> list[Violation]:
    """Every rule the position breaks (see the module docstring); ``[]`` when it is legal."""
    tables = load_tables(position.game.folder)
    facts = map_facts(position.game.map, load_tables(position.game.folder).rail)
    setup = is_setup(position)
    out: list[Violation] = []
    for h in sorted(position.occupied(), key=position.game.map.name):
        units = position.at(h)
        out += _enemies(position, h, units)
        for side in sorted({u.side for u in units}):
            out += _stacking(position, tables, h, [u for u in units if u.side == side])
        out += _sectors(position, facts, h, units)
    out += _railhead(position, facts, tables, setup)
    out += _fsd(position, facts)
    out += _overspent(position)
    if setup:
        out += _setup(position, tables)
    return out


# -- 8.1 C, 8.3 C -----------------------------------------------------------------------------------------------
def _overspent(position: Position) -> list[Violation]:
    """Units that have spent more MP this phase than their allowance for the kind of move they made (8.1 C:
    double when strategic; 8.3 C: a unit's MA is what it may spend in a phase)."""
    from .movement import NoPrisonersMove
    out = []
    for u in position.units:
        if not u.spent or u.hex is None:
            continue
        kind = "strategic" if u.has("strategic_moved") else "normal"
        full = NoPrisonersMove(position, [u], kind).allowance(u)
        if full is not None and round(2 * u.spent) > full:
            out.append(violation("8.3 C", f"{u.id} has spent {u.spent:g} MP this phase, more than the {full / 2:g} "
                                          f"its {'strategic ' if kind == 'strategic' else ''}move allows",
                                 position, [u.hex], [u]))
    return out


# -- 9.3 ---------------------------------------------------------------------------------------------------------
def _enemies(position: Position, h: Hex, units: list[Unit]) -> list[Violation]:
    land = [u for u in units if is_unit(u)]
    sides = sorted({u.side for u in land})
    if len(sides) < 2:
        return []
    parts = "; ".join(f"{s}: {_names([u for u in land if u.side == s])}" for s in sides)
    return [violation("9.3", f"units of both sides share {_where(position, h)} ({parts}); no unit may enter a hex holding an "
                      "enemy unit", position, [h], land)]


# -- 9.1, 9.4, 22.2 ----------------------------------------------------------------------------------------------
def stacking_limit(position: Position, tables: Tables, h: Hex) -> tuple[int | None, str]:
    """The most non-free units of one side in hex ``h`` and the terrain that sets it (9.1, 22.2)."""
    terrain = position.game.map.hexes[h].terrain
    limits = tables.stacking.limit
    for t in ("city", "town"):
        if t in terrain and t in limits:
            return limits[t], t
    if not terrain:
        return None, ""
    base = terrain[0]
    numeral = position.turn.rsplit("-", 1)[-1]
    if tables.weather.seasons.get(numeral) == "winter" and base in tables.weather.winter.stacking:
        return tables.weather.winter.stacking[base], f"{base} in winter (22.2)"
    return limits.get(base), base


def _stacking(position: Position, tables: Tables, h: Hex, side_units: list[Unit]) -> list[Violation]:
    counted = [u for u in side_units if not stacks_free(u, tables)]
    limit, terrain = stacking_limit(position, tables, h)
    if limit is None or len(counted) <= limit:
        return []
    where = _where(position, h)
    if limit == 0:
        return [violation("9.1", f"{_names(counted)} in {where}: {terrain} is prohibited terrain for land units (8.4), "
                          "stacking limit 0", position, [h], counted)]
    return [violation("9.1", f"{where} ({terrain}) holds {len(counted)} units of one side ({_names(counted)}); the limit "
                      f"is {limit}; support units, air, naval and the railhead stack free (9.4)",
               position, [h], counted)]


# -- 17.1, 21.3, 11.8 B, 11.9 B ------------------------------------------------------------------------------------
def _sectors(position: Position, facts: MapFacts, h: Hex, units: list[Unit]) -> list[Violation]:
    out = []
    region = facts.sector(h)
    where = _where(position, h)
    allied = allied_side(position)
    if region is None:
        return out
    for u in units:
        own = counter_sector(u)
        if region == DAMASCUS:
            if is_unit(u) and u.side != allied:
                out.append(violation("21.3 A", f"CP unit {u.id} is in Damascus {where}; no CP unit may ever enter it",
                              position, [h], [u]))
            continue
        if own is None or own == region:
            continue
        if is_unit(u):
            out.append(violation("17.1", f"{u.id} belongs to the {own} sector but is in {where}, {region} sector; units "
                                  "never cross the sector boundary", position, [h], [u]))
        elif u.type in ("air_group", "naval_squadron"):
            rule = "11.9 B" if u.type == "naval_squadron" else "11.8 B"
            out.append(violation(rule, f"{u.id} ({own} sector) is on {where} in the {region} sector; air and naval units "
                                "are used only in their own sector", position, [h], [u]))
    if region == DAMASCUS:
        land = [u for u in units if is_unit(u) and u.side == allied]
        by = {s: [u for u in land if counter_sector(u) == s] for s in (WESTERN, EASTERN)}
        if by[WESTERN] and by[EASTERN]:
            out.append(violation("21.3 C", f"Allied units of both sectors stack in Damascus {where}: Western "
                                    f"{_names(by[WESTERN])}, Eastern {_names(by[EASTERN])}",
                          position, [h], by[WESTERN] + by[EASTERN]))
    return out


# -- 16.2 --------------------------------------------------------------------------------------------------------
def _railhead(position: Position, facts: MapFacts, tables: Tables, setup: bool) -> list[Violation]:
    marks = [m for m in position.markers if m.marker == RAILHEAD and m.hex is not None]
    out = []
    if len(marks) > 1:
        out.append(violation("16.2", f"{len(marks)} railhead markers on the map; the Allies have one", position,
                      [m.hex for m in marks]))
    arrives = tables.rail.railhead.arrives
    turns = position.game.spec.turns
    for m in marks:
        where = _where(position, m.hex)
        if arrives in turns and position.turn in turns and turns.index(position.turn) < turns.index(arrives):
            out.append(violation("16.2 A", f"the railhead is on the map ({where}) before it arrives in {arrives}",
                          position, [m.hex]))
        if m.hex not in facts.allied_line_hexes:
            out.append(violation("16.2 A", f"the railhead is on {where}, not a rail hex of an Allied (red) line; it is "
                                    "placed and moved only along Allied rail hexes (16.2 B)", position, [m.hex]))
        enemy = [u for u in position.at(m.hex) if is_unit(u) and u.side != allied_side(position)]
        if enemy and setup:
            out.append(violation("16.2 A", f"the railhead is placed on {where}, occupied by CP units ({_names(enemy)}); it "
                                    "starts in a hex empty of CP units (16.2 C)", position, [m.hex], enemy))
    return out


# -- 15.8 --------------------------------------------------------------------------------------------------------
def _fsd(position: Position, facts: MapFacts) -> list[Violation]:
    marks = [m for m in position.markers if m.marker == FSD and m.hex is not None]
    out = []
    if len(marks) > 1:
        out.append(violation("15.8 A", f"{len(marks)} FSD markers on the map; the Eastern Allies have one", position,
                      [m.hex for m in marks]))
    for m in marks:
        where = _where(position, m.hex)
        if m.hex not in facts.towns:
            out.append(violation("15.8 A", f"the FSD is on {where}, which is not a city or town", position, [m.hex]))
            continue
        if facts.sector(m.hex) not in (EASTERN, None):
            out.append(violation("15.8 A", f"the FSD is on {where}, outside the Eastern sector", position, [m.hex]))
            continue
        if m.turn == position.turn and position.phase == "east_allied_reinforcement":
            res = fsd_placement(position, position.game.map.name(m.hex))
            if not res.allowed:
                msg = res.reason.message
                if msg.endswith(f"({res.reason.rule})"):
                    msg = msg[: -len(res.reason.rule) - 3]
                out.append(violation(res.reason.rule, f"the FSD placed this phase on {where}: {msg}", position, [m.hex]))
    return out


# -- scenario set-up (3.C/D, 25.x, 26.x) -----------------------------------------------------------------------------
@lru_cache(maxsize=16)
def _scenario_start(folder: Path, scenario: str) -> tuple[str, str] | None:
    """The (turn, phase) of the module's position file of ``scenario``, or ``None``."""
    for path in sorted((folder / "scenarios").glob("*.yaml")):
        try:
            data = read_yaml(path, GameDataError)
        except GameDataError:
            continue
        if isinstance(data, dict) and str(data.get("scenario")) == scenario:
            return str(data.get("turn")), str(data.get("phase"))
    return None


def is_setup(position: Position) -> bool:
    """Whether the position is a scenario set-up (module docstring)."""
    flag = position.params.get("setup")
    if flag is not None:
        return bool(flag) and position.scenario is not None
    if position.scenario is None:
        return False
    start = _scenario_start(position.game.folder, str(position.scenario))
    return start is not None and start == (position.turn, position.phase)


def _matches(u: Unit, ids) -> bool:
    return u.counter.id in ids or u.id in ids


def _setup(position: Position, tables: Tables) -> list[Violation]:
    zones = tables.setup_zones.get(f"scenario_{position.scenario}")
    if zones is None:
        return []
    cmap = position.game.map
    facts = map_facts(cmap, load_tables(position.game.folder).rail)
    out: list[Violation] = []
    listed: set[str] = set()
    for z in zones:
        for box, ids in z.boxes.items():
            for cid in ids:
                us = [u for u in position.units if _matches(u, (cid,))]
                listed.update(u.id for u in us)
                if not us:
                    out.append(violation(z.rule, f"{cid} is missing: the set-up holds it in the {box} box", position))
                for u in us:
                    if u.box != box:
                        at = _where(position, u.hex) if u.hex is not None else f"box {u.box}"
                        out.append(violation(z.rule, f"{u.id} is in {at}; the set-up holds it in the {box} box", position,
                                      [u.hex] if u.hex is not None else [], [u]))
        for mk in z.markers:
            ms = [m for m in position.markers if m.marker == mk]
            targets = place_hexes(position, z.places, "tables.yaml", "setup_zones") if z.places else []
            if not ms or all(m.hex is None for m in ms):
                out.append(violation(z.rule, f"the {mk} marker is not on the map; the set-up places it", position))
            for m in ms:
                if m.hex is not None and targets and all(m.hex.distance(t) > z.radius for t in targets):
                    out.append(violation(z.rule, f"the {mk} marker is on {_where(position, m.hex)}, outside its set-up zone "
                                          f"({_zone_text(position, z)})", position, [m.hex]))
        if not z.units:
            continue
        us = [u for u in position.units if _matches(u, z.units)]
        listed.update(u.id for u in us)
        found = {u.counter.id for u in us} | {u.id for u in us}
        for cid in z.units:
            if cid not in found:
                out.append(violation(z.rule, f"{cid} is missing from the set-up", position))
        targets = place_hexes(position, z.places, "tables.yaml", "setup_zones") if z.places else []
        for u in us:
            if u.hex is None:
                out.append(violation(z.rule, f"{u.id} is in box {u.box}; the set-up puts it on the map "
                                      f"({_zone_text(position, z)})", position, [], [u]))
                continue
            ok = True
            if targets and all(u.hex.distance(t) > z.radius for t in targets):
                ok = False
            if z.terrain and (not cmap.hexes[u.hex].terrain or cmap.hexes[u.hex].terrain[0] != z.terrain):
                ok = False
            if z.sector and facts.sector(u.hex) != (WESTERN if z.sector.upper().startswith("W") else EASTERN):
                ok = False
            if not ok:
                out.append(violation(z.rule, f"{u.id} is set up on {_where(position, u.hex)}, outside its zone "
                                      f"({_zone_text(position, z)})", position, [u.hex], [u]))
        on_map = [u for u in us if u.hex is not None]
        if z.each_place_one:
            for t in targets:
                here = [u for u in on_map if u.hex == t]
                if len(here) != 1:
                    out.append(violation(z.rule, f"{_where(position, t)} holds {len(here)} of {', '.join(z.units)}"
                                          f"{' (' + _names(here) + ')' if here else ''}; the set-up puts exactly one "
                                          "on each", position, [t], here))
        if z.max_per_hex is not None:
            for h in sorted({u.hex for u in on_map}, key=cmap.name):
                here = [u for u in on_map if u.hex == h]
                if len(here) > z.max_per_hex:
                    out.append(violation(z.rule, f"{_where(position, h)} holds {len(here)} of these units ({_names(here)}); "
                                          f"the set-up allows {z.max_per_hex} a hex", position, [h], here))
    extra = [u for u in position.units if u.hex is not None and u.id not in listed]
    for u in sorted(extra, key=lambda u: u.id):
        out.append(violation("3 D", f"{u.id} is on the map at {_where(position, u.hex)} but is not in the scenario's "
                             "initial deployment; it enters later as a reinforcement", position, [u.hex], [u]))
    return out


def _zone_text(position: Position, z: Zone) -> str:
    parts = []
    if z.places:
        names = z.places if isinstance(z.places, str) else ", ".join(z.places)
        parts.append(("on " if z.radius == 0 else f"within {z.radius} hex(es) of ") + names)
    if z.terrain:
        parts.append(f"{z.terrain} hex")
    if z.sector:
        parts.append(f"{z.sector} sector")
    return ", ".join(parts) or "its zone"
