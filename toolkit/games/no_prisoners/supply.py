"""*No Prisoners* supply (15.x, with 10.8, 16.x rail nets and 17.2): who is in supply, by which line, from where.

A unit is in supply when it is always supplied (15.5) or traces a line of at
most 5 (Allied) / 4 (CP) hexes, counted in hexes (15.4 A), to an own depot
occupied by an own unit (15.2 A, 15.3 A, 15.4 B) or to a rail hex of its own net
from which a rail path of any length reaches such a depot.

The line is blocked (15.6 A) by enemy units, by prohibited terrain (all-sea
hexes, all-sea / all-lake hexsides) and by the sector boundary (17.2 A; the
sources must be in the unit's own sector, 17.2 B, Damascus being open to
both, 21.3 A).  Enemy ZOCs (10.8, 15.6 B/C): the unit's own hex may be in an
EZOC, no other hex of the line may; so a source hex in an EZOC supplies only
units in that hex.  The rail path obeys the same blocks.

Depots serve only their printed owner and serve it again once recaptured
(15.9 A-C), Haifa included (15.9 E); the Arab Revolt FSD (15.8) is an Allied
depot once placed (marker ``fsd``; :func:`fsd_placement` checks the 12-hex trace).

How it is computed: per side and sector, one multi-source BFS backwards from
every valid source over the hex graph, expanding only out of hexes free of
EZOC, so all units are answered at once.  For units out of supply a second
search from the unit finds its best attempt (fewest blocks, then fewest hexes)
and reports the first place it is cut, with the rule.

Readings of our own:

* air groups, naval squadrons and the railhead / FSD counters are not units
  for blocking, ZOC or depot occupation (15.8 C, 19.2 A/C);
* a unit's sector is the letter on its counter (``sector``), else the region
  of its hex;
* the line lengths come from ``tables.yaml`` (see :func:`line_limits`);
  without them the rulebook's 5 / 4 / 12 are used.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable

from ...game import Position, Unit
from ...game.moves import Reason
from ...hexgrid import Hex
from .mapfacts import ALLIED, CP, DAMASCUS, EASTERN, WESTERN, MapFacts, map_facts
from .railnet import RailNets, rail_nets
from .tables import load_tables

NOT_UNITS = frozenset({"air_group", "naval_squadron", "air", "naval", "railhead", "fsd"})
FSD = "fsd"
RULE_LINE = {ALLIED: "15.2 A", CP: "15.3 A"}


# -- sides, sectors and ZOC ------------------------------------------------------------------------------------------
def side_kind(side: str) -> str:
    """``allied`` or ``cp`` for a side id of the game."""
    s = side.lower()
    return ALLIED if s.startswith(("allie", "allied", "entente", "british")) else CP


def allied_side(position: Position) -> str:
    """The id of the Allied side."""
    for s in position.game.spec.sides:
        if side_kind(s.id) == ALLIED:
            return s.id
    return position.game.spec.sides[0].id


def is_unit(u: Unit) -> bool:
    """Whether a counter on the map is a land unit that blocks, exerts ZOC and holds depots (15.8 C, 19.2 A)."""
    return u.hex is not None and u.type not in NOT_UNITS and u.counter.id not in NOT_UNITS


def counter_sector(u: Unit) -> str | None:
    """The sector printed on the unit's counter (17.1: ``W`` / ``E``), or ``None``."""
    letter = u.counter.value("sector")
    if isinstance(letter, str) and letter:
        return WESTERN if letter[0].upper() == "W" else EASTERN
    return None


def unit_sector(u: Unit, facts: MapFacts) -> str | None:
    """The unit's sector: its counter's letter (17.1), else its hex's region (``None`` in Damascus or unknown)."""
    printed = counter_sector(u)
    if printed is not None or u.hex is None:
        return printed
    r = facts.sector(u.hex)
    return None if r == DAMASCUS else r


def exerts_zoc(u: Unit) -> bool:
    """Whether a unit has a ZOC: land units without the asterisk (2.4.2 B, 10.2 A, 19.2 C)."""
    return is_unit(u) and not u.counter.value("support", default=False) and bool(u.counter.value("zoc", default=True))


