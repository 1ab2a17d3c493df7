"""*The Siege of Jerusalem* position checker: every unit where the rules allow it at the end of a phase.

:func:`check` returns one :class:`~toolkit.game.violations.Violation` per broken rule (rule, message ending
with the rule, hexes, units).  A position is read as the end of a phase, when the stacking limits hold (6).

* **Enemies sharing a hex** (8.11, 11.4): units of both sides in one hex.
* **Stacking** (6, 8.95; ``tables.yaml`` ``stacking.limit`` by terrain, a Breach or Ramp marker replacing the
  map's): the side's Infantry and Cavalry; Artillery, HQ and Siege Engines do not count but at most one of each
  stands in a hex (6) -- a Fortress may hold a second Artillery if one of the two is a Cauldron (6.3), an
  Armored Tower may carry a Catapult (6.43), and one HQ may push and one ride a Siege Engine (6.4, 6.42).
* **Siege Engines** (6.4-6.43): every Combat unit in the hex pushes or rides; at most two Heavy Infantry or
  Velites push (plus an HQ), one Infantry rides a Tower (plus an HQ), none a Ram; a Legion's Tower is pushed
  and climbed by its own Legion only; no Siege Engine on an Elevated Hex.
* **Ladders** (6.5, 8.7): a Ladder marker stands beside an Elevated Hex on a Fresh Heavy Infantry or Velites
  Base unit (flag ``ladder_base``), one Base unit (plus an HQ) beneath and at most two units (plus an HQ) atop;
  no other kinds of unit in the hex; never a Jewish unit.
* **Testudos** (6.6, 6.61): two or three Fresh Heavy Infantry of one Legion (or two and a Velites), HQ
  allowed; only Heavy Infantry, Velites and HQ; not in a Built-up or Elevated Hex.
* **Where units may not be**: Cavalry on an Elevated Hex or with other units than HQ (6.2); Artillery with a
  Siege Engine, Testudo, Ladder or Cavalry (6.3), Jewish Artillery and Cauldrons off Elevated Hexes (8.4,
  8.5); Garrisons outside their Area (18.4: AF the Antonia Fortress, HP Herod's Palace with the Fortress
  Triangle and the Jaffa Gate, TQ the Temple District, and the four hexes AF and TQ share;
  :func:`~.movement.garrison_hexes`, the rule movement uses; ``tables.yaml`` ``garrisons``).

``turn_end`` is accepted for the command line's sake; no rule here depends on it.
"""
from __future__ import annotations

from typing import Any

from ...game import Position, Unit
from ...game.violations import Violation, violation
from ...hexgrid import Hex
from .movement import entry_records, facts_for, garrison_hexes
from .sequence import sequence_check
from .tables import load_tables
from .zoc import BUILT_UP, FORTRESS, INFANTRY, JEWISH, ROMAN, Board, formation, fresh, unit_class

def _names(units) -> str:
    return ", ".join(u.id for u in units)


def check(position: Position, turn_end: bool | None = None, **_ignored: Any) -> list[Violation]:
    """Every rule the position breaks (see the module docstring); ``[]`` when it is legal."""
    tables = load_tables(position.game.folder)
    board = Board.of(position, facts_for(position, tables))
    out: list[Violation] = []
    name = position.game.map.name
    for h in sorted(position.occupied(), key=name):
        units = position.at(h)
        sides = sorted({u.side for u in units})
        if len(sides) > 1:
            parts = "; ".join(f"{s}: {_names([u for u in units if u.side == s])}" for s in sides)
            out.append(violation("8.11", f"units of both sides share {name(h)} ({parts}); no unit may enter a hex "
                                         "holding an enemy Combat unit", position, [h], units))
        for side in sides:
            mine = [u for u in units if u.side == side]
            out += _stacking(position, tables, board, h, mine)
            out += _engines(position, tables, board, h, mine)
            out += _testudo(position, tables, board, h, mine)
            out += _ladder(position, tables, board, h, mine)
            out += _kinds(position, tables, board, h, mine)
    for h in sorted(board.ladders, key=name):
        if not position.at(h):
            out.append(violation("8.7", f"the Ladder in {name(h)} has no Fresh Base unit: Ladders cannot exist "
                                        "without one", position, [h]))
    return out + _entered_legions(position) + sequence_check(position)


