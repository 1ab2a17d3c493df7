"""*The Siege of Jerusalem* levels and Zones of Control (2.11-2.13, 7.x), and the board facts the rules share.

:class:`MapFacts` holds what the map says once per map: each hex's base terrain and level (Elevated,
Ground, Built-up), Stairway, Entry, crest and road hexsides, which Elevated Hexes are *connected* (7.12:
the map's ``connected`` hexside feature when the map has one, otherwise two adjacent Elevated Hexes),
the city (hexes with a region) and the map edge.  :class:`Board` adds a position's game state: Breach
markers (a Breach is a Ground hex, 2.12), Ramps (marker ``ramp`` with ``toward`` the Elevated Hex it
climbs, 18.8), Ladders, Siege Engines, Testudos, night turns and who controls a Gate.

:func:`zoc` lists each hex's enemy ZOC sources with their kind and rule:

* **Ground** (7.11): Fresh Infantry or Cavalry on a Ground hex, or Fresh Infantry in a Built-up hex, into
  every adjacent Ground hex that is not Built-up;
* **Gate** (7.12): Fresh Infantry in a Gate, into its connected Elevated Hexes and the Ground hexes
  across its two Entry hexsides;
* **Elevated** (7.13): Fresh Infantry on a gateless Elevated Hex, into its connected Elevated Hexes;
* **none** (7.2, 16.6, 18.2): from Disrupted units, Artillery, Siege Engines, units in a Testudo, Romans
  sharing a hex with a Siege Engine or a Ladder; at night; across levels; into Built-up hexes.  A Ramp
  (18.8) exerts and receives a Ground ZOC only with the hex directly behind it and adjacent Ramps.

Readings of our own: HQ exert a ZOC as the Infantry they are for combat (2.4; the 2.4 exception is
about the ZOC they meet, 7.321); a unit shows its Disrupted face with the flag ``disrupted`` (or
``routed`` / ``panicked``); a Gate is controlled by the side in it, otherwise by the Romans when it
stands outside the city or in an area named in the position parameter ``roman_areas`` (comma-separated
area names), otherwise by the Jews (18.3: city hexes start Jewish).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...game import Position, Unit
from ...hexgrid import Hex, HexNameError
from ...mapdata import CompiledMap

ELEVATED = frozenset({"wall", "bastion", "fort", "fortress", "gate", "bridge"})      # 2.11
BUILT_UP = frozenset({"built_up", "building", "temple"})                           # 2.13
FORTRESS = frozenset({"fort", "fortress"})                                         # 2.11
NOT_FRESH = ("disrupted", "routed", "panicked")
INFANTRY = frozenset({"heavy_infantry", "light_infantry", "hq"})                    # 2.4
ROMAN, JEWISH = "roman", "jewish"
CONNECTED_FEATURE = "connected"


def _truthy(v) -> bool:
    return v not in (None, False, "false", "False", "no", "0", 0, "")


class MapFacts:
    """What the map says, once per map (see the module docstring)."""

    def __init__(self, cmap: CompiledMap, entry_features=("gate_entry",), blocked_features=()):
        self.cmap = cmap
        self.name = cmap.name
        self.base: dict[Hex, str] = {h: (i.terrain[0] if i.terrain else "clear") for h, i in cmap.hexes.items()}
        self.region: dict[Hex, str | None] = {h: i.region for h, i in cmap.hexes.items()}
        self.neighbors: dict[Hex, tuple[Hex, ...]] = {
            h: tuple(n for n in h.neighbors() if n in cmap.hexes) for h in cmap.hexes}
        self.edge: frozenset[Hex] = frozenset(h for h, ns in self.neighbors.items() if len(ns) < 6)
        sides = {frozenset((s.a, s.b)): a for s, a in cmap.hexsides.items()}
        self.stairway = frozenset(k for k, a in sides.items() if _truthy(a.get("stairway")))
        self.entry = frozenset(k for k, a in sides.items() if any(_truthy(a.get(f)) for f in entry_features))
        self.crest = frozenset(k for k, a in sides.items() if _truthy(a.get("crest")))
        self.road = frozenset(k for k, a in sides.items() if _truthy(a.get("city_road")))
        self.blocked = frozenset(k for k, a in sides.items() if any(_truthy(a.get(f)) for f in blocked_features))
        self.has_connected = any(CONNECTED_FEATURE in a for a in sides.values())
        self.connected_sides = frozenset(k for k, a in sides.items() if _truthy(a.get(CONNECTED_FEATURE)))

    def connected(self, a: Hex, b: Hex) -> bool:
        """Whether the elevated terrain of ``a`` runs across the hexside into ``b`` (7.12), both being walls."""
        if self.base[a] not in ELEVATED or self.base[b] not in ELEVATED:
            return False
        return frozenset((a, b)) in self.connected_sides if self.has_connected else True

    def in_city(self, h: Hex) -> bool:
        """A hex of one of the ten city areas (18.3), or a wall without an area."""
        return self.region[h] is not None or self.base[h] in ELEVATED


_FACTS: dict[tuple, MapFacts] = {}


def map_facts(cmap: CompiledMap, entry_features=("gate_entry",), blocked_features=()) -> MapFacts:
    """Cached :class:`MapFacts` per map source and feature names."""
    key = (cmap.id, cmap.source_hash, tuple(entry_features), tuple(blocked_features))
    got = _FACTS.get(key)
    if got is None or got.cmap is not cmap:
        got = _FACTS[key] = MapFacts(cmap, entry_features, blocked_features)
    return got


def unit_class(u: Unit) -> str:
    """The unit's class (2.4): heavy_infantry, light_infantry, cavalry, hq, siege_engine, artillery."""
    return str(u.counter.value("unit_class", default=""))