def zoc_units(position: Position, facts: MapFacts, side: str) -> dict[Hex, list[str]]:
    """Each hex in the ZOC of ``side``'s units (10.1 A), never over water or the boundary (10.3, 17.3 A), with
    the ids of the units exerting it."""
    zoc: dict[Hex, list[str]] = {}
    for u in position.units:
        if u.side == side and u.hex in facts.neighbors and exerts_zoc(u):
            for n in facts.neighbors[u.hex]:
                if facts.zoc_reaches(u.hex, n):
                    zoc.setdefault(n, []).append(u.id)
    return zoc


def zoc_of(position: Position, facts: MapFacts, side: str) -> set[Hex]:
    """Hexes in the ZOC of ``side``'s units (10.1 A)."""
    return set(zoc_units(position, facts, side))


def enemy_zoc(position: Position, facts: MapFacts, side: str) -> set[Hex]:
    """Hexes in the ZOC of any side but ``side``: its EZOC (10.1 A)."""
    return set().union(*(zoc_of(position, facts, s.id) for s in position.game.spec.sides if s.id != side))


# -- tables ------------------------------------------------------------------------------------------------------
def line_limits(position: Position) -> dict[str, int]:
    """Supply line lengths in hexes: ``allied``, ``cp`` and the FSD trace ``fsd`` (15.2 A, 15.3 A, 15.8 B),
    from the game's ``tables.yaml`` ``supply`` section."""
    t = load_tables(position.game.folder).supply
    return {ALLIED: t.allied_line, CP: t.cp_line, "fsd": t.fsd_trace}


# -- results -----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Source:
    """Where a supply line ends: a depot, a rail hex of the own net (with the rail path to its depot), the FSD,
    or none at all for units that are always supplied."""

    kind: str                      # depot | rail | fsd | always
    hex: Hex | None
    rail_path: tuple[Hex, ...] = ()


@dataclass(frozen=True)
class Cut:
    """Where and why the best attempt at a supply line fails."""

    hex: Hex | None
    reason: Reason


@dataclass(frozen=True)
class UnitSupply:
    """The supply state of one unit."""

    unit: str
    hex: Hex
    supplied: bool
    source: Source | None = None
    path: tuple[Hex, ...] = ()     # unit's hex first, source hex last
    cut: Cut | None = None
    rule: str = ""


@dataclass
class SupplyReport:
    """Supply of the units asked about, with the rail nets used."""

    side: str | None
    units: list[UnitSupply]
    nets: RailNets
    position: Position = field(repr=False)

    def of(self, unit_id: str) -> UnitSupply:
        """The entry of one unit."""
        for s in self.units:
            if s.unit == unit_id:
                return s
        raise KeyError(unit_id)


