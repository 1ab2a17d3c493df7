"""Supply lines and command radii of a ``rules.yaml`` game (``supply`` and ``command`` sections).

Both are traces over the map that what ``blocked_by`` lists may not enter: a supply line runs from a unit to a
source of its side, at most ``hexes`` long (the source counted, the unit's own hex not) or within ``mp``
movement points of a movement class; a command radius runs from an HQ.  Every answer says where a line is cut
and why, with the game's rule.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ...game import Position, Unit
from ...game.moves import Reason
from ...hexgrid import Hex
from .facts import TraceBlocks, chosen, half_points, matching, pick, rules_of, terrain_cost, value
from .reinforcements import edge_hexes

INF = float("inf")


@dataclass
class Trace:
    """Distances from a set of origins over the hexes a trace may use: ``dist`` and each hex's next hex toward
    the nearest origin (``toward``)."""

    dist: dict[Hex, float] = field(default_factory=dict)
    toward: dict[Hex, Hex | None] = field(default_factory=dict)

    def path(self, h: Hex) -> list[Hex]:
        """From ``h`` to its origin."""
        out = [h]
        while self.toward.get(out[-1]) is not None:
            out.append(self.toward[out[-1]])
        return out


def trace(position: Position, origins: Iterable[Hex], limit: float, step_cost: Callable[[Hex, Hex], float | None],
          blocks: TraceBlocks | None, ends: frozenset[Hex] = frozenset()) -> Trace:
    """Every hex within ``limit`` of an origin (Dijkstra); ``step_cost(inner, outer)`` is the cost of the step
    between two adjacent hexes counted at the inner one (None: no step); ``blocks`` bars hexes and hexsides,
    except that a line may end (never pass) in a barred hex of ``ends`` (the traced units' own hexes)."""
    cmap, out = position.game.map, Trace()
    queue = []
    for o in origins:
        if o in cmap.hexes and (blocks is None or blocks.hex(o) is None):
            out.dist[o], out.toward[o] = 0, None
            queue.append((0, o))
    heapq.heapify(queue)
    while queue:
        d, h = heapq.heappop(queue)
        if d > out.dist.get(h, INF):
            continue
        for n in h.neighbors():
            if n not in cmap.hexes:
                continue
            cost = step_cost(h, n)
            if cost is None or d + cost > limit or d + cost >= out.dist.get(n, INF):
                continue
            if blocks is not None and blocks.side(h, n):
                continue
            barred = blocks is not None and blocks.hex(n)
            if barred and n not in ends:
                continue
            out.dist[n], out.toward[n] = d + cost, h
            if not barred:
                heapq.heappush(queue, (d + cost, n))
    return out


def first_block(position: Position, path: list[Hex], blocks: TraceBlocks) -> tuple[Hex, str] | None:
    """The first hex (or hexside, named by the hex beyond it) along ``path`` (from the unit) that ``blocks`` bars,
    the unit's own hex not counted."""
    for a, b in zip(path, path[1:]):
        why = blocks.side(a, b) or blocks.hex(b)
        if why:
            return b, why
    return None


# -- supply ----------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SupplyLine:
    """One unit's supply: its line to the source, or where and why it is cut."""

    unit: str
    hex: Hex | None
    supplied: bool
    source: Hex | None = None
    path: tuple[Hex, ...] = ()
    cut: tuple[Hex | None, Reason] | None = None
    rule: str = ""
    source_rule: str = ""    # the rule of the side's sources (supply.sources.SIDE.rule)


@dataclass(frozen=True)
class SupplyReport:
    """Every unit's supply line."""

    position: Position
    side: str | None
    units: tuple[SupplyLine, ...]


def sources(position: Position, side: str) -> list[Hex]:
    """The supply sources of a side: its hexes, places, path features and map edges."""
    s = rules_of(position).supply.sources.get(side)
    if s is None:
        return []
    cmap = position.game.map
    found = [cmap.resolve(n) for n in (*s.hexes, *s.places)]
    found += [h for h, info in cmap.hexes.items() if any(f in info.features for f in s.features)]
    found += [h for e in s.edges for h in edge_hexes(cmap, e)]
    return list(dict.fromkeys(found))


def supply_limit(position: Position, at: Hex) -> tuple[float, str]:
    """How long the supply line of a unit in hex ``at`` may be, and the rule: ``supply.hexes`` (None: unlimited)
    or ``mp``, or the first of their variants whose ``when`` holds there (the last has none), with its rule."""
    s = rules_of(position).supply
    given, rule = (s.hexes if s.mp is None else s.mp), s.rule
    if isinstance(given, list):
        variant = pick(given, position, at)
        given, rule = (variant.hexes if s.mp is None else variant.mp), variant.rule or s.rule
    return (INF if given is None else given), rule


def _supply_step(position: Position) -> Callable[[Hex, Hex], float | None]:
    """The step cost of a supply trace: a hex, or the movement points of the supply's movement class."""
    s = rules_of(position).supply
    if s.mp is None:
        return lambda a, b: 1
    cls, hexsides = s.movement_class, rules_of(position).movement.hexsides

    def cost(inner: Hex, outer: Hex) -> float | None:   # the unit's line enters ``inner`` from ``outer``
        c, _, _ = terrain_cost(position, inner, cls)
        for _, hs in matching(chosen(hexsides, position, inner), position.game.map.hexside(inner, outer)):
            if c is not None:
                extra = half_points(hs.cost, cls)
                c = None if extra is None else c + extra
        return None if c is None else c / 2
    return cost


def supply(position: Position, side: str | None = None, unit: str | None = None) -> SupplyReport:
    """Every unit's supply (of one side, or one unit): the line to its source, or where it is cut."""
    s = rules_of(position).supply
    step = _supply_step(position)
    units = [u for u in position.units if u.hex is not None and (side is None or u.side == side)
             and (unit is None or u.id == unit)]
    limits = {u.id: supply_limit(position, u.hex) for u in units}
    lines = []
    for sd in dict.fromkeys(u.side for u in units):
        blocks = TraceBlocks(position, sd, s.blocked_by, "supply")
        origins = sources(position, sd)
        limit = max(limits[u.id][0] for u in units if u.side == sd)   # each unit's own limit checked below
        traced = trace(position, origins, limit, step, blocks, frozenset(u.hex for u in units if u.side == sd))
        free = None
        for u in (u for u in units if u.side == sd):
            if traced.dist.get(u.hex, INF) <= limits[u.id][0]:
                path = traced.path(u.hex)
                src = s.sources.get(sd)
                lines.append(SupplyLine(u.id, u.hex, True, path[-1], tuple(path), None, s.rule,
                                        (src.rule if src is not None else "") or s.rule))
                continue
            free = free or trace(position, origins, limit, step, None)
            lines.append(_cut(position, u, free, blocks, s.rule, *limits[u.id]))
    return SupplyReport(position, side, tuple(sorted(lines, key=lambda ln: ln.unit)))


def _cut(position: Position, u: Unit, free: Trace, blocks: TraceBlocks, rule: str, limit: float,
         limit_rule: str) -> SupplyLine:
    """Why a unit's line is cut: the first block along its line as it would run unblocked, else the distance (its
    limit's rule)."""
    if free.dist.get(u.hex, INF) <= limit:
        path = free.path(u.hex)
        hit = first_block(position, path, blocks)
        if hit is not None:
            return SupplyLine(u.id, u.hex, False, None, tuple(path), (hit[0], Reason(rule, f"the line is cut at "
                              f"{position.game.map.name(hit[0])}: {hit[1]}")), rule)
    what = "hexes" if rules_of(position).supply.mp is None else "movement points"
    within = f" within {limit:g} {what}" if limit != INF else ""   # supply.hexes: null, unlimited
    return SupplyLine(u.id, u.hex, False, None, (u.hex,), (u.hex, Reason(limit_rule, f"no supply source{within} "
                                                                                     "on an open line")), rule)


def supply_json(report: SupplyReport) -> dict[str, Any]:
    """The report as JSON (the shape of every game's ``toolkit supply --json``)."""
    name = report.position.game.map.name
    return {"side": report.side, "units": [{
        "unit": ln.unit, "hex": name(ln.hex), "supplied": ln.supplied,
        "source": None if ln.source is None else {"kind": "source", "hex": name(ln.source), "rule": ln.source_rule},
        "path": [name(h) for h in ln.path], "rail_path": [],
        "cut": None if ln.cut is None else {"hex": None if ln.cut[0] is None else name(ln.cut[0]),
                                            "reason": ln.cut[1].message, "rule": ln.cut[1].rule},
        "rule": ln.rule} for ln in report.units]}


# -- command ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Radius:
    """One HQ's command radius and the units in it."""

    hq: str
    hex: Hex
    radius: int
    hexes: frozenset[Hex]
    units: tuple[str, ...]


@dataclass(frozen=True)
class CommandReport:
    """Every HQ's radius, and the units out of command with the reason."""

    position: Position
    hqs: tuple[Radius, ...]
    out_of_command: tuple[tuple[Unit, Reason], ...]


def command(position: Position) -> CommandReport:
    """Every HQ's command radius (a trace of ``radius`` hexes around what ``blocked_by`` bars) and the units in
    it; the units of ``applies_to`` outside every friendly radius are out of command."""
    c = rules_of(position).command
    hqs, covered = [], {}
    for hq in position.units:
        if hq.hex is None or hq.type not in c.hq_types:
            continue
        radius = int(c.radius if isinstance(c.radius, int) else value(position, hq, c.radius))
        friends = frozenset(u.hex for u in position.units if u.side == hq.side and u.hex is not None)
        reach = trace(position, [hq.hex], radius, lambda a, b: 1,
                      TraceBlocks(position, hq.side, c.blocked_by, "command"), friends)
        units = tuple(u.id for u in position.units if u.side == hq.side and u.hex in reach.dist and _needs(c, u)
                      and u.id != hq.id)
        hqs.append(Radius(hq.id, hq.hex, radius, frozenset(reach.dist), units))
        for u in units:
            covered.setdefault(u, hq.id)
    out = tuple((u, Reason(c.rule, "not within the command radius of a friendly HQ")) for u in position.units
                if u.hex is not None and _needs(c, u) and u.id not in covered)
    return CommandReport(position, tuple(hqs), out)


def _needs(c, u: Unit) -> bool:
    return u.type in c.applies_to if c.applies_to else u.type not in c.hq_types


def command_json(report: CommandReport) -> dict[str, Any]:
    """The report as JSON (the shape of every game's ``toolkit command --json``)."""
    name, rule = report.position.game.map.name, rules_of(report.position).command.rule
    in_command: dict[str, list[str]] = {}
    for r in report.hqs:
        for u in r.units:
            in_command.setdefault(u, []).append(r.hq)
    return {"hqs": [{"hq": r.hq, "hex": name(r.hex), "radius": r.radius, "hexes": sorted(name(h) for h in r.hexes),
                     "units": list(r.units), "rule": rule} for r in report.hqs],
            "in_command": dict(sorted(in_command.items())),
            "out_of_command": [{"unit": u.id, "hex": name(u.hex), "reason": why.message, "rule": why.rule}
                               for u, why in report.out_of_command]}
