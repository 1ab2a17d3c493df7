"""*The Siege of Jerusalem* movement (6.x, 7.3x, 8.x, 12.4, 16.5x, 17.21, 18.8, 18.92x) for the one legal-move
generator :func:`toolkit.game.moves.legal_moves`.

What moves: a unit or a stack of one hex; a **Testudo** (every unit of the hex flagged ``testudo``, 4 MF, 6.61,
8.8); a **Siege Engine** with the units pushing and riding it (flags ``pushing`` / ``riding``), at the engine's
rate, the budget cut so each pusher and rider can lose 2 MF per MF spent (8.3, 8.61).  Costs are half MF from
``tables.yaml`` ``movement``.

The search's ``mode`` is the stack's level in the hex: ``g`` Ground or Built-up, ``e`` on an Elevated Hex,
``gate`` passing through a Gate at Ground level (8.91: it may not stop there), ``ladder`` atop a Ladder (8.7),
``tower`` atop a Tower (8.61), and whether Flight movement was used (18.922).  Level changes:

* Stairway hexsides, a Gate's inherent Stairway through its Entry hexsides and a Breach to its connected wall:
  2 MF in all (8.91, 8.93), Infantry only;
* Ladders: 4 MF plus the hex's cost to climb on, 2 MF to the wall and back (Romans only, 6.5, 8.7); off the top
  to Ground for the Ground hex's cost;
* Towers: onto the Tower for the hex's cost plus the Tower's number (8.61: 2 x the MF the Tower spent, its
  ``spent`` or a ``breach_damage`` marker's value in its hex), 2 MF to the Elevated Hex its arrow faces (the
  position parameter ``facing`` gives ``unit:HEX`` pairs; without one, any adjacent Elevated Hex);
* Ramps: entered as a Slope from the hex behind, an adjacent Ramp or the wall it climbs (18.8, Infantry only).

Gates at Ground level: only through the Entry hexsides and only by the side that controls the Gate (8.91);
Cavalry and Roman Artillery pass Gates and Bridges, Rams and Testudos Gates, without stopping (6.2, 6.4, 6.61,
8.4).  The Temple's west side blocks Ground-level steps (8.92, map hexside feature).  Roads: 1/2 MF across a
``city_road`` hexside (12.4), a full MF through an Elevated Hex whose damage is at least half its Breach
Defence when ``tables.yaml`` gives one (12.4: ``breach_defense`` by terrain).

ZOC (7.3x): Infantry, Artillery, Siege Engines and Testudos stop on entering an enemy ZOC; starting in one,
the first hex must be free of it (7.311).  HQ and Cavalry (soft ZOC) pay 3 MF to leave an enemy-ZOC hex, once
a hex (7.32, 7.4), but leave their starting ZOC free when the first hex is free of it (7.321).  Non-HQ Jews
starting in a Roman Heavy Infantry Ground ZOC may not move, except at night (7.311, 18.23).  Disrupted units
and units out of CC may not enter an enemy ZOC (16.51, 5.3); out of CC, not next to an enemy on an Elevated
Hex either (5.3).

Other rules: enemy Combat units (8.11); stacking at the end only, passing through a full hex at double cost
(6, 8.13); a hex with a Panicked friend stops the move and may not be overstacked, leaving one costs double
(17.21); units in Rout or Panic end nearer the Refuge than they began (17.21, 15.4); the map edge (8.14:
``exits``, each hex at the edge, leaving costs as Clear); Flight (18.92, 18.922) when the position parameter
``flight`` is true.

Entering and leaving the map (3.3, 8.14): off-map Roman units enter by the edge their Legion's record gives
(position parameter ``off_map_entry``, ``LEGION:EDGE[:TURN]``; the edges are those of the map picture), at one
edge hex (``enter``) or any, paying only that hex's cost; Jews never return.  Leaving costs 1 MF more than
reaching the edge hex, from a hex where the move need not end.

Per-phase state: 8.2, the position parameter ``moving`` names the units still moving (others flagged
``moved`` are done); 8.7, a Ladder marker's value counts the units that used it this phase (``full`` = two);
8.61, flag ``stepped_off`` on a Tower a unit has left for the wall; 8.4, flag ``ap_elevated`` on Roman
Artillery that began the Assault Period on an Elevated Hex.

Actions in place (:func:`actions`, :func:`apply_action`): forming and disbanding a Testudo (6.6, 8.8, 6 MF),
placing and withdrawing a Ladder (6.5, 8.7, 4 MF).  Joining a Testudo is a move into its hex: 6 MF more than
the hex, and the move ends there (8.8).

Readings of our own: a stack moves at its slowest unit's cost; out of CC is the flag ``out_of_cc`` (or a
command trace, :mod:`.command`, when the flag is absent); without the flag ``ap_elevated``, Roman Artillery
is judged by where it stands (it cannot change level, so the two agree); a Tower's riders leave it only for
the Elevated Hex it faces; a unit at the foot of a Ladder climbs straight to an adjacent Elevated Hex (4 + 2
MF; ending atop the Ladder in its own hex is not listed); joining a Testudo costs 6 MF on top of the hex's
entry cost (as a Ladder's 4 MF are, 8.7).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Sequence

from ...game import Position, Unit
from ...game.moves import Blocked, MoveResult, Reason, Step, legal_moves
from ...hexgrid import Hex
from .tables import Tables, load_tables
from .zoc import (ELEVATED, FORTRESS, INFANTRY, JEWISH, ROMAN, Board, MapFacts, board_and_zoc, formation,
                  fresh, is_combat, map_facts, unit_class, value, zoc)

ENGINE_TYPES = ("ram", "siege_tower", "armored_tower")
TOWERS = ("siege_tower", "armored_tower")
REFUGE = "Temple District"


def _refuge(facts: MapFacts) -> list[Hex]:
    got = getattr(facts, "_refuge", None)
    if got is None:
        got = facts._refuge = [h for h, r in facts.region.items() if r == REFUGE]
    return got


def garrison_hexes(facts: MapFacts, tables: Tables, code: str) -> frozenset[Hex]:
    """18.4: the hexes a Garrison assigned to ``code`` (AF, HP, TQ) may stand in or enter: its Area's
    (``tables.yaml`` ``garrisons``: ``area`` and ``also``, the map's regions) and, for the two Garrisons of
    ``shared_walls``, the hexes they share: the first Area's Elevated hexes bordering the second's."""
    g = tables.garrisons
    mine = g.get(code) if isinstance(g.get(code), dict) else {}
    regions = (mine.get("area"), *mine.get("also", ()))
    shared = tuple(g.get("shared_walls") or ())
    cache = facts.__dict__.setdefault("_garrison_hexes", {})
    key = (code, regions, shared)
    got = cache.get(key)
    if got is None:
        got = {h for h, r in facts.region.items() if r is not None and r in regions}
        if code in shared and len(shared) == 2:
            walls, other = (g[c]["area"] if isinstance(g.get(c), dict) else None for c in shared)
            got |= {h for h, r in facts.region.items() if r == walls and facts.base[h] in ELEVATED
                    and any(facts.region[n] == other for n in facts.neighbors[h])}
        got = cache[key] = frozenset(got)
    return got


def facts_for(position: Position, tables: Tables) -> MapFacts:
    m = tables.movement
    return map_facts(position.game.map, m.entry_hexsides, m.blocked_hexsides)


def param_pairs(position: Position, key: str) -> dict[str, str]:
    """``unit:HEX`` pairs of a position parameter (spaces or commas between pairs)."""
    raw = position.params.get(key)
    out: dict[str, str] = {}
    if isinstance(raw, str):
        for part in raw.replace(",", " ").split():
            if ":" in part:
                k, v = part.split(":", 1)
                out[k] = v
    return out


COMPASS = {"n": 90.0, "ne": 30.0, "se": -30.0, "s": -90.0, "sw": -150.0, "nw": 150.0}


def facing_hex(position: Position, facts: MapFacts, u: Unit) -> Hex | None:
    """The neighbour a Siege Engine's Facing arrow points at (flag ``facing_<compass>``, game.yaml; 10.11)."""
    import math
    flag = next((f for f in u.flags if f.startswith("facing_")), None)
    if flag is None or u.hex is None or flag[7:] not in COMPASS:
        return None
    want = COMPASS[flag[7:]]
    lay = position.game.map.grid.layout
    x0, y0 = lay.centre(u.hex)
    best, got = 1e9, None
    for n in facts.neighbors[u.hex]:
        x, y = lay.centre(n)
        ang = math.degrees(math.atan2(-(y - y0), x - x0))
        d = abs((ang - want + 180) % 360 - 180)
        if d < best:
            best, got = d, n
    return got


def engine_facings(position: Position, facts: MapFacts) -> dict[str, str]:
    """Each Siege Engine's facing hex name: its ``facing_*`` flag, or the ``facing`` parameter's ``unit:HEX``."""
    out = param_pairs(position, "facing")
    for u in position.units:
        if unit_class(u) == "siege_engine":
            h = facing_hex(position, facts, u)
            if h is not None:
                out[u.id] = facts.name(h)
    return out


EDGES = ("north", "east", "south", "west")


def edge_sides(facts: MapFacts, cmap) -> dict[Hex, str]:
    """Each map-edge hex's board edge (3.3): the nearest side of the map picture (north at the top)."""
    got = getattr(facts, "_edge_sides", None)
    if got is None:
        lay = cmap.grid.layout
        cs = {h: lay.centre(h) for h in facts.neighbors}
        xs, ys = [c[0] for c in cs.values()], [c[1] for c in cs.values()]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        got = {}
        for h in facts.edge:
            x, y = cs[h]
            got[h] = min((y - y0, "north"), (x1 - x, "east"), (y1 - y, "south"), (x - x0, "west"))[1]
        facts._edge_sides = got
    return got


def moving_now(position: Position) -> frozenset[str]:
    """8.2: the units still moving (position parameter ``moving``, ids); every other ``moved`` unit is done."""
    raw = position.params.get("moving")
    return frozenset(x for x in str(raw).replace(",", " ").split()) if raw else frozenset()


def entry_records(position: Position) -> dict[str, tuple[str, int | None]]:
    """3.3: ``off_map_entry`` ``LEGION:EDGE[:TURN]`` records (TURN: the turn of the Assault Period)."""
    out: dict[str, tuple[str, int | None]] = {}
    raw = position.params.get("off_map_entry")
    for part in (str(raw).replace(",", " ").split() if raw else []):
        bits = part.split(":")
        if len(bits) >= 2:
            turn = int(bits[2]) if len(bits) > 2 and bits[2].isdigit() else None
            out[bits[0]] = (bits[1].lower(), turn)
    return out


def ladder_uses(position: Position, h: Hex) -> int:
    """8.7: units that used the Ladder in ``h`` this phase (marker value: a number, or ``full`` for two)."""
    best = 0
    for m in position.markers_at(h, "ladder"):
        if m.value == "full":
            return 2
        if isinstance(m.value, (int, float)) and not isinstance(m.value, bool):
            best = max(best, int(m.value))
    return best


@dataclass
class SiegeMove:
    """One unit, stack, Testudo or Siege Engine moving (a :class:`~toolkit.game.moves.MoveRules`)."""

    position: Position
    units: list[Unit]
    tables: Tables = field(default=None, repr=False)
    out_of_cc: bool | None = None
    board: Board = field(default=None, repr=False)
    zmap: object = field(default=None, repr=False)
    enter: Hex | None = None
    retreating: bool = False          # a retreat after combat (15.2): no 8.13 / 17.21 double costs, no 17.21 end

    def __post_init__(self):
        pos = self.position
        if self.tables is None:
            self.tables = load_tables(pos.game.folder)
        self.m = self.tables.movement
        self.facts = facts_for(pos, self.tables)
        if self.board is None:
            self.board = Board.of(pos, self.facts)
        u0 = self.units[0]
        self.start = u0.hex
        self.side = u0.side
        self.enemy_side = JEWISH if self.side == ROMAN else ROMAN
        self.kind, self.units = self._make_up(self.units)
        self.moving_units = tuple(u.id for u in self.units)
        self.ids = set(self.moving_units)
        self.classes = {unit_class(u) for u in self.units}
        self.engine = next((u for u in self.units if unit_class(u) == "siege_engine"), None)
        zm = self.zmap if self.zmap is not None else zoc(pos, self.board)
        src = zm.enemy(self.side)
        self.ezoc = frozenset(src)
        self.hi_ground = frozenset(h for h, s in src.items() if any(x.heavy_infantry_ground for x in s))
        self.enemy_elevated = frozenset(u.hex for u in pos.units if u.side != self.side and u.hex is not None
                                        and is_combat(u) and self.board.elevated(u.hex))
        self.soft = self.kind == "unit" and all(c in ("hq", "cavalry") for c in self.classes)
        self.disrupted = any(not fresh(u) for u in self.units if unit_class(u) != "siege_engine")
        if self.out_of_cc is None:
            self.out_of_cc = any(u.has("out_of_cc") for u in self.units)
        self.level0 = self._start_level()
        self.flight = bool(pos.params.get("flight")) and self.side == JEWISH
        cached = getattr(self.board, "_facings", None)
        if cached is None:
            cached = engine_facings(pos, self.facts)
            self.board._facings = cached
        self.facing = cached
        self.budget = self._budget()
        self.fleeing_ok = self.flight and self.start is not None and self.start not in self.ezoc
        self.routed = any(u.has("routed") or u.has("panicked") for u in self.units) and not all(
            u.counter.value("garrison_area") for u in self.units)
        self.refuge = _refuge(self.facts) if self.routed else []
        self.start_refuge = self._refuge_distance(self.start) if self.routed and self.start is not None else None
        self.moving_now = moving_now(pos)
        self.garrisons = [(u, str(u.counter.value("garrison_area")),
                           garrison_hexes(self.facts, self.tables, str(u.counter.value("garrison_area"))))
                          for u in self.units if u.counter.value("garrison_area")]                  # 18.4
        if self.start is None:
            self.entries = self._entries                                                       # 3.3

    # -- make-up and budget ----------------------------------------------------------------------------------
    def _make_up(self, units: list[Unit]) -> tuple[str, list[Unit]]:
        here = self.position.at(self.start) if self.start is not None else []
        ids = {u.id for u in units}
        if any(unit_class(u) == "siege_engine" for u in units):
            crew = [u for u in here if (u.has("pushing") or u.has("riding")) and u.id not in ids]
            return "engine", units + crew
        if all(u.has("testudo") for u in units):
            whole = [u for u in here if u.has("testudo")]
            if {u.id for u in whole} == ids or len(units) == 1 and False:
                return "testudo", units
            if len(ids) < len(whole) and len(ids) >= 2:
                return "testudo", units + [u for u in whole if u.id not in ids]
            return "leave_testudo", units
        return "unit", units

    def _mf(self, u: Unit) -> float | None:
        mf = value(u, "movement")
        if mf is None:
            return None
        mf = float(mf)
        if u.has("broken_testudo") and fresh(u):
            mf -= 6                                                      # 16.4
        return mf - float(u.spent or 0)

    def _budget(self) -> int | None:
        if self.kind == "engine":
            e = self.engine
            mf = self._mf(e)
            if mf is None:
                return None
            crew = [self._mf(u) for u in self.units if u is not e and unit_class(u) != "artillery"]
            limit = [int(2 * c // self.m.rider_loss_per_mf) for c in crew if c is not None]   # 8.61
            return max(0, min([int(2 * mf)] + limit))
        if self.kind == "testudo":
            fr = [self._mf(u) for u in self.units if fresh(u) and unit_class(u) != "hq"]
            own = [int(2 * c) for c in fr if c is not None]
            return max(0, min([2 * self.m.testudo_mf] + own))                                # 8.8
        mfs = [self._mf(u) for u in self.units]
        if any(m is None for m in mfs):
            return None
        b = int(2 * min(mfs))
        if self.kind == "leave_testudo":
            b //= 2                                                                             # 8.8
        return max(0, b)

    def _start_level(self) -> str:
        if self.start is None:
            return "g"
        if self.kind == "unit" and all(x.has("on_ladder") for x in self.units):
            return "ladder"
        if self.kind == "unit" and all(x.has("riding") for x in self.units):
            return "tower"
        if self.kind == "unit" and any(x.has("gate_stair") for x in self.units):
            return "gate"
        return "e" if self.board.elevated(self.start) else "g"

    def _refuge_distance(self, h: Hex) -> int:
        return min((h.distance(r) for r in self.refuge), default=0)

    # -- entering the map (3.3) ----------------------------------------------------------------------------
    def _entry_refusal(self) -> Reason | None:
        pos = self.position
        if self.side == JEWISH:
            return Reason("8.14", "Jewish units that leave the map never return")
        records = entry_records(pos)
        edges = set()
        for u in self.units:
            rec = records.get(formation(u) or "")
            if rec is None:
                return Reason("3.3", f"{u.id}: no recorded entry for its Legion (position parameter "
                                     "`off_map_entry`, LEGION:EDGE[:TURN])")
            edge, turn = rec
            if edge not in EDGES:
                return Reason("3.3", f"{u.id}: the recorded edge {edge!r} is not north, east, south or west")
            now = str(pos.turn).rsplit("/", 1)[-1]
            if turn is not None and now.isdigit() and int(now) != turn:
                return Reason("3.3", f"{u.id}'s Legion is recorded to enter on turn {turn} of the Assault Period, "
                                     f"not {pos.turn}")
            edges.add(edge)
        if len(edges) > 1:
            return Reason("3.3", "units entering together must share one recorded edge")
        self.entry_edge = edges.pop()
        if self.enter is not None:
            side = edge_sides(self.facts, pos.game.map).get(self.enter)
            if side is None:
                return Reason("3.3", f"{self.facts.name(self.enter)} is not a map-edge hex")
            if side != self.entry_edge:
                return Reason("3.3", f"{self.facts.name(self.enter)} is on the {side} edge; the Legion is recorded "
                                     f"to enter by the {self.entry_edge} edge")
        return None

    def _entries(self) -> Iterable[Step | Blocked]:
        """3.3: the first step onto the map: one hex of the recorded edge, at its own cost (no additional cost)."""
        sides = edge_sides(self.facts, self.position.game.map)
        hexes = [self.enter] if self.enter is not None else sorted(
            (h for h, s in sides.items() if s == self.entry_edge), key=self.facts.name)
        for b in hexes:
            why = self._occupied(b)
            if why is None and self.board.elevated(b):
                why = Reason("3.3", "units enter the map at Ground level")
            if why is None:
                why = self._ground_step(b, b)
            cost = self.m.cost(self.board.terrain(b), self.side) if why is None else None
            if why is None and cost is None:
                why = Reason("8.11", f"{self.board.terrain(b)} may not be entered")
            stop = None
            if why is None and self._zoc_at(b, "g"):
                if self.disrupted or self.out_of_cc:
                    why = Reason("16.51" if self.disrupted else "5.3",
                                 "Disrupted units and units out of CC may not enter an enemy ZOC")
                elif not self.soft:
                    stop = Reason("7.31", "Infantry, Artillery and Siege Engines stop on entering an enemy ZOC")
            if why is not None:
                yield Blocked(b, why)
                continue
            yield Step(b, cost, stop, self._end(b, "g", False), ("g", False))

    # -- refusal --------------------------------------------------------------------------------------------
    def refusal(self) -> Reason | None:
        pos = self.position
        if self.start is None:
            why = self._entry_refusal()
            if why:
                return why
        if len({u.hex for u in self.units}) > 1 or len({u.box for u in self.units}) > 1:
            return Reason("8.3", "units move together only from one hex")
        if any(u.side != self.side for u in self.units) or self.side != pos.phasing_side:
            return Reason("4.13", "only the phasing side's units move, in its own Movement Phase (4.13, 4.23)")
        if pos.phase != "movement":
            return Reason("4.13", f"units move only in their Movement Phase, not in the {pos.phase} phase")
        for u in self.units:
            if u.has("moved") and u.id not in self.moving_now:
                if self.kind == "testudo" and not all(x.has("moved") for x in self.units):
                    return Reason("8.8", f"{u.id} joined the Testudo before it moved: it may not move this MPh")
                return Reason("8.2", f"{u.id} has already moved this Movement Phase: a unit's move ends as soon "
                                     "as another unit begins to move (position parameter `moving` names the units "
                                     "still moving)")
            if u.has("ladder_base") and self.kind == "unit":
                return Reason("8.7", f"{u.id} holds a Ladder: a unit beneath a Ladder may not move")
        if self.kind == "engine":
            return self._engine_refusal()
        if self.kind == "unit" and any(u.has("riding") for u in self.units) and any(
                unit_class(u) == "artillery" for u in self.units):
            return Reason("8.4", "a Catapult atop an Armored Tower never moves off it")
        for u in self.units:
            cls = unit_class(u)
            if cls == "artillery":
                why = self._artillery_refusal(u)
                if why:
                    return why
            if self._mf(u) is None and self.kind == "unit":
                return Reason("2.54", f"{u.id} has no Movement Factor on the face it shows")
        if self.side == JEWISH and not self.board.night and self.start in self.hi_ground and self.level0 == "g":
            if any(unit_class(u) != "hq" for u in self.units):
                return Reason("7.311", "non-HQ Jewish units that begin the Movement Phase in a Roman Heavy "
                                       "Infantry Ground-level ZOC may not move (7.311, 8.1; at night they may, 18.23)")
        return None

    def _artillery_refusal(self, u: Unit) -> Reason | None:
        moves = u.counter.value("artillery_moves")
        if u.type == "cauldron" or moves == "free":
            return None                                                          # 8.5
        if u.side == JEWISH:
            return Reason("8.4", f"{u.id}: Jewish Artillery other than Cauldrons moves only between Assault Periods")
        if fresh(u):
            return Reason("8.4", f"{u.id}: Roman Artillery must be Disrupted (turned over) to move (2.46, 8.4)")
        if u.has("ap_elevated") or (self.start is not None and self.board.elevated(self.start)):
            return Reason("8.4", f"{u.id}: Roman Artillery that began the Assault Period on an Elevated Hex may not "
                                 "move (flag `ap_elevated`; where it stands when the flag is absent)")
        return None

    def _engine_refusal(self) -> Reason | None:
        e = self.engine
        if e.has("stepped_off"):
            return Reason("8.61", f"a unit has moved from {e.id} to an Elevated Hex this MPh: the Tower may not "
                                  "move further or change facing")
        if not fresh(e) or value(e, "movement") is None:
            return Reason("2.45", f"{e.id} is uncrewed (white side up): no Fresh Heavy Infantry or Velites beneath "
                                  "it at the start of the Movement Phase")
        pushers = [u for u in self.units if u.has("pushing")]
        ok = [u for u in pushers if fresh(u) and (unit_class(u) == "heavy_infantry" or u.type == "velites")
              and (e.type == "armored_tower" or formation(u) == formation(e))]
        if not ok:
            return Reason("8.6", f"{e.id} needs a Fresh Heavy Infantry or Velites pushing unit"
                                 + ("" if e.type == "armored_tower" else " of its own Legion")
                                 + " at the start of the Movement Phase (2.45, 8.6, 16.52)")
        if self.budget is not None and self.budget <= 0:
            return Reason("8.61", "the pushing and riding units have no MF left for the Siege Engine to spend")
        return None

    # -- steps ----------------------------------------------------------------------------------------------
    def steps(self, at: Hex, cost_so_far: int, mode=None) -> Iterable[Step | Blocked]:
        level, fled = mode if mode is not None else (self.level0, False)
        first = at == self.start and cost_so_far == 0 and mode is None
        f = self.facts
        for b in f.neighbors[at]:
            why = self._occupied(b) or self._garrison_refusal(b)
            if why:
                yield Blocked(b, why)
                continue
            options = self._level_options(at, level, b, first)
            if isinstance(options, Reason):
                yield Blocked(b, options)
                continue
            for cost, new, extra_stop, extra_no_end, flee in options:
                got = self._finish(at, level, b, new, cost, first, fled or flee, extra_stop, extra_no_end)
                if isinstance(got, Reason):
                    yield Blocked(b, got)
                else:
                    yield got

    def exits(self, h: Hex) -> list[str]:
        """8.14: a stack at the map edge may leave it, as if entering a Clear hex (1 MF more)."""
        if h in self.facts.edge and self.kind in ("unit", "leave_testudo") and not self.board.elevated(h):
            return ["map edge (8.14)"]
        return []

    # -- what a hex holds -----------------------------------------------------------------------------------
    def _others(self, b: Hex) -> list[Unit]:
        return [u for u in self.position.at(b) if u.id not in self.ids]

    def _occupied(self, b: Hex) -> Reason | None:
        """Refusals that depend only on who is in ``b``."""
        others = self._others(b)
        enemy = [u for u in others if u.side != self.side]
        if any(is_combat(u) for u in enemy):
            return Reason("8.11", "a unit may not enter a hex containing an enemy Combat unit")
        if enemy and (self.side == ROMAN or self.kind != "unit"):
            return Reason("8.11", "a hex with an enemy Siege Engine is entered only by Jewish Combat units (11.4)")
        if self.side == JEWISH and b in self.board.ladders:
            return Reason("6.5", "the Jews may never enter a Ladder hex")
        friends = [u for u in others if u.side == self.side]
        fcls = {unit_class(u) for u in friends}
        if self.kind in ("engine", "testudo") and friends:
            if not (self.kind in ("engine", "testudo") and self.facts.base[b] == "gate"
                    and (self.kind == "testudo" or self.engine.type == "ram")):
                return Reason("6.4" if self.kind == "engine" else "6.61",
                              ("Siege Engines" if self.kind == "engine" else "Testudos")
                              + " may not enter a hex occupied by any unit")
        if "cavalry" in self.classes and (fcls - {"hq", "cavalry"}):
            return Reason("6.2", "Cavalry may not enter a hex with units other than HQ")
        if self.kind in ("unit", "leave_testudo") and self.classes & INFANTRY and "cavalry" in fcls:
            return Reason("6.1", "Infantry may not enter a hex containing Cavalry")
        if self.kind in ("unit", "leave_testudo") and any(u.has("testudo") for u in friends):
            if not self._may_join_testudo():
                return Reason("6.1", "only Fresh Heavy Infantry, Velites and HQ (not in Panic) may enter a Testudo "
                                     "hex, to join it (6.1, 6.61)")
        if "artillery" in self.classes:
            why = self._artillery_entry(b, friends)
            if why:
                return why
        if self.classes & INFANTRY and "siege_engine" in fcls and self.kind == "unit" and self.classes != {"hq"}:
            pushing = [u for u in friends if u.has("pushing")]
            if len(pushing) >= self.tables.stacking.engine_pushers:
                return Reason("6.4", "Infantry may enter a Siege Engine hex only while fewer than two units push it")
        return None

    def _garrison_refusal(self, b: Hex) -> Reason | None:
        """18.4: Garrisons never leave their assigned Area, not even passing through (retreating out of it
        eliminates them, so a retreat may not take that way either)."""
        for u, code, hexes in self.garrisons:
            if b not in hexes:
                return Reason("18.4", f"Garrisons never leave their assigned Area: {u.id} ({code}) may not enter "
                                      f"{self.facts.name(b)} ({self.facts.region[b] or 'no area'})")
        return None

    def _may_join_testudo(self) -> bool:
        for u in self.units:
            if u.has("panicked"):
                return False
            if unit_class(u) == "hq":
                continue
            if not fresh(u) or not (unit_class(u) == "heavy_infantry" or u.type == "velites"):
                return False
        return True

    def _artillery_entry(self, b: Hex, friends: list[Unit]) -> Reason | None:
        fortress = self.facts.base[b] in FORTRESS and b not in self.board.breaches
        if any(unit_class(u) == "siege_engine" or u.has("testudo") or unit_class(u) == "cavalry" for u in friends) \
                or b in self.board.ladders:
            return Reason("6.3", "Artillery may not enter a hex with a Siege Engine, Testudo, Ladder or Cavalry")
        art = [u for u in friends if unit_class(u) == "artillery"]
        if art:
            cauldron_moving = any(u.type == "cauldron" for u in self.units)
            if not (fortress and cauldron_moving and not any(u.type == "cauldron" for u in art) and len(art) == 1):
                return Reason("6.3", "Artillery may not enter a hex with other Artillery (a Fortress may hold one "
                                     "Artillery and one Cauldron, 6.3, 8.5)")
        return None

    # -- level changes -------------------------------------------------------------------------------------
    def _entry_cost(self, a: Hex, b: Hex, to_level: str) -> int | None:
        """The cost to enter ``b`` at its own level from ``a``: road, TEC, 12.4."""
        pair = frozenset((a, b))
        terrain = self.board.terrain(b)
        razed = self.board.razed and (self.facts.region[a] in self.board.razed or self.facts.region[b] in self.board.razed)
        if pair in self.facts.road and not razed and not self._road_lost(b):   # 12.4: the damaged hex's own cost
            return self.m.road
        if terrain == "gate" and to_level == "gate":
            return self.m.cost("clear", self.side)
        return self.m.cost(terrain, self.side)

    def _road_lost(self, h: Hex) -> bool:
        """12.4: an Elevated Hex damaged to half its Breach Defence loses the road rate for entering it (the step
        out of it to a road hex beyond keeps the road's ½ MF)."""
        dmg = self.board.damage.get(h)
        if not dmg:
            return False
        defense = _breach_defense(self.tables, self.facts.base[h], self.position.game.folder)
        return defense is not None and dmg * 2 >= defense

    def _level_options(self, a: Hex, level: str, b: Hex, first: bool):
        """``[(cost, new level, stop, no_end, fled)]`` for a step from ``a`` at ``level`` into ``b``, or why not."""
        bd, f, m = self.board, self.facts, self.m
        pair = frozenset((a, b))
        infantry_only = self.kind in ("unit", "leave_testudo") and self.classes <= INFANTRY
        fresh_inf = infantry_only and not self.disrupted
        e_b, g_b = bd.elevated(b), not bd.elevated(b)
        if level in ("g", "gate"):
            if level == "gate" and not (pair in f.entry and g_b):
                return Reason("8.91", "from a Gate at Ground level the move continues only through its other Entry "
                                      "hexside")
            if g_b:
                why = self._ground_step(a, b)
                if why:
                    return why
                cost = self._entry_cost(a, b, "g")
                if cost is None:
                    return Reason("8.11", f"{bd.terrain(b)} may not be entered")
                out = [(cost, "g", None, None, False)]
                if b in bd.ladders and fresh_inf and self.side == ROMAN and level == "g" and self._ladder_room(b):
                    out.append((cost + m.ladder_climb, "ladder", None, None, False))                  # 8.7
                tower = self._tower(b)
                if tower is not None and fresh_inf and level == "g" and self._may_ride(tower):
                    out.append((cost + self._tower_number(tower), "tower", None, None, False))     # 8.61
                if self.fleeing_ok and bd.terrain(b) == "slope" and infantry_only and self._down_slope(a, b):
                    out.append((m.flight_slope, "g", None, None, True))                              # 18.922
                return out
            # into an Elevated Hex from Ground level
            if level == "gate":
                return Reason("8.91", "a unit passing a Gate at Ground level leaves it by its other Entry hexside")
            if first and a in bd.ladders and fresh_inf and self.side == ROMAN and self._ladder_room(a):
                foot = [(m.ladder_climb + m.ladder_to_elevated, "e", None, None, False)]             # 8.7
                if bd.stairway(pair):
                    foot.append((m.level_change, "e", None, None, False))
                return foot
            base = f.base[b]
            if base in ("gate", "bridge") and pair in f.entry:
                if bd.controller(b) != self.side:
                    return Reason("8.91", "a Gate is closed to the enemy: it is taken only from an adjacent Elevated "
                                          "Hex, Tower, Ramp, Breach, Ladder or its inherent Stairway")
                out = []
                passers = self._may_pass_gate(base)
                if passers is not True and not infantry_only:
                    return passers
                cost = self._entry_cost(a, b, "gate")
                out.append((cost, "gate", None, Reason("8.91", "Ground-level units may not stop in a Gate unless "
                                                                "they pay 2 MF to climb its inherent Stairway"), False))
                if infantry_only and base == "gate":
                    out.append((m.level_change, "e", None, None, False))                         # 8.91, 8.93
                return out
            if not infantry_only:
                return self._elevated_refusal()
            if bd.stairway(pair) or (a in bd.breaches and bd.breach_connected(a, b)):
                return [(m.level_change, "e", None, None, False)]                                # 8.93
            if bd.ramps.get(a) == b:
                return [(m.ramp_to_elevated, "e", None, None, False)]                           # 18.8
            return Reason("8.93", "no Stairway, Gate Entry, Breach or Ramp joins this hex to the Elevated Hex "
                                  "(8.91, 8.93)")
        if level == "e":
            if e_b:
                if not bd.connected(a, b):
                    return Reason("8.93", "the Elevated Hexes are not connected (7.12): no wall runs between them")
                return [(m.cost(f.base[b], self.side), "e", None, None, False)]
            if bd.stairway(pair) or (f.base[a] == "gate" and pair in f.entry) or bd.breach_connected(b, a):
                if f.base[a] == "gate" and pair in f.entry and bd.controller(a) != self.side and False:
                    return Reason("8.91", "")
                why = self._ground_step(a, b, from_wall=True)
                if why:
                    return why
                return [(m.level_change, "g", None, None, False)]                                 # 8.91, 8.93
            if bd.ramps.get(b) == a:
                return [(m.ramp_to_elevated, "g", None, None, False)]                             # 18.8
            if b in bd.ladders and self.side == ROMAN and self._ladder_room(b):
                return [(m.ladder_to_elevated, "ladder", None, None, False)]                      # 8.7
            tower = self._tower(b)
            if tower is not None and self._may_ride(tower) and self.facing.get(tower.id) in (None, f.name(a)):
                return [(m.tower_to_elevated, "tower", None, None, False)]
            if self.flight and first and fresh_inf and bd.ground(b) and not f.in_city(b):
                return [(m.escape_to_ground, "g", None, None, True)]                                # 18.92
            return Reason("8.93", "an Elevated Hex is left for Ground level only by a Stairway, a Gate's Entry "
                                  "hexside, a Breach, a Ramp or a Ladder (8.7, 8.91, 8.93)")
        if level == "ladder":
            if e_b:
                if self.disrupted:
                    return Reason("16.3", "a Disrupted unit may not climb from a Ladder onto the wall")
                return [(m.ladder_to_elevated, "e", None, None, False)]                            # 8.7
            if b in bd.ladders:
                return Reason("8.7", "units on a Ladder may not move laterally from Ladder to Ladder")
            cost = self._entry_cost(a, b, "g")
            return [(cost, "g", None, None, False)] if cost is not None else Reason("8.11", "not enterable")
        if level == "tower":
            face = self.facing.get(self._tower(a).id) if self._tower(a) else None
            if e_b and face in (None, f.name(b)):
                return [(m.tower_to_elevated, "e", None, None, False)]                             # 8.61
            return Reason("8.61", "units atop a Tower leave it only for the Elevated Hex its Ramp hexside faces "
                                  "(8.6, 8.61, 10.11)")
        return Reason("8.11", "unknown level")

    def _elevated_refusal(self) -> Reason:
        if "cavalry" in self.classes:
            return Reason("6.2", "Cavalry may never enter Elevated Hexes (they pass Gates and Bridges of their "
                                 "side through the Entry hexsides only)")
        if self.kind == "engine":
            return Reason("6.4", "a Siege Engine may not enter an Elevated Hex (a Ram passes through a Gate)")
        if self.kind == "testudo":
            return Reason("6.61", "a Testudo enters an Elevated Hex only to pass through a Gate of its side")
        if "artillery" in self.classes:
            return Reason("8.4", "Artillery changes level only by passing a Gate or Bridge (Roman) or not at all")
        return Reason("8.93", "only Infantry change level by Stairways")

    def _may_pass_gate(self, base: str):
        """Cavalry and Roman Artillery pass Gates and Bridges, Rams and Testudos Gates (6.2, 6.4, 6.61, 8.4)."""
        if self.kind == "engine":
            return True if (self.engine.type == "ram" and base == "gate") else Reason(
                "6.4", "only a Ram passes through a Gate; other Siege Engines never enter Elevated Hexes")
        if self.kind == "testudo":
            return True if base == "gate" else Reason("6.61", "a Testudo passes through Gates only")
        if "artillery" in self.classes and any(u.type == "cauldron" for u in self.units):
            return Reason("8.5", "Cauldrons move only between Elevated Hexes")
        return True

    def _ground_step(self, a: Hex, b: Hex, from_wall: bool = False) -> Reason | None:
        """Refusals of a step ending at Ground level in ``b`` (from Ground, or down from a wall)."""
        bd, f = self.board, self.facts
        pair = frozenset((a, b))
        if pair in f.blocked and not from_wall:
            return Reason("8.92", "Ground-level movement across the western side of the Temple District is blocked")
        if any(u.type == "cauldron" for u in self.units):
            return Reason("8.5", "Cauldrons may not enter Ground hexes")
        if "artillery" in self.classes and self.side == JEWISH:
            return Reason("8.4", "Jewish Artillery may occupy only Elevated Hexes")
        if b in bd.ramps or (a in bd.ramps and not from_wall):
            r, o = (b, a) if b in bd.ramps else (a, b)
            if not (self.kind in ("unit", "leave_testudo") and self.classes <= INFANTRY):
                return Reason("18.8", "only Infantry may enter a Ramp hex")
            if not (o in bd.ramps or bd.behind_ramp(r) == o or bd.ramps.get(r) == o):
                return Reason("18.8", "a Ramp is entered or left on its sides only to or from an adjacent Ramp hex")
        if b in bd.breaches and (self.kind in ("engine", "testudo") or self.classes & {"artillery", "cavalry"}):
            if not any(n in bd.breaches and n != b and f.connected(b, n) for n in f.neighbors[b]):
                return Reason("8.96", "Artillery, Testudos, Cavalry and Siege Engines enter a Breach only next to "
                                      "another connecting Breach of the same wall")
        if self.kind == "testudo" and bd.built_up(b):
            return Reason("6.61", "a Testudo may not enter Built-up hexes, even along a road")
        if self.classes & {"artillery", "cavalry"} and (bd.built_up(a) or bd.built_up(b)) \
                and pair not in f.road:
            return Reason("8.95", "Cavalry and Artillery enter or leave Built-up hexes only through road hexsides")
        return None

    def _down_slope(self, a: Hex, b: Hex) -> bool:
        """18.922: a step down into a Slope, away from the crest (from higher ground or along the slope downhill)."""
        ea, eb = self.facts.cmap.hexes[a].elevation, self.facts.cmap.hexes[b].elevation
        return eb < ea or (frozenset((a, b)) not in self.facts.crest and self.board.terrain(a) == "slope")

    def _ladder_room(self, h: Hex) -> bool:
        """8.7: at most two units use a Ladder a phase (HQ not counted, 6.5)."""
        users = [u for u in self.units if unit_class(u) != "hq"]
        return len(users) <= self.tables.stacking.ladder_climbers - ladder_uses(self.position, h)

    def _tower(self, h: Hex) -> Unit | None:
        return next((u for u in self.position.at(h) if u.type in TOWERS and u.side == self.side), None)

    def _may_ride(self, tower: Unit) -> bool:
        if self.side != ROMAN or self.disrupted:
            return False
        riding = [u for u in self._others(tower.hex) if u.has("riding") and unit_class(u) in INFANTRY
                  and unit_class(u) != "hq"]
        climbers = [u for u in self.units if unit_class(u) != "hq"]
        if len(riding) + len(climbers) > self.tables.stacking.tower_riders:
            return False
        if tower.type == "siege_tower" and any(formation(u) != formation(tower) for u in self.units):
            return False                                                                       # 6.42
        return True

    def _tower_number(self, tower: Unit) -> int:
        """8.61: the Tower's number: 2 MF for each MF it spent (its ``spent``, or a damage-number marker)."""
        n = int(2 * self.m.rider_loss_per_mf * float(tower.spent or 0))
        marks = [m.value for m in self.position.markers_at(tower.hex, "breach_damage")
                 if isinstance(m.value, (int, float)) and not isinstance(m.value, bool)]
        return max([n] + [int(2 * v) for v in marks])

    # -- ZOC, stacking, stops --------------------------------------------------------------------------------
    def _finish(self, a: Hex, level: str, b: Hex, new: str, cost: int, first: bool, fled: bool,
                stop: Reason | None, no_end: Reason | None):
        in_zoc_b = self._zoc_at(b, new)
        in_zoc_a = self._zoc_at(a, level)
        if in_zoc_b:
            if self.disrupted and self.kind == "unit":
                return Reason("16.51", "Disrupted units may not enter an enemy ZOC")
            if self.out_of_cc:
                return Reason("5.3", "units out of Command Control may not enter an enemy ZOC")
            if first and in_zoc_a and not self.soft:
                return Reason("7.311", "a unit that begins in an enemy ZOC leaves it only if the first hex entered "
                                       "is free of enemy ZOC")
        if self.out_of_cc and any(n in self.enemy_elevated for n in self.facts.neighbors[b]):
            return Reason("5.3", "units out of Command Control may not move next to an enemy unit on an Elevated Hex")
        if self.soft and in_zoc_a and not (first and not in_zoc_b):
            cost += self.m.soft_zoc_leave                                                          # 7.32, 7.321, 7.4
        if not self.retreating:   # 15.2: stacking limits do not apply during a retreat (only 15.3's penalties)
            if first and any(u.has("panicked") for u in self._others(a) if u.side == self.side):
                cost *= self.m.panic_leave_multiplier                                              # 17.21
            full = self._over(b, new, extra=0)
            if full is not None and full[0] >= full[1]:
                cost *= self.m.full_stack_multiplier                                               # 8.13
        if in_zoc_b and not self.soft and stop is None:
            stop = Reason("7.31", "Infantry, Artillery and Siege Engines stop on entering an enemy ZOC")
        if self.kind in ("unit", "leave_testudo") and any(u.has("testudo") for u in self._others(b)):
            cost += self.m.testudo_join                                                            # 8.8
            stop = Reason("8.8", "a unit entering a Testudo's hex joins it, for 6 MF more, and ends its move there")
        if any(u.has("panicked") for u in self._others(b) if u.side == self.side):
            over = self._over(b, new, extra=len(self._counting()))
            if over is not None and over[0] > over[1]:
                return Reason("17.21", "a unit entering a hex with a Panicked unit must stop there, and is "
                                       "eliminated if that overstacks it")
            stop = stop or Reason("17.21", "a unit entering a hex with a Panicked unit must stop there")
        if no_end is None:
            no_end = self._end(b, new, fled)
        return Step(b, cost, stop, no_end, (new, fled))

    def _zoc_at(self, h: Hex, level: str) -> bool:
        """Whether an enemy ZOC reaches a unit at ``level`` in ``h`` (none across levels, 7.2)."""
        if level == "gate" or h not in self.ezoc:
            return False
        return (level == "e") == self.board.elevated(h)

    def _counting(self) -> list[Unit]:
        free = self.tables.stacking.free_classes
        return [u for u in self.units if unit_class(u) not in free]

    def _over(self, b: Hex, level: str, extra: int) -> tuple[int, int] | None:
        """(units of the side that count, the limit) in ``b`` with ``extra`` more (6, 8.95)."""
        limit = self.tables.stacking.limit.get(self.board.terrain(b))
        if limit is None:
            return None
        free = self.tables.stacking.free_classes
        n = sum(1 for u in self._others(b) if u.side == self.side and unit_class(u) not in free)
        return n + extra, limit

    def _end(self, b: Hex, level: str, fled: bool) -> Reason | None:
        """Why the move may pass ``b`` but not end there."""
        bd, f = self.board, self.facts
        if level == "gate":
            return Reason("8.91", "Ground-level units may not stop in a Gate")
        if level == "e" and f.base[b] in ("gate", "bridge") and self.classes & {"cavalry", "artillery"} \
                and not any(u.type == "cauldron" for u in self.units):
            return Reason("6.2", "Cavalry and Roman Artillery pass Gates and Bridges but may not stop in one")
        if fled and b in self.ezoc:
            return Reason("18.922", "a fleeing unit must end its move outside a Roman ZOC")
        over = self._over(b, level, extra=len(self._counting()))
        if over is not None and over[0] > over[1] and level in ("g", "e"):
            if self.retreating:
                return Reason("15.1", f"{over[0]} units would end in {bd.terrain(b)}, whose stacking limit is "
                                      f"{over[1]}: a retreat may pass through but not end there (15.1, 15.2)")
            return Reason("6", f"{over[0]} units would end in {bd.terrain(b)}, whose stacking limit is {over[1]} "
                               "(passing through is allowed, 8.13)")
        for cls, rule, what in (("hq", "6", "HQ"), ("siege_engine", "6", "Siege Engine")):
            mine = [u for u in self.units if unit_class(u) == cls]
            if mine and any(unit_class(u) == cls and u.side == self.side for u in self._others(b)) \
                    and self.kind != "engine" and level in ("g", "e") and not (cls == "hq" and self._hq_slot_ok(b)):
                return Reason(rule, f"no more than one {what} may end in a hex")
        why = self._beneath_refusal(b, level)
        if why is not None:
            return why
        if self.routed and self.start_refuge is not None and not self.retreating:     # a retreat: 15.1, 15.4
            if self._refuge_distance(b) >= self.start_refuge and self.facts.region[b] != REFUGE:
                return Reason("17.21", "a unit in Rout or Panic must move toward the Refuge (15.4)")
        return None

    def _beneath_refusal(self, b: Hex, level: str) -> Reason | None:
        """Who may end beneath a Siege Engine, where every unit pushes it (6.4, 6.42, 16.52), or in a Ladder hex,
        where every unit holds or climbs the Ladder (6.5, 8.7); an HQ may always."""
        fighters = [u for u in self.units if unit_class(u) != "hq"]
        if self.kind not in ("unit", "leave_testudo") or not fighters:
            return None
        others = self._others(b)
        engine = next((u for u in others if unit_class(u) == "siege_engine" and u.side == self.side), None)
        if engine is not None and level == "g":
            if not all(_hi_or_velites(u) for u in fighters):
                return Reason("6.4", f"every unit beneath {engine.id} pushes it, and only Heavy Infantry and Velites "
                                     "push: others may pass through but not stop")
            if not all(fresh(u) for u in fighters):
                return Reason("16.52", f"Disrupted units may not push {engine.id}: they may pass through but not "
                                       "stop beneath it")
            if engine.type == "siege_tower" and any(formation(u) != formation(engine) for u in fighters):
                return Reason("6.42", f"only units of {engine.id}'s Legion push a Siege Tower: others may pass "
                                      "through but not stop")
            pushing = sum(1 for u in others if u.has("pushing") and unit_class(u) != "hq")
            most = self.tables.stacking.engine_pushers
            if pushing + len(fighters) > most:
                return Reason("6.4", f"at most {most} units (plus one HQ) push {engine.id}, and {pushing} push it "
                                     "already")
        if b in self.board.ladders and level == "g":
            return Reason("8.7", "units in a Ladder hex hold the Ladder or climb it: pass through, or climb on "
                                 "(4 MF more)")
        if b in self.board.ladders and level == "ladder" and not all(_hi_or_velites(u) for u in fighters):
            return Reason("6.5", "only Heavy Infantry, Velites and HQ climb a Ladder")
        return None

    def _hq_slot_ok(self, b: Hex) -> bool:
        """An HQ may join an HQ that pushes or rides (one beneath, one atop, 6.4, 6.42)."""
        return False


#: Where in its hex a unit stands (6.4, 8.61, 8.7, 8.91, 18.8): flags a unit leaves behind with the hex.
PLACE_FLAGS = frozenset({"pushing", "riding", "on_ladder", "gate_stair", "on_ramp"})
TESTUDO_MARKERS = ("testudo", "testudo_velites")


def arrival_flags(position: Position, u: Unit, h: Hex, level: str = "g") -> frozenset[str]:
    """The flags a unit takes on ending a move or a retreat in ``h`` at ``level`` (the move search's mode): atop a
    Tower it rides (8.61), atop a Ladder it climbs (8.7), beneath a friendly Siege Engine it pushes (6.4: every
    unit beneath one does), in a Testudo's hex it joins the Testudo (6.61, 8.8), on a Ramp it stands on it
    (18.8)."""
    here = [x for x in position.at(h) if x.id != u.id and x.side == u.side]
    out = set()
    if level == "tower":
        out.add("riding")
    elif level == "ladder":
        out.add("on_ladder")
    elif any(unit_class(x) == "siege_engine" for x in here) and unit_class(u) != "siege_engine":
        out.add("pushing")
    if any(x.has("testudo") for x in here):
        out.add("testudo")
    if position.markers_at(h, "ramp"):
        out.add("on_ramp")
    return frozenset(out)


def after_move(before: Position, after: Position, unit_ids: Sequence[str], kind: str, dest) -> Position:
    """What a move leaves in the position beyond the units' new hex (for :func:`toolkit.game.actions.apply`).

    A Siege Engine's crew pays two MF for each MF the engine spent (8.61).  Other units take the flags of where
    they end (:func:`arrival_flags`; ``dest``'s mode is the level they end at) and drop those of the hex they
    left; a unit that leaves a Testudo is no longer part of it, and a Testudo left with too few Fresh Heavy
    Infantry disbands at once (16.4); a moving Broken Testudo loses its marker (16.4); a whole Testudo takes its
    marker along."""
    from dataclasses import replace
    from .resolve import _testudo_disbands
    moved = [u for u in after.units if (u.hex, u.box) != (before.by_id[u.id].hex, before.by_id[u.id].box)]
    if not moved:
        return after
    start, to = before.by_id[moved[0].id].hex, moved[0].hex
    if any(unit_class(u) == "siege_engine" for u in moved):                                        # 8.61
        loss = load_tables(before.game.folder).movement.rider_loss_per_mf
        return after.moved({u.id: replace(u, spent=before.by_id[u.id].spent + loss * dest.mp) for u in moved
                            if unit_class(u) != "siege_engine"})
    whole_testudo = start is not None and all(u.has("testudo") for u in moved) and not any(
        u.has("testudo") for u in after.at(start))
    if whole_testudo:
        markers = tuple(replace(m, hex=to) if m.hex == start and m.marker in TESTUDO_MARKERS else m
                        for m in after.markers)
        return replace(after.moved({u.id: replace(u, flags=u.flags - PLACE_FLAGS - {"broken_testudo"})
                                    for u in moved}), markers=markers)
    mode = dest._key[2] if dest._key is not None else None              # the search's (level, fled) at the end
    level = mode[0] if mode else "g"
    changed = {u.id: replace(u, flags=(u.flags - PLACE_FLAGS - {"testudo", "broken_testudo"})
                             | (arrival_flags(after, u, to, level) if to is not None else frozenset()))
               for u in moved}
    after = after.moved(changed)
    return after if start is None else _testudo_disbands(after, start, [])


@lru_cache(maxsize=4)
def _raw_tables(path: str) -> dict:
    from ...datafile import read_yaml
    from ...game import GameDataError
    return read_yaml(path, GameDataError) or {}


def _breach_defense(tables: Tables, terrain: str, folder=None) -> float | None:
    """The Breach Defence of an Elevated terrain from ``tables.yaml`` ``breach_defence`` (12.2)."""
    if folder is not None:
        got = _raw_tables(str(folder / "tables.yaml")).get("breach_defence", {})
        if isinstance(got, dict) and isinstance(got.get(terrain), (int, float)):
            return float(got[terrain])
    for section in ("breach_defence", "breach", "breach_table", "breach_defense"):
        data = getattr(tables, section, None)
        if data is None:
            continue
        table = getattr(data, "defense", None) or getattr(data, "defence", None) or data
        got = table.get(terrain) if isinstance(table, dict) else None
        if isinstance(got, (int, float)):
            return float(got)
    return None


def moves(position: Position, unit_ids: Sequence[str], pickup: Sequence[str] = (), terrorist: bool = False,
          enter: str | None = None, **_ignored) -> MoveResult:
    """Legal destinations of the named units moving together in the position's Movement Phase.

    Naming a Siege Engine moves it with its pushers and riders; naming units of a Testudo moves the Testudo.
    ``pickup``, ``terrorist`` and ``enter`` are other games' options, refused here.
    """
    from .command import out_of_command
    units = [position.by_id[u] for u in unit_ids]
    off = all(u.hex is None for u in units)
    out = any(u.has("out_of_cc") for u in units) or (not off and bool(out_of_command(position, unit_ids)))
    where = position.game.map.resolve(enter) if enter is not None and off else None
    board, zmap = board_and_zoc(position)
    rules = SiegeMove(position, units, out_of_cc=out, enter=where, board=board, zmap=zmap)
    if pickup or terrorist or (enter is not None and not off):
        refused = Reason("8.3" if pickup or terrorist else "3.3",
                         "The Siege of Jerusalem has no transports or terrorist moves: move units as a stack (a "
                         "Siege Engine takes its pushers and riders)" if pickup or terrorist else
                         "only off-map units enter the map (3.3)")
        return MoveResult(rules.start, rules.budget, refused)
    return _leaving(rules, legal_moves(rules))


def _leaving(rules: SiegeMove, result: MoveResult) -> MoveResult:
    """8.14: leaving the map costs as entering a Clear hex, from a hex where the move need not end."""
    if not result.exits:
        return result
    from dataclasses import replace
    extra, budget = rules.m.leave_map, rules.budget
    cands = [d for d in result.destinations.values() if d.stop is None and rules.exits(d.hex)]
    cands += [d for d in result.exits.values() if d.hex == rules.start]
    exits = {}
    for d in sorted(cands, key=lambda d: (d.cost, d.hex)):
        if budget is not None and d.cost + extra > budget:
            continue
        for name in rules.exits(d.hex):
            exits.setdefault(name, replace(d, cost=d.cost + extra))
    result.exits = exits
    return result


# -- actions in place: Testudo and Ladder (6.5, 6.6, 8.7, 8.8) ---------------------------------------------------

@dataclass(frozen=True)
class Action:
    """A Movement Phase action in place: its name, rule, MF cost per unit, and why not (``reason``) if refused."""

    action: str                       # form_testudo, disband_testudo, place_ladder, withdraw_ladder
    rule: str
    mf: float
    units: tuple[str, ...]
    hex: Hex | None
    reason: Reason | None = None

    @property
    def legal(self) -> bool:
        return self.reason is None


HI_OR_VELITES = "Fresh Heavy Infantry or Velites"


def _hi_or_velites(u: Unit) -> bool:
    return unit_class(u) == "heavy_infantry" or u.type == "velites"


def actions(position: Position, unit_ids: Sequence[str]) -> list[Action]:
    """Forming and disbanding a Testudo, placing and withdrawing a Ladder (6.5, 6.6, 8.7, 8.8) for the named
    units, each legal or with the reason and rule.  Joining a Testudo is a move into its hex (``moves``: 6 MF
    more and the move ends there); leaving one is moving some of its units (half MF, 8.8)."""
    from .command import out_of_command
    tables = load_tables(position.game.folder)
    m, st = tables.movement, tables.stacking
    units = [position.by_id[u] for u in unit_ids]
    here = units[0].hex
    ids = tuple(u.id for u in units)
    facts = facts_for(position, tables)
    board = Board.of(position, facts)
    now = moving_now(position)
    others = [u for u in position.at(here) if u.id not in ids] if here is not None else []
    fighters = [u for u in units if unit_class(u) != "hq"]
    out_cc = any(u.has("out_of_cc") for u in units) or (here is not None and bool(out_of_command(position, ids)))

    def left(u: Unit) -> float:
        mf = value(u, "movement")
        return -1.0 if mf is None else float(mf) - float(u.spent or 0)

    def common(cost: float, payers: list[Unit]) -> Reason | None:
        if here is None or len({u.hex for u in units}) > 1:
            return Reason("8.3", "the units must stand together in one hex on the map")
        if any(u.side != position.phasing_side for u in units) or position.phase != "movement":
            return Reason("4.13", "only the phasing side acts, in its own Movement Phase")
        if units[0].side != ROMAN:
            return Reason("6.5", "only the Romans have Ladders and Testudos")
        for u in units:
            if u.has("moved") and u.id not in now:
                return Reason("8.2", f"{u.id} has already moved this Movement Phase")
        short = [u.id for u in payers if left(u) < cost]
        if short:
            return Reason("8.8" if cost == m.testudo_join / 2 else "8.7",
                          f"{', '.join(short)} lack the {cost:g} MF it costs")
        return None

    def cc(why: Reason | None) -> Reason | None:
        if why is None and out_cc:
            return Reason("5.3", "units out of Command Control may not place Ladders or form or leave a Testudo")
        return why

    out: list[Action] = []
    # form (6.6, 8.8)
    cost = m.testudo_join / 2
    payers = [u for u in fighters if fresh(u)]
    why = common(cost, payers)
    if why is None:
        hi = [u for u in fighters if unit_class(u) == "heavy_infantry"]
        vel = [u for u in fighters if u.type == "velites"]
        if any(u.has("testudo") for u in units):
            why = Reason("6.6", "already in a Testudo")
        elif not all(fresh(u) and _hi_or_velites(u) for u in fighters) or len(hi) < st.testudo_min \
                or len(vel) > 1 or not st.testudo_min <= len(fighters) <= st.testudo_max:
            why = Reason("6.6", "a Testudo is two or three Fresh Heavy Infantry, or two and a Velites, plus an HQ")
        elif len({formation(u) for u in fighters}) > 1:
            why = Reason("6.6", "units of different Legions may not form a Testudo")
        elif others:
            why = Reason("6.61", "every unit in the hex must be part of the Testudo (6.1, 6.61)")
        elif board.elevated(here) or board.built_up(here) or here in board.ladders:
            why = Reason("6.61", "a Testudo forms on Ground outside Built-up hexes, away from a Ladder (reading)")
    out.append(Action("form_testudo", "8.8", cost, ids, here, cc(why)))
    # disband (8.8)
    why = common(cost, payers)
    if why is None:
        whole = {u.id for u in position.at(here) if u.has("testudo")}
        if not all(u.has("testudo") for u in units) or set(ids) != whole:
            why = Reason("8.8", "name every unit of the Testudo to disband it")
        elif any(u.has("moved") for u in units):
            why = Reason("8.8", "only a Testudo that has not yet moved this MPh may be disbanded")
    out.append(Action("disband_testudo", "8.8", cost, ids, here, cc(why)))
    # place a Ladder (6.5, 8.7)
    cost = m.ladder_place / 2
    why = common(cost, fighters)
    if why is None:
        if len(fighters) != 1 or not (fresh(fighters[0]) and _hi_or_velites(fighters[0])):
            why = Reason("6.5", f"one {HI_OR_VELITES} unit holds a Ladder (its Base unit)")
        elif here in board.ladders:
            why = Reason("8.7", "only one Base unit, one Ladder, a hex")
        elif any(u.has("testudo") for u in units + others) or any(
                not (_hi_or_velites(u) or unit_class(u) == "hq") for u in others):
            why = Reason("6.5", "no Ladder where a Testudo or units other than Heavy Infantry, Velites and HQ are")
        elif board.elevated(here) or not any(board.elevated(n) for n in facts.neighbors[here]):
            why = Reason("8.7", "the Base unit stands at Ground level next to an Elevated Hex")
    out.append(Action("place_ladder", "8.7", cost, ids, here, cc(why)))
    # withdraw a Ladder (8.7)
    why = common(cost, fighters)
    if why is None:
        if len(fighters) != 1 or not fighters[0].has("ladder_base") or not fresh(fighters[0]):
            why = Reason("8.7", "a Fresh Base unit withdraws its Ladder")
        elif any(u.has("on_ladder") for u in others):
            why = Reason("8.7", "a Ladder is withdrawn only when no unit is atop it")
    out.append(Action("withdraw_ladder", "8.7", cost, ids, here, why))
    return out


def actions_json(position: Position, found: list[Action]) -> dict[str, Any]:
    """``{"units", "hex", "actions": [{"action", "rule", "mf", "legal", "refused": {"reason", "rule"} | null}]}``."""
    here = found[0].hex if found else None
    return {"units": list(found[0].units) if found else [],
            "hex": None if here is None else position.game.map.name(here),
            "actions": [{"action": a.action, "rule": a.rule, "mf": a.mf, "legal": a.legal,
                         "refused": None if a.reason is None else {"reason": a.reason.message, "rule": a.reason.rule}}
                        for a in found]}


def apply_action(position: Position, action: Action) -> Position:
    """The position after a legal :class:`Action`: flags, markers, MF spent, and the units now moving (8.2)."""
    from dataclasses import replace
    from ...game.position import MarkerAt
    if not action.legal:
        raise ValueError(f"{action.action} is not legal: {action.reason}")
    units = {u: position.by_id[u] for u in action.units}
    markers = list(position.markers)
    pay = action.mf
    add, drop, kinds = set(), set(), ()
    if action.action == "form_testudo":
        add, kinds = {"testudo"}, ("testudo", "testudo_velites")
        velites = any(u.type == "velites" for u in units.values())
        markers.append(MarkerAt("testudo_velites" if velites else "testudo", action.hex))
    elif action.action == "disband_testudo":
        drop, kinds = {"testudo"}, ("testudo", "testudo_velites")
        markers = [mk for mk in markers if not (mk.hex == action.hex and mk.marker in kinds)]
    elif action.action == "place_ladder":
        add = {"ladder_base"}
        markers.append(MarkerAt("ladder", action.hex))
    elif action.action == "withdraw_ladder":
        drop = {"ladder_base"}
        markers = [mk for mk in markers if not (mk.hex == action.hex and mk.marker == "ladder")]
    changed = {}
    for uid, u in units.items():
        paid = pay if (unit_class(u) != "hq" and fresh(u)) else 0.0             # 8.8: Disrupted occupants do not pay
        changed[uid] = replace(u, flags=(u.flags | add | {"moved"}) - drop, spent=float(u.spent or 0) + paid)
    params = {**position.params, "moving": ",".join(action.units)}
    return replace(position.moved(changed), markers=tuple(markers), params=params)