# -- the per side and sector supply field ---------------------------------------------------------------------------
class _Field:
    """Every hex a side's units of one sector can draw supply in, with a line to its source."""

    def __init__(self, position: Position, facts: MapFacts, nets: RailNets, side: str, sector: str | None,
                 limits: dict[str, int]):
        self.facts, self.nets, self.side, self.sector = facts, nets, side, sector
        self.kind = side_kind(side)
        self.limit = limits[self.kind]
        self.enemy = {u.hex for u in position.units if u.side != side and is_unit(u)}
        self.own = {u.hex for u in position.units if u.side == side and is_unit(u)}
        self.ezoc = enemy_zoc(position, facts, side)
        self.depots = self._depots(position)                     # hex -> kind (depot | fsd)
        self.rail_parent: dict[Hex, Hex | None] = {}
        self.loose_parent: dict[Hex, Hex | None] = {}
        self._rail()
        self.dist: dict[Hex, int] = {}
        self.parent: dict[Hex, Hex | None] = {}
        self.origin: dict[Hex, Source] = {}
        self.local: dict[Hex, Source] = {}
        self._lines()

    def _depots(self, position: Position) -> dict[Hex, str]:
        f, out = self.facts, {}
        for h, owner in f.depots.items():            # 15.9 A-C, E: printed owner, own unit in it (15.4 B)
            if owner == self.kind and h in self.own and f.in_sector(h, self.sector):
                out[h] = "depot"
        if self.kind == ALLIED:                       # 15.8 B: the placed FSD is an Allied depot
            for m in position.markers:
                if m.marker == FSD and m.hex in self.own and f.in_sector(m.hex, self.sector):
                    out.setdefault(m.hex, "fsd")
        return out

    def _rail(self) -> None:
        """Rail hexes of the own net that reach an occupied depot by rail: strictly and ignoring blocks."""
        f, net = self.facts, self.nets.net(self.kind)
        starts = sorted(h for h in self.depots if h in net)
        for parent, strict in ((self.rail_parent, True), (self.loose_parent, False)):
            queue = deque()
            for h in starts:
                if strict and h in self.ezoc:
                    continue                         # 15.6 C: a depot in an EZOC feeds only its own hex
                parent[h] = None
                queue.append(h)
            while queue:
                h = queue.popleft()
                for n, line in sorted(f.rail_links(h).items()):
                    if n in parent or not self.nets.usable(self.kind, h, n, line) or not f.in_sector(n, self.sector):
                        continue
                    if f.crosses_boundary(h, n):
                        continue
                    if strict and n in self.enemy:
                        continue
                    parent[n] = h
                    if strict and n in self.ezoc:
                        continue                     # reached, but it feeds only its own hex (15.6 C)
                    queue.append(n)

    def rail_path(self, h: Hex, loose: bool = False) -> tuple[Hex, ...]:
        parent = self.loose_parent if loose else self.rail_parent
        out, cur = [], h
        while cur is not None:
            out.append(cur)
            cur = parent[cur]
        return tuple(out)

    def source_at(self, h: Hex) -> Source | None:
        """The source a hex is itself (a valid depot or a fed rail hex), EZOC or not."""
        if h in self.depots:
            return Source(self.depots[h], h)
        if h in self.rail_parent:
            return Source("rail", h, self.rail_path(h))
        return None

    def _lines(self) -> None:
        f = self.facts
        queue = deque()
        seeds = sorted(self.depots) + sorted(h for h in self.rail_parent if h not in self.depots)
        for h in seeds:
            src = self.source_at(h)
            if h in self.ezoc:
                self.local[h] = src                  # 15.6 C
                continue
            self.dist[h], self.parent[h], self.origin[h] = 0, None, src
            queue.append(h)
        while queue:
            x = queue.popleft()
            d = self.dist[x] + 1
            for y in f.neighbors[x]:
                if y in self.dist or y in self.enemy or f.land_step(x, y) or not f.in_sector(y, self.sector):
                    continue
                self.dist[y], self.parent[y], self.origin[y] = d, x, self.origin[x]
                if y not in self.ezoc:              # 10.8: into an EZOC hex, never through it
                    queue.append(y)

    def path(self, h: Hex) -> tuple[Hex, ...]:
        out, cur = [], h
        while cur is not None:
            out.append(cur)
            cur = self.parent[cur]
        return tuple(out)

    # -- why not -----------------------------------------------------------------------------------------------
    BOUNDARY, TERRAIN, ENEMY, EZOC = 1, 2, 3, 4

    def _block(self, x: Hex, y: Hex) -> int:
        """What blocks a line stepping from ``x`` into ``y`` (0: nothing); cheap, no messages."""
        f = self.facts
        why = f.land_step(x, y)
        if why == "boundary" or not f.in_sector(y, self.sector):
            return self.BOUNDARY
        if why:
            return self.TERRAIN
        if y in self.enemy:
            return self.ENEMY
        if y in self.ezoc:
            return self.EZOC
        return 0

    def _reason(self, code: int, y: Hex, target: bool) -> Reason:
        f, name = self.facts, self.facts.cmap.name
        if code == self.BOUNDARY:
            return Reason("17.2 A", f"the line would cross the sector boundary into {name(y)}")
        if code == self.TERRAIN:
            what = "an all-sea hex" if y in f.prohibited else "an all-sea or all-lake hexside"
            return Reason("15.6 A", f"the line would cross {what} into {name(y)}, terrain closed to land units")
        if code == self.ENEMY:
            return Reason("15.6 A", f"an enemy unit in {name(y)} blocks the line")
        if target:
            return Reason("15.6 C", f"the source in {name(y)} is in an enemy ZOC and supplies only its own hex")
        return Reason("10.8", f"the line may enter but not pass through the enemy ZOC in {name(y)}")

    WEIGHT = {0: 0, BOUNDARY: 3, TERRAIN: 3, ENEMY: 2, EZOC: 1}   # how hard a block is, for "best attempt"

    @property
    def targets(self) -> set[Hex]:
        """Every hex a line could end at if nothing blocked it: valid depots and rail hexes fed by rail."""
        return set(self.depots) | set(self.loose_parent)

    def _shortest(self, targets: set[Hex]) -> dict[Hex, Hex | None]:
        """Backward search from ``targets``, blocks allowed: for every hex, the next hex of its shortest
        attempt (fewest hexes, then fewest weighted blocks).  Layer by layer, no heap; cached per field."""
        cache = self.__dict__.setdefault("_short", {})
        key = frozenset(targets)
        if key not in cache:
            f, weight, block = self.facts, self.WEIGHT, self._block
            nxt: dict[Hex, Hex | None] = {t: None for t in targets}
            frontier = {t: 0 for t in targets}
            while frontier:
                layer: dict[Hex, int] = {}
                for y, w in frontier.items():
                    for x in f.neighbors[y]:
                        if x in nxt and x not in layer:
                            continue
                        c = w + weight[block(x, y)]
                        if x not in layer or c < layer[x]:
                            layer[x], nxt[x] = c, y
                frontier = layer
            cache[key] = nxt
        return cache[key]

    def _chain(self, start: Hex, nxt: dict[Hex, Hex | None]) -> tuple[list[Hex], int]:
        chain = [start]
        while nxt[chain[-1]] is not None:
            chain.append(nxt[chain[-1]])
        score = sum(self.WEIGHT[self._block(x, y)] for x, y in zip(chain, chain[1:]))
        return chain, score + max(0, len(chain) - 1 - self.limit)

    def explain(self, start: Hex, all_targets: set[Hex] | None = None) -> Cut:
        """The first cut on the best attempt from ``start``.

        Two candidates: the shortest legal line (too long, or it would be a supply line) and the shortest
        attempt of all, to any own source of either sector (``all_targets``); the one with the lower score
        wins: blocks weighted (ZOC 1, enemy unit 2, sea or boundary 3) plus hexes over the limit.
        """
        name = self.facts.cmap.name
        targets = self.targets if all_targets is None else all_targets | self.targets
        if not targets:
            where = f" in the {self.sector} sector" if self.sector else ""
            return Cut(None, Reason("15.4 B", f"no own depot{where} is occupied by an own unit, so there is no "
                                              "source to trace to (17.2 B: only own-sector sources count)"))
        short = self._shortest(targets)
        best = None
        if start in self.dist:
            best = self._chain(start, self.parent)
        if start in short:
            other = self._chain(start, short)
            if best is None or other[1] < best[1]:
                best = other
        if best is None:
            return Cut(None, Reason("15.1 B", "no own source can be reached from here at all"))
        chain = best[0]
        for x, y in zip(chain, chain[1:]):
            code = self._block(x, y)
            if code:
                return Cut(y, self._reason(code, y, y in targets))
        if len(chain) - 1 > self.limit:
            y = chain[self.limit + 1]
            return Cut(y, Reason(RULE_LINE[self.kind],
                                 f"the line is longer than {self.limit} hexes (15.4 A: counted in hexes): the "
                                 f"nearest source, {name(chain[-1])}, is {len(chain) - 1} hexes away"))
        loose = self.rail_path(chain[-1], loose=True) if chain[-1] in self.loose_parent else ()
        for h in loose:                                    # the hex line is sound: the rail path is cut
            if h in self.enemy:
                return Cut(h, Reason("15.6 A", f"an enemy unit in {name(h)} cuts the rail path to the depot"))
            if h in self.ezoc:
                return Cut(h, Reason("10.8", f"the rail path to the depot may not pass through the enemy ZOC "
                                             f"in {name(h)}"))
        end = chain[-1]
        if end not in self.targets and self.sector is not None:        # a source of the other sector only
            return Cut(end, self._other_sector(end))
        return Cut(end, Reason("15.6", f"the line to {name(end)} is blocked"))

    def _other_sector(self, end: Hex) -> Reason:
        """17.2 B: the nearest source is another sector's (a depot there, or rail leading only to one)."""
        f = self.facts
        label = (lambda h: f.cmap.name(h) + (f" ({f.cmap.hexes[h].place})" if f.cmap.hexes[h].place else ""))
        seen, queue, depot = {end}, deque([end]), None
        while queue and depot is None:                 # the own occupied depot its rail leads to
            h = queue.popleft()
            if f.depots.get(h) == self.kind and h in self.own:
                depot = h
                break
            for n in sorted(f.rail_links(h)):
                if n not in seen:
                    seen.add(n)
                    queue.append(n)
        where = f.sector(depot if depot is not None else end)
        there = f"the {where} Sector" if where and where != self.sector else "another sector"
        what = (f"is a source of {there}" if depot is None else f"is a depot of {there}" if depot == end
                else f"draws on {label(depot)}, a depot of {there}")
        return Reason("17.2 B", f"the nearest source, {label(end)}, {what}: {self.sector} units may not draw "
                                "supply from the other sector's sources")