def _entered_legions(position: Position) -> list[Violation]:
    """3.3: at the end of a Legion's first Movement Phase on the board (its ``off_map_entry`` turn), every unit of
    it stands within ten hexes of its HQ."""
    if position.phase != "movement" or position.phasing_side != ROMAN:
        return []
    now = str(position.turn).rpartition("/")[2]
    reach = load_tables(position.game.folder).movement.entry_hq_distance                     # 3.3
    out = []
    for legion, (_, turn) in sorted(entry_records(position).items()):
        if turn is None or not now.isdigit() or int(now) != turn:
            continue
        units = [u for u in position.units if formation(u) == legion and u.hex is not None]
        hq = next((u for u in units if unit_class(u) == "hq"), None)
        if hq is None:
            if units:
                out.append(violation("3.3", f"Legion {legion} entered the board this turn without its HQ on the "
                                            "map", position, [u.hex for u in units], units))
            continue
        for u in (u for u in units if u.hex.distance(hq.hex) > reach):
            out.append(violation("3.3", f"{u.id} ends its Legion's first Movement Phase on the board "
                                        f"{u.hex.distance(hq.hex)} hexes from its HQ {hq.id} (at most {reach})",
                                 position, [u.hex, hq.hex], [u, hq]))
    return out


def _stacking(position: Position, tables, board: Board, h: Hex, units: list[Unit]) -> list[Violation]:
    st = tables.stacking
    terrain = board.terrain(h)
    limit = st.limit.get(terrain)
    out = []
    counting = [u for u in units if unit_class(u) not in st.free_classes]
    if limit is not None and len(counting) > limit and not any(unit_class(u) == "siege_engine" for u in units) \
            and h not in board.ladders and not any(u.has("testudo") for u in units):
        rule = "8.95" if terrain in BUILT_UP else "6"
        out.append(violation(rule, f"{len(counting)} Infantry/Cavalry units in {position.game.map.name(h)} "
                                   f"({terrain}); the stacking limit is {limit} at the end of a phase",
                             position, [h], counting))
    art = [u for u in units if unit_class(u) == "artillery" and not u.has("riding")]
    fortress = board.facts.base[h] in FORTRESS and h not in board.breaches
    if len(art) > 1:
        ok = fortress and len(art) == 2 and sum(1 for u in art if u.type == "cauldron") == 1
        if not ok:
            out.append(violation("6.3", f"{len(art)} Artillery units in one hex; one only (a Fortress may add one "
                                        "Cauldron)", position, [h], art))
    hqs = [u for u in units if unit_class(u) == "hq"]
    engine_hq = any(unit_class(u) == "siege_engine" for u in units) or h in board.ladders
    if len(hqs) > (2 if engine_hq else 1):
        out.append(violation("6", f"{len(hqs)} HQ in one hex; no more than one stacking-free HQ (one beneath and "
                                  "one atop a Siege Engine or Ladder)", position, [h], hqs))
    engines = [u for u in units if unit_class(u) == "siege_engine"]
    if len(engines) > 1:
        out.append(violation("6", f"{len(engines)} Siege Engines in one hex; one at most", position, [h], engines))
    return out