def fresh(u: Unit) -> bool:
    """Fresh face up (2.3): none of the flags disrupted, routed, panicked."""
    return not any(u.has(f) for f in NOT_FRESH)


def value(u: Unit, key: str, default=None):
    """A counter value on the face the unit shows (the back when not Fresh, 2.3, 16.5)."""
    return u.counter.value(key, back=not fresh(u), default=default)


def formation(u: Unit) -> str | None:
    f = u.counter.value("formation", default=None)
    return None if f is None else str(f)


def is_combat(u: Unit) -> bool:
    """A Combat unit: every class but Siege Engines (2.4)."""
    return unit_class(u) != "siege_engine"


def opposite(h: Hex, across: Hex) -> Hex:
    """The hex on the far side of ``h`` from its neighbour ``across`` (a Ramp's foot, 18.8, 18.81)."""
    return Hex(2 * h.q - across.q, 2 * h.r - across.r)


def stairway_pairs(position: Position) -> list[frozenset]:
    """The hexsides of the position parameter ``temporary_stairways`` ("AA34-AA35 V44-U45": a Bastion or Fort and
    the Ground hex its Ladder-marked Stairway leads to, the second 18.36); names that do not resolve are skipped
    here (:func:`toolkit.games.siege.interphase.stairways` reports them)."""
    out = []
    for item in param_names(position, "temporary_stairways", " "):
        a, _, b = item.partition("-")
        try:
            out.append(frozenset((position.game.map.resolve(a), position.game.map.resolve(b))))
        except HexNameError:
            continue
    return out


def param_names(position: Position, key: str, sep: str = ",") -> frozenset[str]:
    """The names a position parameter lists (``roman_areas: "New City, Lower City"``); empty when absent."""
    raw = position.params.get(key)
    return frozenset(a.strip() for a in str(raw).split(sep) if a.strip()) if raw else frozenset()