def _always(position: Position, u: Unit, facts: MapFacts) -> bool:
    """15.5: always-supplied counters; tribal units stacked with one that supplies them (Lawrence, Eastern).

    "Stacked at the start of the phase" is the unit flag ``with_lawrence`` when the position carries it;
    otherwise we look at the stack as it is now.
    """
    if u.counter.value("always_supplied", default=False) or u.type in NOT_UNITS or u.has("with_lawrence"):
        return True
    if (u.counter.value("tribal", default=False) or u.type == "tribal") and side_kind(u.side) == ALLIED:
        return any(v.side == u.side and v.counter.value("supplies_stacked_tribal", default=False)
                   for v in position.at(u.hex))
    return False


def supply(position: Position, side: str | None = None, unit: str | None = None) -> SupplyReport:
    """The supply state of every unit on the map, or of one side's units, or of one unit (15.x)."""
    facts = map_facts(position.game.map, load_tables(position.game.folder).rail)
    nets = rail_nets(position, facts)
    limits = line_limits(position)
    if unit is not None:
        chosen = [position.by_id[unit]]
        side = chosen[0].side
    else:
        chosen = [u for u in position.units if u.hex is not None and (side is None or u.side == side)
                  and u.type not in ("railhead", FSD)]
    fields: dict[tuple[str, str | None], _Field] = {}
    cuts: dict[tuple[str, str | None, Hex], Cut] = {}
    out = []

    def cut_of(key: tuple[str, str | None], h: Hex) -> Cut:
        """Where the best attempt from ``h`` fails, worked out once per side, sector and hex."""
        if (*key, h) not in cuts:
            if (key[0], None) not in fields:
                fields[(key[0], None)] = _Field(position, facts, nets, key[0], None, limits)
            cuts[(*key, h)] = fields[key].explain(h, fields[(key[0], None)].targets)
        return cuts[(*key, h)]

    for u in chosen:
        if u.hex is None:
            if u.type in NOT_UNITS or u.counter.value("always_supplied", default=False):
                # 15.5, 19.2 A/B: air and naval counters (held off-map) and Lawrence are always in supply.
                out.append(UnitSupply(u.id, None, True, Source("always", None), (), rule="15.5"))
            else:
                out.append(UnitSupply(u.id, None, False, cut=Cut(None, Reason("15.1 B", "the unit is not on the map"))))
            continue
        if _always(position, u, facts):
            out.append(UnitSupply(u.id, u.hex, True, Source("always", None), (u.hex,), rule="15.5"))
            continue
        sector = unit_sector(u, facts)
        key = (u.side, sector)
        if key not in fields:
            fields[key] = _Field(position, facts, nets, u.side, sector, limits)
        out.append(_judge(fields[key], u.hex, u.id, lambda: cut_of(key, u.hex)))
    return SupplyReport(side, out, nets, position)