def _engines(position: Position, tables, board: Board, h: Hex, units: list[Unit]) -> list[Violation]:
    engines = [u for u in units if unit_class(u) == "siege_engine"]
    if not engines:
        return []
    e = engines[0]
    out = []
    name = position.game.map.name(h)
    if board.elevated(h):
        out.append(violation("6.4", f"Siege Engine {e.id} on the Elevated Hex {name} (a Ram only passes a Gate)",
                             position, [h], [e]))
    combat = [u for u in units if unit_class(u) != "siege_engine"]
    loose = [u for u in combat if not (u.has("pushing") or u.has("riding"))]
    if loose:
        out.append(violation("6.4", f"every Combat unit in a Siege Engine hex pushes or rides it: {_names(loose)} "
                                    "does neither", position, [h], loose))
    pushers = [u for u in combat if u.has("pushing") and unit_class(u) != "hq"]
    bad = [u for u in pushers if not (unit_class(u) == "heavy_infantry" or u.type == "velites")]
    if bad:
        out.append(violation("6.4", f"only Heavy Infantry and Velites push Siege Engines: {_names(bad)}",
                             position, [h], bad))
    if len(pushers) > tables.stacking.engine_pushers:
        out.append(violation("6.4", f"{len(pushers)} units push {e.id}; at most {tables.stacking.engine_pushers} "
                                    "(plus one HQ)", position, [h], pushers))
    riders = [u for u in combat if u.has("riding") and unit_class(u) in INFANTRY and unit_class(u) != "hq"]
    if e.type == "ram" and any(u.has("riding") for u in combat):
        out.append(violation("6.41", f"Rams may not carry passengers ({e.id})", position, [h],
                             [u for u in combat if u.has("riding")]))
    elif len(riders) > tables.stacking.tower_riders:
        out.append(violation("6.42", f"{len(riders)} Infantry atop {e.id}; one at most (plus one HQ)",
                             position, [h], riders))
    cats = [u for u in combat if u.has("riding") and unit_class(u) == "artillery"]
    if cats and (e.type != "armored_tower" or len(cats) > 1 or any(u.type != "catapult" for u in cats)):
        out.append(violation("6.43", "only an Armored Tower carries Artillery: one Catapult", position, [h], cats))
    if e.type == "siege_tower":
        alien = [u for u in combat if (u.has("pushing") or u.has("riding")) and unit_class(u) != "hq"
                 and formation(u) != formation(e)]
        if alien:
            out.append(violation("6.42", f"only units of {e.id}'s Legion push or climb it: {_names(alien)}",
                                 position, [h], alien))
    return out


def _testudo(position: Position, tables, board: Board, h: Hex, units: list[Unit]) -> list[Violation]:
    t = [u for u in units if u.has("testudo")]
    if not t:
        return []
    st, out, name = tables.stacking, [], position.game.map.name(h)
    hi = [u for u in t if unit_class(u) == "heavy_infantry"]
    vel = [u for u in t if u.type == "velites"]
    wrong = [u for u in t if u not in hi and u not in vel and unit_class(u) != "hq"]
    others = [u for u in units if not u.has("testudo")]
    if wrong or others:
        out.append(violation("6.1", f"only Heavy Infantry, Velites and HQ make up a Testudo, and every unit in its "
                                    f"hex joins it: {_names(wrong + others)}", position, [h], wrong + others))
    n_fresh = sum(1 for u in hi if fresh(u))
    if not (st.testudo_min <= len(hi) + len(vel) <= st.testudo_max) or len(vel) > 1 or len(hi) < st.testudo_min:
        out.append(violation("6.6", f"a Testudo is two or three Heavy Infantry (or two and a Velites); {name} has "
                                    f"{len(hi)} Heavy Infantry and {len(vel)} Velites", position, [h], t))
    elif n_fresh < st.testudo_min:
        out.append(violation("16.4", f"the Testudo in {name} has fewer than two Fresh Heavy Infantry: it disbands",
                             position, [h], t))
    legions = {formation(u) for u in hi + vel}
    if len(legions) > 1:
        out.append(violation("6.6", f"units of different Legions may not form a Testudo ({', '.join(sorted(map(str, legions)))})",
                             position, [h], t))
    if board.built_up(h) or board.elevated(h):
        out.append(violation("6.61", f"a Testudo may not stand in {board.terrain(h)} ({name})", position, [h], t))
    return out