@dataclass
class Board:
    """A position's board: map facts plus the game state that changes terrain and movement."""

    position: Position
    facts: MapFacts
    night: bool = False
    breaches: frozenset = frozenset()
    ramps: dict = field(default_factory=dict)           # ramp hex -> the Elevated Hex it climbs (or None)
    ladders: frozenset = frozenset()
    damage: dict = field(default_factory=dict)          # hex -> breach damage points (12.2)
    roman_areas: frozenset = frozenset()
    roman_hexes: frozenset = frozenset()
    jewish_hexes: frozenset = frozenset()
    razed: frozenset = frozenset()
    temporary_stairways: frozenset = frozenset()        # hexside pairs (the second 18.36)

    @classmethod
    def of(cls, position: Position, facts: MapFacts) -> "Board":
        spec = position.game.spec
        night = position.turn in spec.place_lists.get("night_turns", []) if spec.place_lists else False
        breaches, ramps, ladders, damage = set(), {}, set(), {}
        for m in position.markers:
            if m.hex is None:
                continue
            if m.marker == "breach":
                breaches.add(m.hex)
            elif m.marker == "ramp":
                ramps[m.hex] = m.toward
            elif m.marker == "ladder":
                ladders.add(m.hex)
            elif m.marker == "breach_damage" and isinstance(m.value, (int, float)) and not isinstance(m.value, bool):
                damage[m.hex] = max(damage.get(m.hex, 0), float(m.value))
        def names(key: str, sep: str = ",") -> frozenset:
            return param_names(position, key, sep)

        def hexes(key: str) -> frozenset:
            out = set()
            for n in names(key, " ") | set().union(*(x.split(",") for x in names(key, " "))):
                try:
                    out.add(position.game.map.resolve(n.strip(",")))
                except Exception:
                    continue
            return frozenset(out)
        return cls(position, facts, bool(night), frozenset(breaches), ramps, frozenset(ladders), damage,
                   names("roman_areas"), hexes("roman_hexes"), hexes("jewish_hexes"), names("razed_areas"),
                   frozenset(stairway_pairs(position)))

    # -- levels ----------------------------------------------------------------------------------------------
    def elevated(self, h: Hex) -> bool:
        """A standing Elevated Hex (2.11); a Breach is Ground (2.12)."""
        return self.facts.base[h] in ELEVATED and h not in self.breaches

    def built_up(self, h: Hex) -> bool:
        """Built-up (2.13), unless razed: Built-up hexes (not Buildings) of a razed area are Clear (18.37)."""
        base = self.facts.base[h]
        return base in BUILT_UP and not (base == "built_up" and self.facts.region[h] in self.razed)

    def ground(self, h: Hex) -> bool:
        """A Ground hex (2.12): Clear, Courtyard, Slope, Ramp, Breach -- not Built-up, not Elevated."""
        return not self.elevated(h) and not self.built_up(h)

    def terrain(self, h: Hex) -> str:
        """The terrain that prices and stacks the hex: ``breach`` and ``ramp`` replace the map's (2.12, 18.8)."""
        if h in self.breaches:
            return "breach"
        if h in self.ramps:
            return "ramp"
        base = self.facts.base[h]
        if base == "built_up" and self.facts.region[h] in self.razed:
            return "clear"                                                            # 18.37
        return base

    def connected(self, a: Hex, b: Hex) -> bool:
        """Connected standing Elevated Hexes (7.12)."""
        return self.elevated(a) and self.elevated(b) and self.facts.connected(a, b)

    def breach_connected(self, breach: Hex, wall: Hex) -> bool:
        """A Breach and a standing Elevated Hex of the wall it broke (8.93, 11.13)."""
        return breach in self.breaches and self.elevated(wall) and self.facts.connected(breach, wall)

    def behind_ramp(self, ramp: Hex) -> Hex | None:
        """The Ground hex directly behind a Ramp (18.8): opposite the Elevated Hex it climbs."""
        top = self.ramps.get(ramp)
        if top is None:
            return None
        behind = opposite(ramp, top)
        return behind if behind in self.facts.base else None

    def stairway(self, pair: frozenset) -> bool:
        """A Stairway hexside (8.93): the map's, or a temporary one the Jews built between Assault Periods (the
        second 18.36; position parameter ``temporary_stairways``)."""
        return pair in self.facts.stairway or pair in self.temporary_stairways

    def controller(self, h: Hex) -> str:
        """Who controls a hex (18.3): its occupant, else the Romans outside the city and in ``roman_areas``."""
        there = {u.side for u in self.position.at(h) if is_combat(u)}
        if len(there) == 1:
            return there.pop()
        if h in self.roman_hexes:
            return ROMAN
        if h in self.jewish_hexes:
            return JEWISH
        region = self.facts.region[h]
        if region is None and not self.elevated(h) and not self.facts.in_city(h):
            return ROMAN
        if region is not None and region in self.roman_areas:
            return ROMAN
        if region is None and self.facts.base[h] in ELEVATED:
            near = {self.facts.region[n] for n in self.facts.neighbors[h]} - {None}
            if near and near <= self.roman_areas:
                return ROMAN
        return JEWISH


@dataclass(frozen=True)
class ZocSource:
    """One unit's ZOC into a hex."""

    unit: str
    hex: Hex
    kind: str            # ground | gate | elevated
    rule: str
    heavy_infantry_ground: bool = False   # a Roman Heavy Infantry Ground-level ZOC (7.311)