def _judge(fl: _Field, h: Hex, label: str, cut: Callable[[], Cut]) -> UnitSupply:
    """The supply of whatever stands in ``h``: a line within the limit, a source in its own hex (15.6 C), or
    the cut that ``cut`` explains."""
    if fl.dist.get(h, fl.limit + 1) <= fl.limit:
        return UnitSupply(label, h, True, fl.origin[h], fl.path(h), rule=RULE_LINE[fl.kind])
    if h in fl.local:
        return UnitSupply(label, h, True, fl.local[h], (h,), rule="15.6 C")
    c = cut()
    return UnitSupply(label, h, False, cut=c, rule=c.reason.rule)


def hex_supply(position: Position, side: str, h: Hex, label: str) -> UnitSupply:
    """The supply a land unit of ``side`` in ``h`` would have, tracing in the sector of ``h`` (15.x, 17.2).

    For counters that are not units but whose rules ask whether they are in supply (the railhead, 16.2 B).
    """
    facts = map_facts(position.game.map, load_tables(position.game.folder).rail)
    nets = rail_nets(position, facts)
    limits = line_limits(position)
    sector = facts.sector(h)
    fl = _Field(position, facts, nets, side, None if sector == DAMASCUS else sector, limits)
    return _judge(fl, h, label, lambda: fl.explain(h))