def _ladder(position: Position, tables, board: Board, h: Hex, units: list[Unit]) -> list[Violation]:
    if h not in board.ladders:
        return []
    st, out, name = tables.stacking, [], position.game.map.name(h)
    if units and units[0].side == JEWISH:
        return [violation("6.5", f"Jewish units in the Ladder hex {name}: the Jews may never enter a Ladder hex",
                          position, [h], units)]
    bases = [u for u in units if u.has("ladder_base")]
    good = [u for u in bases if fresh(u) and (unit_class(u) == "heavy_infantry" or u.type == "velites")]
    if not good:
        out.append(violation("8.7", f"the Ladder in {name} has no Fresh Heavy Infantry or Velites Base unit",
                             position, [h], units))
    if len(bases) > st.ladder_base:
        out.append(violation("8.7", f"{len(bases)} Base units beneath the Ladder in {name}; one only",
                             position, [h], bases))
    climbers = [u for u in units if u.has("on_ladder") and unit_class(u) != "hq"]
    if len(climbers) > st.ladder_climbers:
        out.append(violation("6.5", f"{len(climbers)} units atop the Ladder in {name}; two at most (plus one HQ)",
                             position, [h], climbers))
    wrong = [u for u in units if not (unit_class(u) in ("heavy_infantry", "hq") or u.type == "velites")]
    if wrong:
        out.append(violation("6.5", f"only Heavy Infantry, Velites and HQ may be in a Ladder hex: {_names(wrong)}",
                             position, [h], wrong))
    below = [u for u in units if not u.has("on_ladder") and not u.has("ladder_base") and unit_class(u) != "hq"]
    if below:
        out.append(violation("8.7", f"units in a Ladder hex hold it or climb it: {_names(below)}", position, [h], below))
    if not any(board.elevated(n) for n in board.facts.neighbors[h]):
        out.append(violation("8.7", f"the Ladder in {name} is not next to an Elevated Hex", position, [h], units))
    return out


def _kinds(position: Position, tables, board: Board, h: Hex, units: list[Unit]) -> list[Violation]:
    out, name, f = [], position.game.map.name(h), board.facts
    cav = [u for u in units if unit_class(u) == "cavalry"]
    if cav and board.elevated(h):
        out.append(violation("6.2", f"Cavalry on the Elevated Hex {name} (they may pass a Gate or Bridge but not "
                                    "stop)", position, [h], cav))
    if cav:
        others = [u for u in units if unit_class(u) not in ("cavalry", "hq")]
        if others:
            out.append(violation("6.2", f"Cavalry share {name} with units other than HQ: {_names(others)}",
                                 position, [h], cav + others))
    art = [u for u in units if unit_class(u) == "artillery" and not u.has("riding")]
    if art and (any(unit_class(u) == "siege_engine" or u.has("testudo") for u in units) or h in board.ladders):
        out.append(violation("6.3", f"Artillery in a hex with a Siege Engine, Testudo or Ladder ({name})",
                             position, [h], art))
    for u in art:
        if u.side == JEWISH and not board.elevated(h):
            rule = "8.5" if u.type == "cauldron" else "8.4"
            out.append(violation(rule, f"{u.id}: Jewish Artillery and Cauldrons stand only on Elevated Hexes ({name})",
                                 position, [h], [u]))
        elif u.side == ROMAN and f.base[h] in ("gate", "bridge") and board.elevated(h):
            out.append(violation("8.4", f"{u.id}: Roman Artillery passes Gates and Bridges but may not stop in one",
                                 position, [h], [u]))
    for u in units:
        area = u.counter.value("garrison_area", default=None)
        if not area:
            continue
        if h not in garrison_hexes(f, tables, str(area)):                                      # 18.4
            out.append(violation("18.4", f"Garrison {u.id} ({area}) is outside its Area, in {name}"
                                         f" ({f.region[h] or 'no area'})", position, [h], [u]))
    return out