def exerts(u: Unit, board: Board) -> bool:
    """Whether a unit exerts a ZOC at all (7.1, 7.2, 16.6, 18.2)."""
    if board.night or not fresh(u) or u.hex is None or u.has("testudo"):
        return False
    cls = unit_class(u)
    if cls not in INFANTRY and cls != "cavalry":
        return False
    if u.side == ROMAN:
        if u.hex in board.ladders or any(unit_class(v) == "siege_engine" for v in board.position.at(u.hex)):
            return False
    if u.has("on_ladder") or u.has("riding") or u.has("pushing") or u.has("ladder_base"):
        return False
    return True


def _ramp_pair(board: Board, a: Hex, b: Hex) -> bool:
    """Whether a Ground ZOC passes between ``a`` and ``b`` given Ramps (18.8)."""
    for r, o in ((a, b), (b, a)):
        if r in board.ramps and not (o in board.ramps or board.behind_ramp(r) == o):
            return False
    return True


def sources_of(u: Unit, board: Board) -> list[tuple[Hex, ZocSource]]:
    """The hexes a unit's ZOC covers, each with its source entry."""
    if not exerts(u, board):
        return []
    f, h, cls = board.facts, u.hex, unit_class(u)
    out = []
    hi = u.side == ROMAN and cls == "heavy_infantry"
    if board.elevated(h):
        if cls == "cavalry":
            return []
        gate = f.base[h] == "gate"
        kind, rule = ("gate", "7.12") if gate else ("elevated", "7.13")
        for n in f.neighbors[h]:
            if board.connected(h, n):
                out.append((n, ZocSource(u.id, h, kind, rule)))
            elif gate and frozenset((h, n)) in f.entry and board.ground(n):
                out.append((n, ZocSource(u.id, h, kind, rule)))
        return out
    if board.built_up(h) and cls == "cavalry":
        return []
    for n in f.neighbors[h]:
        if board.ground(n) and _ramp_pair(board, h, n):
            out.append((n, ZocSource(u.id, h, "ground", "7.11", hi)))
    return out


@dataclass
class ZocMap:
    """Every hex's ZOC sources, by the side that exerts them."""

    position: Position
    by_side: dict[str, dict[Hex, list[ZocSource]]]
    night: bool = False

    def enemy(self, side: str) -> dict[Hex, list[ZocSource]]:
        """The ZOC that ``side``'s units meet: every other side's."""
        out: dict[Hex, list[ZocSource]] = {}
        for s, hexes in self.by_side.items():
            if s != side:
                for h, src in hexes.items():
                    out.setdefault(h, []).extend(src)
        return out


def board_and_zoc(position: Position) -> tuple[Board, ZocMap]:
    """The position's :class:`Board` (with the game's own tables) and its ZOC map, worked out once per position
    (every unit's moves and command control ask for them)."""
    def work_out() -> tuple[Board, ZocMap]:
        from .tables import load_tables
        t = load_tables(position.game.folder)
        board = Board.of(position, map_facts(position.game.map, t.movement.entry_hexsides,
                                             t.movement.blocked_hexsides))
        return board, zoc(position, board)
    return position.remembered(("siege", "board and zoc"), work_out)


def zoc(position: Position, board: Board | None = None) -> ZocMap:
    """Each hex's ZOC sources with kind and rule (7.1-7.2), by exerting side; nothing at night (18.2)."""
    if board is None:
        return board_and_zoc(position)[1]
    by_side: dict[str, dict[Hex, list[ZocSource]]] = {s.id: {} for s in position.game.spec.sides}
    for u in position.units:
        for h, src in sources_of(u, board):
            by_side.setdefault(u.side, {}).setdefault(h, []).append(src)
    return ZocMap(position, by_side, board.night)


def zoc_json(z: ZocMap) -> dict[str, Any]:
    """``{"night", "zoc": {side: {HEX: [{"unit", "from", "kind", "rule", "heavy_infantry_ground"}]}}}``."""
    name = z.position.game.map.name
    return {"night": z.night, "rule": "7.1",
            "zoc": {side: {name(h): [{"unit": s.unit, "from": name(s.hex), "kind": s.kind, "rule": s.rule,
                                      "heavy_infantry_ground": s.heavy_infantry_ground} for s in src]
                           for h, src in sorted(hexes.items(), key=lambda kv: name(kv[0]))}
                    for side, hexes in z.by_side.items()}}