def supply_json(report: SupplyReport) -> dict[str, Any]:
    """The report as JSON-ready data (hex names; rules cited in every reason)."""
    name = report.position.game.map.name

    def hx(h):
        return None if h is None else name(h)

    units = []
    for s in report.units:
        units.append({
            "unit": s.unit,
            "hex": hx(s.hex),
            "supplied": s.supplied,
            "source": None if s.source is None else {"kind": s.source.kind, "hex": hx(s.source.hex)},
            "path": [name(h) for h in s.path],
            "rail_path": [name(h) for h in (s.source.rail_path if s.source else ())],
            "cut": None if s.cut is None else {"hex": hx(s.cut.hex), "reason": s.cut.reason.message,
                                               "rule": s.cut.reason.rule},
            "rule": s.rule,
        })
    nets = report.nets
    return {"side": report.side, "units": units,
            "rail_nets": {"railhead": hx(nets.railhead), "allied": sorted(name(h) for h in nets.allied),
                          "cp": sorted(name(h) for h in nets.cp),
                          "taken_over": sorted(name(h) for h in nets.taken_over), "note": nets.note}}


# -- the Arab Revolt forward supply depot ----------------------------------------------------------------------------
@dataclass(frozen=True)
class FsdCheck:
    """Whether the FSD may be placed in a hex (15.8), with the trace to the printed depot."""

    hex: Hex
    allowed: bool
    reason: Reason
    path: tuple[Hex, ...] = ()
    cut: Cut | None = None


def fsd_placement(position: Position, hex_name: str) -> FsdCheck:
    """Whether the Eastern FSD may go in a hex now: a city or town held by Eastern Allied units, tracing
    at most 12 hexes (a supply line's blocks apply) to an occupied printed Allied depot on the eastern map (15.8 A/B)."""
    facts = map_facts(position.game.map, load_tables(position.game.folder).rail)
    h = position.game.map.resolve(hex_name)
    name = position.game.map.name
    side = allied_side(position)
    if h not in facts.towns:
        return FsdCheck(h, False, Reason("15.8 A", f"{name(h)} is not a city or town"))
    if not any(u.side == side and is_unit(u) and unit_sector(u, facts) == EASTERN for u in position.at(h)):
        return FsdCheck(h, False, Reason("15.8 A", f"no Allied Eastern unit occupies {name(h)}"))
    limits = dict(line_limits(position))
    limits[ALLIED] = limits["fsd"]
    fl = _Field(position, facts, rail_nets(position, facts), side, EASTERN, limits)
    fl.depots = {d: k for d, k in fl.depots.items() if k == "depot"}   # printed depots only (15.8 B)
    fl.rail_parent, fl.loose_parent = {}, {}
    fl.dist, fl.parent, fl.origin, fl.local = {}, {}, {}, {}
    fl._lines()
    if fl.dist.get(h, fl.limit + 1) <= fl.limit:
        return FsdCheck(h, True, Reason("15.8 B", f"{name(h)} traces {fl.dist[h]} hexes to the Allied depot in "
                                                  f"{name(fl.origin[h].hex)}"), fl.path(h))
    if h in fl.local:
        return FsdCheck(h, True, Reason("15.8 B", f"{name(h)} is itself an occupied Allied depot"), (h,))
    cut = fl.explain(h)
    return FsdCheck(h, False, Reason("15.8 B", f"no line of at most {limits['fsd']} hexes to an occupied "
                                                      f"printed Allied depot in the east (15.8 B): "
                                                      f"{cut.reason.message} ({cut.reason.rule})"), (), cut)
